/**
 * A bounded cache for the answer path's lookups: two generations of a Map each (as quick-lru
 * keeps them). Entries go into the new generation; when it would pass half the budget it becomes
 * the old one, and the previous old one is dropped whole. An entry found in the old generation
 * moves back into the new one, so what is used stays, as in an LRU, while a lookup costs one or
 * two Map lookups and no bookkeeping of recency (an LRU's was a tenth of a known answer's cost).
 * What is dropped is what went unused for a whole generation. Never more than the budget.
 */
export class GenerationCache<V> {
  private fresh = new Map<string, V>();
  private old = new Map<string, V>();
  private freshSize = 0;
  private oldSize = 0;
  private readonly maxSize: number;
  private readonly sizeOf: (value: V, key: string) => number;

  /** `maxSize` in the units of `sizeOf` (by default, entries). */
  constructor(options: { maxSize: number; sizeOf?: (value: V, key: string) => number }) {
    this.maxSize = Math.max(1, options.maxSize);
    this.sizeOf = options.sizeOf ?? (() => 1);
  }

  get(key: string): V | undefined {
    const value = this.fresh.get(key);
    if (value !== undefined) return value;
    const aging = this.old.get(key);
    if (aging === undefined) return undefined;
    this.old.delete(key);
    this.oldSize -= this.sizeOf(aging, key);
    this.add(key, aging);
    return aging;
  }

  /** Kept unless larger than the whole budget. */
  set(key: string, value: V): void {
    this.delete(key);
    this.add(key, value);
  }

  delete(key: string): void {
    const fresh = this.fresh.get(key);
    if (fresh !== undefined) {
      this.fresh.delete(key);
      this.freshSize -= this.sizeOf(fresh, key);
      return;
    }
    const aging = this.old.get(key);
    if (aging !== undefined) {
      this.old.delete(key);
      this.oldSize -= this.sizeOf(aging, key);
    }
  }

  /** What the entries held count against the budget. */
  get calculatedSize(): number {
    return this.freshSize + this.oldSize;
  }

  get size(): number {
    return this.fresh.size + this.old.size;
  }

  private add(key: string, value: V): void {
    const size = this.sizeOf(value, key);
    if (size > this.maxSize) return;
    if (this.freshSize + size > this.maxSize / 2) {
      this.old = this.fresh;
      this.oldSize = this.freshSize;
      this.fresh = new Map();
      this.freshSize = 0;
    }
    // An entry larger than half the budget: the old generation goes too if both would not fit.
    if (this.oldSize + size > this.maxSize) {
      this.old = new Map();
      this.oldSize = 0;
    }
    this.fresh.set(key, value);
    this.freshSize += size;
  }
}
