/**
 * The matcher behind POST /api/fingerprint/match. Fit and confidence are defined in
 * confidence.ts; this file finds the five best profiles by fit, and the best of each kind among
 * those that could be the best of another kind than the answer's, without looking at the whole
 * library (match-result.ts turns that into the answer).
 *
 * Candidates are the profiles holding at least one sent (key, value). A profile is scored in full
 * (against every sent key) the first time it is read, so its fit is final at once. Reading goes
 * from the cheapest lists to the most common ones, and skips whatever cannot be wanted:
 *
 *   1. Short lists (≤ LONG_LIST_LENGTH profiles), bounded only by what each profile holds.
 *      Afterwards a candidate still unread matches long values only.
 *   2. Pair lists (profiles holding two sent long values), shortest first. An unread profile in
 *      the pair (a, b) can also match another long key c only if pairs (a, c) and (b, c) are
 *      still to come; that, and its key mask (which sent keys it lacks, which it holds with
 *      another value), bounds its confidence.
 *   3. Single long lists, shortest first. Every pair has been processed by now, so a profile
 *      still unread there matches that one common key only: its bound is usually far below the
 *      top five, and a list of thousands is skipped group by group.
 *
 * Lists are split into groups of profiles with the same key mask and kind, each group in rank
 * order. The confidence needs, besides the top five, the best candidate of another kind than the
 * answer's (confidence.ts), which can rank far below them; so a profile is wanted while its bound
 * beats the fifth candidate, or, in a group of a kind other than the leading one, beats the best
 * candidate of the second-best kind (kind-leaders.ts). Once neither holds, the rest of the group is
 * skipped. A skipped profile can never be wanted later either, since the fifth place and the
 * second-best kind only improve (and a profile of the leading kind below the top five is never
 * the rival: its kind's best beats it); so once a list is processed, read or skipped, later
 * bounds may assume that no candidate still to be found holds its value(s). The work thus follows
 * the signals sent and how the library's values overlap, not how many profiles it holds.
 */
import { compileFingerprintIndex } from "./compiled-index.ts";
import { findPairList } from "./posting-lists.ts";
import { getFitHundredths } from "./confidence.ts";
import type { FingerprintIndex } from "./fingerprint-index.ts";
import { KindLeaders } from "./kind-leaders.ts";
import { createMatchResult } from "./match-result.ts";
import type { MatchResult, SignalInput } from "./types.ts";
import type { SignalKey } from "./weights.ts";
import { compareCodePoints } from "../order.ts";
import { ScoredTopList } from "../top-list.ts";

/** `top_candidates` holds at most this many (DESIGN, "Fingerprint"). */
export const TOP_CANDIDATES = 5;

export interface MatchStats {
  /** Map lookups of sent (key, value) pairs, and of pairs of long values. */
  valueLookups: number;
  pairLookups: number;
  /** Profiles scored; bounded by the lists read, never by the library size. */
  profilesScored: number;
}

export interface FingerprintMatcher {
  match(signals: SignalInput): MatchResult;
  /** Counters of the last match() call, for tests and benchmarks. */
  getLastMatchStats(): MatchStats;
  readonly profileCount: number;
}

export function createMatcher(index: FingerprintIndex): FingerprintMatcher {
  const compiled = compileFingerprintIndex(index);
  const { keys, keyBits, weightOfMask: weight, valueIds, valueKey, listLength, listGroupStart, groupMask, groupRunStart, runKind, runStart, postings } = compiled;
  const { longIndex, profileValueStart, profileValues, profileKind } = compiled;

  // Scratch state reused across calls: match() is synchronous, so calls never interleave.
  const seenInRound = new Uint32Array(compiled.profiles.length);
  let round = 0;
  const sentValueOfKey = new Int32Array(keys.length);
  const pairedWith = new Int32Array(keys.length); // key bit → keys whose pair with it is processed
  const shortValues = new Int32Array(keys.length);
  const longValues = new Int32Array(keys.length); // ordered by list length, shortest first
  const maxPairs = (keys.length * (keys.length - 1)) / 2;
  const pairs = new Int32Array(maxPairs * 3); // [list id, value a, value b], shortest list first
  // Candidates by confidence (hundredths), then rank (position); the tag is the matched mask.
  const top = new ScoredTopList(TOP_CANDIDATES);
  const kinds = new KindLeaders();
  let sentMask = 0;
  let valueLookups = 0;
  let pairLookups = 0;
  let profilesScored = 0;

  function match(signals: SignalInput): MatchResult {
    sentMask = 0;
    sentValueOfKey.fill(-1); // unsent keys match nothing
    let longMask = 0;
    let shortCount = 0;
    let longCount = 0;
    const ignored: string[] = [];
    valueLookups = 0;
    // Own keys only, so "__proto__" or "constructor" are plain keys; `signals` is indexed only
    // with keys found in keyBits, which are the supported signal names.
    for (const key of Object.keys(signals)) {
      const bit = keyBits.get(key);
      if (bit === undefined) {
        ignored.push(key);
        continue;
      }
      sentMask |= 1 << bit;
      const value: unknown = signals[key as SignalKey];
      const valueId = typeof value === "string" ? valueIds[bit]!.get(value) : undefined;
      valueLookups++;
      sentValueOfKey[bit] = valueId ?? -1;
      pairedWith[bit] = 0;
      if (valueId === undefined) continue;
      if (longIndex[valueId]! < 0) shortValues[shortCount++] = valueId;
      else {
        longCount = insertByLength(longValues, longCount, 1, valueId, 0, 0);
        longMask |= 1 << bit;
      }
    }
    ignored.sort(compareCodePoints);
    round = round === 0xffffffff ? resetRounds() : round + 1;
    top.reset(TOP_CANDIDATES);
    kinds.reset();
    profilesScored = 0;
    pairLookups = 0;

    for (let i = 0; i < shortCount; i++) readList(shortValues[i]!, 0, sentMask);

    let pairCount = 0;
    for (let i = 0; i < longCount; i++) {
      for (let j = 0; j < longCount; j++) {
        const a = longValues[i]!, b = longValues[j]!;
        if (longIndex[a]! >= longIndex[b]!) continue;
        pairLookups++;
        const listId = findPairList(compiled, longIndex[a]!, longIndex[b]!);
        if (listId < 0) markPairProcessed(a, b); // nobody holds both
        else pairCount = insertByLength(pairs, pairCount, 3, listId, a, b);
      }
    }
    for (let i = 0; i < pairCount * 3; i += 3) {
      const a = valueKey[pairs[i + 1]!]!, b = valueKey[pairs[i + 2]!]!;
      const fixed = (1 << a) | (1 << b);
      readList(pairs[i]!, fixed, longMask & ~pairedWith[a]! & ~pairedWith[b]! & ~fixed);
      markPairProcessed(pairs[i + 1]!, pairs[i + 2]!);
    }
    // Every pair is processed now: a candidate still unread in a long list matches that key only.
    for (let i = 0; i < longCount; i++) readList(longValues[i]!, 1 << valueKey[longValues[i]!]!, 0);
    return createMatchResult(compiled, { sentMask, sentValueOfKey, top, kinds, ignored });
  }

  /**
   * Reads list `listId`, scoring unread profiles. A candidate still to be found there matches at
   * most the keys in `fixed` plus those of its own keys in `open`: that is its best case, and
   * the rest of its sent keys it contradicts (holds) or lacks (does not hold).
   */
  function readList(listId: number, fixed: number, open: number): void {
    for (let g = listGroupStart[listId]!, lastGroup = listGroupStart[listId + 1]!; g < lastGroup; g++) {
      const mask = groupMask[g]!;
      const best = fixed | (mask & open);
      const bound = getFitHundredths(weight[best]!, weight[mask & sentMask & ~best]!, weight[sentMask & ~mask]!);
      const firstRun = groupRunStart[g]!, lastRun = groupRunStart[g + 1]!;
      // The group's best-ranked profile opens its first run: if even it is not wanted, none is.
      const first = postings[runStart[firstRun]!]!;
      if (!top.wouldEnter(bound, first) && !kinds.couldBeRival(bound, first)) continue;
      for (let r = firstRun; r < lastRun; r++) {
        const kind = runKind[r]!;
        for (let i = runStart[r]!, end = runStart[r + 1]!; i < end; i++) {
          const position = postings[i]!;
          if (!top.wouldEnter(bound, position) && (kind === kinds.leadingKind || !kinds.couldBeRival(bound, position))) break;
          if (seenInRound[position] === round) continue;
          seenInRound[position] = round;
          score(position, mask);
        }
      }
    }
  }

  function score(position: number, mask: number): void {
    profilesScored++;
    let matched = 0;
    for (let j = profileValueStart[position]!, last = profileValueStart[position + 1]!; j < last; j++) {
      const held = profileValues[j]!;
      const bit = valueKey[held]!;
      if (sentValueOfKey[bit] === held) matched |= 1 << bit;
    }
    const fit = getFitHundredths(weight[matched]!, weight[mask & sentMask & ~matched]!, weight[sentMask & ~mask]!);
    top.offer(position, fit, matched);
    kinds.offer(profileKind[position]!, fit, position, matched);
  }

  function markPairProcessed(a: number, b: number): void {
    pairedWith[valueKey[a]!]! |= 1 << valueKey[b]!;
    pairedWith[valueKey[b]!]! |= 1 << valueKey[a]!;
  }

  /**
   * Inserts the entry (listId, a, b), `stride` numbers wide, into the first `size` entries of
   * `into`, kept ordered by list length, shortest first. Returns the new size.
   */
  function insertByLength(into: Int32Array, size: number, stride: number, listId: number, a: number, b: number): number {
    let i = size;
    while (i > 0 && listLength[into[(i - 1) * stride]!]! > listLength[listId]!) {
      for (let j = 0; j < stride; j++) into[i * stride + j] = into[(i - 1) * stride + j]!;
      i--;
    }
    into[i * stride] = listId;
    if (stride === 3) {
      into[i * stride + 1] = a;
      into[i * stride + 2] = b;
    }
    return size + 1;
  }

  function resetRounds(): number {
    seenInRound.fill(0);
    return 1;
  }

  return {
    match,
    getLastMatchStats: () => ({ valueLookups, pairLookups, profilesScored }),
    profileCount: compiled.profiles.length,
  };
}
