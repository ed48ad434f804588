/**
 * The in-memory form of a FingerprintIndex: integer ids and typed arrays instead of strings and
 * objects, built once when the server loads dist/fingerprint/index.json. Validates as it goes,
 * because the index arrives from disk and a bad file must fail at start-up, not mid-request.
 */
import type { FingerprintIndex } from "./fingerprint-index.ts";
import { FINGERPRINT_INDEX_FORMAT } from "./fingerprint-index.ts";
import { createPostingLists, type PostingLists } from "./posting-lists.ts";
import type { ConfidenceWeights } from "./confidence.ts";
import { compareProfileRank } from "./public.ts";
import { PROFILE_KINDS, TRUST_LEVELS, type CandidateView, type PublicProfileView } from "./types.ts";
import { SIGNAL_KEY_INDEX } from "./weights.ts";

export interface CompiledIndex extends PostingLists, ConfidenceWeights {
  /** Supported keys in bit order, and each key's bit position and weight. */
  keys: readonly string[];
  keyBits: ReadonlyMap<string, number>;
  keyWeights: readonly number[];
  /** Summed weight of every subset of keys, indexed by bit mask; and the largest key weight. */
  weightOfMask: Float64Array;
  maxWeight: number;
  /** Profiles by position; position is the tie-break rank (0 = best). */
  profiles: readonly Readonly<PublicProfileView>[];
  candidateProfiles: readonly Readonly<CandidateView["profile"]>[];
  /** Kind of each position, as its index in PROFILE_KINDS. */
  profileKind: Uint8Array;
  /** Public profiles of each kind holding each value: valueKindCount[valueId * PROFILE_KINDS.length + kind]. */
  valueKindCount: Int32Array;
  /** Per key bit: value → value id. Value ids are also the ids of their single-value lists. */
  valueIds: readonly ReadonlyMap<string, number>[];
  /** Value id → key bit position. */
  valueKey: Uint8Array;
  /** Bit mask of the keys each profile has a value for. */
  profileKeyMask: Uint16Array;
  /** Value ids each profile holds: profileValues[profileValueStart[p]..profileValueStart[p+1]). */
  profileValueStart: Int32Array;
  profileValues: Int32Array;
}

export function compileFingerprintIndex(index: FingerprintIndex): CompiledIndex {
  if (!index || index.format !== FINGERPRINT_INDEX_FORMAT) {
    throw new Error(`fingerprint index: expected format "${FINGERPRINT_INDEX_FORMAT}"`);
  }
  const keys = compileKeys(index);
  const keyBits = new Map(keys.map((key, bit) => [key, bit]));
  const keyWeights = keys.map((key) => readWeight(index, key));
  const weightOfMask = new Float64Array(1 << keys.length);
  for (let mask = 1; mask < weightOfMask.length; mask++) {
    const bit = 31 - Math.clz32(mask);
    weightOfMask[mask] = weightOfMask[mask & ~(1 << bit)]! + keyWeights[bit]!;
  }

  if (!Array.isArray(index.profiles)) throw new Error("fingerprint index: profiles must be an array");
  // Frozen: the same view objects are handed out in every result.
  const profiles = index.profiles.map(readProfile).sort(compareProfileRank);
  const positionOfId = new Map<number, number>();
  profiles.forEach((profile, position) => {
    if (positionOfId.has(profile.id)) throw new Error(`fingerprint index: profile ${profile.id} appears twice`);
    positionOfId.set(profile.id, position);
  });
  const profileKind = Uint8Array.from(profiles, (profile) => PROFILE_KINDS.indexOf(profile.kind));

  if (!Array.isArray(index.postings)) throw new Error("fingerprint index: postings must be an array");
  const valueIds = keys.map(() => new Map<string, number>());
  const valueKey = new Uint8Array(index.postings.length);
  const valueKindCount = new Int32Array(index.postings.length * PROFILE_KINDS.length);
  const postingLists: number[][] = [];
  const valuesOfProfile: number[][] = profiles.map(() => []);
  const profileKeyMask = new Uint16Array(profiles.length);
  for (const posting of index.postings) {
    const [key, value, ids] = Array.isArray(posting) ? posting : [];
    const bit = typeof key === "string" ? keyBits.get(key) : undefined;
    if (bit === undefined || typeof value !== "string" || !Array.isArray(ids)) {
      throw new Error(`fingerprint index: malformed posting for key ${JSON.stringify(key)}`);
    }
    const signalKey: string = key as string;
    if (valueIds[bit]!.has(value)) throw new Error(`fingerprint index: ${signalKey} value ${JSON.stringify(value)} listed twice`);
    const valueId = postingLists.length;
    valueIds[bit]!.set(toFlatString(value), valueId);
    valueKey[valueId] = bit;
    const positions = [...new Set(ids.map((id) => getPosition(positionOfId, id, signalKey)))].sort((a, b) => a - b);
    for (const position of positions) {
      valuesOfProfile[position]!.push(valueId);
      profileKeyMask[position]! |= 1 << bit;
      valueKindCount[valueId * PROFILE_KINDS.length + profileKind[position]!]!++;
    }
    postingLists.push(positions);
  }
  const lists = createPostingLists(postingLists, valueKey, valuesOfProfile, profileKeyMask, profileKind);
  const profileValueStart = new Int32Array(profiles.length + 1);
  valuesOfProfile.forEach((values, position) => {
    profileValueStart[position + 1] = profileValueStart[position]! + values.length;
  });
  const profileValues = new Int32Array(profileValueStart[profiles.length]!);
  valuesOfProfile.forEach((values, position) => profileValues.set(values, profileValueStart[position]!));

  return {
    keys,
    keyBits,
    keyWeights,
    weightOfMask,
    maxWeight: Math.max(...keyWeights),
    profiles,
    candidateProfiles: profiles.map(({ id, label, kind, name }) => Object.freeze({ id, label, kind, name })),
    profileKind,
    valueKindCount,
    valueIds,
    valueKey,
    ...lists,
    profileKeyMask,
    profileValueStart,
    profileValues,
  };
}

/** Exactly the public fields, checked; anything else a file may carry stays behind. */
function readProfile(raw: PublicProfileView): Readonly<PublicProfileView> {
  const { id, label, kind, name, os_family, trust_level, observations } = raw ?? ({} as PublicProfileView);
  const ok =
    Number.isSafeInteger(id) && typeof label === "string" && PROFILE_KINDS.includes(kind) && typeof name === "string" &&
    (os_family === null || typeof os_family === "string") && TRUST_LEVELS.includes(trust_level) &&
    Number.isSafeInteger(observations) && observations >= 0;
  if (!ok) throw new Error(`fingerprint index: malformed profile ${JSON.stringify(id)}`);
  return Object.freeze({ id, label, kind, name, os_family, trust_level, observations });
}

function compileKeys(index: FingerprintIndex): string[] {
  if (!Array.isArray(index.keys) || index.keys.length === 0) throw new Error("fingerprint index: keys must be a non-empty array");
  const keys: string[] = [];
  for (const key of index.keys) {
    // Only keys the API supports: this also keeps the masks within 16 bits.
    if (typeof key !== "string" || !SIGNAL_KEY_INDEX.has(key) || keys.includes(key)) {
      throw new Error(`fingerprint index: unsupported or repeated key ${JSON.stringify(key)}`);
    }
    keys.push(key);
  }
  return keys;
}

function readWeight(index: FingerprintIndex, key: string): number {
  // `key` is one of SIGNAL_KEYS (checked above), never request data.
  const weight = (index.weights as Readonly<Record<string, unknown>> | undefined)?.[key];
  if (typeof weight !== "number" || !Number.isSafeInteger(weight) || weight <= 0) {
    throw new Error(`fingerprint index: weight of "${key}" must be a positive integer`);
  }
  return weight;
}

/**
 * The same text as a flat string. A string built by concatenation is a rope in V8, and a rope
 * as a Map key is walked on every lookup that reaches it; JSON-parsed index files are flat
 * already, indexes built in-process (tests, benchmarks) may not be.
 */
function toFlatString(text: string): string {
  return text.length > 12 ? (JSON.parse(JSON.stringify(text)) as string) : text;
}

function getPosition(positionOfId: ReadonlyMap<number, number>, id: unknown, key: string): number {
  const position = typeof id === "number" ? positionOfId.get(id) : undefined;
  if (position === undefined) throw new Error(`fingerprint index: ${key} posting names unknown profile ${String(id)}`);
  return position;
}
