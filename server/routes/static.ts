/**
 * File routes: the table's dist file behind a URL (`/api/badge/{slug}.svg` → `api/badge/{slug}.svg`),
 * with the route's media type and cache policy. A route with a lookup (the table's `lookup`)
 * forgives the spelling of its key (core/lookup.ts): another spelling of an existing key answers
 * the canonical file's bytes, or for pages a 301 to the canonical URL. A key that names nothing
 * answers the route's not-found file (the embed 404 page, the SVG badge, the site's 404 page)
 * with status 404, or the problem+json 404. Any other path is a file of the build at its own
 * path in dist (every file is public; the manifest lists them).
 */
import { normalizeKey } from "../../core/lookup.ts";
import { createUrlMatcher, getRoutePath } from "../../core/routes/match.ts";
import { HOST_CONFIG_FILES, HOST_CONFIG_PREFIX, NOT_FOUND_PAGE_FILE, ROUTES, getRoute, type RouteId } from "../../core/routes/table.ts";
import { fillTemplate } from "../../core/routes/templates.ts";
import { CACHE_CONTROL, type Route } from "../../core/routes/types.ts";
import type { BuildState } from "../dist-source.ts";
import { readBuildFile, sendFile, sendRouteFile, sendRouteFileOnce, toBuildPath } from "../files.ts";
import { sendNotFound, sendRedirect } from "../respond.ts";
import { findCompany } from "./company.ts";
import type { RouteContext } from "./context.ts";

/** The table's file for these (decoded) parameters, or null when a value could leave its segment. */
export function getRouteFilePath(route: Route, params: Record<string, string>): string | null {
  if (route.file === null) return null;
  for (const value of Object.values(params)) {
    if (value === "" || value.includes("/") || value.includes("\\") || value.includes("\0") || value.startsWith(".")) return null;
  }
  return fillTemplate(route.file, params);
}

export async function serveRouteFile({ request, url, params, state, route }: RouteContext): Promise<Response> {
  const path = route && getRouteFilePath(route, params);
  const file = path ? await readBuildFile(state, path) : null;
  if (route && file) return sendRouteFile(request, state, route, file);
  const canonical = route && findCanonicalParams(route, params, state);
  const found = canonical && (await readBuildFile(state, fillTemplate(route.file!, canonical)));
  if (route && canonical && found) {
    if (route.lookup?.spelling === "redirect") {
      // Absolute, like every URL the API gives (DESIGN "URLs"); the query goes along.
      return sendRedirect(`${state.urls.base}${getRoutePath(route.id as RouteId, canonical)}${url.search}`, CACHE_CONTROL[route.cache]);
    }
    return sendRouteFile(request, state, route, found);
  }
  return sendRouteNotFound(request, state, route);
}

/**
 * The parameters with the route's key in its canonical form, when that is another spelling of
 * the value sent; null when the value is canonical already or names nothing.
 */
function findCanonicalParams(route: Route, params: Record<string, string>, state: BuildState): Record<string, string> | null {
  const lookup = route.lookup;
  const value = lookup && params[lookup.param];
  if (!lookup || value === undefined) return null;
  const key = lookup.kind === "company" ? (findCompany(state, value)?.slug ?? null) : normalizeKey(lookup.kind, value);
  return key === null || key === value ? null : { ...params, [lookup.param]: key };
}

/** The embeds' 404 is their HTML page, for every path under /embed/ (an iframe shows a sentence, not JSON). */
const EMBED = getRoute("getEmbed");
const EMBED_PREFIX = EMBED.path.slice(0, EMBED.path.indexOf("{"));

/** A route's 404: its not-found file (a page, a badge) when it has one, else the problem+json. */
export async function sendRouteNotFound(request: Request, state: BuildState, route: Route | undefined): Promise<Response> {
  const file = route?.notFoundFile;
  const page = file ? await readBuildFile(state, file) : null;
  if (route && page) return sendRouteFile(request, state, route, page, 404);
  return sendProblemOrPage(request, state);
}

/**
 * The 404 of a path with no not-found file of its own: the site's HTML 404 page for a browser
 * outside /api/ (a dead link followed), problem+json for anyone else. Not kept as the URL's
 * answer, since it depends on the request's Accept.
 */
async function sendProblemOrPage(request: Request, state: BuildState): Promise<Response> {
  const page = !new URL(request.url).pathname.startsWith(API_PREFIX) && acceptsHtml(request) ? await readBuildFile(state, NOT_FOUND_PAGE_FILE) : null;
  return page ? sendRouteFileOnce(request, state, PAGE_WITH_404, page, 404) : sendNotFound(request);
}

export async function serveBuildFile({ request, url, state }: RouteContext): Promise<Response> {
  const path = toBuildPath(url.pathname);
  // Host configuration (Netlify's _headers, _redirects) is for the host to read, not to serve.
  const hidden = path !== null && (HOST_CONFIG_FILES.includes(path) || path.startsWith(HOST_CONFIG_PREFIX));
  const file = path && !hidden ? await readBuildFile(state, path) : null;
  if (file) return sendFile(request, state, file);
  const canonical = await findPageByOtherSlash(url.pathname, state);
  if (canonical) return sendRedirect(`${state.urls.base}${canonical.path}${url.search}`, CACHE_CONTROL[canonical.route.cache]);
  if (url.pathname.startsWith(EMBED_PREFIX)) return sendRouteNotFound(request, state, EMBED);
  return sendProblemOrPage(request, state);
}

/** The site's pages: their URLs have one form, with or without a trailing slash as the table writes it. */
const matchPage = createUrlMatcher((ROUTES as readonly Route[]).filter((route) => route.method === "GET" && route.media === "html" && route.file !== null));
const API_PREFIX = "/api/";
/** A page route whose not-found file is the site's 404 page: how it is answered (type, no caching). */
const PAGE_WITH_404 = (ROUTES as readonly Route[]).find((route) => route.notFoundFile === NOT_FOUND_PAGE_FILE)!;

/**
 * A page asked at its other form (`/docs/` for `/docs`, `/dumps` for `/dumps/`): the page and its
 * canonical path when it exists in this build, for a 301 there; else null.
 */
async function findPageByOtherSlash(pathname: string, state: BuildState): Promise<{ route: Route; path: string } | null> {
  if (pathname === "/") return null;
  const other = pathname.endsWith("/") ? pathname.slice(0, -1) : `${pathname}/`;
  const page = matchPage("GET", other);
  const file = page && getRouteFilePath(page.route, page.params);
  return page && file && (await readBuildFile(state, file)) ? { route: page.route, path: other } : null;
}

/** Whether the request is a browser's navigation: it names HTML among what it accepts. */
function acceptsHtml(request: Request): boolean {
  return /\btext\/html\b/i.test(request.headers.get("accept") ?? "");
}
