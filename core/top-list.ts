/**
 * The two "best k" lists. `TopList` keeps objects ranked by a comparator: the build's rankings
 * (spammers by reports, the feeds' newest usernames), offered once each. `ScoredTopList` keeps
 * numeric ids ranked by a numeric score in typed arrays, reset and reused per query, with no
 * object or closure per offer: the search prefilter and the fingerprint matcher offer thousands
 * per request, where a comparator call per comparison and an array of objects per query showed
 * in their benchmarks (tsx wraps every closure it creates).
 */

/** The best `capacity` items seen so far under `compare`, kept sorted; O(log k) per rejected offer. */
export class TopList<T> {
  readonly items: T[] = [];
  offered = 0;

  constructor(
    private readonly capacity: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  offer(item: T): void {
    this.offered++;
    const items = this.items;
    if (items.length === this.capacity && this.compare(item, items[items.length - 1]!) >= 0) return;
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(items[mid]!, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, item);
    if (items.length > this.capacity) items.pop();
  }
}

/**
 * Ids by score: the k largest values (ties: smaller id first) with a tag each, an id at most once
 * (its best offer). k is a few dozen at most, so a sorted array with insertion beats a heap, and
 * an offer below the current floor costs one comparison.
 */
export class ScoredTopList {
  capacity: number;
  private ids: Int32Array;
  private values: Float64Array;
  private tags: Int32Array;
  private length = 0;

  constructor(capacity: number) {
    this.capacity = Math.max(capacity, 0);
    this.ids = new Int32Array(this.capacity);
    this.values = new Float64Array(this.capacity);
    this.tags = new Int32Array(this.capacity);
  }

  /** Empties the list and sets a new capacity, keeping its arrays when they are large enough. */
  reset(capacity: number): void {
    this.capacity = Math.max(capacity, 0);
    this.length = 0;
    if (this.ids.length < this.capacity) {
      this.ids = new Int32Array(this.capacity);
      this.values = new Float64Array(this.capacity);
      this.tags = new Int32Array(this.capacity);
    }
  }

  /** How many entries the list holds; entry k (best first) is idAt(k), tagAt(k). */
  get size(): number {
    return this.length;
  }

  idAt(k: number): number {
    return this.ids[k]!;
  }

  tagAt(k: number): number {
    return this.tags[k]!;
  }

  valueAt(k: number): number {
    return this.values[k]!;
  }

  /** The value an offer must exceed to enter (-Infinity while the list has room). */
  floor(): number {
    return this.length < this.capacity ? -Infinity : this.values[this.length - 1]!;
  }

  /** Whether an offer of `value` for a new `id` would enter (a search can stop early when none can). */
  wouldEnter(value: number, id: number): boolean {
    return this.capacity > 0 && (this.length < this.capacity || this.beats(value, id, this.length - 1));
  }

  offer(id: number, value: number, tag: number): void {
    const { ids, values, tags, capacity } = this;
    if (capacity === 0 || (this.length === capacity && !this.beats(value, id, this.length - 1))) return;
    let held = -1;
    for (let k = 0; k < this.length && held === -1; k++) if (ids[k] === id) held = k;
    if (held !== -1) {
      if (!this.beats(value, id, held)) return;
      ids.copyWithin(held, held + 1, this.length);
      values.copyWithin(held, held + 1, this.length);
      tags.copyWithin(held, held + 1, this.length);
      this.length--;
    }
    let k = this.length === capacity ? this.length - 1 : this.length++;
    for (; k > 0 && this.beats(value, id, k - 1); k--) {
      ids[k] = ids[k - 1]!;
      values[k] = values[k - 1]!;
      tags[k] = tags[k - 1]!;
    }
    ids[k] = id;
    values[k] = value;
    tags[k] = tag;
  }

  private beats(value: number, id: number, k: number): boolean {
    return value > this.values[k]! || (value === this.values[k]! && id < this.ids[k]!);
  }
}

export function createScoredTopList(capacity: number): ScoredTopList {
  return new ScoredTopList(capacity);
}
