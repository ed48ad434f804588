/**
 * The rate limits in Redis, shared by every server that uses it: the same fixed window per
 * client from its first request as the memory limiter (server/rate-limit.ts), counted by one Lua
 * script, so that two servers taking a request of the same client at the same moment can neither
 * both see the 60th request nor both start a window.
 *
 * The window is the key's lifetime, and its end is Redis's PTTL: no server's clock takes part, so
 * servers whose clocks disagree still agree on when a client's window ends.
 *
 * When Redis cannot answer, the request is counted in this server's own memory instead (a
 * decision, DESIGN leaves it open): refusing every match while Redis is down would turn its
 * outage into ours, and letting every match through would drop the one protection of the only
 * route that computes on request. Counting locally keeps each server's own limit, so a client
 * gets at most the limit per server during an outage, as before Redis; no request is ever refused
 * that the shared count would have allowed, since the local window starts empty.
 */
import type { Redis } from "ioredis";
import { RATE_WINDOW_MS, createRateLimiter, type RateLimitDecision, type RateLimiter } from "./rate-limit.ts";
import { REDIS_KEY_PREFIX, type RedisStore } from "./redis-store.ts";

/**
 * KEYS[1] the client's window, ARGV[1] the window's length in ms; answers {count, ms left}. The
 * first request creates the key and gives it the window's lifetime; a key found without one (it
 * cannot happen through this script) gets it too, rather than counting forever.
 */
const TAKE_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

type LimiterClient = Redis & { takeRateWindow(key: string, windowMs: number): Promise<[number, number]> };

export interface RedisRateLimiterOptions {
  /** Requests allowed per window and client. */
  limit: number;
  /** Which limit this is: its clients' keys are `spamcheck:limit:<scope>:<client>`. */
  scope: string;
  windowMs?: number;
}

export function createRedisRateLimiter(store: RedisStore, options: RedisRateLimiterOptions): RateLimiter {
  const { limit, scope, windowMs = RATE_WINDOW_MS } = options;
  const local = createRateLimiter({ limit, windowMs });
  const take = (client: Redis, key: string) => {
    // ioredis sends the script by its SHA-1, and the script itself once when Redis does not know it.
    if (!("takeRateWindow" in client)) client.defineCommand("takeRateWindow", { numberOfKeys: 1, lua: TAKE_SCRIPT });
    return (client as LimiterClient).takeRateWindow(key, windowMs);
  };
  return {
    async take(client) {
      const key = `${REDIS_KEY_PREFIX}limit:${scope}:${client}`;
      const counted = await store.run((redis) => take(redis, key), () => null);
      if (!counted) return local.take(client);
      const [count, msLeft] = counted;
      return getDecision(limit, count, msLeft);
    },
  };
}

/** Requests past the limit still increment the count; they are refused all the same. */
function getDecision(limit: number, count: number, msLeft: number): RateLimitDecision {
  const resetSeconds = Math.max(1, Math.ceil(msLeft / 1000));
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
}
