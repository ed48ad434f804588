/**
 * How a document's texts match one query variant, for global search's order (global-searcher.ts):
 * the kind of match (exact, a text's prefix, a word's prefix, neither) and, inside a kind, how
 * close the match is.
 *
 * - A prefix completes a word: "lumo" is the whole first word of "Lumo Agency", a letter short
 *   of "Lumox", five short of "Lumoraxen". Someone who typed a whole word, or all of it but its
 *   last letter, most likely meant that word, however popular the longer ones are; beyond one
 *   letter they are still typing, and popularity is the better guess ("bin" → Binance). So
 *   completions are 0 (whole word), 1 (a letter longer) or 2 (longer), and rank breaks ties.
 * - A typo match is one edit away, or not: one edit from a text or a word's start, where a
 *   transposition ("finvxe" for "finvex"), a space moved into or out of a word ("lumoagency",
 *   "lum oagency") and two letters swapped across a space ("luma ogency") are one edit each, as a
 *   reader counts them. fuse.js counts the swaps as two errors and ranks such a query below names
 *   it is two real typos from; one edit away ranks first.
 */

/** Matches of a variant: MatchKind, and its closeness (COMPLETIONS; for typo matches 0 one edit away, 1 not). */
export const EXACT = 0;
export const TEXT_PREFIX = 1;
export const WORD_PREFIX = 2;
export const NO_PREFIX = 3;
/** Completion buckets: whole word, a letter longer, longer. */
export const COMPLETIONS = 3;

const SPACE = 32;

/** Whether the character code ends a word: a space or a connector (normalize.ts keeps `.`, `_`, `-` inside words). */
export function isWordEnd(code: number): boolean {
  return code === SPACE || code === 45 || code === 46 || code === 95;
}

/** Letters of the word running on past text[at] (at = where a prefix of it ended), capped at COMPLETIONS - 1. */
export function getCompletion(text: string, at: number): number {
  let extra = 0;
  while (at + extra < text.length && !isWordEnd(text.charCodeAt(at + extra)) && extra < COMPLETIONS - 1) extra++;
  return extra;
}

/**
 * The best (kind, completion) of `variant` over texts[from, to), as kind * COMPLETIONS + completion:
 * exact, then a text starting with it, then a word inside one starting with it, each by completion.
 */
export function getPrefixMatch(texts: readonly string[], from: number, to: number, variant: string): number {
  let best = NO_PREFIX * COMPLETIONS;
  for (let f = from; f < to; f++) {
    const text = texts[f]!;
    if (text === variant) return EXACT * COMPLETIONS;
    if (text.startsWith(variant)) {
      best = Math.min(best, TEXT_PREFIX * COMPLETIONS + getCompletion(text, variant.length));
      continue;
    }
    if (best <= WORD_PREFIX * COMPLETIONS) continue;
    for (let at = text.indexOf(variant, 1); at !== -1; at = text.indexOf(variant, at + 1)) {
      if (isWordEnd(text.charCodeAt(at - 1))) best = Math.min(best, WORD_PREFIX * COMPLETIONS + getCompletion(text, at + variant.length));
    }
  }
  return best;
}

/** Typo closeness: one edit from a whole word (the query ends where a word does), from a word's start, or neither. */
export const ONE_EDIT_WORD = 0;
export const ONE_EDIT_START = 1;
export const FURTHER = 2;

/** How close `query` is (above) to the start of some text of texts[from, to) or of a word in one. */
export function getTypoCloseness(texts: readonly string[], from: number, to: number, query: string): number {
  let best = FURTHER;
  for (let f = from; f < to && best !== ONE_EDIT_WORD; f++) {
    const text = texts[f]!;
    for (let at = 0; at < text.length && best !== ONE_EDIT_WORD; at++) {
      if ((at === 0 || isWordEnd(text.charCodeAt(at - 1))) && mayBeOneEditFrom(query, text, at)) best = Math.min(best, getOneEditCloseness(query, text, at));
    }
  }
  return best;
}

/**
 * Whether getOneEditCloseness can find one edit at `start`: one of the query's first two
 * characters is among the text's first three there (every edit above leaves one so). Most word
 * starts fail this at once.
 */
function mayBeOneEditFrom(query: string, text: string, start: number): boolean {
  const q0 = query.charCodeAt(0);
  const q1 = query.charCodeAt(1);
  const t0 = text.charCodeAt(start);
  const t1 = text.charCodeAt(start + 1);
  return q0 === t0 || q0 === t1 || q1 === t0 || q1 === t1 || q0 === text.charCodeAt(start + 2);
}

/** Whether `query` is at most one edit from a prefix of text[start..], and whether that prefix is whole words. */
function getOneEditCloseness(query: string, text: string, start: number): number {
  let i = 0;
  while (i < query.length && start + i < text.length && query.charCodeAt(i) === text.charCodeAt(start + i)) i++;
  if (i === query.length) return closenessAt(text, start + i);
  const t = start + i;
  const rest = query.length - i;
  const a = query.charCodeAt(i);
  const b = query.charCodeAt(i + 1);
  let best = FURTHER;
  // A letter replaced, added, left out; neighbours swapped (a space and a letter too: the space
  // moved by one); the letters either side of a space swapped. Each: where in the text the query ends.
  if (startsAt(query, i + 1, text, t + 1)) best = Math.min(best, closenessAt(text, t + rest));
  if (startsAt(query, i + 1, text, t)) best = Math.min(best, closenessAt(text, t + rest - 1));
  if (startsAt(query, i, text, t + 1)) best = Math.min(best, closenessAt(text, t + rest + 1));
  if (a === text.charCodeAt(t + 1) && b === text.charCodeAt(t) && startsAt(query, i + 2, text, t + 2)) best = Math.min(best, closenessAt(text, t + rest));
  if (b === SPACE && text.charCodeAt(t + 1) === SPACE && a === text.charCodeAt(t + 2) && query.charCodeAt(i + 2) === text.charCodeAt(t) && startsAt(query, i + 3, text, t + 3)) {
    best = Math.min(best, closenessAt(text, t + rest));
  }
  return best;
}

function closenessAt(text: string, end: number): number {
  return end >= text.length || isWordEnd(text.charCodeAt(end)) ? ONE_EDIT_WORD : ONE_EDIT_START;
}

/** Whether query[q..] is text[t..t + its length] (text running out first: no). */
function startsAt(query: string, q: number, text: string, t: number): boolean {
  if (text.length - t < query.length - q) return false;
  for (; q < query.length; q++, t++) if (query.charCodeAt(q) !== text.charCodeAt(t)) return false;
  return true;
}
