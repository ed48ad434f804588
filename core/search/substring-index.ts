/**
 * Case-insensitive substring search over records with one or more folded texts, ranked exact >
 * prefix > substring, then by record number (records are numbered in rank order by the caller).
 * Live search runs three of these: companies, people, and up to a million spammer usernames.
 *
 * Layout, all typed arrays but one string (serialisable as raw bytes):
 * - `joined`: every text between BOUNDARY marks; text t is joined[textStarts[t], textStarts[t+1] - 1);
 *   record r owns texts recordTexts[r] .. recordTexts[r + 1] - 1.
 * - `sortedTexts`: text ids ordered by text, so exact and prefix matches are one binary search.
 * - `grams`: hashed bigram/trigram postings per record (gram-postings.ts), in record order.
 *
 * A query walks, in rank order, the shortest posting list among its grams, skipping ahead in the
 * second shortest by binary search, and verifies survivors against the text. A walk stops when
 * enough results are found, or after MAX_WALK postings: a documented bound, reached only by a
 * query made of very common grams that matches almost nothing, which may then miss late,
 * low-ranked matches.
 */
import { BOUNDARY, buildGramPostings, hashBigramAt, hashStartGram, hashTrigramAt, listLength, readList, seekOwner } from "./gram-postings.ts";
import type { ReadableGramPostings } from "./gram-postings.ts";

export interface SubstringIndex {
  joined: string;
  textStarts: Uint32Array;
  recordTexts: Uint32Array;
  sortedTexts: Uint32Array;
  /** Held, or (the server's usernames) read list by list as searches need them. */
  grams: ReadableGramPostings;
}

export type SubstringMatchKind = "exact" | "prefix" | "substring";

export interface SubstringMatch {
  record: number;
  kind: SubstringMatchKind;
}

const MAX_WALK = 200_000;
/** Prefix ranges up to this many texts are read whole; longer ones are walked in rank order. */
const RANGE_SCAN = 1_024;

/**
 * Record r's texts are texts[recordTexts[r] .. recordTexts[r + 1]); without `recordTexts`, one
 * text per record (usernames: a million one-element arrays would cost more than the index).
 */
export function createSubstringIndex(texts: readonly string[], recordTexts?: ArrayLike<number>): SubstringIndex {
  const textStarts = new Uint32Array(texts.length + 1);
  let offset = 1;
  texts.forEach((text, t) => {
    textStarts[t] = offset;
    offset += text.length + 1;
  });
  textStarts[texts.length] = offset;
  const sorted = Uint32Array.from(texts, (_, t) => t);
  sorted.sort((a, b) => (texts[a]! < texts[b]! ? -1 : texts[a]! > texts[b]! ? 1 : a - b));
  return createSubstringIndexFromJoined({ joined: BOUNDARY + texts.join(BOUNDARY) + BOUNDARY, textStarts }, sorted, recordTexts);
}

/**
 * The same index over texts already laid end to end (`joined` as SubstringIndex holds it,
 * BOUNDARY before and after every text), with `sortedTexts` in text order: the live index
 * gets a million usernames this way, without a string or an object per username.
 */
export function createSubstringIndexFromJoined(texts: { joined: string; textStarts: Uint32Array }, sortedTexts: Uint32Array, recordTexts?: ArrayLike<number>): SubstringIndex {
  const count = texts.textStarts.length - 1;
  let csr: Uint32Array;
  if (recordTexts === undefined) {
    csr = new Uint32Array(count + 1);
    for (let i = 0; i <= count; i++) csr[i] = i;
  } else csr = Uint32Array.from(recordTexts);
  // About one bucket per four characters of text: sparse enough that collisions stay rare.
  const bits = Math.min(20, Math.max(10, Math.ceil(Math.log2(Math.max(1, texts.joined.length) / 4))));
  const grams = buildGramPostings(texts, csr, bits, { kind: "substring" });
  return { joined: texts.joined, textStarts: texts.textStarts, recordTexts: csr, sortedTexts, grams };
}

/** The best `limit` matches of the folded query `q` (at least 2 characters). */
export function searchSubstrings(index: SubstringIndex, q: string, limit: number): SubstringMatch[] {
  if (q.length < 2 || limit <= 0 || q.includes(BOUNDARY)) return [];
  const { joined, textStarts, recordTexts, sortedTexts, grams } = index;
  const taken = new Set<number>();
  const out: SubstringMatch[] = [];
  const take = (records: number[], kind: SubstringMatchKind) => {
    records.sort((a, b) => a - b);
    for (const record of records) {
      if (out.length >= limit) return;
      if (taken.has(record)) continue;
      taken.add(record);
      out.push({ record, kind });
    }
  };

  // Texts are compared in place, without slicing them out of `joined`.
  let lo = 0;
  let hi = sortedTexts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareText(joined, textStarts[sortedTexts[mid]!]!, textStarts[sortedTexts[mid]! + 1]! - 1, q) < 0) lo = mid + 1;
    else hi = mid;
  }
  const exact: number[] = [];
  let end = lo;
  for (; end < sortedTexts.length && end - lo < RANGE_SCAN; end++) {
    const text = sortedTexts[end]!;
    if (!joined.startsWith(q, textStarts[text]!)) break;
    if (textStarts[text + 1]! - 1 - textStarts[text]! === q.length) exact.push(recordOf(index, text));
  }
  take(exact, "exact");
  if (end - lo < RANGE_SCAN) {
    const prefixed: number[] = [];
    for (let i = lo; i < end; i++) prefixed.push(recordOf(index, sortedTexts[i]!));
    take(prefixed, "prefix");
  } else {
    const hasPrefix = (record: number) => {
      for (let t = recordTexts[record]!; t < recordTexts[record + 1]!; t++) if (joined.startsWith(q, textStarts[t]!)) return true;
      return false;
    };
    walk(grams, [hashStartGram(q, (1 << grams.bits) - 1), ...getGrams(q, grams)], hasPrefix, taken, limit - out.length, (r) => out.push({ record: r, kind: "prefix" }));
  }
  if (out.length < limit) {
    // Bounded to the text: indexOf on `joined` could run on through megabytes of other texts.
    const contains = (record: number) => {
      for (let t = recordTexts[record]!; t < recordTexts[record + 1]!; t++) {
        for (let at = textStarts[t]!, last = textStarts[t + 1]! - 1 - q.length; at <= last; at++) {
          if (joined.startsWith(q, at)) return true;
        }
      }
      return false;
    };
    walk(grams, getGrams(q, grams), contains, taken, limit - out.length, (r) => out.push({ record: r, kind: "substring" }));
  }
  return out;
}

/** Record `record`'s first text (a username, in the live index's username group). */
export function getRecordText(index: SubstringIndex, record: number): string {
  const text = index.recordTexts[record]!;
  return index.joined.slice(index.textStarts[text]!, index.textStarts[text + 1]! - 1);
}

/** Compares joined[start, end) with `q` by UTF-16 code units, as `<` does on strings. */
function compareText(joined: string, start: number, end: number, q: string): number {
  const n = Math.min(end - start, q.length);
  for (let i = 0; i < n; i++) {
    const d = joined.charCodeAt(start + i) - q.charCodeAt(i);
    if (d !== 0) return d;
  }
  return end - start - q.length;
}

function recordOf(index: SubstringIndex, text: number): number {
  // recordTexts is ascending: binary search for the record owning `text`.
  let lo = 0;
  let hi = index.recordTexts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (index.recordTexts[mid]! <= text) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The query's own grams (no padding): bigram for two characters, trigrams beyond. */
function getGrams(q: string, grams: ReadableGramPostings): number[] {
  const mask = (1 << grams.bits) - 1;
  if (q.length === 2) return [hashBigramAt(q, 0, mask)];
  const out: number[] = [];
  for (let i = 0; i + 2 < q.length; i++) out.push(hashTrigramAt(q, i, mask));
  return out;
}

/** Postings of the walked list read at a time, when postings are read rather than held. */
const WALK_CHUNK = 4_096;

/**
 * Visits, in record order, records present in every list of `buckets` (checked on the two
 * shortest) that pass `verify` and are not `taken`, until `need` are found or MAX_WALK. The
 * shortest list is read a chunk at a time (a walk usually stops early), the second whole.
 */
function walk(grams: ReadableGramPostings, buckets: number[], verify: (record: number) => boolean, taken: Set<number>, need: number, found: (record: number) => void): void {
  if (need <= 0) return;
  const lists = [...new Set(buckets)].sort((a, b) => listLength(grams, a) - listLength(grams, b));
  const driver = lists[0];
  if (driver === undefined) return;
  const second = lists[1] === undefined ? null : readList(grams, lists[1]);
  const chunkSize = grams.postings instanceof Uint32Array ? MAX_WALK : WALK_CHUNK;
  let cursor = 0;
  const total = Math.min(listLength(grams, driver), MAX_WALK);
  for (let read = 0; read < total; ) {
    const chunk = readList(grams, driver, read, Math.min(chunkSize, total - read));
    read += chunk.length;
    for (let p = 0; p < chunk.length; p++) {
      const record = chunk[p]!;
      if (second !== null) {
        if (cursor < second.length && second[cursor]! < record) cursor = seekOwner(second, record, cursor, second.length);
        if (cursor >= second.length) return;
        if (second[cursor] !== record) continue;
      }
      if (taken.has(record) || !verify(record)) continue;
      taken.add(record);
      found(record);
      if (--need === 0) return;
    }
  }
}
