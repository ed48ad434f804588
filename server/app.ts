/**
 * The h3 app, registered from the route table (core/routes/table.ts): every route of the table
 * under its router pattern, answered by its handler below or, for a file route without one, by
 * the generic file handler; every other path is a file of the current build at its own path.
 * Routes answer their method (GET also HEAD) and OPTIONS for CORS preflight; any other method gets
 * 405 with `Allow`. Per-client rate limits apply after the method check: the fingerprint limit
 * where the table says "always", the optional read limit to every other read.
 */
import { H3, getRequestIP, type H3Event } from "h3";
import { createUrlMatcher, getRouterPattern } from "../core/routes/match.ts";
import { ROUTES, type RouteId } from "../core/routes/table.ts";
import type { Route } from "../core/routes/types.ts";
import { DistSource } from "./dist-source.ts";
import { createRateLimiter, getClientKey, withRateLimit, type RateLimiter } from "./rate-limit.ts";
import { BAD_ENCODING_DETAIL } from "../core/routes/problem.ts";
import { sendProblem } from "./respond.ts";
import { checkUsername } from "./routes/check.ts";
import { getChatBadge, getChatStatus } from "./routes/chat.ts";
import { listCompanies } from "./routes/companies.ts";
import { getCompanyCard, getWidget } from "./routes/company.ts";
import type { RouteHandler } from "./routes/context.ts";
import { matchFingerprint } from "./routes/fingerprint.ts";
import { searchGlobalRoute, searchLiveRoute } from "./routes/search.ts";
import { listSpammers } from "./routes/spammers.ts";
import { serveBuildFile, serveRouteFile } from "./routes/static.ts";

/** Routes that are more than their file; every other route of the table is served by serveRouteFile. */
export const HANDLERS: Partial<Record<RouteId, RouteHandler>> = {
  checkUsername,
  listCompanies,
  listSpammers,
  getCompany: getCompanyCard,
  getWidget,
  matchFingerprint,
  getChatStatus,
  getChatBadge,
  searchLive: searchLiveRoute,
  searchGlobal: searchGlobalRoute,
};

export interface AppOptions {
  /** The dist folder or link to serve. */
  dist: string;
  /**
   * Count clients by the last X-Forwarded-For entry, the one our own reverse proxy appends.
   * Default false: by the socket's address (a header anyone can send is no address).
   */
  trustProxy?: boolean;
  /** Fingerprint matches per minute per client (reference "Limits"). Default 60; 0 turns it off (benchmarks). */
  fingerprintRateLimit?: number;
  /** Reads (GET, HEAD) per minute per client (DESIGN "Reads"). Default 0: reads are not throttled. */
  readRateLimit?: number;
}

type Matcher = ReturnType<typeof createUrlMatcher>;

interface Runtime {
  source: DistSource;
  trustProxy: boolean;
  limiters: { always: RateLimiter | null; optional: RateLimiter | null };
}

export function createApp(options: AppOptions): H3 {
  const limiter = (limit: number) => (limit > 0 ? createRateLimiter({ limit }) : null);
  const runtime: Runtime = {
    source: new DistSource(options.dist),
    trustProxy: options.trustProxy ?? false,
    limiters: { always: limiter(options.fingerprintRateLimit ?? 60), optional: limiter(options.readRateLimit ?? 0) },
  };
  // A path that does not decode is answered by dispatch as our problem+json 400 (the same bytes a
  // static host sends), not by h3's own error body.
  const app = new H3({ allowMalformedURL: true });
  // Several routes can share a router pattern (`/rss/category/:p0` holds three feeds): the
  // table's own templates pick the route, in table order.
  const byPattern = new Map<string, Route[]>();
  for (const route of ROUTES as readonly Route[]) byPattern.set(getRouterPattern(route), [...(byPattern.get(getRouterPattern(route)) ?? []), route]);
  for (const [pattern, routes] of byPattern) app.all(pattern, (event) => dispatch(event, runtime, createUrlMatcher(routes)));
  const none = () => null;
  app.all("/**", (event) => dispatch(event, runtime, none));
  return app;
}

function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * Answers a request that the router sent to `match`'s routes (those sharing its pattern): the
 * route for the method, else any route of the path (for 405 and its Allow), else a file of the
 * build at its own path.
 */
async function dispatch(event: H3Event, { source, trustProxy, limiters }: Runtime, match: Matcher): Promise<Response> {
  const request = event.req;
  const pathname = event.url.pathname;
  const found = match(request.method === "OPTIONS" ? "GET" : request.method, pathname) ?? match("GET", pathname) ?? match("POST", pathname);
  const methods = found ? [found.route.method, ...(found.route.method === "GET" ? ["HEAD"] : [])] : ["GET", "HEAD"];
  const allow = [...methods, "OPTIONS"].join(", ");
  let response: Response;
  try {
    if (!isDecodable(pathname)) {
      response = sendProblem(request, 400, BAD_ENCODING_DETAIL);
    } else if (request.method === "OPTIONS") {
      response = new Response(null, {
        status: 204,
        headers: { allow, "access-control-allow-methods": allow, "access-control-allow-headers": "content-type, if-none-match", "access-control-max-age": "86400" },
      });
    } else if (!methods.includes(request.method)) {
      response = sendProblem(request, 405, `${request.method} is not allowed here; use ${methods.join(" or ")}.`, { headers: { allow } });
    } else {
      const client = getClientKey(getRequestIP(event), request.headers.get("x-forwarded-for"), trustProxy);
      const limit = limiters[found?.route.rateLimit ?? "optional"];
      response = await withRateLimit(limit, client, request, async () => {
        const state = await source.current();
        if (!found) return serveBuildFile({ request, url: event.url, params: {}, state });
        const handler = HANDLERS[found.route.id as RouteId] ?? serveRouteFile;
        return handler({ request, url: event.url, params: found.params, state, route: found.route });
      });
    }
  } catch (error) {
    console.error(error);
    response = sendProblem(request, 500, "The server failed to answer; the error was logged.");
  }
  response.headers.set("access-control-allow-origin", "*");
  response.headers.set("x-content-type-options", "nosniff");
  return response;
}
