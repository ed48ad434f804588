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
 * KEYS[1] the client's window; ARGV the window's length in ms, the units to take and the limit.
 * Answers {count, ms left, 1 when taken}. The units are taken all or none, in the one step a
 * script is: a bulk check of 40 from each of two servers cannot both fit the last 50. A refused
 * request takes nothing, as in memory. The first take creates the key and gives it the window's
 * lifetime; a key found without one (it cannot happen through this script) gets it too, rather
 * than counting forever; with no key at all the window is a whole one.
 */
const TAKE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local taken = 0
if count + tonumber(ARGV[2]) <= tonumber(ARGV[3]) then
  count = redis.call('INCRBY', KEYS[1], ARGV[2])
  taken = 1
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
if ttl < 0 then
  ttl = tonumber(ARGV[1])
end
return {count, ttl, taken}`;

type LimiterClient = Redis & { takeRateWindow(key: string, windowMs: number, units: number, limit: number): Promise<[number, number, number]> };

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
  const take = (client: Redis, key: string, units: number) => {
    // ioredis sends the script by its SHA-1, and the script itself once when Redis does not know it.
    if (!("takeRateWindow" in client)) client.defineCommand("takeRateWindow", { numberOfKeys: 1, lua: TAKE_SCRIPT });
    return (client as LimiterClient).takeRateWindow(key, windowMs, units, limit);
  };
  return {
    async take(client, units = 1) {
      const key = `${REDIS_KEY_PREFIX}limit:${scope}:${client}`;
      const counted = await store.run((redis) => take(redis, key, units), () => null);
      if (!counted) return local.take(client, units);
      const [count, msLeft, taken] = counted;
      return getDecision(limit, count, msLeft, taken === 1);
    },
  };
}

function getDecision(limit: number, count: number, msLeft: number, allowed: boolean): RateLimitDecision {
  const resetSeconds = Math.max(1, Math.ceil(msLeft / 1000));
  return { allowed, limit, remaining: Math.max(0, limit - count), resetSeconds };
}
