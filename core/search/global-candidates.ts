/**
 * The global-search prefilter: for the variants of one query, a bounded set of documents likely
 * to be among fuse.js's best matches in each type, each tagged with the variants that proposed
 * it (only those score it). Three sources:
 *
 * 1. Whole texts. `sortedTexts` puts equal texts and texts starting with the variant next to
 *    each other: one binary search finds exact matches (and text-prefix matches, when few),
 *    however low their rank.
 * 2. Word prefixes. The list of the gram " xy" (space-padded, so any word start) holds, in rank
 *    order within each type, every document with a word starting with "xy". Walking the head of
 *    each type's segment and checking the whole variant gives the best-ranked prefix matches
 *    ("ишт" → "bin" → Binance before Bingo).
 * 3. N-gram votes (global-votes.ts), the fuzzy matches, for the variants the searcher marks
 *    fuzzy (see global-searcher.ts for which).
 */
import type { GlobalSearchIndex } from "./global-index.ts";
import { GRAM_PAD, createGramVoter } from "./global-votes.ts";
import { hashStartGram, seekPosting } from "./gram-postings.ts";
import type { QueryVariant } from "./normalize.ts";
import { createTopList } from "./top-list.ts";

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

  /**
   * Texts equal to the variant, and all texts starting with it when they are few (TEXT_RANGE):
   * a long range is left to findPrefixed, which reads prefix matches in rank order.
   */
  function findTexts(variant: string, add: (doc: number) => void): void {
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
      if (end - lo <= TEXT_RANGE || text === variant) add(textDoc[sortedTexts[i]!]!);
    }
    // Equal texts sort first; past a long range, keep looking only for those.
    for (let i = end; i < sortedTexts.length && i < lo + TEXT_SCAN && texts[sortedTexts[i]!]! === variant; i++) add(textDoc[sortedTexts[i]!]!);
  }

  function hasWordPrefix(doc: number, variant: string): boolean {
    for (let i = textStarts[doc]!; i < textStarts[doc + 1]!; i++) {
      const text = texts[i]!;
      if (text.startsWith(variant) || text.includes(GRAM_PAD + variant)) return true;
    }
    return false;
  }

  function findPrefixed(variant: string, limits: ArrayLike<number>, add: (doc: number) => void): void {
    const bucket = hashStartGram(variant, mask, GRAM_PAD);
    const end = table.offsets[bucket + 1]!;
    for (let t = 0; t < typeCount; t++) {
      const typeEnd = typeStarts[t + 1]!;
      let kept = 0;
      let p = seekPosting(table, bucket, typeStarts[t]!);
      for (let walked = 0; p < end && walked < PREFIX_WALK_PER_TYPE && kept < limits[t]!; p++, walked++) {
        const doc = table.postings[p]!;
        if (doc >= typeEnd) break;
        if (hasWordPrefix(doc, variant)) {
          add(doc);
          kept++;
        }
      }
    }
  }

  return {
    getPlausibility: voter.getPlausibility,
    find(variants, limits, fuzzy) {
      const masks = new Map<number, number>();
      const tops = Array.from({ length: typeCount }, (_, t) => createTopList(limits[t]! > 0 ? limits[t]! + VOTED_MARGIN : 0));
      variants.forEach((variant, v) => {
        const add = (doc: number) => {
          if (limits[docType[doc]!]! > 0) masks.set(doc, (masks.get(doc) ?? 0) | (1 << v));
        };
        findTexts(variant.text, add);
        if (variant.text.length >= 2) findPrefixed(variant.text, limits, add);
        if (fuzzy[v]) voter.vote(variant.text, v, tops);
      });
      for (const top of tops) top.forEach((doc, v) => masks.set(doc, (masks.get(doc) ?? 0) | (1 << v)));
      return { docs: [...masks.keys()], variantMasks: [...masks.values()] };
    },
  };
}
