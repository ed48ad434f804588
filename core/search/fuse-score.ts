/**
 * fuse.js 7.5's scoring, ported line for line onto typed arrays: the bitap matcher
 * (src/search/bitap/search.ts), BitapSearch.searchIn's 32-character chunking, the field-length
 * norm and computeScoreSingle's weighted product. Why a port: fuse.js allocates holey arrays per
 * error level and per text, which costs 15–100 µs per (query, text) pair; with that, scoring even
 * a hundred candidates per query would blow the latency budget. The port computes the same
 * floating-point numbers in the same order (test/core/search-global.test.ts checks it against fuse.js
 * itself on random documents), so "the candidate's fuse.js score" stays literally true.
 *
 * Only the options this project uses are ported: location 0 (expected at the text start),
 * distance 100, a threshold, case-sensitive matching of pre-folded text, findAllMatches off,
 * minMatchCharLength 1, no match indices.
 */

const MAX_BITS = 32;
const LOCATION = 0;
const DISTANCE = 100;
/** fuse.js's result for a record that matched nowhere; scores of matches are <= 1. */
export const NO_MATCH = -1;

interface Chunk {
  pattern: string;
  startIndex: number;
  /** Bit mask per character (fuse.js's pattern alphabet): a table for Latin and Cyrillic, a map beyond. */
  masks: Int32Array;
  otherMasks: Map<number, number>;
  /** Per character, 1 + its slot among the chunk's distinct characters; and each slot's count. */
  slots: Uint8Array;
  otherSlots: Map<number, number>;
  slotCounts: Int32Array;
  /** Fewest pattern characters a text must hold to match within the threshold (see searchChunk). */
  minShared: number;
}

const TABLE_CHARS = 0x500;

// Scratch buffers shared by all patterns (matching is synchronous), grown on demand.
let codes = new Int32Array(256);
let levelA = new Int32Array(256);
let levelB = new Int32Array(256);
const textCounts = new Int32Array(MAX_BITS + 1);

function ensureScratch(size: number): void {
  if (codes.length >= size) return;
  const length = Math.max(size, codes.length * 2);
  codes = new Int32Array(length);
  levelA = new Int32Array(length);
  levelB = new Int32Array(length);
}

function createChunk(pattern: string, startIndex: number, threshold: number): Chunk {
  const chunk: Chunk = {
    pattern,
    startIndex,
    masks: new Int32Array(TABLE_CHARS),
    otherMasks: new Map(),
    slots: new Uint8Array(TABLE_CHARS),
    otherSlots: new Map(),
    slotCounts: new Int32Array(MAX_BITS + 1),
    minShared: 0,
  };
  let slotCount = 0;
  for (let i = 0; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i);
    const bit = 1 << (pattern.length - i - 1);
    let slot = code < TABLE_CHARS ? chunk.slots[code]! : (chunk.otherSlots.get(code) ?? 0);
    if (slot === 0) {
      slot = ++slotCount;
      if (code < TABLE_CHARS) chunk.slots[code] = slot;
      else chunk.otherSlots.set(code, slot);
    }
    chunk.slotCounts[slot]!++;
    if (code < TABLE_CHARS) chunk.masks[code]! |= bit;
    else chunk.otherMasks.set(code, (chunk.otherMasks.get(code) ?? 0) | bit);
  }
  // fuse.js only tries error level i >= 1 when i / length <= threshold. A match with i errors
  // pairs at least length - i pattern characters with equal text characters.
  let maxErrors = 0;
  while (maxErrors + 1 < pattern.length && (maxErrors + 1) / pattern.length <= threshold) maxErrors++;
  chunk.minShared = pattern.length - maxErrors;
  return chunk;
}

/** A query prepared once and matched against many texts (fuse.js's BitapSearch). */
export class BitapPattern {
  readonly pattern: string;
  private readonly threshold: number;
  private readonly chunks: Chunk[] = [];

  constructor(pattern: string, threshold: number) {
    this.pattern = pattern;
    this.threshold = threshold;
    const length = pattern.length;
    if (length > MAX_BITS) {
      const remainder = length % MAX_BITS;
      const end = length - remainder;
      for (let i = 0; i < end; i += MAX_BITS) this.chunks.push(createChunk(pattern.substr(i, MAX_BITS), i, threshold));
      if (remainder) this.chunks.push(createChunk(pattern.substr(length - MAX_BITS), length - MAX_BITS, threshold));
    } else if (length > 0) this.chunks.push(createChunk(pattern, 0, threshold));
  }

  /** The fuse.js score of this pattern in `text` (0 best, <= 1), or NO_MATCH. */
  searchIn(text: string): number {
    if (this.pattern === text) return 0;
    let matched = false;
    let total = 0;
    for (const chunk of this.chunks) {
      const score = searchChunk(text, chunk, LOCATION + chunk.startIndex, this.threshold);
      if (score >= 0) matched = true;
      total += Math.abs(score);
    }
    return matched ? total / this.chunks.length : NO_MATCH;
  }
}

/** fuse.js's bitap `search`; returns the score, negated when there is no match. */
function searchChunk(text: string, chunk: Chunk, location: number, threshold: number): number {
  const { pattern, masks, otherMasks, slots, otherSlots, slotCounts } = chunk;
  const patternLen = pattern.length;
  const textLen = text.length;
  const expected = Math.max(0, Math.min(location, textLen));
  ensureScratch(textLen + patternLen + 3);
  const charMatches = codes;

  // Exact shortcut, not in fuse.js: a text sharing too few characters with the pattern cannot
  // match at any error level fuse.js tries, and fuse.js then reports score 1, no match.
  textCounts.fill(0);
  let shared = 0;
  for (let k = 0; k < textLen; k++) {
    const code = text.charCodeAt(k);
    const isTable = code < TABLE_CHARS;
    charMatches[k] = isTable ? masks[code]! : (otherMasks.get(code) ?? 0);
    const slot = isTable ? slots[code]! : (otherSlots.get(code) ?? 0);
    if (slot !== 0 && textCounts[slot]!++ < slotCounts[slot]!) shared++;
  }
  if (shared < chunk.minShared) return -1;
  // Positions past the end of the text match nothing (fuse.js reads text[k] as undefined there).
  charMatches.fill(0, textLen, textLen + patternLen + 2);

  // fuse.js's calcScore(errors, at) is errors / patternLen + |expected - at| / DISTANCE, written
  // out inline: a closure per call is costly under tsx, which wraps every function in __name().
  let currentThreshold = threshold;
  // The first exact occurrence is the closest to `expected`, so it alone sets the bound.
  const exact = text.indexOf(pattern, expected);
  if (exact > -1) currentThreshold = Math.min(0 / patternLen + Math.abs(expected - exact) / DISTANCE, currentThreshold);

  let current = levelA;
  let previous = levelB;
  let bestLocation = -1;
  let finalScore = 1;
  let binMax = patternLen + textLen;
  const mask = 1 << (patternLen - 1);
  for (let i = 0; i < patternLen; i++) {
    let binMin = 0;
    let binMid = binMax;
    while (binMin < binMid) {
      if (i / patternLen + Math.abs(expected - (expected + binMid)) / DISTANCE <= currentThreshold) binMin = binMid;
      else binMax = binMid;
      binMid = Math.floor((binMax - binMin) / 2 + binMin);
    }
    binMax = binMid;
    let start = Math.max(1, expected - binMid + 1);
    const finish = Math.min(expected + binMid, textLen) + patternLen;
    current[finish + 1] = (1 << i) - 1;
    let low = finish + 1;
    for (let j = finish; j >= start; j--) {
      let bits = ((current[j + 1]! << 1) | 1) & charMatches[j - 1]!;
      if (i !== 0) {
        const next = previous[j + 1]!;
        bits |= ((next | previous[j]!) << 1) | 1 | next;
      }
      current[j] = bits;
      low = j;
      if ((bits & mask) !== 0) {
        const at = j - 1;
        finalScore = i / patternLen + Math.abs(expected - at) / DISTANCE;
        if (finalScore <= currentThreshold) {
          currentThreshold = finalScore;
          bestLocation = at;
          if (bestLocation <= expected) break;
          start = Math.max(1, 2 * expected - bestLocation);
        }
      }
    }
    if ((i + 1) / patternLen + Math.abs(expected - expected) / DISTANCE > currentThreshold) break;
    // fuse.js starts each level with a fresh (holey) array: what this level did not write must
    // read as 0 in the next one. Levels only shrink, so only the part below `low` needs it.
    current.fill(0, 0, low);
    const swap = previous;
    previous = current;
    current = swap;
  }
  const score = Math.max(0.001, finalScore);
  return bestLocation >= 0 ? score : -score;
}

/** fuse.js's field-length norm (fieldNormWeight 1): 1/sqrt(words), three decimals. */
export function getFieldNorm(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const separator = (code >= 9 && code <= 13) || code === 32 || code === 160;
    if (!separator && !inWord) words++;
    inWord = !separator;
  }
  return Math.round(1000 / Math.pow(Math.max(words, 1), 0.5)) / 1000;
}

/**
 * fuse.js's record score (computeScoreSingle) for a record whose fields are texts[from, to),
 * each with its normalised key weight (weights[f - from]) and field norm (norms[f], or computed):
 * the product of score^(weight × norm) over matching fields, in field order. NO_MATCH when no
 * field matches. Blank fields are skipped, as fuse.js's index skips them.
 */
export function scoreRecord(
  pattern: BitapPattern,
  texts: readonly string[],
  weights: readonly number[],
  from = 0,
  to = texts.length,
  norms?: ArrayLike<number>,
): number {
  let total = 1;
  let matched = false;
  for (let f = from; f < to; f++) {
    const text = texts[f]!;
    if (isBlank(text)) continue;
    const score = pattern.searchIn(text);
    if (score === NO_MATCH) continue;
    matched = true;
    total *= Math.pow(score === 0 ? Number.EPSILON : score, weights[f - from]! * (norms === undefined ? getFieldNorm(text) : norms[f]!));
  }
  return matched ? total : NO_MATCH;
}

function isBlank(text: string): boolean {
  // Folded texts never start with a space, so the trim (an allocation) is rarely reached.
  return text.length === 0 || (text.charCodeAt(0) <= 32 || text.charCodeAt(0) === 160 || text.charCodeAt(0) >= 0x1680 ? text.trim().length === 0 : false);
}
