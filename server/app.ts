/**
 * The h3 app. The route table below reads like the API reference; everything not in it is a
 * file of the current build. Routes answer GET and HEAD, the fingerprint match POST (OPTIONS for
 * CORS preflight); any other method gets 405 with `Allow`. Per-client rate limits apply here,
 * after the method check: the fingerprint limit to its POST, the optional read limit to reads.
 */
import { H3, getRequestIP, getRouterParams, type H3Event } from "h3";
import { DistSource } from "./dist-source.ts";
import { createRateLimiter, getClientKey, withRateLimit, type RateLimiter } from "./rate-limit.ts";
import { sendProblem } from "./respond.ts";
import { checkUsername } from "./routes/check.ts";
import { getChatBadge, getChatStatus } from "./routes/chat.ts";
import { listCompanies } from "./routes/companies.ts";
import { getCompanyCard, getWidget } from "./routes/company.ts";
import type { RouteHandler } from "./routes/context.ts";
import { matchFingerprint } from "./routes/fingerprint.ts";
import { searchGlobalRoute, searchLiveRoute } from "./routes/search.ts";
import { serveFeed } from "./routes/feeds.ts";
import { listSpammers } from "./routes/spammers.ts";
import { serveBuildFile } from "./routes/static.ts";

interface Route {
  path: string;
  methods: string[];
  handler: RouteHandler;
  /** Which per-client limit applies: the fingerprint one, else the read limit (if switched on). */
  limit?: "fingerprint";
}

const READ = ["GET", "HEAD"];

export const ROUTES: Route[] = [
  { path: "/api/check/:identifier", methods: READ, handler: checkUsername },
  { path: "/api/companies", methods: READ, handler: listCompanies },
  { path: "/api/spammers", methods: READ, handler: listSpammers },
  { path: "/api/company/:slug", methods: READ, handler: getCompanyCard },
  { path: "/api/widget/:slug", methods: READ, handler: getWidget },
  { path: "/api/fingerprint/match", methods: ["POST"], handler: matchFingerprint, limit: "fingerprint" },
  { path: "/api/chat/:username/status", methods: READ, handler: getChatStatus },
  { path: "/api/chat/:username/badge.svg", methods: READ, handler: getChatBadge },
  { path: "/api/search", methods: READ, handler: searchLiveRoute },
  { path: "/api/search/global", methods: READ, handler: searchGlobalRoute },
  { path: "/rss/**", methods: READ, handler: serveFeed },
  { path: "/**", methods: READ, handler: serveBuildFile },
];

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

interface Runtime {
  source: DistSource;
  trustProxy: boolean;
  limiters: { fingerprint: RateLimiter | null; read: RateLimiter | null };
}

export function createApp(options: AppOptions): H3 {
  const limiter = (limit: number) => (limit > 0 ? createRateLimiter({ limit }) : null);
  const runtime: Runtime = {
    source: new DistSource(options.dist),
    trustProxy: options.trustProxy ?? false,
    limiters: { fingerprint: limiter(options.fingerprintRateLimit ?? 60), read: limiter(options.readRateLimit ?? 0) },
  };
  const app = new H3();
  for (const route of ROUTES) app.all(route.path, (event) => dispatch(event, route, runtime));
  return app;
}

async function dispatch(event: H3Event, route: Route, { source, trustProxy, limiters }: Runtime): Promise<Response> {
  const request = event.req;
  const allow = [...route.methods, "OPTIONS"].join(", ");
  let response: Response;
  try {
    if (request.method === "OPTIONS") {
      response = new Response(null, {
        status: 204,
        headers: { allow, "access-control-allow-methods": allow, "access-control-allow-headers": "content-type, if-none-match", "access-control-max-age": "86400" },
      });
    } else if (!route.methods.includes(request.method)) {
      response = sendProblem(request, 405, `${request.method} is not allowed here; use ${route.methods.join(" or ")}.`, { headers: { allow } });
    } else {
      const client = getClientKey(getRequestIP(event), request.headers.get("x-forwarded-for"), trustProxy);
      response = await withRateLimit(limiters[route.limit ?? "read"], client, request, async () => {
        const state = await source.current();
        const params = getRouterParams(event, { decode: true }) as Record<string, string>;
        return route.handler({ request, url: event.url, params, state });
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
