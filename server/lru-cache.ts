/**
 * A least-recently-used cache whose entries also expire: bounded by an entry count and by an
 * approximate size, so that neither many small answers nor a few huge ones can grow the heap
 * without bound. Used for POST /api/fingerprint/match answers (reference: "Result cached for 5
 * minutes"). Keys are digests, so the cache never holds what a client sent, only our answer.
 */
import { systemClock, type Clock } from "./clock.ts";

export interface LruCacheOptions {
  maxEntries: number;
  /** Upper bound on the summed `size` of the entries (the caller's estimate, e.g. JSON length). */
  maxSize: number;
  /** An entry is served for this long after it was stored; a hit does not extend it. */
  ttlMs: number;
  now?: Clock;
}

interface Entry<V> {
  value: V;
  size: number;
  expiresAt: number;
}

export class LruCache<V> {
  // Map iteration is insertion order: the first entry is the least recently used.
  private readonly entries = new Map<string, Entry<V>>();
  private totalSize = 0;
  private readonly now: Clock;

  constructor(private readonly options: LruCacheOptions) {
    this.now = options.now ?? systemClock;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) {
      this.totalSize -= entry.size;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, size: number): void {
    if (size > this.options.maxSize) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.totalSize -= previous.size;
    }
    while (this.entries.size >= this.options.maxEntries || this.totalSize + size > this.options.maxSize) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.totalSize -= this.entries.get(oldest.value)!.size;
      this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, size, expiresAt: this.now() + this.options.ttlMs });
    this.totalSize += size;
  }

  get size(): number {
    return this.entries.size;
  }
}
