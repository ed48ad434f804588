/**
 * The h3 app, registered from the route table (core/routes/table.ts): every route of the table
 * under its router pattern, answered by its handler below or, for a file route without one, by
 * the generic file handler; every other path is a file of the current build at its own path.
 *
 * What every request goes through, in order, as h3 middleware:
 *  1. every answer gets CORS and nosniff (onResponse, so problems too);
 *  2. an HTTPError thrown below, or any other exception, becomes our problem+json (onError);
 *  3. a path that does not decode is refused (400);
 *  then, as route middleware, since they need the route of the table:
 *  4. the table's route for the path is matched;
 *  5. OPTIONS is the CORS preflight, a method the route does not answer a 405 with `Allow`;
 *  6. per-client rate limits: the fingerprint limit where the table says "always", the optional
 *     read limit on every other read (the bulk check takes one per username, from its handler).
 */
import { H3, onError, onResponse, type H3Event } from "h3";
import { ROUTES, type RouteId } from "../core/routes/table.ts";
import type { Route } from "../core/routes/types.ts";
import { DistSource, type LoadedBuild } from "./dist-source.ts";
import { sendErrorProblem } from "./errors.ts";
import { createRateLimitCheck } from "./rate-limit.ts";
import { createRedisMatchCache } from "./redis-match-cache.ts";
import { createRedisRateLimiter } from "./redis-rate-limit.ts";
import type { RedisStore } from "./redis-store.ts";
import { checkMethod, rejectMalformedPath } from "./request-checks.ts";
import { setPublicHeaders } from "./respond.ts";
import { checkUsername, checkUsernames } from "./routes/check.ts";
import { getChatBadge, getChatStatus } from "./routes/chat.ts";
import { listCompanies } from "./routes/companies.ts";
import { getCompanyCard, getWidget } from "./routes/company.ts";
import type { RouteHandler } from "./routes/context.ts";
import { matchFingerprint } from "./routes/fingerprint.ts";
import { searchGlobalRoute, searchLiveRoute } from "./routes/search.ts";
import { listSpammers } from "./routes/spammers.ts";
import { serveBuildFile, serveRouteFile } from "./routes/static.ts";
import { getTableMatch, groupRoutesByPattern, matchTableRoute } from "./table-match.ts";

/** Routes that are more than their file; every other route of the table is served by serveRouteFile. */
export const HANDLERS: Partial<Record<RouteId, RouteHandler>> = {
  checkUsername,
  checkUsernames,
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
  /**
   * Where the rate limits and the match cache live when several servers must share them (DESIGN
   * "More than one server"). Default: this server's memory.
   */
  redis?: RedisStore;
  /** Told of each build the server loads: at start, and each newly published one (the command logs it). */
  onBuildLoaded?: (build: LoadedBuild) => void;
}

export function createApp(options: AppOptions): H3 {
  const { redis } = options;
  const source = new DistSource(options.dist, {
    createMatchCache: redis && ((buildId) => createRedisMatchCache(redis, buildId)),
    onLoaded: options.onBuildLoaded,
  });
  const checkRateLimit = createRateLimitCheck({
    limits: { always: options.fingerprintRateLimit ?? 60, optional: options.readRateLimit ?? 0 },
    trustProxy: options.trustProxy ?? false,
    createLimiter: redis && ((limiter) => createRedisRateLimiter(redis, limiter)),
  });
  // Paths that do not decode are let through, to be refused by rejectMalformedPath as our problem.
  const app = new H3({ allowMalformedURL: true })
    .use(onResponse(setPublicHeaders))
    .use(onError(sendErrorProblem))
    .use(rejectMalformedPath);
  const answer = (event: H3Event) => answerRequest(event, source);
  const register = (pattern: string, routes: readonly Route[]) =>
    app.all(pattern, answer, { middleware: [matchTableRoute(routes), checkMethod, checkRateLimit] });
  for (const [pattern, routes] of groupRoutesByPattern(ROUTES)) register(pattern, routes);
  register("/**", []);
  return app;
}

/** The route's handler on the current build, or the build's file at the request's own path. */
async function answerRequest(event: H3Event, source: DistSource): Promise<Response> {
  const state = await source.current();
  const found = getTableMatch(event);
  const request = event.req;
  const takeQuota = event.context.takeQuota ?? noQuota;
  if (!found) return serveBuildFile({ request, url: event.url, params: {}, state, takeQuota });
  const handler = HANDLERS[found.route.id as RouteId] ?? serveRouteFile;
  return handler({ request, url: event.url, params: found.params, state, route: found.route, takeQuota });
}

/** No rate limit on this route: nothing to take. */
async function noQuota(): Promise<void> {}
