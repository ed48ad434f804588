/**
 * The fingerprint index: what the build writes to dist/fingerprint/index.json and the server
 * loads. Plain JSON, holding public profiles only, so that non-public profiles (and every
 * profile's confirmation count) never leave the build.
 *
 * Shape:
 *   format    "fingerprint-index/1"
 *   keys      the signal keys, in bit order
 *   weights   the weight of each key at build time (so the served index explains its own scores)
 *   profiles  public profile views, best tie-break rank first (trust, observations, id)
 *   postings  [key, value, ids] per distinct signal value, ids best-ranked first, sorted by key
 *             order then value code points. A list of triples rather than an object keyed by
 *             value: signal values are user-comparable data and never become property names.
 */
import { compareCodePoints } from "../order.ts";
import { compareProfileRank, isPublicProfile, toPublicProfileView } from "./public.ts";
import type { FingerprintProfileWithSignals, FingerprintSignal, PublicProfileView } from "./types.ts";
import {
  MAX_SIGNAL_VALUE_LENGTH,
  SIGNAL_KEYS,
  SIGNAL_KEY_INDEX,
  SIGNAL_WEIGHTS,
  assertSignalWeights,
  type SignalKey,
  type SignalWeights,
} from "./weights.ts";

export const FINGERPRINT_INDEX_FORMAT = "fingerprint-index/1";

export type Posting = [key: SignalKey, value: string, ids: number[]];

export interface FingerprintIndex {
  format: typeof FINGERPRINT_INDEX_FORMAT;
  keys: SignalKey[];
  weights: Record<SignalKey, number>;
  profiles: PublicProfileView[];
  postings: Posting[];
}

export type SkippedSignalReason = "unknown_key" | "bad_value";

export interface CreateFingerprintIndexOptions {
  /** Defaults to SIGNAL_WEIGHTS; tests pass their own to reach exact confidences. */
  weights?: SignalWeights;
  /** Told about each signal row that cannot be matched, so the build can report it. */
  onSkippedSignal?: (profileId: number, signal: FingerprintSignal, reason: SkippedSignalReason) => void;
}

/**
 * Builds the index from profiles with their signal rows. Non-public profiles are dropped here,
 * before anything is written. Rows with an unknown key, or a value no request could send (empty
 * or longer than 255 characters), are skipped and reported.
 */
export function createFingerprintIndex(
  profiles: Iterable<FingerprintProfileWithSignals>,
  options: CreateFingerprintIndexOptions = {},
): FingerprintIndex {
  const weights = options.weights ?? SIGNAL_WEIGHTS;
  assertSignalWeights(weights);

  const seenIds = new Set<number>();
  const visible: FingerprintProfileWithSignals[] = [];
  for (const profile of profiles) {
    if (!Number.isSafeInteger(profile.id)) throw new Error(`fingerprint profile id ${profile.id} is not an integer`);
    if (seenIds.has(profile.id)) throw new Error(`fingerprint profile id ${profile.id} appears twice`);
    seenIds.add(profile.id);
    if (isPublicProfile(profile)) visible.push(profile);
  }
  visible.sort(compareProfileRank);

  // Profiles are visited best-ranked first, so every id list comes out in rank order.
  const byValue = new Map<string, Posting>();
  for (const profile of visible) {
    for (const signal of profile.signals) {
      const reason = getSkipReason(signal);
      if (reason) {
        options.onSkippedSignal?.(profile.id, signal, reason);
        continue;
      }
      const mapKey = `${signal.key}\u0000${signal.value}`;
      let posting = byValue.get(mapKey);
      if (!posting) {
        posting = [signal.key as SignalKey, signal.value, []];
        byValue.set(mapKey, posting);
      }
      // A profile listing the same key and value twice is one fact, not two.
      if (posting[2][posting[2].length - 1] !== profile.id) posting[2].push(profile.id);
    }
  }

  const postings = [...byValue.values()].sort(
    (a, b) => (SIGNAL_KEY_INDEX.get(a[0]) ?? 0) - (SIGNAL_KEY_INDEX.get(b[0]) ?? 0) || compareCodePoints(a[1], b[1]),
  );
  const weightCopy = Object.fromEntries(SIGNAL_KEYS.map((key) => [key, weights[key]])) as Record<SignalKey, number>;
  return {
    format: FINGERPRINT_INDEX_FORMAT,
    keys: [...SIGNAL_KEYS],
    weights: weightCopy,
    profiles: visible.map(toPublicProfileView),
    postings,
  };
}

function getSkipReason(signal: FingerprintSignal): SkippedSignalReason | null {
  if (typeof signal.key !== "string" || !SIGNAL_KEY_INDEX.has(signal.key)) return "unknown_key";
  if (typeof signal.value !== "string" || signal.value.length === 0) return "bad_value";
  if (signal.value.length > MAX_SIGNAL_VALUE_LENGTH) return "bad_value";
  return null;
}
