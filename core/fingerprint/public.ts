/**
 * Which profiles matching may see, and in what order ties are broken (API reference, "States and
 * transitions": canonical, community, or crowdsource with at least 50 confirmations).
 */
import type { FingerprintProfile, PublicProfileView, TrustLevel } from "./types.ts";

/** A crowd-sourced profile becomes visible at this many confirmations, not one fewer. */
const CROWDSOURCE_MIN_CONFIRMATIONS = 50;

export function isPublicProfile(profile: Pick<FingerprintProfile, "trust_level" | "confirmations">): boolean {
  switch (profile.trust_level) {
    case "canonical":
    case "community":
      return true;
    case "crowdsource":
      return profile.confirmations >= CROWDSOURCE_MIN_CONFIRMATIONS;
    default:
      // An operator's snapshot may carry a trust level we do not know: never publish it.
      return false;
  }
}

const TRUST_RANK: ReadonlyMap<TrustLevel, number> = new Map([
  ["canonical", 0],
  ["community", 1],
  ["crowdsource", 2],
]);

/**
 * The tie-break among equal confidence: more trusted first, then more observations, then the
 * lower id (so the order is total and the same on every run).
 */
export function compareProfileRank(
  a: Pick<FingerprintProfile, "id" | "trust_level" | "observations">,
  b: Pick<FingerprintProfile, "id" | "trust_level" | "observations">,
): number {
  const trust = (TRUST_RANK.get(a.trust_level) ?? 3) - (TRUST_RANK.get(b.trust_level) ?? 3);
  if (trust !== 0) return trust;
  if (a.observations !== b.observations) return b.observations - a.observations;
  return a.id - b.id;
}

/** The response view of a profile: everything but `confirmations`. */
export function toPublicProfileView(profile: FingerprintProfile): PublicProfileView {
  return {
    id: profile.id,
    label: profile.label,
    kind: profile.kind,
    name: profile.name,
    os_family: profile.os_family,
    trust_level: profile.trust_level,
    observations: profile.observations,
  };
}
