/**
 * The catalog tables, read whole (tens of thousands of rows at most): meta, companies with their
 * aliases, people, and the fingerprint profile library. SQL only: validation is the model's.
 */
import { selectColumns } from "./contract.ts";
import type { Snapshot } from "./open.ts";

export function readMeta(db: Snapshot): Map<string, string> {
  const rows = db.prepare("SELECT key, value FROM meta").raw().all() as [string, string][];
  return new Map(rows);
}

export interface CompanyRow {
  id: number;
  name: string;
  slug: string;
  category: string;
  website: string | null;
  created_at: string;
}

export function readCompanies(db: Snapshot): CompanyRow[] {
  return db.prepare(`SELECT ${selectColumns("companies")} FROM companies ORDER BY id`).all() as CompanyRow[];
}

/** Aliases per company id, in snapshot order (rowid) so output is stable. */
export function readAliases(db: Snapshot): Map<number, string[]> {
  const aliases = new Map<number, string[]>();
  for (const [companyId, alias] of db.prepare("SELECT company_id, alias FROM company_aliases ORDER BY company_id, rowid").raw().iterate() as Iterable<[number, string]>) {
    const list = aliases.get(companyId);
    if (list) list.push(alias);
    else aliases.set(companyId, [alias]);
  }
  return aliases;
}

export interface PersonRow {
  id: number;
  name: string;
  slug: string;
  avatar: string | null;
  company_id: number | null;
}

export function readPeople(db: Snapshot): PersonRow[] {
  return db.prepare(`SELECT ${selectColumns("people")} FROM people ORDER BY id`).all() as PersonRow[];
}

export interface FingerprintProfileRow {
  id: number;
  label: string;
  kind: string;
  name: string;
  os_family: string | null;
  trust_level: string;
  observations: number;
  confirmations: number;
  signals: { key: string; value: string }[];
}

/**
 * Every fingerprint profile with its signals, by id; signals in snapshot order (rowid). The
 * library is small (hundreds to a few thousand profiles), so it is read whole. Signals whose
 * profile does not exist have nothing to attach to and are left out by the join.
 */
export function readFingerprintProfiles(db: Snapshot): FingerprintProfileRow[] {
  const profiles = db
    .prepare(`SELECT ${selectColumns("fp_profiles")} FROM fp_profiles ORDER BY id`)
    .all() as Omit<FingerprintProfileRow, "signals">[];
  const byId = new Map<number, FingerprintProfileRow>();
  const rows = profiles.map((profile) => {
    const row = { ...profile, signals: [] as FingerprintProfileRow["signals"] };
    byId.set(row.id, row);
    return row;
  });
  const signals = db.prepare(
    "SELECT s.profile_id, s.key, s.value FROM fp_signals s JOIN fp_profiles p ON p.id = s.profile_id ORDER BY s.profile_id, s.rowid",
  );
  for (const [profileId, key, value] of signals.raw().iterate() as Iterable<[number, string, string]>) {
    byId.get(profileId)?.signals.push({ key, value });
  }
  return rows;
}
