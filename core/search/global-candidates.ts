/**
 * The global-search prefilter: for the variants of one query, a bounded set of documents likely
 * to be among fuse.js's best matches in each type, each tagged with the variants that proposed
 * it (only those score it). Three sources:
 *
 * 1. Whole texts. `sortedTexts` puts equal texts and texts starting with the variant next to
 *    each other: one binary search finds exact matches however low their rank, and the texts
 *    starting with the variant, of which each type's best-ranked are taken.
 * 2. Word prefixes. The lists of the grams of " xyz…" (space-padded, so any word start) each
 *    hold, in rank order within each type, every document with a word starting with "xyz…":
 *    walking the shortest, checked against the next shortest, gives each type's best-ranked
 *    prefix matches ("ишт" → "bin" → Binance before Bingo).
 * 3. N-gram votes (global-votes.ts), the fuzzy matches, for the variants the searcher marks
 *    fuzzy (see global-searcher.ts for which).
 *
 * Exact and prefix matches outrank fuzzy ones in a group (the searcher's tiers), so the first two
 * sources must not stop before a type's cap while matches remain: a fuzzy match would then be
 * listed in place of a prefix match. They stop at the cap, or past PREFIX_WALK_PER_TYPE postings
 * of a type, a bound met only by short variants whose grams are in most documents of the type.
 */
import type { GlobalSearchIndex } from "./global-index.ts";
import { GRAM_PAD } from "./global-grams.ts";
import { createGramVoter } from "./global-votes.ts";
import { hashStartGram, hashTrigramAt, listLength, seekPosting, type GramPostings } from "./gram-postings.ts";
import type { QueryVariant } from "./normalize.ts";
import { COMPLETIONS, NO_PREFIX, getCompletion, getPrefixMatch } from "./global-match.ts";
import { createScoredTopList } from "../top-list.ts";
import type { ScoredTopList } from "../top-list.ts";

/** Voted documents kept per type beyond its display limit. */
const VOTED_MARGIN = 12;
/**
 * Texts starting with a variant: up to TEXT_RANGE all proposed; up to RANGE_SCAN, each type's
 * best-ranked; beyond, the word-prefix walk finds them (a text start is a word start). Equal
 * texts up to TEXT_SCAN.
 */
const TEXT_RANGE = 16;
const RANGE_SCAN = 4_096;
const TEXT_SCAN = 256;
/** Postings of each type's prefix list walked at most, per variant. */
const PREFIX_WALK_PER_TYPE = 2_048;
/** The same for the whole-word walk, which only finds what the prefix walk missed: low-ranked words equal to the variant. */
const WHOLE_WORD_WALK_PER_TYPE = 512;

export interface Candidates {
  docs: number[];
  /** Bit v set: variant v proposed the document (and should score it). */
  variantMasks: number[];
}

export interface CandidateFinder {
  /**
   * `fuzzy[v]` false: variant v is looked up for exact and prefix matches only; `textStartsOnly`:
   * for texts starting with it only (no word prefixes inside texts, no votes).
   */
  find(variants: readonly QueryVariant[], limits: ArrayLike<number>, fuzzy: readonly boolean[], textStartsOnly?: boolean): Candidates;
  /** How word-like `text` is for this corpus (see GramVoter). */
  getPlausibility(text: string): number;
  /** Documents holding a trigram (see GramVoter). */
  getTrigramFrequency(padded: string, i: number): number;
  /** Whether some text starts with `variant`. */
  hasTextPrefix(variant: string): boolean;
  /**
   * Readings of `variant` one edit away (global-match.ts's edits: a letter replaced, added or left
   * out, neighbours swapped, letters swapped across a space) that start a text, the edit where the
   * variant stops starting any (or a letter before or after): a misspelt name's start, found in
   * the sorted texts without the n-gram vote, which a crowd of names sharing the query's common
   * words can outvote it in. Only readings that at most MAX_READING_TEXTS texts start with: a
   * shorter, commoner one says little that the vote does not. At most MAX_ONE_EDIT_READINGS;
   * none when the variant starts a text.
   */
  getOneEditPrefixes(variant: string): string[];
}

const MAX_ONE_EDIT_READINGS = 8;
const MAX_READING_TEXTS = 64;
const MIN_READING_HEAD = 2;
/** Letters that follow one text start, read at most. */
const MAX_NEXT_LETTERS = 48;

/** `norms[f]`: text f's fuse.js field norm (fuse-score.ts getFieldNorm); `grams`: the index's (global-grams.ts). */
export function createCandidateFinder(index: GlobalSearchIndex, docType: Uint8Array, norms: ArrayLike<number>, grams: GramPostings): CandidateFinder {
  const { texts, textStarts, typeStarts, sortedTexts } = index;
  const typeCount = index.types.length;
  const textDoc = new Uint32Array(texts.length);
  for (let d = 0; d < index.titles.length; d++) textDoc.fill(d, textStarts[d], textStarts[d + 1]);
  const voter = createGramVoter(index, docType, norms, grams);
  const { table, mask } = voter;
  // Per-query scratch, reused (search is synchronous): variant bits per document, the documents
  // holding any, and one voted list per type. No closures or maps per query: under tsx every
  // closure is wrapped when created, and a map per query is garbage at the p99.
  const masks = new Int32Array(index.titles.length);
  const proposed: number[] = [];
  const tops: ScoredTopList[] = Array.from({ length: typeCount }, () => createScoredTopList(0));
  let limits: ArrayLike<number> = [];
  const rangeDocs = new Uint32Array(RANGE_SCAN + 1);
  const kept = new Int32Array(typeCount * COMPLETIONS);

  function propose(doc: number, bit: number): void {
    if (limits[docType[doc]!]! <= 0) return;
    if (masks[doc] === 0) proposed.push(doc);
    masks[doc]! |= bit;
  }

  /**
   * Texts equal to the variant, and texts starting with it: all when they are few (TEXT_RANGE),
   * each type's best-ranked up to its cap when there are up to RANGE_SCAN, for each word length
   * they complete (global-match.ts: the whole word and a word a letter longer rank first, whatever
   * their rank). Returns whether the text prefixes were all seen; if not, findPrefixed looks for
   * them in rank order.
   */
  function findTexts(variant: string, bit: number): boolean {
    const lo = findFirstText(variant);
    let end = lo;
    while (end < sortedTexts.length && end - lo <= RANGE_SCAN && texts[sortedTexts[end]!]!.startsWith(variant)) end++;
    if (end - lo <= TEXT_RANGE) {
      for (let i = lo; i < end; i++) propose(textDoc[sortedTexts[i]!]!, bit);
      return true;
    }
    // Equal texts sort first: propose them whatever their rank.
    for (let i = lo; i < lo + TEXT_SCAN && i < sortedTexts.length && texts[sortedTexts[i]!]! === variant; i++) propose(textDoc[sortedTexts[i]!]!, bit);
    if (end - lo > RANGE_SCAN) return false;
    // Document order is rank order within a type: sort the range's documents (each with its
    // text's completion, a document's closest first), keep each type's first per completion.
    const count = end - lo;
    for (let i = 0; i < count; i++) {
      const f = sortedTexts[lo + i]!;
      rangeDocs[i] = textDoc[f]! * COMPLETIONS + getCompletion(texts[f]!, variant.length);
    }
    const keys = rangeDocs.subarray(0, count).sort();
    kept.fill(0);
    for (let i = 0; i < count; i++) {
      const doc = (keys[i]! / COMPLETIONS) | 0;
      const slot = docType[doc]! * COMPLETIONS + (keys[i]! % COMPLETIONS);
      if ((i === 0 || ((keys[i - 1]! / COMPLETIONS) | 0) !== doc) && kept[slot]! < limits[docType[doc]!]!) {
        kept[slot]!++;
        propose(doc, bit);
      }
    }
    return true;
  }

  function hasTextPrefix(variant: string): boolean {
    const at = findFirstText(variant);
    return at < sortedTexts.length && texts[sortedTexts[at]!]!.startsWith(variant);
  }

  /** How much of `text` starts some text: its longest common prefix with its neighbours in sortedTexts. */
  function readKnownLength(text: string): number {
    const at = findFirstText(text);
    let known = at > 0 ? countCommonPrefix(texts[sortedTexts[at - 1]!]!, text) : 0;
    if (at < sortedTexts.length) known = Math.max(known, countCommonPrefix(texts[sortedTexts[at]!]!, text));
    return known;
  }

  // getOneEditPrefixes's best reading that starts no text, and how much of it does (scratch).
  let partial: string | undefined;
  let partialKnown = 0;

  /** The readings of `variant` one edit away at or next to `known` (where it stops starting texts) that start texts. */
  function addOneEditReadings(readings: string[], variant: string, known: number): void {
    for (let e = Math.max(0, known - 1); e <= known + 1 && e < variant.length; e++) {
      const head = variant.slice(0, e);
      addReading(readings, head + variant.slice(e + 1), e);
      if (e + 1 < variant.length) addReading(readings, head + variant[e + 1] + variant[e] + variant.slice(e + 2), e + 1);
      if (variant[e] === " " && e > 0 && e + 1 < variant.length) addReading(readings, variant.slice(0, e - 1) + variant[e + 1] + " " + variant[e - 1] + variant.slice(e + 2), e + 1);
      // A letter replaced or added: tried with each letter the texts have there, once the head
      // is long enough to say something (a typo in a name's first letters is the vote's).
      if (e < MIN_READING_HEAD) continue;
      for (const letter of getNextLetters(head)) {
        addReading(readings, head + letter + variant.slice(e + 1), e);
        addReading(readings, head + letter + variant.slice(e), e);
      }
    }
  }

  /**
   * Adds `reading` to `readings` if it starts 1 to MAX_READING_TEXTS texts, up to
   * MAX_ONE_EDIT_READINGS; if it starts none but more than its edit (at `edited`) and more than
   * the partial reading so far, it is the partial reading.
   */
  function addReading(readings: string[], reading: string, edited: number): void {
    if (readings.length >= MAX_ONE_EDIT_READINGS || readings.includes(reading)) return;
    const from = findFirstText(reading);
    const to = from + MAX_READING_TEXTS;
    if (from < sortedTexts.length && texts[sortedTexts[from]!]!.startsWith(reading)) {
      if (to >= sortedTexts.length || !texts[sortedTexts[to]!]!.startsWith(reading)) readings.push(reading);
      return;
    }
    const known = readKnownLength(reading);
    if (known > edited + 1 && known > partialKnown) {
      partial = reading;
      partialKnown = known;
    }
  }

  /** The characters that follow `head` in the texts starting with it, each once: one binary search per character. */
  function getNextLetters(head: string): string[] {
    const letters: string[] = [];
    for (let i = findFirstText(head); i < sortedTexts.length && letters.length < MAX_NEXT_LETTERS; ) {
      const text = texts[sortedTexts[i]!]!;
      if (!text.startsWith(head)) break;
      if (text.length === head.length) {
        i++;
        continue;
      }
      const letter = text[head.length]!;
      letters.push(letter);
      i = findFirstText(head + String.fromCharCode(letter.charCodeAt(0) + 1));
    }
    return letters;
  }

  /** Where `variant` is or would be in sortedTexts. */
  function findFirstText(variant: string): number {
    let lo = 0;
    let hi = sortedTexts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (texts[sortedTexts[mid]!]! < variant) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** 2: a text starts with the variant; 1: a word inside one does (`padded`: GRAM_PAD + variant); 0: neither. */
  function getPrefixKind(doc: number, variant: string, padded: string): number {
    let kind = 0;
    for (let i = textStarts[doc]!; i < textStarts[doc + 1]!; i++) {
      const text = texts[i]!;
      if (text.startsWith(variant)) return 2;
      if (kind === 0 && text.includes(padded)) kind = 1;
    }
    return kind;
  }

  /** 1 when the document's best match of the variant (global-match.ts) is a whole word, else 0. */
  function getWholeWordKind(doc: number, variant: string): number {
    const match = getPrefixMatch(texts, textStarts[doc]!, textStarts[doc + 1]!, variant);
    return match < NO_PREFIX * COMPLETIONS && match % COMPLETIONS === 0 ? 1 : 0;
  }

  /**
   * Each type's best-ranked documents with a word starting with the variant, up to its cap; when
   * the text prefixes were too many for findTexts (`textsSeen` false), also its best-ranked text
   * prefixes, which outrank word prefixes: the walk then goes on until the cap has those. With
   * `wholeWords`, the best-ranked whose word is the variant (those rank first, and the first walk
   * stops at the cap): the lists of " variant " (space-padded both sides, so only a word followed
   * by a space or the text's end; a connector after it is a bound met by domains mostly).
   */
  function findPrefixed(variant: string, bit: number, textsSeen: boolean, wholeWords: boolean): void {
    const padded = wholeWords ? GRAM_PAD + variant + GRAM_PAD : GRAM_PAD + variant;
    const budget = wholeWords ? WHOLE_WORD_WALK_PER_TYPE : PREFIX_WALK_PER_TYPE;
    // Every gram of padded is in a document with a word starting with the variant, so its
    // shortest list holds them all, in rank order; the next shortest rules most others out.
    let driver = hashStartGram(variant, mask, GRAM_PAD);
    let second = -1;
    for (let i = 1; i + 2 < padded.length; i++) {
      const other = hashTrigramAt(padded, i, mask);
      if (other === driver || other === second) continue;
      if (listLength(table, other) < listLength(table, driver)) {
        second = driver;
        driver = other;
      } else if (second === -1 || listLength(table, other) < listLength(table, second)) second = other;
    }
    const end = table.offsets[driver + 1]!;
    const secondEnd = second === -1 ? 0 : table.offsets[second + 1]!;
    for (let t = 0; t < typeCount; t++) {
      const limit = limits[t]!;
      if (limit <= 0) continue;
      const typeEnd = typeStarts[t + 1]!;
      let words = 0;
      let starts = 0;
      let cursor = second === -1 ? 0 : seekPosting(table, second, typeStarts[t]!);
      let p = seekPosting(table, driver, typeStarts[t]!);
      for (let walked = 0; p < end && walked < budget && (textsSeen ? words < limit : starts < limit); p++, walked++) {
        const doc = table.postings[p]!;
        if (doc >= typeEnd) break;
        if (second !== -1) {
          if (cursor < secondEnd && table.postings[cursor]! < doc) cursor = seekPosting(table, second, doc, cursor);
          if (cursor >= secondEnd || table.postings[cursor]! >= typeEnd) break;
          if (table.postings[cursor] !== doc) continue;
        }
        const kind = wholeWords ? getWholeWordKind(doc, variant) : getPrefixKind(doc, variant, padded);
        if (kind === 0) continue;
        if (kind === 2) starts++;
        if (words++ < limit || kind === 2) propose(doc, bit);
      }
    }
  }

  return {
    getPlausibility: voter.getPlausibility,
    getTrigramFrequency: voter.getTrigramFrequency,
    hasTextPrefix,
    getOneEditPrefixes(variant) {
      const readings: string[] = [];
      const known = readKnownLength(variant);
      if (known === variant.length) return readings;
      partial = undefined;
      partialKnown = 0;
      addOneEditReadings(readings, variant, known);
      // None starts a text: a second typo further on? The reading that starts the longest text
      // start, once past its edit, gets the same one more time.
      const first = partial;
      if (readings.length === 0 && first !== undefined) addOneEditReadings(readings, first, partialKnown);
      return readings;
    },
    find(variants, typeLimits, fuzzy, textStartsOnly = false) {
      limits = typeLimits;
      for (let t = 0; t < typeCount; t++) tops[t]!.reset(limits[t]! > 0 ? limits[t]! + VOTED_MARGIN : 0);
      for (let v = 0; v < variants.length; v++) {
        const text = variants[v]!.text;
        const textsSeen = findTexts(text, 1 << v);
        if (text.length >= 2 && !textStartsOnly) {
          findPrefixed(text, 1 << v, textsSeen, false);
          findPrefixed(text, 1 << v, true, true);
        }
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

function countCommonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}
