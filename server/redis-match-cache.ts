/**
 * The fingerprint answer cache in Redis, shared by every server that uses it: an answer computed
 * by one is served by all, as `cached: true`, for five minutes from storing (reference "Limits"),
 * like the memory cache (server/fingerprint-matching.ts). Redis expires each answer with the key.
 *
 * Keys are `spamcheck:match:<build>:<digest of the signal set>`. The build's id is part of the
 * key, so a newly published build never serves an answer computed over the previous library,
 * even on servers that still run the old one. The id is the name of the build's folder, which
 * the build derives from its manifest's hash: the same build gets the same id on every server.
 *
 * What bounds Redis's memory is the expiry and the rate limit (at most 60 new answers a minute per
 * client, 1–2 KB each); every key has an expiry, so a `maxmemory` with a `volatile-*` eviction
 * policy bounds it outright. When Redis cannot answer, a lookup is a miss and the answer is
 * computed here (the matcher is not the cost of a match), and nothing is stored: reads fail open.
 */
import { MATCH_CACHE_TTL_MS, type MatchCache } from "./fingerprint-matching.ts";
import { REDIS_KEY_PREFIX, type RedisStore } from "./redis-store.ts";

export function createRedisMatchCache(store: RedisStore, buildId: string, options: { ttlMs?: number } = {}): MatchCache {
  const { ttlMs = MATCH_CACHE_TTL_MS } = options;
  const prefix = `${REDIS_KEY_PREFIX}match:${buildId}:`;
  return {
    async get(key) {
      const json = await store.run((redis) => redis.get(prefix + key), () => null);
      return json ?? undefined;
    },
    // Awaited by the request that computed the answer: once it has its answer, every server has
    // the answer too (a later request elsewhere is a hit, never a race with this write).
    async set(key, json) {
      await store.run((redis) => redis.set(prefix + key, json, "PX", ttlMs), () => null);
    },
  };
}
