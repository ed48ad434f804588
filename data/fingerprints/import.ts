/**
 * Loading the shipped fingerprint library into a snapshot (`npm run fingerprints -- import`), so
 * that an operator's own export answers fingerprint matches too. Idempotent: a library profile is
 * known in the snapshot by its label; one that is there already is brought up to date (its fields
 * and its signals, replaced whole), one that is not is added — under its library id when that id
 * is free, else after the highest id in the snapshot or the library. The operator's own profiles
 * (other labels) are left alone.
 */
import type Database from "better-sqlite3";
import { readFingerprintLibrary, type FingerprintLibrary, type LibraryProfile } from "./library.ts";

export interface ImportCounts {
  added: number;
  updated: number;
  unchanged: number;
}

type ProfileFields = Omit<LibraryProfile, "source" | "signals" | "id">;

interface StoredProfile extends ProfileFields {
  id: number;
  signals: string;
}

/** The snapshot must have the library's two tables (data/schema.sql); anything else is the caller's problem. */
export function checkFingerprintTables(db: Database.Database): string | null {
  const present = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
  const missing = ["fp_profiles", "fp_signals"].filter((table) => !present.has(table));
  return missing.length === 0 ? null : `missing table${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (see data/schema.sql)`;
}

/** Imports `library` (the shipped one by default) in one transaction; returns what changed. */
export function importFingerprintLibrary(db: Database.Database, library: FingerprintLibrary = readFingerprintLibrary()): ImportCounts {
  const findByLabel = db.prepare(
    `SELECT id, label, kind, name, os_family, trust_level, observations, confirmations,
            (SELECT json_group_array(json_array(key, value)) FROM (SELECT key, value FROM fp_signals WHERE profile_id = p.id ORDER BY rowid)) AS signals
     FROM fp_profiles p WHERE label = ? ORDER BY id LIMIT 1`,
  );
  const idTaken = db.prepare("SELECT 1 FROM fp_profiles WHERE id = ?").pluck();
  // A profile whose library id is taken goes after every library id, so it takes no other's.
  const nextId = db.prepare("SELECT max(coalesce(max(id), 0), ?) + 1 FROM fp_profiles").pluck();
  const highestLibraryId = Math.max(0, ...library.profiles.map((p) => p.id));
  const insertProfile = db.prepare(
    `INSERT INTO fp_profiles (id, label, kind, name, os_family, trust_level, observations, confirmations)
     VALUES (@id, @label, @kind, @name, @os_family, @trust_level, @observations, @confirmations)`,
  );
  const updateProfile = db.prepare(
    `UPDATE fp_profiles SET kind = @kind, name = @name, os_family = @os_family, trust_level = @trust_level,
       observations = @observations, confirmations = @confirmations WHERE id = @id`,
  );
  const deleteSignals = db.prepare("DELETE FROM fp_signals WHERE profile_id = ?");
  const insertSignal = db.prepare("INSERT INTO fp_signals (profile_id, key, value) VALUES (?, ?, ?)");
  const counts: ImportCounts = { added: 0, updated: 0, unchanged: 0 };
  db.transaction(() => {
    for (const { source: _source, signals, id: libraryId, ...fields } of library.profiles) {
      const wanted = JSON.stringify(Object.entries(signals));
      const stored = findByLabel.get(fields.label) as StoredProfile | undefined;
      if (stored && isSame(stored, fields) && stored.signals === wanted) {
        counts.unchanged++;
        continue;
      }
      let id: number;
      if (stored) {
        id = stored.id;
        updateProfile.run({ ...fields, id });
        deleteSignals.run(id);
        counts.updated++;
      } else {
        id = idTaken.get(libraryId) === undefined ? libraryId : (nextId.get(highestLibraryId) as number);
        insertProfile.run({ ...fields, id });
        counts.added++;
      }
      for (const [key, value] of Object.entries(signals)) insertSignal.run(id, key, value);
    }
  })();
  return counts;
}

function isSame(stored: StoredProfile, fields: ProfileFields): boolean {
  return (Object.keys(fields) as (keyof ProfileFields)[]).every((key) => stored[key] === fields[key]);
}
