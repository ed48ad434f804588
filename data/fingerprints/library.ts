/**
 * The curated fingerprint profile library (data/fingerprints/library.json): reading and
 * validating it. import.ts loads it into a snapshot; the sample snapshot ships every profile,
 * public or not, because deciding visibility is the build's job (core/fingerprint).
 */
import { readFileSync } from "node:fs";
import { MAX_SIGNAL_VALUE_LENGTH, PROFILE_KINDS, SIGNAL_KEY_INDEX, TRUST_LEVELS } from "../../core/fingerprint/index.ts";
import type { FingerprintProfile, FingerprintProfileWithSignals, ProfileKind, TrustLevel } from "../../core/fingerprint/index.ts";

const FINGERPRINT_LIBRARY_URL = new URL("./library.json", import.meta.url);

export interface LibraryProfile extends FingerprintProfile {
  /** Where the values come from; required, so that every value can be traced. */
  source: string;
  /** One value per signal key. */
  signals: Record<string, string>;
}

export interface FingerprintLibrary {
  version: string;
  license_note: string;
  profiles: LibraryProfile[];
}

/** Reads and validates the shipped library (or another file, for tests); throws on any defect. */
export function readFingerprintLibrary(url: URL = FINGERPRINT_LIBRARY_URL): FingerprintLibrary {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(url, "utf8"));
  } catch (error) {
    throw new Error(`fingerprint library ${url.pathname}: cannot read JSON`, { cause: error });
  }
  return parseFingerprintLibrary(data, url.pathname);
}

/** Validates parsed library JSON; each error names the profile and field at fault. */
export function parseFingerprintLibrary(data: unknown, origin = "fingerprint library"): FingerprintLibrary {
  const fail = (where: string, problem: string): never => {
    throw new Error(`${origin}: ${where}: ${problem}`);
  };
  if (!isRecord(data)) return fail("top level", "expected an object");
  if (typeof data.version !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(data.version)) fail("version", "expected YYYY-MM-DD");
  if (typeof data.license_note !== "string" || data.license_note.trim() === "") fail("license_note", "expected text");
  if (!Array.isArray(data.profiles) || data.profiles.length === 0) return fail("profiles", "expected a non-empty array");

  const ids = new Set<number>();
  const profiles = data.profiles.map((raw: unknown, i: number): LibraryProfile => {
    const where = `profiles[${i}]`;
    if (!isRecord(raw)) return fail(where, "expected an object");
    const at = `${where} (id ${String(raw.id)})`;
    if (!Number.isSafeInteger(raw.id) || (raw.id as number) <= 0) fail(at, "id must be a positive integer");
    if (ids.has(raw.id as number)) fail(at, "id is not unique");
    ids.add(raw.id as number);
    for (const field of ["label", "name", "source"] as const) {
      if (typeof raw[field] !== "string" || (raw[field] as string).trim() === "") fail(at, `${field} must be non-empty text`);
    }
    if (!PROFILE_KINDS.includes(raw.kind as ProfileKind)) fail(at, `kind must be one of ${PROFILE_KINDS.join(", ")}`);
    if (!TRUST_LEVELS.includes(raw.trust_level as TrustLevel)) fail(at, `trust_level must be one of ${TRUST_LEVELS.join(", ")}`);
    const os = raw.os_family;
    if (os !== null && (typeof os !== "string" || os === "" || os !== os.toLowerCase())) fail(at, "os_family must be lowercase text or null");
    for (const field of ["observations", "confirmations"] as const) {
      if (!Number.isSafeInteger(raw[field]) || (raw[field] as number) < 0) fail(at, `${field} must be a non-negative integer`);
    }
    if (!isRecord(raw.signals)) return fail(at, "signals must be an object");
    const signals = new Map<string, string>();
    for (const [key, value] of Object.entries(raw.signals)) {
      if (!SIGNAL_KEY_INDEX.has(key)) fail(at, `unknown signal key ${JSON.stringify(key)}`);
      if (typeof value !== "string" || value.length < 1 || value.length > MAX_SIGNAL_VALUE_LENGTH) {
        fail(at, `signal ${key} must be text of 1..${MAX_SIGNAL_VALUE_LENGTH} characters`);
      }
      signals.set(key, value as string);
    }
    if (signals.size === 0) fail(at, "a profile needs at least one signal");
    return {
      id: raw.id as number,
      label: raw.label as string,
      kind: raw.kind as ProfileKind,
      name: raw.name as string,
      os_family: os as string | null,
      trust_level: raw.trust_level as TrustLevel,
      observations: raw.observations as number,
      confirmations: raw.confirmations as number,
      source: raw.source as string,
      // Keys were checked against SIGNAL_KEYS above, so they are safe as property names.
      signals: Object.fromEntries(signals),
    };
  });
  return { version: data.version as string, license_note: data.license_note as string, profiles };
}

/** The library in the shape the index builder takes (one signal row per key). */
export function toProfilesWithSignals(library: FingerprintLibrary): FingerprintProfileWithSignals[] {
  return library.profiles.map(({ source: _source, signals, ...profile }) => ({
    ...profile,
    signals: Object.entries(signals).map(([key, value]) => ({ key, value })),
  }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
