import type { BuildState } from "../dist-source.ts";

/** What a route handler gets: the request, its parsed URL, decoded path parameters, the build. */
export interface RouteContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
  state: BuildState;
}

export type RouteHandler = (ctx: RouteContext) => Response | Promise<Response>;
