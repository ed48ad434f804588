/**
 * The global-search prefilter: for the variants of one query, a bounded set of documents likely
 * to be among fuse.js's best matches in each type, each tagged with the variants that proposed
 * it (only those score it). Three sources:
 *
 * 1. Whole texts. `sortedTexts` puts equal texts and texts starting with the variant next to
 *    each other: one binary search finds exact matches (and text-prefix matches, when few),
 *    however low their rank.
 * 2. Word prefixes. The list of the gram " xy" (space-padded, so any word start) holds, in rank
 *    order within each type, every document with a word starting with "xy"; so does the list of
 *    any other trigram of " xyz…", and the shortest is walked. Walking the head of each type's
 *    segment and checking the whole variant gives the best-ranked prefix matches ("ишт" → "bin"
 *    → Binance before Bingo).
 * 3. N-gram votes (global-votes.ts), the fuzzy matches, for the variants the searcher marks
 *    fuzzy (see global-searcher.ts for which).
 */
import type { GlobalSearchIndex } from "./global-index.ts";
import { GRAM_PAD, createGramVoter } from "./global-votes.ts";
import { hashStartGram, hashTrigramAt, listLength, seekPosting } from "./gram-postings.ts";
import type { QueryVariant } from "./normalize.ts";
import { createScoredTopList } from "../top-list.ts";
import type { ScoredTopList } from "../top-list.ts";

/** Voted documents kept per type beyond its display limit. */
const VOTED_MARGIN = 12;
/** Texts starting with a variant taken whole up to TEXT_RANGE; equal texts up to TEXT_SCAN. */
const TEXT_RANGE = 16;
const TEXT_SCAN = 256;
/** Head of each type's prefix list walked. */
const PREFIX_WALK_PER_TYPE = 32;

export interface Candidates {
  docs: number[];
  /** Bit v set: variant v proposed the document (and should score it). */
  variantMasks: number[];
}

export interface CandidateFinder {
  /** `fuzzy[v]` false: variant v is looked up for exact and prefix matches only. */
  find(variants: readonly QueryVariant[], limits: ArrayLike<number>, fuzzy: readonly boolean[]): Candidates;
  /** How word-like `text` is for this corpus (see GramVoter). */
  getPlausibility(text: string): number;
}

/** `norms[f]`: text f's fuse.js field norm (fuse-score.ts getFieldNorm). */
export function createCandidateFinder(index: GlobalSearchIndex, docType: Uint8Array, norms: ArrayLike<number>): CandidateFinder {
  const { texts, textStarts, typeStarts, sortedTexts } = index;
  const typeCount = index.types.length;
  const textDoc = new Uint32Array(texts.length);
  for (let d = 0; d < index.titles.length; d++) textDoc.fill(d, textStarts[d], textStarts[d + 1]);
  const voter = createGramVoter(index, docType, norms);
  const { table, mask } = voter;
  // Per-query scratch, reused (search is synchronous): variant bits per document, the documents
  // holding any, and one voted list per type. No closures or maps per query: under tsx every
  // closure is wrapped when created, and a map per query is garbage at the p99.
  const masks = new Int32Array(index.titles.length);
  const proposed: number[] = [];
  const tops: ScoredTopList[] = Array.from({ length: typeCount }, () => createScoredTopList(0));
  let limits: ArrayLike<number> = [];

  function propose(doc: number, bit: number): void {
    if (limits[docType[doc]!]! <= 0) return;
    if (masks[doc] === 0) proposed.push(doc);
    masks[doc]! |= bit;
  }

  /**
   * Texts equal to the variant, and all texts starting with it when they are few (TEXT_RANGE):
   * a long range is left to findPrefixed, which reads prefix matches in rank order.
   */
  function findTexts(variant: string, bit: number): void {
    let lo = 0;
    let hi = sortedTexts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (texts[sortedTexts[mid]!]! < variant) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < sortedTexts.length && end - lo <= TEXT_RANGE && texts[sortedTexts[end]!]!.startsWith(variant)) end++;
    for (let i = lo; i < end; i++) {
      const text = texts[sortedTexts[i]!]!;
      if (end - lo <= TEXT_RANGE || text === variant) propose(textDoc[sortedTexts[i]!]!, bit);
    }
    // Equal texts sort first; past a long range, keep looking only for those.
    for (let i = end; i < sortedTexts.length && i < lo + TEXT_SCAN && texts[sortedTexts[i]!]! === variant; i++) propose(textDoc[sortedTexts[i]!]!, bit);
  }

  /** `padded`: GRAM_PAD + variant, a word start inside a text. */
  function hasWordPrefix(doc: number, variant: string, padded: string): boolean {
    for (let i = textStarts[doc]!; i < textStarts[doc + 1]!; i++) {
      const text = texts[i]!;
      if (text.startsWith(variant) || text.includes(padded)) return true;
    }
    return false;
  }

  function findPrefixed(variant: string, bit: number): void {
    const padded = GRAM_PAD + variant;
    // Every trigram of padded is in a document with a word starting with the variant, so its
    // shortest list holds them all, in rank order, with the fewest others to step over.
    let bucket = hashStartGram(variant, mask, GRAM_PAD);
    for (let i = 1; i + 2 < padded.length; i++) {
      const other = hashTrigramAt(padded, i, mask);
      if (listLength(table, other) < listLength(table, bucket)) bucket = other;
    }
    const end = table.offsets[bucket + 1]!;
    for (let t = 0; t < typeCount; t++) {
      const typeEnd = typeStarts[t + 1]!;
      let kept = 0;
      let p = seekPosting(table, bucket, typeStarts[t]!);
      for (let walked = 0; p < end && walked < PREFIX_WALK_PER_TYPE && kept < limits[t]!; p++, walked++) {
        const doc = table.postings[p]!;
        if (doc >= typeEnd) break;
        if (hasWordPrefix(doc, variant, padded)) {
          propose(doc, bit);
          kept++;
        }
      }
    }
  }

  return {
    getPlausibility: voter.getPlausibility,
    find(variants, typeLimits, fuzzy) {
      limits = typeLimits;
      for (let t = 0; t < typeCount; t++) tops[t]!.reset(limits[t]! > 0 ? limits[t]! + VOTED_MARGIN : 0);
      for (let v = 0; v < variants.length; v++) {
        const text = variants[v]!.text;
        findTexts(text, 1 << v);
        if (text.length >= 2) findPrefixed(text, 1 << v);
        if (fuzzy[v]) voter.vote(text, v, tops);
      }
      for (const top of tops) {
        for (let k = 0; k < top.size; k++) propose(top.idAt(k), 1 << top.tagAt(k));
      }
      const variantMasks = proposed.map((doc) => masks[doc]!);
      const docs = proposed.slice();
      for (const doc of proposed) masks[doc] = 0;
      proposed.length = 0;
      return { docs, variantMasks };
    },
  };
}
