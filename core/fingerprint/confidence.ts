/**
 * Fit, confidence and verdict: the formulas both the indexed matcher and the benchmark's linear
 * scan use, so that they cannot disagree. All arithmetic is on integer weights (weights.ts), so a
 * value of exactly 0.745 becomes 0.75 and not 0.74 through binary floating point.
 *
 * FIT — how well one profile P agrees with what was sent. Each supported key the request sent is
 *   matched       P has the sent value for it,
 *   contradicted  P has a value for it, and it is a different one,
 *   absent        P has no value for it at all.
 * With W(X) the summed weights of a set of keys:
 *
 *   fit(P) = W(matched) / (W(matched) + W(contradicted) + W(absent) / 2)
 *
 * A contradiction is evidence against P; an absence is only a gap in what we know about P (a
 * library entry for curl has no canvas hash, and neither does curl), so it costs half. Keys P has
 * but the request did not send cost nothing: clients send what they can collect. Candidates are
 * ranked by fit; fit is 1 whenever every sent key matches, however little was sent.
 *
 * CONFIDENCE — how sure the answer is. What an anti-fraud team acts on is the profile's *kind*
 * (browser, anti-detect browser, bot, HTTP client): two Chrome profiles that differ by GPU lead to
 * the same decision, a Chrome profile and an anti-detect browser built on Chromium do not. So the
 * decision taken here: the candidate "of a different verdict" is the best candidate (by fit, then
 * rank) whose kind differs from the answer's, the RIVAL R. For the answer A:
 *
 *   evidence   = W(matched by A) / (2 · w_max)
 *   separation = D / (4/3 · w_max)
 *   D          = Σ keys A matches and R does not:  w, or w/2 where R lacks the key
 *              − Σ keys R matches and A does not:  w, or w/2 where A lacks the key
 *                (with no rival, no profile of another kind shares a sent value: D = W(matched by A))
 *   confidence = min(fit(A), evidence, separation), each capped at 1; 0.01 at least once a key
 *                matched, since 0 means "unknown"
 *
 * with w_max the largest weight (JA4's). Why these:
 * - evidence: however well one signal fits, it is one observation. Twice the strongest weight is
 *   full evidence, so one signal alone, JA4 included, reads 0.5 at most ("medium"), and "high"
 *   (0.75) needs 1.5 times the strongest weight: JA4 with HTTP/2, or several page signals.
 * - separation: only the keys on which A and R differ tell them apart; keys both match fit both
 *   equally, however many. Differences are counted as fit counts them (a rival lacking a key is
 *   half a difference). Separation by the strongest single signal reads exactly 0.75, so "high"
 *   needs at least that much weight of difference, and a tie across kinds (D = 0) is "low".
 * - the minimum, not a product: each reading caps the answer on its own terms, and the response
 *   shows all three (`basis`), the rival (`closest_other_kind`) and the keys in D (`decided_by`).
 * How many profiles share a matched value enters through R: a value shared across kinds makes a
 * rival that matches it too. A value shared within the answer's kind is no weaker evidence for
 * that kind, so it does not lower the confidence (the response still counts them per key).
 */
import type { Verdict } from "./types.ts";

/** Verdict thresholds of the API reference, in hundredths of the *rounded* confidence. */
const HIGH_MIN_HUNDREDTHS = 75;
const MEDIUM_MIN_HUNDREDTHS = 45;

/** One candidate's keys, as bit masks over the key order (weights.ts, SIGNAL_KEYS). */
export interface CandidateKeys {
  /** Sent keys whose sent value the profile holds. */
  matched: number;
  /** Keys the profile holds any value for, sent or not. */
  held: number;
}

/** The weights a confidence is computed with: the summed weight of every key mask, and the largest. */
export interface ConfidenceWeights {
  weightOfMask: ArrayLike<number>;
  maxWeight: number;
}

/**
 * Fit in hundredths (0..100), rounded half up. A profile that matched at least one key never
 * scores 0: 0 is reserved for "unknown".
 */
export function getFitHundredths(matchedWeight: number, contradictedWeight: number, absentWeight: number): number {
  if (matchedWeight <= 0) return 0;
  // Twice every term, so that the half weight of an absent key stays an integer.
  return Math.max(1, getRatioHundredths(2 * matchedWeight, 2 * (matchedWeight + contradictedWeight) + absentWeight));
}

/** fit(P) from key masks: `sent` is the mask of supported keys the request sent. */
export function getCandidateFitHundredths(sent: number, candidate: CandidateKeys, weights: ConfidenceWeights): number {
  const w = weights.weightOfMask;
  return getFitHundredths(w[candidate.matched]!, w[candidate.held & sent & ~candidate.matched]!, w[sent & ~candidate.held]!);
}

/** The three readings, in hundredths (0..100); the confidence is the smallest of them. */
export interface BasisHundredths {
  fit: number;
  evidence: number;
  separation: number;
}

/**
 * The readings of `answer` against `rival`, the best candidate of another kind (null when no
 * profile of another kind matched a sent value).
 */
export function getBasisHundredths(sent: number, answer: CandidateKeys, rival: CandidateKeys | null, weights: ConfidenceWeights): BasisHundredths {
  return {
    fit: getCandidateFitHundredths(sent, answer, weights),
    evidence: getEvidenceHundredths(answer, weights),
    separation: getSeparationHundredths(sent, answer, rival, weights),
  };
}

/** The confidence in hundredths: the smallest reading, 1 at least once a key matched, 0 only when none did. */
export function getConfidenceHundredths(basis: BasisHundredths): number {
  return combineReadings(basis.fit, basis.evidence, basis.separation);
}

/** The same as getConfidenceHundredths(getBasisHundredths(…)), without the object: five per match. */
export function getCandidateConfidenceHundredths(sent: number, candidate: CandidateKeys, rival: CandidateKeys | null, weights: ConfidenceWeights): number {
  return combineReadings(getCandidateFitHundredths(sent, candidate, weights), getEvidenceHundredths(candidate, weights), getSeparationHundredths(sent, candidate, rival, weights));
}

function combineReadings(fit: number, evidence: number, separation: number): number {
  return fit === 0 ? 0 : Math.max(1, Math.min(fit, evidence, separation));
}

/** W(matched) / (2 w_max). */
function getEvidenceHundredths(answer: CandidateKeys, weights: ConfidenceWeights): number {
  return getRatioHundredths(weights.weightOfMask[answer.matched]!, 2 * weights.maxWeight);
}

/** D / (4/3 w_max) with D in half weights: 3 · 2D / (8 w_max). */
function getSeparationHundredths(sent: number, answer: CandidateKeys, rival: CandidateKeys | null, weights: ConfidenceWeights): number {
  return getRatioHundredths(3 * Math.max(0, getDecisiveHalfWeights(sent, answer, rival, weights)), 8 * weights.maxWeight);
}

/** The keys that decided it: those the answer matches and the rival does not (every match without a rival). */
export function getDecidingKeys(answer: CandidateKeys, rival: CandidateKeys | null): number {
  return rival ? answer.matched & ~rival.matched : answer.matched;
}

/** 2·D of the formula above: twice the weight separating the answer from its rival. */
function getDecisiveHalfWeights(sent: number, answer: CandidateKeys, rival: CandidateKeys | null, weights: ConfidenceWeights): number {
  const w = weights.weightOfMask;
  if (!rival) return 2 * w[answer.matched]!;
  const answerOnly = answer.matched & ~rival.matched;
  const rivalOnly = rival.matched & ~answer.matched;
  const rivalLacks = sent & ~rival.held;
  const answerLacks = sent & ~answer.held;
  return 2 * w[answerOnly & ~rivalLacks]! + w[answerOnly & rivalLacks]! - 2 * w[rivalOnly & ~answerLacks]! - w[rivalOnly & answerLacks]!;
}

/** round(100 · n / d) half up, at most 100, for integers n ≥ 0 and d > 0: floor((200 n + d) / 2d), exact. */
function getRatioHundredths(n: number, d: number): number {
  return Math.min(100, Math.floor((200 * n + d) / (2 * d)));
}

/** Hundredths to the API's two-decimal number (75 → 0.75). */
export function toConfidence(hundredths: number): number {
  return hundredths / 100;
}

/**
 * The verdict for a two-decimal confidence: high ≥ 0.75, medium 0.45..0.74, low above 0,
 * unknown at 0 (nothing matched). The input is read back to whole hundredths first, so
 * 0.45 is medium even though 0.45 * 100 is 45.00000000000001 in floating point.
 */
export function getVerdict(confidence: number): Verdict {
  return getVerdictFromHundredths(Math.round(confidence * 100));
}

export function getVerdictFromHundredths(hundredths: number): Verdict {
  if (hundredths >= HIGH_MIN_HUNDREDTHS) return "high";
  if (hundredths >= MEDIUM_MIN_HUNDREDTHS) return "medium";
  if (hundredths > 0) return "low";
  return "unknown";
}
