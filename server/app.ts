/**
 * The h3 app, registered from the route table (core/routes/table.ts): every route of the table
 * under its router pattern, answered by its handler below or, for a file route without one, by
 * the generic file handler; every other path is a file of the current build at its own path.
 *
 * What every request goes through, in order:
 *  1. a path that does not decode is refused (400), by the one app middleware, which then
 *  2. answers a GET or HEAD of a URL this build has answered before from where that answer's
 *     bytes are (server/known-answers.ts: the steps below were taken for it once), or passes
 *     the request on and gives the answer CORS and nosniff if it lacks them;
 *  then, as route middleware, since they need the route of the table:
 *  3. the table's route for the path is matched;
 *  4. OPTIONS is the CORS preflight, a method the route does not answer a 405 with `Allow`;
 *  5. per-client rate limits: the fingerprint limit where the table says "always", the optional
 *     read limit on every other read (the bulk check takes one per username, from its handler).
 * An HTTPError thrown anywhere, or any other exception, becomes our problem+json (h3's onError
 * hook), made with CORS and nosniff like every answer.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { H3, type H3Event, type Middleware } from "h3";
import { ROUTES, type RouteId } from "../core/routes/table.ts";
import type { Route } from "../core/routes/types.ts";
import { DistSource, type BuildState, type LoadedBuild } from "./dist-source.ts";
import { sendErrorProblem } from "./errors.ts";
import type { FileStoreOptions } from "./file-store.ts";
import { createRateLimitCheck } from "./rate-limit.ts";
import { createRedisMatchCache } from "./redis-match-cache.ts";
import { createRedisRateLimiter } from "./redis-rate-limit.ts";
import type { RedisStore } from "./redis-store.ts";
import { checkMethod, rejectMalformedPath } from "./request-checks.ts";
import { answerKnown, getKnownAnswer, getKnownKey, getRawKnownKey, writeKnownAnswer } from "./known-answers.ts";
import { setPublicHeaders } from "./respond.ts";
import { listChanges } from "./routes/changes.ts";
import { checkUsername, checkUsernames } from "./routes/check.ts";
import { getChatBadge, getChatStatus } from "./routes/chat.ts";
import { listCompanies } from "./routes/companies.ts";
import { getCompanyCard, getWidget } from "./routes/company.ts";
import type { RouteHandler } from "./routes/context.ts";
import { matchFingerprint } from "./routes/fingerprint.ts";
import { searchGlobalRoute, searchLiveRoute } from "./routes/search.ts";
import { servePagedFile } from "./routes/list-pages.ts";
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
  listChanges,
};

declare module "h3" {
  interface H3EventContext {
    /** The build a request is answered from, when the first middleware already knew it. */
    buildState?: BuildState;
  }
}

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
  /** How much of each build's files is held in memory (server/file-store.ts). */
  fileStore?: FileStoreOptions;
  /** Told of each build the server loads: at start, and each newly published one (the command logs it). */
  onBuildLoaded?: (build: LoadedBuild) => void;
  /**
   * Answer a URL answered before from where its answer is (server/known-answers.ts). Default
   * true; false sends every request through its route (the tests' baseline).
   * Off whatever is said here while a read limit is on: every read then takes its quota on its route.
   */
  rememberAnswers?: boolean;
}

export function createApp(options: AppOptions): H3 {
  return createServerApp(options).app;
}

/**
 * The app, and the answerer the listening server puts in front of it: a GET or HEAD of a URL
 * answered before, written to Node's response straight from where its bytes are (step 2 above
 * without the app: h3's request and event objects and the router cost more than the answer on
 * such requests). It returns false, having written nothing, for every request it leaves to the app.
 */
export function createServerApp(options: AppOptions): { app: H3; answerKnownDirectly: (request: IncomingMessage, response: ServerResponse) => boolean } {
  const { redis } = options;
  const source = new DistSource(options.dist, {
    createMatchCache: redis && ((buildId) => createRedisMatchCache(redis, buildId)),
    onLoaded: options.onBuildLoaded,
    fileStore: options.fileStore,
  });
  const checkRateLimit = createRateLimitCheck({
    limits: { always: options.fingerprintRateLimit ?? 60, optional: options.readRateLimit ?? 0 },
    trustProxy: options.trustProxy ?? false,
    createLimiter: redis && ((limiter) => createRedisRateLimiter(redis, limiter)),
  });
  // Paths that do not decode are let through, to be refused by rejectMalformedPath as our problem.
  // silent: the onError hook logs a fault once, itself (server/errors.ts).
  const remember = (options.rememberAnswers ?? true) && (options.readRateLimit ?? 0) === 0;
  const app = new H3({ allowMalformedURL: true, silent: true, onError: sendErrorProblem }).use(answerKnownUrls(source, { enabled: remember }));
  const answer = (event: H3Event) => answerRequest(event, source);
  const register = (pattern: string, routes: readonly Route[]) =>
    app.all(pattern, answer, { middleware: [matchTableRoute(routes), checkMethod, checkRateLimit] });
  for (const [pattern, routes] of groupRoutesByPattern(ROUTES)) register(pattern, routes);
  register("/**", []);
  const answerKnownDirectly = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (!remember || (request.method !== "GET" && request.method !== "HEAD")) return false;
    const { headers } = request;
    if (headers["transfer-encoding"] !== undefined || headers["content-length"] !== undefined) return false;
    const key = getRawKnownKey(request.url);
    const state = key === null ? null : source.currentNow();
    const known = state && state.known.get(key!);
    return known ? writeKnownAnswer(request, response, state, known) : false;
  };
  return { app, answerKnownDirectly };
}

/** The route's handler on the current build, or the build's file at the request's own path. */
async function answerRequest(event: H3Event, source: DistSource): Promise<Response> {
  const state = event.context.buildState ?? (await source.current());
  const found = getTableMatch(event);
  const request = event.req;
  const takeQuota = event.context.takeQuota ?? noQuota;
  if (!found) return serveBuildFile({ request, url: event.url, params: {}, state, takeQuota });
  const handler = HANDLERS[found.route.id as RouteId] ?? (found.route.paged ? servePagedFile : serveRouteFile);
  return handler({ request, url: event.url, params: found.params, state, route: found.route, takeQuota });
}

/**
 * The app's one middleware (steps 1 and 2 above). A hit is answered synchronously when its bytes
 * are held: no promise between the request and its answer.
 */
function answerKnownUrls(source: DistSource, { enabled }: { enabled: boolean }): Middleware {
  return (event, next) => {
    rejectMalformedPath(event);
    const { method, headers } = event.req;
    // A request with a body is read (or refused, when it is malformed) before it is answered.
    const read = enabled && (method === "GET" || method === "HEAD") && !headers.has("transfer-encoding") && !headers.has("content-length");
    const key = read ? getKnownKey(event.url) : null;
    const state = key === null ? null : source.currentNow();
    const known = state && state.known.get(key!);
    const answered = known ? answerKnown(event.req, state, known) : null;
    if (answered) return answered;
    // The route answers from the same build whose answers are kept here.
    if (state) event.context.buildState = state;
    return Promise.resolve(next()).then((response) => {
      if (!(response instanceof Response)) return response;
      setPublicHeaders(response);
      const made = state && getKnownAnswer(response);
      if (made) state.known.set(key!, made);
      return response;
    });
  };
}

/** No rate limit on this route: nothing to take. */
async function noQuota(): Promise<void> {}
