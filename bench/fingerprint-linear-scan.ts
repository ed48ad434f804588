/**
 * The fingerprint benchmark's baseline, and the check that the indexed matcher agrees with it.
 * The scan compares every public profile with the query, keeps the best five by fit and the best
 * of each kind, and computes confidences with the same functions (core/fingerprint/confidence.ts):
 * it does the matcher's whole job, only without the index.
 */
import { compareProfileRank, createFingerprintIndex, createMatcher, getBasisHundredths, getConfidenceHundredths, getFitHundredths, isPublicProfile } from "../core/fingerprint/index.ts";
import { PROFILE_KINDS, SIGNAL_KEYS, SIGNAL_WEIGHTS, TOP_CANDIDATES, type ConfidenceWeights } from "../core/fingerprint/index.ts";
import type { FingerprintProfileWithSignals, SignalInput } from "../core/fingerprint/index.ts";

interface ScanCandidate {
  position: number;
  fit: number;
  matched: number;
}

export interface ScanResult {
  /** Best five by fit (ties: better rank), each with the confidence it would have as the answer. */
  top: { id: number; fit: number; confidence: number }[];
  /** The best candidate of another kind than the first's. */
  rivalId: number | null;
}

/**
 * Not a straw man: values are laid out per key in arrays and compared with ===, weights, key
 * masks and the tie-break rank are precomputed, so what it lacks is only the index.
 */
export function createLinearScan(profiles: readonly FingerprintProfileWithSignals[]): (signals: SignalInput) => ScanResult {
  const keyCount = SIGNAL_KEYS.length;
  const weights = SIGNAL_KEYS.map((key) => SIGNAL_WEIGHTS[key]);
  const weightOfMask = Array.from({ length: 1 << keyCount }, (_, mask) => weights.reduce((sum, w, k) => sum + (mask & (1 << k) ? w : 0), 0));
  const confidenceWeights: ConfidenceWeights = { weightOfMask, maxWeight: Math.max(...weights) };
  const ranked = profiles.filter(isPublicProfile).sort(compareProfileRank);
  const kinds = ranked.map((profile) => PROFILE_KINDS.indexOf(profile.kind));
  const heldMasks = ranked.map(() => 0);
  // values[p * keyCount + k]: the profile's values for key k (usually one), or null.
  const values: (string[] | null)[] = [];
  for (const [p, profile] of ranked.entries()) {
    const slots: (string[] | null)[] = SIGNAL_KEYS.map(() => null);
    for (const { key, value } of profile.signals) {
      const k = (SIGNAL_KEYS as readonly string[]).indexOf(key);
      if (k >= 0) (slots[k] ??= []).push(value);
      if (k >= 0) heldMasks[p]! |= 1 << k;
    }
    values.push(...slots);
  }
  const sent: (string | undefined)[] = [];
  return (signals) => {
    let sentMask = 0;
    for (let k = 0; k < keyCount; k++) {
      sent[k] = Object.hasOwn(signals, SIGNAL_KEYS[k]!) ? signals[SIGNAL_KEYS[k]!] : undefined;
      if (sent[k] !== undefined) sentMask |= 1 << k;
    }
    const top: ScanCandidate[] = [];
    const bestOfKind: (ScanCandidate | undefined)[] = PROFILE_KINDS.map(() => undefined);
    for (let p = 0; p < ranked.length; p++) {
      let matched = 0, contradicted = 0, absent = 0, matchedMask = 0;
      for (let k = 0; k < keyCount; k++) {
        const query = sent[k];
        if (query === undefined) continue;
        const held = values[p * keyCount + k];
        if (!held) absent += weights[k]!;
        else if (held.length === 1 ? held[0] === query : held.includes(query)) (matched += weights[k]!), (matchedMask |= 1 << k);
        else contradicted += weights[k]!;
      }
      if (matched === 0) continue;
      const candidate = { position: p, fit: getFitHundredths(matched, contradicted, absent), matched: matchedMask };
      // Profiles arrive best rank first, so a tie never displaces an earlier entry.
      if (candidate.fit > (bestOfKind[kinds[p]!]?.fit ?? -1)) bestOfKind[kinds[p]!] = candidate;
      let i = top.length;
      while (i > 0 && top[i - 1]!.fit < candidate.fit) i--;
      if (i < TOP_CANDIDATES) {
        top.splice(i, 0, candidate);
        if (top.length > TOP_CANDIDATES) top.pop();
      }
    }
    const getBestOtherThan = (kind: number) =>
      bestOfKind.reduce<ScanCandidate | undefined>((best, c, k) => (k === kind || !c || (best && (best.fit > c.fit || (best.fit === c.fit && best.position < c.position))) ? best : c), undefined);
    const keysOf = (c: ScanCandidate) => ({ matched: c.matched, held: heldMasks[c.position]! });
    return {
      top: top.map((c) => {
        const rival = getBestOtherThan(kinds[c.position]!);
        const basis = getBasisHundredths(sentMask, keysOf(c), rival ? keysOf(rival) : null, confidenceWeights);
        return { id: ranked[c.position]!.id, fit: c.fit, confidence: getConfidenceHundredths(basis) };
      }),
      rivalId: top[0] ? (ranked[getBestOtherThan(kinds[top[0].position]!)?.position ?? -1]?.id ?? null) : null,
    };
  };
}

/** Throws unless the indexed matcher and the linear scan agree on every query's top five, confidences and rival. */
export function verifyAgreement(profiles: readonly FingerprintProfileWithSignals[], queries: readonly SignalInput[]): void {
  const matcher = createMatcher(createFingerprintIndex(profiles));
  const scan = createLinearScan(profiles);
  const hundredths = (n: number) => Math.round(n * 100);
  for (const [n, query] of queries.entries()) {
    const result = matcher.match(query);
    const indexed = [
      ...result.top_candidates.map((c) => `${c.profile.id}:${hundredths(c.fit)}:${hundredths(c.confidence)}`),
      `rival ${result.closest_other_kind?.profile.id ?? null}`,
      `answer ${hundredths(result.confidence)}`,
    ].join(" ");
    const scanned = scan(query);
    const linear = [...scanned.top.map((c) => `${c.id}:${c.fit}:${c.confidence}`), `rival ${scanned.rivalId}`, `answer ${scanned.top[0]?.confidence ?? 0}`].join(" ");
    if (indexed !== linear) throw new Error(`query ${n} disagrees: indexed [${indexed}] vs linear [${linear}]`);
  }
}
