/**
 * Confidence and verdict: the one formula both the indexed matcher and the benchmark's linear
 * scan use, so that they cannot disagree.
 *
 * For a candidate profile P and the supported keys S that the request sent, each key in S is
 *   matched       P has the sent value for it,
 *   contradicted  P has a value for it, and it is a different one,
 *   absent        P has no value for it at all.
 * With W(X) the summed weights of a set of keys:
 *
 *   confidence(P) = W(matched) / (W(matched) + W(contradicted) + W(absent) / 2)
 *
 * A contradiction is evidence against P; an absence is only a gap in what we know about P (a
 * library entry for curl has no canvas hash, and neither does curl), so it costs half. Keys P has
 * but the request did not send cost nothing: clients send what they can collect. The value lies
 * in [0, 1] and reaches 1 exactly when every sent key matches.
 */
import type { Verdict } from "./types.ts";

/** An absent key weighs 1/ABSENT_DIVISOR of a contradicted one. */
const ABSENT_DIVISOR = 2;

/** Verdict thresholds of the API reference, in hundredths of the *rounded* confidence. */
const HIGH_MIN_HUNDREDTHS = 75;
const MEDIUM_MIN_HUNDREDTHS = 45;

/**
 * The confidence in hundredths (0..100), rounded half up, computed on integers so that a value
 * of exactly 0.745 becomes 75 and not 74 through binary floating point. Weights are integers.
 * A profile that matched at least one key never scores 0: 0 is reserved for "unknown".
 */
export function getConfidenceHundredths(
  matchedWeight: number,
  contradictedWeight: number,
  absentWeight: number,
): number {
  if (matchedWeight <= 0) return 0;
  const numerator = ABSENT_DIVISOR * matchedWeight;
  const denominator = numerator + ABSENT_DIVISOR * contradictedWeight + absentWeight;
  // round(100 * n / d) half up == floor((200 n + d) / 2d), exact for these integer sizes.
  const hundredths = Math.floor((200 * numerator + denominator) / (2 * denominator));
  return Math.max(1, Math.min(100, hundredths));
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
