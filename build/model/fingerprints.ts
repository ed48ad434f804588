/**
 * The fingerprint index the server's POST /api/fingerprint/match loads (core's
 * createFingerprintIndex), from the snapshot's profile library. Only public profiles reach it:
 * the index builder drops the others.
 *
 * SQLite does not enforce column types, so a profile whose kind, trust level or fields are not
 * what the schema says is rejected here, loudly, instead of producing an index the server would
 * refuse to load. Signal rows the index cannot use are counted in the build report too.
 */
import {
  PROFILE_KINDS,
  TRUST_LEVELS,
  createFingerprintIndex,
  type FingerprintIndex,
  type FingerprintProfileWithSignals,
  type FingerprintSignal,
  type ProfileKind,
  type SkippedSignalReason,
  type TrustLevel,
} from "../../core/fingerprint/index.ts";
import type { FingerprintProfileRow } from "../snapshot/catalog.ts";
import { toSampleText, type RejectionReason, type Rejections } from "./rejections.ts";

const SKIP_REASONS: Record<SkippedSignalReason, RejectionReason> = {
  unknown_key: "fingerprint_signal_unknown_key",
  bad_value: "fingerprint_signal_bad_value",
};

export function indexFingerprintProfiles(rows: readonly FingerprintProfileRow[], rejections: Rejections): FingerprintIndex {
  const profiles: FingerprintProfileWithSignals[] = [];
  for (const row of rows) {
    const problem = getProfileProblem(row);
    if (problem) rejections.add("fingerprint_profile_invalid", { profile_id: row.id, problem });
    else profiles.push(toProfile(row));
  }
  return createFingerprintIndex(profiles, {
    onSkippedSignal: (profileId, signal, reason) => rejections.add(SKIP_REASONS[reason], toSample(profileId, signal)),
  });
}

/** What is wrong with a row, in words for the build report, or null when it can be indexed. */
function getProfileProblem(row: FingerprintProfileRow): string | null {
  if (!PROFILE_KINDS.includes(row.kind as ProfileKind)) return `unknown kind ${JSON.stringify(row.kind)}`;
  if (!TRUST_LEVELS.includes(row.trust_level as TrustLevel)) return `unknown trust_level ${JSON.stringify(row.trust_level)}`;
  if (typeof row.label !== "string" || typeof row.name !== "string") return "label and name must be text";
  if (row.os_family !== null && typeof row.os_family !== "string") return "os_family must be text or null";
  for (const field of ["observations", "confirmations"] as const) {
    if (!Number.isSafeInteger(row[field]) || row[field] < 0) return `${field} must be a whole number, 0 or more`;
  }
  return null;
}

function toProfile(row: FingerprintProfileRow): FingerprintProfileWithSignals {
  return {
    id: row.id,
    label: row.label,
    kind: row.kind as ProfileKind,
    name: row.name,
    // The reference: "lowercase OS family name"; an operator's export may say "Windows".
    os_family: row.os_family === null ? null : row.os_family.toLowerCase(),
    trust_level: row.trust_level as TrustLevel,
    observations: row.observations,
    confirmations: row.confirmations,
    signals: row.signals,
  };
}

function toSample(profileId: number, signal: FingerprintSignal): Record<string, string | number | null> {
  const value = typeof signal.value === "string" ? signal.value : String(signal.value);
  return {
    profile_id: profileId,
    key: String(signal.key),
    value: toSampleText(value),
    length: value.length,
  };
}
