/**
 * File routes: the table's dist file behind a URL (`/api/badge/{slug}.svg` → `api/badge/{slug}.svg`),
 * with the route's media type and cache policy; a missing one answers as the route's static rule
 * says (the embed 404 page, or the problem+json 404). Any other path is a file of the build at its
 * own path in dist (every file is public; the manifest lists them).
 */
import { EMBED_NOT_FOUND_FILE, HOST_CONFIG_FILES, HOST_CONFIG_PREFIX, getRoute } from "../../core/routes/table.ts";
import { fillTemplate } from "../../core/routes/templates.ts";
import type { Route } from "../../core/routes/types.ts";
import { readBuildFile, sendFile, sendRouteFile, toBuildPath } from "../files.ts";
import { sendNotFound } from "../respond.ts";
import type { BuildState } from "../dist-source.ts";
import type { RouteContext } from "./context.ts";

/** The table's file for these (decoded) parameters, or null when a value could leave its segment. */
export function getRouteFilePath(route: Route, params: Record<string, string>): string | null {
  if (route.file === null) return null;
  for (const value of Object.values(params)) {
    if (value === "" || value.includes("/") || value.includes("\\") || value.includes("\0") || value.startsWith(".")) return null;
  }
  return fillTemplate(route.file, params);
}

export async function serveRouteFile({ request, params, state, route }: RouteContext): Promise<Response> {
  const path = route && getRouteFilePath(route, params);
  const file = path ? await readBuildFile(state, path) : null;
  if (route && file) return sendRouteFile(request, state, route, file);
  return sendRouteNotFound(request, state, route);
}

/** The embeds' 404 is their HTML page, for every path under /embed/ (an iframe shows a sentence, not JSON). */
const EMBED = getRoute("getEmbed");
const EMBED_PREFIX = EMBED.path.slice(0, EMBED.path.indexOf("{"));

async function sendRouteNotFound(request: Request, state: BuildState, route: Route | undefined): Promise<Response> {
  if (route?.static.kind === "file" && route.static.notFound.kind === "embed404") {
    const page = await readBuildFile(state, EMBED_NOT_FOUND_FILE);
    if (page) return sendRouteFile(request, state, route, page, 404);
  }
  return sendNotFound(request);
}

export async function serveBuildFile({ request, url, state }: RouteContext): Promise<Response> {
  const path = toBuildPath(url.pathname);
  // Host configuration (Netlify's _headers, _redirects) is for the host to read, not to serve.
  const hidden = path !== null && (HOST_CONFIG_FILES.includes(path) || path.startsWith(HOST_CONFIG_PREFIX));
  const file = path && !hidden ? await readBuildFile(state, path) : null;
  if (file) return sendFile(request, state, file);
  return sendRouteNotFound(request, state, url.pathname.startsWith(EMBED_PREFIX) ? EMBED : undefined);
}
