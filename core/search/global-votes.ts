/**
 * N-gram voting, the fuzzy half of the global-search prefilter (see global-candidates.ts). Each
 * bigram and trigram of a query variant votes for the documents containing it, weighted by
 * rarity (idf). A typo breaks at most three trigrams and two bigrams, so the intended document
 * keeps most of the weight; a variant that is not what the user meant (the wrong-layout reading
 * of a correctly typed query) shares few grams with anything and so proposes little to score.
 *
 * Work per variant is bounded, never proportional to the corpus:
 * - admission walks the rarest lists, at most ADMIT_BUDGET postings (or one list of up to
 *   FIRST_LIST_CAP), and only the documents seen there become contenders;
 * - the next lists, short ones, add weight to contenders only (walked, or searched per
 *   contender when that is cheaper);
 * - common grams (lists longer than BITSET_SHARE of the corpus) are answered by a bitset probe
 *   per contender, for the MAX_PROBED_GRAMS rarest of them; commoner ones, and grams in more
 *   than MAX_LIST_SHARE of documents (" a", "er"), are ignored: they say almost nothing.
 */
import type { GlobalSearchIndex } from "./global-index.ts";
import { hasCyrillic } from "./normalize.ts";
import { GRAM_PAD } from "./global-grams.ts";
import { forEachGram, hashTrigramAt, listLength, seekPosting } from "./gram-postings.ts";
import type { GramPostings } from "./gram-postings.ts";
import type { ScoredTopList } from "../top-list.ts";

const ADMIT_BUDGET = 3_000;
const FIRST_LIST_CAP = ADMIT_BUDGET;
const BITSET_SHARE = 1 / 64;
const MAX_LIST_SHARE = 0.2;
/** The title's share of the fuse.js key weights (2 : 1, see global-searcher.ts). */
const TITLE_SHARE = 2 / 3;
/** At most this many bitset-probed (common) grams per variant. */
const MAX_PROBED_GRAMS = 12;
/** Least share of a variant's gram weight a document needs to be proposed. */
const MIN_VOTE_SHARE = 0.35;

export interface GramVoter {
  readonly table: GramPostings;
  readonly mask: number;
  /** Offers variant v's best-voted documents to `tops` (one list per type), tagged v. */
  vote(variant: string, v: number, tops: readonly ScoredTopList[]): void;
  /** How word-like `text` is for this corpus: mean log document frequency of its trigrams. */
  getPlausibility(text: string): number;
  /** Documents holding the trigram at `padded[i]` (or another in its bucket). */
  getTrigramFrequency(padded: string, i: number): number;
}

/** `table`: the index's grams (global-grams.ts), read from the build's file or derived. */
export function createGramVoter(index: GlobalSearchIndex, docType: Uint8Array, norms: ArrayLike<number>, table: GramPostings): GramVoter {
  const size = index.titles.length;
  const { texts, textStarts } = index;
  const mask = (1 << table.bits) - 1;
  const length = (bucket: number) => listLength(table, bucket);
  // fuse.js scores a record as the product of field scores raised to weight × norm, so a
  // document whose several texts match scores much better than one with a single match.
  // Per document and script, the sum of weight × norm over its texts in that script.
  const exponents = [new Float32Array(size), new Float32Array(size)];
  for (let d = 0; d < size; d++) {
    for (let f = textStarts[d]!; f < textStarts[d + 1]!; f++) {
      const weight = f === textStarts[d] ? TITLE_SHARE : 1 - TITLE_SHARE;
      exponents[hasCyrillic(texts[f]!) ? 1 : 0]![d]! += weight * norms[f]!;
    }
  }
  const bitsetMin = Math.max(64, Math.floor(size * BITSET_SHARE));
  const maxList = Math.max(bitsetMin, Math.floor(size * MAX_LIST_SHARE));
  const bitsets = new Map<number, Uint32Array>();
  for (let b = 0; b <= mask; b++) {
    if (length(b) <= bitsetMin || length(b) > maxList) continue;
    const bits = new Uint32Array((size + 31) >>> 5);
    for (let p = table.offsets[b]!; p < table.offsets[b + 1]!; p++) bits[table.postings[p]! >>> 5]! |= 1 << (table.postings[p]! & 31);
    bitsets.set(b, bits);
  }
  const votes = new Float32Array(size);
  // The rarest list may exceed the admission budget (a query made of common grams only); up to
  // FIRST_LIST_CAP it is walked whole, beyond that the variant proposes nothing by votes.
  // Admission sees at most FIRST_LIST_CAP postings, and never more documents than there are.
  const touched = new Uint32Array(Math.min(size, FIRST_LIST_CAP));
  const totals = new Float64Array(touched.length);

  // Per-query scratch, reused: vote() creates no closures (a new closure per call makes V8 drop
  // its optimised code again and again, "wrong call target") and few arrays.
  const gramBuffer: number[] = [];

  function collectGram(bucket: number): void {
    gramBuffer.push(bucket);
  }

  function vote(variant: string, v: number, tops: readonly ScoredTopList[]): void {
    const exponent = exponents[hasCyrillic(variant) ? 1 : 0]!;
    gramBuffer.length = 0;
    forEachGram(variant, mask, collectGram, GRAM_PAD);
    const lists: number[] = [];
    let absent = 0;
    for (const bucket of new Set(gramBuffer)) {
      const n = listLength(table, bucket);
      if (n === 0) absent++;
      else if (n <= maxList) lists.push(bucket);
    }
    lists.sort(byLength);
    // The commonest grams beyond MAX_PROBED_GRAMS bitset-sized ones are left out of the vote
    // altogether: they tell documents apart least and cost a probe per contender each.
    for (let k = 0, common = 0; k < lists.length; k++) {
      if (bitsets.has(lists[k]!) && ++common > MAX_PROBED_GRAMS) {
        lists.length = k;
        break;
      }
    }
    const weights: number[] = [];
    let present = 0;
    for (const bucket of lists) {
      weights.push(Math.log(1 + size / listLength(table, bucket)));
      present += weights[weights.length - 1]!;
    }
    // Grams no document has count at the mean weight: a typo's few absent grams cost a little,
    // while a variant that is mostly absent grams (a wrong-layout reading of a correct query)
    // cannot crown the documents that happen to hold its few real ones.
    const possible = present + (lists.length > 0 ? (absent * present) / lists.length : 0);
    if (present < possible * MIN_VOTE_SHARE || lists.length === 0 || listLength(table, lists[0]!) > FIRST_LIST_CAP) return;
    let remaining = present;
    let walked = 0;
    let count = 0;
    let k = 0;
    // A document first seen in list k can collect at most the weight of lists k and after.
    for (; k < lists.length && remaining >= possible * MIN_VOTE_SHARE; k++) {
      if (walked + listLength(table, lists[k]!) > ADMIT_BUDGET && walked > 0) break;
      walked += listLength(table, lists[k]!);
      remaining -= weights[k]!;
      for (let p = table.offsets[lists[k]!]!, end = table.offsets[lists[k]! + 1]!; p < end; p++) {
        const doc = table.postings[p]!;
        if (votes[doc] === 0) touched[count++] = doc;
        votes[doc]! += weights[k]!;
      }
    }
    const probes: Uint32Array[] = [];
    const probeWeights: number[] = [];
    for (; k < lists.length; k++) {
      const bits = bitsets.get(lists[k]!);
      if (bits !== undefined) {
        probes.push(bits);
        probeWeights.push(weights[k]!);
      } else addListWeight(lists[k]!, weights[k]!, count);
    }
    for (let i = 0; i < count; i++) {
      totals[i] = votes[touched[i]!]!;
      votes[touched[i]!] = 0;
    }
    count = probeBitsets(count, probes, probeWeights, possible * MIN_VOTE_SHARE);
    for (let i = 0; i < count; i++) {
      const share = totals[i]! / possible;
      if (share < MIN_VOTE_SHARE) continue;
      const doc = touched[i]!;
      const top = tops[docType[doc]!]!;
      // Rank as fuse.js would if every text of the document matched with this share. The
      // exponent is at most 1 for almost all documents, where (1 - share)^e >= 1 - share: that
      // cheap bound turns most documents away before the power.
      const e = exponent[doc]!;
      if (e > 1 || share - 1 >= top.floor()) top.offer(doc, rankValue(share, e), v);
    }
  }

  function byLength(a: number, b: number): number {
    return listLength(table, a) - listLength(table, b);
  }

  /** A list without bitset: walked, or each contender looked up in it, whichever is cheaper. */
  function addListWeight(bucket: number, weight: number, count: number): void {
    const start = table.offsets[bucket]!;
    const end = table.offsets[bucket + 1]!;
    if (end - start <= count * 16) {
      for (let p = start; p < end; p++) {
        const doc = table.postings[p]!;
        if (votes[doc]! > 0) votes[doc]! += weight;
      }
    } else {
      for (let i = 0; i < count; i++) {
        const at = seekPosting(table, bucket, touched[i]!);
        if (at < end && table.postings[at] === touched[i]) votes[touched[i]!]! += weight;
      }
    }
  }

  /**
   * Column by column over dense arrays (sequential reads and writes, one bitset at a time),
   * dropping contenders that can no longer reach `cutoff` even with every gram still to probe.
   */
  function probeBitsets(count: number, probes: readonly Uint32Array[], probeWeights: readonly number[], cutoff: number): number {
    let remaining = 0;
    for (const w of probeWeights) remaining += w;
    for (let j = 0; j < probes.length; j++) {
      const bits = probes[j]!;
      const weight = probeWeights[j]!;
      remaining -= weight;
      let kept = 0;
      for (let i = 0; i < count; i++) {
        const doc = touched[i]!;
        const total = totals[i]! + weight * ((bits[doc >>> 5]! >>> (doc & 31)) & 1);
        // Written always, kept or not: no branch to mispredict on a coin-flip condition.
        touched[kept] = doc;
        totals[kept] = total;
        kept += total + remaining < cutoff ? 0 : 1;
      }
      count = kept;
    }
    return count;
  }

  function getPlausibility(text: string): number {
    let sum = 0;
    let count = 0;
    const padded = GRAM_PAD + text + GRAM_PAD;
    for (let i = 0; i + 2 < padded.length; i++, count++) sum += Math.log(1 + length(hashTrigramAt(padded, i, mask)));
    return count === 0 ? 0 : sum / count;
  }

  function getTrigramFrequency(padded: string, i: number): number {
    return length(hashTrigramAt(padded, i, mask));
  }

  return { table, mask, vote, getPlausibility, getTrigramFrequency };
}

/** The prefilter's ranking value: higher is better (see vote). */
function rankValue(share: number, exponent: number): number {
  return -Math.pow(1.0001 - share, exponent > 0 ? exponent : 1);
}
