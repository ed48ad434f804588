/**
 * Spammer usernames for the live index, gathered without an object or a string per username:
 * the build sees up to a million of them, one at a time, from the report pass (an observer), and
 * keeps only their UTF-16 code units, where each ends, and their reports counts, in typed arrays.
 * `finish` puts them in live-search rank order (reports count desc, then username) as one joined
 * string, the layout the substring index is made of (substring-index.ts).
 */
import { BOUNDARY } from "./gram-postings.ts";

export interface RankedUsernames {
  /** BOUNDARY, then each username followed by BOUNDARY, in rank order. */
  joined: string;
  /** Username r (in rank order) is joined[textStarts[r], textStarts[r + 1] - 1). */
  textStarts: Uint32Array;
  /** Reports count of username r. */
  counts: Uint32Array;
  /** Rank positions ordered by username (UTF-16 code units, as `<` compares strings). */
  sortedTexts: Uint32Array;
}

const BOUNDARY_CODE = BOUNDARY.charCodeAt(0);
/** Code units turned into a string per String.fromCharCode call (its arguments go on the stack). */
const DECODE_CHUNK = 8192;

export class UsernameCollector {
  /** One byte a code unit while every one is ASCII (valid usernames are), widened on the first that is not. */
  private codes: Uint8Array | Uint16Array = new Uint8Array(1 << 16);
  private codeCount = 0;
  private ends = new Uint32Array(1 << 12);
  private counts = new Uint32Array(1 << 12);
  private count = 0;
  /** Whether usernames arrived in order, each >= the one before (the report pass yields them so): no sort needed. */
  private ascending = true;

  get size(): number {
    return this.count;
  }

  /** `username` as the index should hold it (lower-case). One holding BOUNDARY (never a valid username) is left out. */
  add(username: string, reportsCount: number): void {
    if (username.includes(BOUNDARY)) return;
    if (this.count === this.ends.length) {
      this.ends = grow(this.ends, this.count * 2);
      this.counts = grow(this.counts, this.count * 2);
    }
    if (this.codeCount + username.length > this.codes.length) this.codes = grow(this.codes, Math.max(this.codes.length * 2, this.codeCount + username.length));
    const start = this.codeCount;
    for (let i = 0; i < username.length; i++) {
      const code = username.charCodeAt(i);
      if (code >= 0x80 && this.codes instanceof Uint8Array) this.codes = Uint16Array.from(this.codes);
      this.codes[this.codeCount++] = code;
    }
    if (this.ascending && this.count > 0 && this.compare(this.count - 1, start, this.codeCount) > 0) this.ascending = false;
    this.ends[this.count] = this.codeCount;
    this.counts[this.count] = Math.max(0, Math.min(reportsCount, 0xffffffff));
    this.count++;
  }

  /**
   * The layout. The collector's own arrays are let go first (it takes no more usernames), and the
   * joined text is made last, once the layout's working arrays are garbage: at four million
   * usernames, what the build holds at this step is its peak of memory.
   */
  finish(): RankedUsernames {
    const { ranked, textStarts, counts, sortedTexts } = this.layOut();
    this.codes = new Uint8Array(0);
    this.ends = new Uint32Array(0);
    this.counts = new Uint32Array(0);
    this.count = 0;
    this.codeCount = 0;
    return { joined: decode(ranked), textStarts, counts, sortedTexts };
  }

  private layOut(): { ranked: Uint8Array | Uint16Array; textStarts: Uint32Array; counts: Uint32Array; sortedTexts: Uint32Array } {
    const n = this.count;
    // byName[k]: the k-th username in username order (arrival order when they came sorted).
    const byName = new Uint32Array(n);
    for (let i = 0; i < n; i++) byName[i] = i;
    if (!this.ascending) {
      const { codes, ends } = this;
      byName.sort((a, b) => {
        const startA = a === 0 ? 0 : ends[a - 1]!;
        const startB = b === 0 ? 0 : ends[b - 1]!;
        const length = Math.min(ends[a]! - startA, ends[b]! - startB);
        for (let i = 0; i < length; i++) {
          const d = codes[startA + i]! - codes[startB + i]!;
          if (d !== 0) return d;
        }
        return ends[a]! - startA - (ends[b]! - startB) || a - b;
      });
    }
    const nameRank = new Uint32Array(n);
    for (let k = 0; k < n; k++) nameRank[byName[k]!] = k;
    const order = this.rankOrder(nameRank, byName);
    const rankOf = new Uint32Array(n);
    for (let r = 0; r < n; r++) rankOf[order[r]!] = r;

    const { codes, ends } = this;
    // Of the codes' width (the boundary mark is ASCII).
    const ranked = codes instanceof Uint8Array ? new Uint8Array(this.codeCount + n + 1) : new Uint16Array(this.codeCount + n + 1);
    const textStarts = new Uint32Array(n + 1);
    const counts = new Uint32Array(n);
    let at = 0;
    ranked[at++] = BOUNDARY_CODE;
    for (let r = 0; r < n; r++) {
      const id = order[r]!;
      textStarts[r] = at;
      for (let c = id === 0 ? 0 : ends[id - 1]!, end = ends[id]!; c < end; c++) ranked[at++] = codes[c]!;
      ranked[at++] = BOUNDARY_CODE;
      counts[r] = this.counts[id]!;
    }
    textStarts[n] = at;
    const sortedTexts = new Uint32Array(n);
    for (let k = 0; k < n; k++) sortedTexts[k] = rankOf[byName[k]!]!;
    return { ranked, textStarts, counts, sortedTexts };
  }

  /**
   * Arrival ids by reports count desc, then username. With a numeric key per id the engine's own
   * numeric sort does the work (no comparator call per comparison): a million in ~0.1 s. The key
   * holds the username rank, which byName turns back into the arrival id.
   */
  private rankOrder(nameRank: Uint32Array, byName: Uint32Array): Uint32Array {
    const n = this.count;
    let maxCount = 0;
    for (let i = 0; i < n; i++) maxCount = Math.max(maxCount, this.counts[i]!);
    if ((maxCount + 1) * n < Number.MAX_SAFE_INTEGER) {
      const keys = new Float64Array(n);
      for (let i = 0; i < n; i++) keys[i] = (maxCount - this.counts[i]!) * n + nameRank[i]!;
      keys.sort();
      const order = new Uint32Array(n);
      for (let r = 0; r < n; r++) order[r] = byName[keys[r]! % n]!;
      return order;
    }
    const { counts } = this;
    return byName.slice().sort((a, b) => counts[b]! - counts[a]! || nameRank[a]! - nameRank[b]!);
  }

  private startOf(id: number): number {
    return id === 0 ? 0 : this.ends[id - 1]!;
  }

  /** Username `id` against codes[start, end), by code unit. */
  private compare(id: number, start: number, end: number): number {
    const a = this.startOf(id);
    const lengthA = this.ends[id]! - a;
    const length = Math.min(lengthA, end - start);
    for (let i = 0; i < length; i++) {
      const d = this.codes[a + i]! - this.codes[start + i]!;
      if (d !== 0) return d;
    }
    return lengthA - (end - start);
  }
}

function grow<T extends Uint8Array | Uint16Array | Uint32Array>(array: T, size: number): T {
  const grown = new (array.constructor as new (n: number) => T)(size);
  grown.set(array);
  return grown;
}

/** The code units as a string: through a byte decoder when all are ASCII (usernames are), a one-byte string. */
function decode(codes: Uint8Array | Uint16Array): string {
  // Bytes are ASCII by construction (UsernameCollector.add).
  if (codes instanceof Uint8Array) return new TextDecoder().decode(codes);
  let ascii = true;
  for (let i = 0; i < codes.length && ascii; i++) ascii = codes[i]! < 0x80;
  if (ascii) return new TextDecoder().decode(Uint8Array.from(codes));
  const parts: string[] = [];
  for (let i = 0; i < codes.length; i += DECODE_CHUNK) parts.push(String.fromCharCode.apply(null, codes.subarray(i, i + DECODE_CHUNK) as unknown as number[]));
  return parts.join("");
}
