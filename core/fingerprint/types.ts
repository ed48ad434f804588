/**
 * Shapes shared by the build (which indexes fp_profiles/fp_signals) and the server (which answers
 * POST /api/fingerprint/match). Field names follow the API reference, "Fingerprint profile".
 */

export type ProfileKind = "browser" | "antidetect" | "bot" | "http_client";
export type TrustLevel = "canonical" | "community" | "crowdsource";
export type Verdict = "high" | "medium" | "low" | "unknown";

export const PROFILE_KINDS: readonly ProfileKind[] = ["browser", "antidetect", "bot", "http_client"];
export const TRUST_LEVELS: readonly TrustLevel[] = ["canonical", "community", "crowdsource"];

/** A row of fp_profiles. `confirmations` decides visibility and never leaves the build. */
export interface FingerprintProfile {
  id: number;
  label: string;
  kind: ProfileKind;
  name: string;
  os_family: string | null;
  trust_level: TrustLevel;
  observations: number;
  confirmations: number;
}

/** A row of fp_signals. A profile may carry several values for one key (e.g. two JA4 variants). */
export interface FingerprintSignal {
  key: string;
  value: string;
}

export interface FingerprintProfileWithSignals extends FingerprintProfile {
  signals: readonly FingerprintSignal[];
}

/** `match.profile` in the response: the profile without its confirmation count. */
export type PublicProfileView = Omit<FingerprintProfile, "confirmations">;

/** Item of `match.top_candidates` (DESIGN, "Fingerprint"). */
export interface CandidateView {
  profile: { id: number; label: string; kind: ProfileKind; name: string };
  confidence: number;
}

/**
 * `match` in the response. The profile objects inside are shared between results and frozen
 * (they are the index's own views); serialise them, do not modify them.
 */
export interface MatchResult {
  profile: PublicProfileView | null;
  confidence: number;
  verdict: Verdict;
  /** Supported keys sent whose value the chosen profile has, in SIGNAL_KEYS order. */
  matched_signals: string[];
  /** Supported keys sent that the chosen profile contradicts or lacks; only when a profile is found. */
  unmatched_signals?: string[];
  /** Keys outside SIGNAL_KEYS, sorted by code point. They count toward the 20-key limit only. */
  ignored_signals: string[];
  top_candidates: CandidateView[];
}

/** What the matcher accepts: the request's `signals` object, already shape-checked by the route. */
export type SignalInput = Readonly<Record<string, string>>;
