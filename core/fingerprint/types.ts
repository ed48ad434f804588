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

/** `{id, label, kind, name}` of a profile, as candidates show it. */
export type CandidateProfileView = Pick<FingerprintProfile, "id" | "label" | "kind" | "name">;

/**
 * Item of `match.top_candidates` (DESIGN, "Fingerprint"): `confidence` is what the answer's
 * would be were this candidate the answer (so the first item's is the answer's); `fit` is how
 * well it alone agrees with the signals, which is what candidates are ranked by.
 */
export interface CandidateView {
  profile: CandidateProfileView;
  confidence: number;
  fit: number;
}

/** `match.closest_other_kind`: the best candidate whose kind differs from the answer's (confidence.ts). */
export interface RivalView {
  profile: CandidateProfileView;
  fit: number;
}

/** `match.basis`: the three readings of confidence.ts; `confidence` is the smallest. */
export interface ConfidenceBasis {
  fit: number;
  evidence: number;
  separation: number;
}

export type SignalOutcome = "matched" | "contradicted" | "absent";

/** Item of `match.signal_evidence`: one supported key the request sent, as the answer sees it. */
export interface SignalEvidence {
  key: string;
  weight: number;
  /** The answer holds the sent value (matched), another value (contradicted), or none for the key (absent). */
  outcome: SignalOutcome;
  /** Public profiles holding the sent value, and how many of those are of another kind than the answer. */
  profiles: number;
  other_kinds: number;
}

/**
 * `match` in the response. The profile objects inside are shared between results and frozen
 * (they are the index's own views); serialise them, do not modify them.
 */
export interface MatchResult {
  profile: PublicProfileView | null;
  /** min(basis.fit, basis.evidence, basis.separation); 0 only when unknown. */
  confidence: number;
  verdict: Verdict;
  basis: ConfidenceBasis;
  /** Keys the answer matches and `closest_other_kind` does not (every matched key without one), in SIGNAL_KEYS order. */
  decided_by: string[];
  closest_other_kind: RivalView | null;
  /** Supported keys sent whose value the chosen profile has, in SIGNAL_KEYS order. */
  matched_signals: string[];
  /** Supported keys sent that the chosen profile contradicts or lacks; only when a profile is found. */
  unmatched_signals?: string[];
  /** Keys outside SIGNAL_KEYS, sorted by code point. They count toward the 20-key limit only. */
  ignored_signals: string[];
  /** Each supported key sent, in SIGNAL_KEYS order; empty when unknown. */
  signal_evidence: SignalEvidence[];
  top_candidates: CandidateView[];
}

/** What the matcher accepts: the request's `signals` object, already shape-checked by the route. */
export type SignalInput = Readonly<Record<string, string>>;
