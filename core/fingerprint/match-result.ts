/**
 * The `match` object of an answer, from what the matcher found: the top five by fit and the best
 * candidate of each kind. Every number here comes from confidence.ts; this file only picks each
 * candidate's rival and lists keys in SIGNAL_KEYS order.
 */
import type { CompiledIndex } from "./compiled-index.ts";
import {
  getBasisHundredths,
  getCandidateConfidenceHundredths,
  getCandidateFitHundredths,
  getConfidenceHundredths,
  getDecidingKeys,
  getVerdictFromHundredths,
  toConfidence,
  type CandidateKeys,
} from "./confidence.ts";
import type { KindLeaders } from "./kind-leaders.ts";
import { PROFILE_KINDS, type CandidateView, type MatchResult, type SignalEvidence } from "./types.ts";
import type { ScoredTopList } from "../top-list.ts";

const KIND_COUNT = PROFILE_KINDS.length;

/** What one match found; the matcher's scratch state, read before the next match. */
export interface MatchFindings {
  /** Mask of the supported keys sent, and per key bit the sent value's id (-1: sent value unknown or key unsent). */
  sentMask: number;
  sentValueOfKey: Int32Array;
  /** Positions by fit, then rank; each entry's tag is its matched key mask. */
  top: ScoredTopList;
  kinds: KindLeaders;
  ignored: string[];
}

export function createMatchResult(index: CompiledIndex, findings: MatchFindings): MatchResult {
  const { sentMask, top, kinds, ignored } = findings;
  if (top.size === 0) {
    return {
      profile: null, confidence: 0, verdict: "unknown", basis: { fit: 0, evidence: 0, separation: 0 }, decided_by: [], closest_other_kind: null,
      matched_signals: [], ignored_signals: ignored, signal_evidence: [], top_candidates: [],
    };
  }
  const answerPosition = top.idAt(0);
  const answerKind = index.profileKind[answerPosition]!;
  const answer = getCandidateKeys(index, answerPosition, top.tagAt(0));
  const leader = kinds.getBestOtherThan(answerKind);
  const rival = leader && getCandidateKeys(index, leader.position, leader.matched);
  const basis = getBasisHundredths(sentMask, answer, rival, index);
  const confidence = getConfidenceHundredths(basis);

  const top_candidates: CandidateView[] = [];
  const candidate: CandidateKeys = { matched: 0, held: 0 }; // one object for the other four
  for (let i = 0; i < top.size; i++) {
    const position = top.idAt(i);
    candidate.matched = top.tagAt(i);
    candidate.held = index.profileKeyMask[position]!;
    // The best of another kind than this candidate's: the answer's rival, or the answer itself.
    const candidateRival = index.profileKind[position] === answerKind ? rival : answer;
    const hundredths = i === 0 ? confidence : getCandidateConfidenceHundredths(sentMask, candidate, candidateRival, index);
    top_candidates.push({ profile: index.candidateProfiles[position]!, confidence: toConfidence(hundredths), fit: toConfidence(top.valueAt(i)) });
  }
  return {
    profile: index.profiles[answerPosition]!,
    confidence: toConfidence(confidence),
    verdict: getVerdictFromHundredths(confidence),
    basis: { fit: toConfidence(basis.fit), evidence: toConfidence(basis.evidence), separation: toConfidence(basis.separation) },
    decided_by: listKeys(index, sentMask & getDecidingKeys(answer, rival)),
    closest_other_kind: leader && rival && { profile: index.candidateProfiles[leader.position]!, fit: toConfidence(getCandidateFitHundredths(sentMask, rival, index)) },
    matched_signals: listKeys(index, answer.matched),
    unmatched_signals: listKeys(index, sentMask & ~answer.matched),
    ignored_signals: ignored,
    signal_evidence: listSignalEvidence(index, findings, answer, answerKind),
    top_candidates,
  };
}

function getCandidateKeys(index: CompiledIndex, position: number, matched: number): CandidateKeys {
  return { matched, held: index.profileKeyMask[position]! };
}

function listKeys(index: CompiledIndex, mask: number): string[] {
  const keys: string[] = [];
  for (let bit = 0; bit < index.keys.length; bit++) if ((mask & (1 << bit)) !== 0) keys.push(index.keys[bit]!);
  return keys;
}

function listSignalEvidence(index: CompiledIndex, findings: MatchFindings, answer: CandidateKeys, answerKind: number): SignalEvidence[] {
  const evidence: SignalEvidence[] = [];
  for (let bit = 0; bit < index.keys.length; bit++) {
    if ((findings.sentMask & (1 << bit)) === 0) continue;
    const valueId = findings.sentValueOfKey[bit]!;
    const profiles = valueId < 0 ? 0 : index.listLength[valueId]!;
    const sameKind = valueId < 0 ? 0 : index.valueKindCount[valueId * KIND_COUNT + answerKind]!;
    const outcome = (answer.matched & (1 << bit)) !== 0 ? "matched" : (answer.held & (1 << bit)) !== 0 ? "contradicted" : "absent";
    evidence.push({ key: index.keys[bit]!, weight: index.keyWeights[bit]!, outcome, profiles, other_kinds: profiles - sameKind });
  }
  return evidence;
}
