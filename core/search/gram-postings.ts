/**
 * Hashed n-gram postings: for every bigram and trigram of a text padded with one boundary mark on
 * each side, the ascending list of owners (documents, records) whose texts contain it.
 *
 * Grams are hashed into a fixed power-of-two table instead of being kept as strings: the table is
 * two typed arrays (CSR layout), builds in one counting pass and one filling pass, and costs no
 * per-gram objects at any alphabet size (Cyrillic, emoji). A collision only adds owners that the
 * caller's verification or scoring rejects; it never loses one.
 *
 * Owners are visited in ascending order, so every posting list is sorted. Callers number owners
 * in rank order, which makes "the first k entries of a list" mean "the k best-ranked owners".
 */

export interface GramPostings {
  /** `bits`-bit table: list b is postings[offsets[b] .. offsets[b + 1]). */
  readonly bits: number;
  readonly offsets: Uint32Array;
  readonly postings: Uint32Array;
}

/** Padding mark between texts and at their ends; folded text never contains it. */
export const BOUNDARY = "\u0001";
const BIGRAM_TAG = 0xffff;

function hashGram(a: number, b: number, c: number, mask: number): number {
  let h = Math.imul(a ^ 0x5bd1e995, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 15) ^ b, 0x85ebca77);
  h = Math.imul(h ^ (h >>> 13) ^ c, 0xc2b2ae3d);
  h ^= h >>> 16;
  return h & mask;
}

export function hashTrigramAt(text: string, i: number, mask: number): number {
  return hashGram(text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2), mask);
}

export function hashBigramAt(text: string, i: number, mask: number): number {
  return hashGram(text.charCodeAt(i), text.charCodeAt(i + 1), BIGRAM_TAG, mask);
}

/** The bucket of the trigram "pad + first two characters": texts (or words) starting with them. */
export function hashStartGram(text: string, mask: number, pad = BOUNDARY): number {
  return hashGram(pad.charCodeAt(0), text.charCodeAt(0), text.charCodeAt(1), mask);
}

/**
 * Calls `emit` with the bucket of every trigram and bigram of pad + text + pad. Global search
 * pads with a space, so that the start of a text and the start of any word inside it give the
 * same grams.
 */
export function forEachGram(text: string, mask: number, emit: (bucket: number) => void, pad = BOUNDARY): void {
  const padded = pad + text + pad;
  for (let i = 0; i + 1 < padded.length; i++) {
    emit(hashBigramAt(padded, i, mask));
    if (i + 2 < padded.length) emit(hashTrigramAt(padded, i, mask));
  }
}

/**
 * The grams substring search needs, and no more: the text's own bigrams and trigrams, and the
 * start gram (BOUNDARY + first two characters) that finds prefixes.
 */
export function forEachSubstringGram(text: string, mask: number, emit: (bucket: number) => void): void {
  if (text.length >= 2) emit(hashStartGram(text, mask));
  for (let i = 0; i + 1 < text.length; i++) {
    emit(hashBigramAt(text, i, mask));
    if (i + 2 < text.length) emit(hashTrigramAt(text, i, mask));
  }
}

/** Which grams a table holds: forEachGram's (space-padded) or forEachSubstringGram's. */
export type GramSet = { kind: "padded"; pad: string } | { kind: "substring" };

/**
 * Texts laid end to end in one string: text t is joined[textStarts[t], textStarts[t + 1] - 1)
 * (one separator after each). A million usernames cost one string this way, not a million.
 */
export interface JoinedTexts {
  joined: string;
  textStarts: ArrayLike<number>;
}

/**
 * Builds the table for owners 0..n-1, owner o having texts[ownerTexts[o] .. ownerTexts[o + 1]).
 * An owner is listed once per gram however many of its texts contain it. The gram loops of
 * forEachGram / forEachSubstringGram are written out here (same hashes): this runs over every
 * character of the corpus when the server starts, and callbacks per gram cost half that time.
 * Two passes over the texts: the first counts each list's owners, the second places them. Hashing
 * twice costs less than keeping every owner's buckets between the passes: an array of two entries
 * per character of the corpus, 128 MB beside the postings at a million usernames, which is where
 * the build's memory peaked.
 */
export function buildGramPostings(texts: readonly string[] | JoinedTexts, ownerTexts: ArrayLike<number>, bits: number, gramSet: GramSet): GramPostings {
  const size = 1 << bits;
  const counts = new Uint32Array(size + 1);
  const lastOwner = new Int32Array(size);
  const total = passOverGrams(texts, ownerTexts, size - 1, gramSet, lastOwner, counts, null);
  for (let b = 0; b < size; b++) counts[b + 1]! += counts[b]!;
  const offsets = counts;
  const postings = new Uint32Array(total);
  passOverGrams(texts, ownerTexts, size - 1, gramSet, lastOwner, offsets.slice(0, size), postings);
  return { bits, offsets, postings };
}

/**
 * One pass over every owner's grams, each distinct bucket of an owner once. Without `postings` it
 * counts them (`lists[bucket + 1]++`); with it, it places each owner at `lists[bucket]++`, owners
 * in ascending order, so each list ascends. Returns how many (owner, bucket) pairs there are.
 */
function passOverGrams(
  texts: readonly string[] | JoinedTexts,
  ownerTexts: ArrayLike<number>,
  mask: number,
  gramSet: GramSet,
  lastOwner: Int32Array,
  lists: Uint32Array,
  postings: Uint32Array | null,
): number {
  const ownerCount = ownerTexts.length - 1;
  lastOwner.fill(-1);
  const at = postings === null ? 1 : 0;
  const joined = "joined" in texts ? texts : null;
  const list = joined === null ? (texts as readonly string[]) : null;
  const padded = gramSet.kind === "padded";
  const padCode = gramSet.kind === "padded" ? gramSet.pad.charCodeAt(0) : 0;
  const boundaryCode = BOUNDARY.charCodeAt(0);
  let pairs = 0;
  // No closures in this loop: it runs over every character of the corpus (the server derives the
  // global postings this way at start), and variables a closure captures cannot stay in
  // registers. The current text is source[base, base + length); `char(k)` below is written out as
  // "k is a padding position ? padCode : source.charCodeAt(first + k)". Each gram's bucket is
  // taken once per owner (lastOwner), then counted or placed.
  for (let owner = 0; owner < ownerCount; owner++) {
    for (let t = ownerTexts[owner]!; t < ownerTexts[owner + 1]!; t++) {
      let source: string;
      let base: number;
      let length: number;
      if (list !== null) {
        source = list[t]!;
        base = 0;
        length = source.length;
      } else {
        source = joined!.joined;
        base = joined!.textStarts[t]!;
        length = joined!.textStarts[t + 1]! - 1 - base;
      }
      const span = padded ? length + 2 : length;
      const first = padded ? base - 1 : base;
      const last = padded ? length + 1 : -1;
      if (!padded && length >= 2) {
        const bucket = hashGram(boundaryCode, source.charCodeAt(base), source.charCodeAt(base + 1), mask);
        if (lastOwner[bucket] !== owner) {
          lastOwner[bucket] = owner;
          pairs++;
          if (postings === null) lists[bucket + at]!++;
          else postings[lists[bucket]!++] = owner;
        }
      }
      let a = span > 0 ? (padded ? padCode : source.charCodeAt(first)) : 0;
      for (let i = 0; i + 1 < span; i++) {
        const b = i + 1 === last ? padCode : source.charCodeAt(first + i + 1);
        let bucket = hashGram(a, b, BIGRAM_TAG, mask);
        if (lastOwner[bucket] !== owner) {
          lastOwner[bucket] = owner;
          pairs++;
          if (postings === null) lists[bucket + at]!++;
          else postings[lists[bucket]!++] = owner;
        }
        if (i + 2 < span) {
          bucket = hashGram(a, b, i + 2 === last ? padCode : source.charCodeAt(first + i + 2), mask);
          if (lastOwner[bucket] !== owner) {
            lastOwner[bucket] = owner;
            pairs++;
            if (postings === null) lists[bucket + at]!++;
            else postings[lists[bucket]!++] = owner;
          }
        }
        a = b;
      }
    }
  }
  return pairs;
}

/** First position in list `bucket`, at or after `from`, whose owner is >= `owner`. */
export function seekPosting(table: GramPostings, bucket: number, owner: number, from = table.offsets[bucket]!): number {
  return seekOwner(table.postings, owner, from, table.offsets[bucket + 1]!);
}

/** First position of `postings` in [from, end) whose owner is >= `owner` (they ascend there). */
export function seekOwner(postings: Uint32Array, owner: number, from: number, end: number): number {
  let lo = from;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (postings[mid]! < owner) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function listLength(table: Pick<GramPostings, "offsets">, bucket: number): number {
  return table.offsets[bucket + 1]! - table.offsets[bucket]!;
}

/**
 * Postings that stay where they are rather than in memory: the server's username postings, a
 * hundred megabytes at a million usernames, of which a search reads a few lists.
 */
export interface PostingReader {
  /** Postings [start, start + count) of the table, in a new array. */
  read(start: number, count: number): Uint32Array;
}

/** A table whose postings are held, or read list by list (the substring index's, see live-index-format.ts). */
export interface ReadableGramPostings {
  readonly bits: number;
  readonly offsets: Uint32Array;
  readonly postings: Uint32Array | PostingReader;
}

/** Postings [from, from + count) of list `bucket` (the rest of it by default): a view of held postings, or read. */
export function readList(table: ReadableGramPostings, bucket: number, from = 0, count = listLength(table, bucket) - from): Uint32Array {
  const start = table.offsets[bucket]! + from;
  const { postings } = table;
  return postings instanceof Uint32Array ? postings.subarray(start, start + count) : postings.read(start, count);
}
