/**
 * The fingerprint side of a loaded build: the matcher over dist/fingerprint/index.json and the
 * cache of its answers. Both belong to one build, so a new build starts with an empty cache and
 * never answers from the previous library. The cache is this server's memory (below) or, with
 * --redis, shared by every server (server/redis-match-cache.ts, keyed by the build too).
 *
 * Identical signal sets get the identical answer (the matcher lists keys in its own orders, not
 * the request's), so the cache key is the set itself: the pairs sorted by key, hashed. The
 * cache keeps the digest and our answer, never the signals; nothing else about a request is
 * stored, and signals are never logged (API reference: "observations are not stored").
 */
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { createMatcher, type FingerprintIndex, type FingerprintMatcher, type SignalInput } from "../core/fingerprint/index.ts";
import { compareCodePoints } from "../core/order.ts";
import { systemClock, type Clock } from "./clock.ts";

/** Reference "Limits": fingerprint answers are cached for 5 minutes. */
export const MATCH_CACHE_TTL_MS = 5 * 60_000;
export const MATCH_CACHE_ENTRIES = 10_000;
/**
 * Bound on the answers' summed JSON length. A typical answer is 1–2 KB, so 10 000 fit; one that
 * echoes 16 KB of unknown keys counts for what it is, and cannot make the cache ten times larger.
 */
export const MATCH_CACHE_SIZE = 32 * 1024 * 1024;

/**
 * Answers as JSON text by signal-set digest: a hit is served as it is, without serialising it
 * again. The memory cache (an LRUCache, from createMatchCache) answers at once; Redis's later.
 */
export interface MatchCache {
  get(key: string): string | undefined | Promise<string | undefined>;
  set(key: string, json: string): unknown;
}

export interface FingerprintMatching {
  matcher: FingerprintMatcher;
  cache: MatchCache;
}

/**
 * Compiles the index (throws on a malformed one, so a broken build fails at load). The cache is
 * a new memory cache unless one is given.
 */
export function createFingerprintMatching(index: FingerprintIndex, options: { cache?: MatchCache } = {}): FingerprintMatching {
  return { matcher: createMatcher(index), cache: options.cache ?? createMatchCache() };
}

export interface MatchCacheOptions {
  /** Default MATCH_CACHE_ENTRIES. */
  maxEntries?: number;
  /** Bound on the answers' summed JSON length. Default MATCH_CACHE_SIZE; a longer answer is not kept. */
  maxSize?: number;
  /** An answer is served for this long after it was stored; a hit does not extend it. Default MATCH_CACHE_TTL_MS. */
  ttlMs?: number;
  now?: Clock;
}

/**
 * The answer cache: least recently used out first, past either bound, and every answer expired
 * a fixed time after it was stored, so that neither many small answers nor a few huge ones can
 * grow the heap without bound. Expired answers are dropped when next asked for or evicted (no
 * timer per entry).
 */
export function createMatchCache(options: MatchCacheOptions = {}): LRUCache<string, string> {
  const { maxEntries = MATCH_CACHE_ENTRIES, maxSize = MATCH_CACHE_SIZE, ttlMs = MATCH_CACHE_TTL_MS, now = systemClock } = options;
  return new LRUCache<string, string>({
    max: maxEntries,
    maxSize,
    sizeCalculation: (json) => json.length,
    // lru-cache serves an entry until its age *exceeds* ttl; an answer here is served for less
    // than ttlMs ("cached for 5 minutes", to the millisecond). On a whole-millisecond clock that
    // is a ttl one millisecond shorter.
    ttl: ttlMs - 1,
    // The server's clock (Date-based, like the rate limits, so a test's fake Date moves both),
    // read at every call: ttlResolution 0, not a reading kept for a millisecond behind a timer.
    perf: { now },
    ttlResolution: 0,
  });
}

/**
 * The `match` of the answer, as JSON text, and whether it came from the cache. `entries` are
 * the request's own key/value pairs, already checked to be strings.
 */
export async function matchSignals(
  matching: FingerprintMatching,
  entries: readonly (readonly [string, string])[],
  signals: SignalInput,
): Promise<{ matchJson: string; cached: boolean }> {
  const key = getSignalSetKey(entries);
  const hit = await matching.cache.get(key);
  if (hit !== undefined) return { matchJson: hit, cached: true };
  const matchJson = JSON.stringify(matching.matcher.match(signals));
  await matching.cache.set(key, matchJson);
  return { matchJson, cached: false };
}

/** The same digest for the same pairs in any order. JSON keeps keys and values unambiguous. */
export function getSignalSetKey(entries: readonly (readonly [string, string])[]): string {
  const sorted = [...entries].sort((a, b) => compareCodePoints(a[0], b[0]));
  return createHash("sha256").update(JSON.stringify(sorted)).digest("base64url");
}
