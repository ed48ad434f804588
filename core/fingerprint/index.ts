/**
 * Fingerprint matching, shared by the build (createFingerprintIndex → dist/fingerprint/index.json)
 * and the server (createMatcher over that file). Pure: no I/O, nothing from build/ or server/.
 */
export {
  getBasisHundredths,
  getConfidenceHundredths,
  getDecidingKeys,
  getFitHundredths,
  getVerdict,
  type BasisHundredths,
  type CandidateKeys,
  type ConfidenceWeights,
} from "./confidence.ts";
export {
  createFingerprintIndex,
  type CreateFingerprintIndexOptions,
  type FingerprintIndex,
  type Posting,
  type SkippedSignalReason,
} from "./fingerprint-index.ts";
export { TOP_CANDIDATES, createMatcher, type FingerprintMatcher, type MatchStats } from "./matcher.ts";
export { compareProfileRank, isPublicProfile } from "./public.ts";
export {
  PROFILE_KINDS,
  TRUST_LEVELS,
  type CandidateProfileView,
  type CandidateView,
  type ConfidenceBasis,
  type FingerprintProfile,
  type FingerprintProfileWithSignals,
  type FingerprintSignal,
  type MatchResult,
  type ProfileKind,
  type PublicProfileView,
  type RivalView,
  type SignalEvidence,
  type SignalInput,
  type SignalOutcome,
  type TrustLevel,
  type Verdict,
} from "./types.ts";
export {
  MAX_SIGNALS_PER_REQUEST,
  MAX_SIGNAL_VALUE_LENGTH,
  SIGNAL_KEYS,
  SIGNAL_KEY_INDEX,
  SIGNAL_WEIGHTS,
  type SignalKey,
  type SignalWeights,
} from "./weights.ts";
