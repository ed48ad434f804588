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
import { getRoutePath } from "../../core/routes/match.ts";
import { HOST_CONFIG_FILES, HOST_CONFIG_PREFIX, getRoute, type RouteId } from "../../core/routes/table.ts";
import { fillTemplate } from "../../core/routes/templates.ts";
import { CACHE_CONTROL, type Route } from "../../core/routes/types.ts";
import type { BuildState } from "../dist-source.ts";
import { readBuildFile, sendFile, sendRouteFile, toBuildPath } from "../files.ts";
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
  const body = path ? await readBuildFile(state.root, path) : null;
  if (route && body) return sendRouteFile(request, route, body);
  const canonical = route && findCanonicalParams(route, params, state);
  const found = canonical && (await readBuildFile(state.root, fillTemplate(route.file!, canonical)));
  if (route && canonical && found) {
    if (route.lookup?.spelling === "redirect") {
      // Absolute, like every URL the API gives (DESIGN "URLs"); the query goes along.
      return sendRedirect(`${state.urls.base}${getRoutePath(route.id as RouteId, canonical)}${url.search}`, CACHE_CONTROL[route.cache]);
    }
    return sendRouteFile(request, route, found);
  }
  return sendRouteNotFound(request, state.root, route);
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
export async function sendRouteNotFound(request: Request, root: string, route: Route | undefined): Promise<Response> {
  const file = route?.notFoundFile;
  const page = file ? await readBuildFile(root, file) : null;
  if (route && page) return sendRouteFile(request, route, page, 404);
  return sendNotFound(request);
}

export async function serveBuildFile({ request, url, state }: RouteContext): Promise<Response> {
  const path = toBuildPath(url.pathname);
  // Host configuration (Netlify's _headers, _redirects) is for the host to read, not to serve.
  const hidden = path !== null && (HOST_CONFIG_FILES.includes(path) || path.startsWith(HOST_CONFIG_PREFIX));
  const body = path && !hidden ? await readBuildFile(state.root, path) : null;
  if (path && body) return sendFile(request, path, body);
  return sendRouteNotFound(request, state.root, url.pathname.startsWith(EMBED_PREFIX) ? EMBED : undefined);
}
