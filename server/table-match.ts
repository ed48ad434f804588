/**
 * Which route of the table a request is for. h3's router picks the router pattern; several routes
 * can share one (`/rss/category/:p0` holds the RSS, Atom and JSON feeds of a category), so the
 * table's own templates then pick the route, in table order, and decode its parameters. The
 * match is kept on the event for the middleware after it (method check, rate limit) and the
 * route's handler.
 */
import type { H3Event, Middleware } from "h3";
import { createUrlMatcher, getRouterPattern, type UrlMatch } from "../core/routes/match.ts";
import type { Route } from "../core/routes/types.ts";

declare module "h3" {
  interface H3EventContext {
    /** The request's route of the table with its decoded parameters; null for a file of the build at its own path. */
    tableMatch?: UrlMatch | null;
  }
}

/** The routes of the table under each router pattern, in table order. */
export function groupRoutesByPattern(routes: readonly Route[]): Map<string, Route[]> {
  const groups = new Map<string, Route[]>();
  for (const route of routes) {
    const pattern = getRouterPattern(route);
    groups.set(pattern, [...(groups.get(pattern) ?? []), route]);
  }
  return groups;
}

/**
 * Route middleware for one router pattern: the route of `routes` for the request's method (OPTIONS
 * as GET), else one of another method at the same path (for the 405 and its Allow), else null —
 * a file of the build at its own path.
 */
export function matchTableRoute(routes: readonly Route[]): Middleware {
  if (routes.length === 0) {
    return (event) => {
      event.context.tableMatch = null;
    };
  }
  const match = createUrlMatcher(routes);
  return (event) => {
    const { method } = event.req;
    const pathname = event.url.pathname;
    event.context.tableMatch = match(method === "OPTIONS" ? "GET" : method, pathname) ?? match("GET", pathname) ?? match("POST", pathname);
  };
}

/** The route match that matchTableRoute left on the event. */
export function getTableMatch(event: H3Event): UrlMatch | null {
  return event.context.tableMatch ?? null;
}
