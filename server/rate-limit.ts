/**
 * Per-client rate limits: 60 fingerprint matches per minute per IP (API reference, "Limits"), and
 * the operator's optional read limit (DESIGN "Reads"). The answer carries RateLimit-Limit,
 * RateLimit-Remaining and RateLimit-Reset (seconds), and a 429 carries Retry-After.
 *
 * Fixed windows, one per client, starting at that client's first request: one counter and one
 * timestamp per client, and RateLimit-Reset is simply when the window ends. The price is that
 * a client can spend a window's quota at its very end and the next one's at once (up to twice
 * the limit within a few seconds); for a limit meant to stop scraping that is acceptable, and a
 * sliding log would cost 60 timestamps per client instead of two numbers.
 *
 * Memory is bounded: expired windows are dropped as time passes (the map is in window-start
 * order, so they are always at its front), and past `maxClients` the oldest window is dropped
 * early — that client gets a fresh quota, which only matters to someone holding more addresses
 * than the cap, who could rotate through them anyway.
 *
 * This is one server's count. With --redis, every server counts in Redis instead
 * (server/redis-rate-limit.ts, the same windows), so that servers behind one load balancer share
 * one limit per client rather than each giving its own.
 */
import { isIPv6 } from "node:net";
import { getRequestIP, type Middleware } from "h3";
import type { Route } from "../core/routes/types.ts";
import { systemClock, type Clock } from "./clock.ts";
import { createProblemError } from "./errors.ts";
import { getTableMatch } from "./table-match.ts";

export const RATE_WINDOW_MS = 60_000;
const DEFAULT_MAX_CLIENTS = 100_000;

export interface RateLimiterOptions {
  /** Requests allowed per window and client. */
  limit: number;
  windowMs?: number;
  maxClients?: number;
  now?: Clock;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the client's window ends (at least 1). */
  resetSeconds: number;
}

/** What both limiters implement: this server's memory (below) and Redis (server/redis-rate-limit.ts). */
export interface RateLimiter {
  /**
   * Takes `units` (default 1) of `client`'s quota in one step and says whether they were allowed:
   * all of them or, when fewer are left, none (a refused request takes nothing).
   */
  take(client: string, units?: number): RateLimitDecision | Promise<RateLimitDecision>;
}

export interface MemoryRateLimiter extends RateLimiter {
  take(client: string, units?: number): RateLimitDecision;
  /** Clients currently tracked. */
  readonly clients: number;
}

export function createRateLimiter(options: RateLimiterOptions): MemoryRateLimiter {
  const { limit, windowMs = RATE_WINDOW_MS, maxClients = DEFAULT_MAX_CLIENTS, now = systemClock } = options;
  const windows = new Map<string, { start: number; count: number }>();

  return {
    take(client, units = 1) {
      const time = now();
      for (const [key, window] of windows) {
        if (window.start + windowMs > time) break;
        windows.delete(key);
      }
      let window = windows.get(client);
      if (!window) {
        if (windows.size >= maxClients) windows.delete(windows.keys().next().value!);
        window = { start: time, count: 0 };
        windows.set(client, window);
      }
      const resetSeconds = Math.max(1, Math.ceil((window.start + windowMs - time) / 1000));
      if (window.count + units > limit) return { allowed: false, limit, remaining: limit - window.count, resetSeconds };
      window.count += units;
      return { allowed: true, limit, remaining: limit - window.count, resetSeconds };
    },
    get clients() {
      return windows.size;
    },
  };
}

export interface RateLimitCheckOptions {
  /** Per minute and client: `always` for routes the table always limits, `optional` for every other read. 0 is no limit. */
  limits: Record<Route["rateLimit"], number>;
  /** Count clients by the last X-Forwarded-For entry (see getClientKey). */
  trustProxy: boolean;
  /** Makes the limiter of each scope (`match`, `read`). Default: one in this server's memory. */
  createLimiter?: (options: { limit: number; scope: string }) => RateLimiter;
}

/** Takes `units` of the request's client quota, or throws the refusal (429, or 413 past the whole limit). */
export type QuotaTaker = (units: number) => Promise<void>;

declare module "h3" {
  interface H3EventContext {
    /** For a route that takes its quota per item (the table's `rateUnits`): the handler calls it once it has counted them. */
    takeQuota?: QuotaTaker;
  }
}

/**
 * Route middleware, after the method check (a preflight or a 405 uses no quota): takes one
 * request from the client's quota, refuses with 429 when there is none left, and puts the
 * RateLimit headers on whatever the route answers, its own problems included. A route whose
 * table entry says `rateUnits: "item"` takes its quota itself (event.context.takeQuota), once it
 * knows how many items the request holds: the middleware cannot know before the body is read.
 */
export function createRateLimitCheck(options: RateLimitCheckOptions): Middleware {
  const { createLimiter = createRateLimiter } = options;
  const create = (limit: number, scope: string) => (limit > 0 ? createLimiter({ limit, scope }) : null);
  const limiters = { always: create(options.limits.always, "match"), optional: create(options.limits.optional, "read") };
  return async (event, next) => {
    const route = getTableMatch(event)?.route;
    const scope = route?.rateLimit ?? "optional";
    const limiter = limiters[scope];
    if (!limiter) return next();
    const max = options.limits[scope];
    const client = getClientKey(getRequestIP(event), event.req.headers.get("x-forwarded-for"), options.trustProxy);
    // The headers of the last decision, for whatever the route answers.
    const taken: { headers?: Record<string, string> } = {};
    const take: QuotaTaker = async (units) => {
      // More than the whole limit can never be allowed: waiting would not help, so no 429 and no
      // Retry-After, but a 413 naming the limit; the request counts as one, like any refused body.
      const decision = await limiter.take(client, units > max ? 1 : units);
      const headers = (taken.headers = getRateLimitHeaders(decision));
      if (units > max && decision.allowed) throw createProblemError(413, `This request counts ${units} reads; one address may make at most ${max} a minute: send at most ${max} at a time.`, headers);
      if (!decision.allowed) throw createProblemError(429, describeRefusal(decision, units), { ...headers, "retry-after": String(decision.resetSeconds) });
    };
    if (route?.rateUnits === "item") event.context.takeQuota = take;
    else await take(1);
    const response = (await next()) as Response;
    for (const [name, value] of Object.entries(taken.headers ?? {})) response.headers.set(name, value);
    return response;
  };
}

function describeRefusal(decision: RateLimitDecision, units: number): string {
  const wait = `try again in ${decision.resetSeconds} s.`;
  if (units === 1) return `At most ${decision.limit} requests per minute from one address; ${wait}`;
  return `At most ${decision.limit} reads per minute from one address: this request counts ${units}, and ${decision.remaining} are left; ${wait}`;
}

function getRateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    "ratelimit-limit": String(decision.limit),
    "ratelimit-remaining": String(decision.remaining),
    "ratelimit-reset": String(decision.resetSeconds),
    "ratelimit-policy": `${decision.limit};w=${RATE_WINDOW_MS / 1000}`,
    // Browsers hide response headers from cross-origin scripts unless they are listed.
    "access-control-expose-headers": "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After",
  };
}

/**
 * The key a client is counted under. `socketAddress` is undefined for in-process requests (no
 * socket), which share one key. Behind a proxy the operator opts in to X-Forwarded-For, and then
 * its *last* entry is used: the one our proxy appended, where the first ones are whatever the
 * client chose to send. IPv6 clients are counted per /64, the block one host is usually given.
 */
export function getClientKey(socketAddress: string | undefined, forwardedFor: string | null, trustProxy: boolean): string {
  let address = socketAddress;
  if (trustProxy && forwardedFor) {
    const last = forwardedFor.split(",").pop()!.trim();
    if (last) address = last;
  }
  if (!address) return "local";
  if (address.startsWith("::ffff:") && address.includes(".")) return address.slice(7);
  return isIPv6(address) ? toIPv6Prefix(address) : address;
}

/** The first four groups (the /64) of an IPv6 address, expanded, e.g. "2001:db8:0:0/64". */
function toIPv6Prefix(address: string): string {
  const [head = "", tail] = address.split("%")[0]!.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "").toLowerCase()).join(":")}/64`;
}
