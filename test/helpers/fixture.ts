/**
 * The shared test fixture: a real SQLite snapshot made from data/schema.sql and
 * test/fixtures/snapshot.sql in a temporary folder, built into a real dist.
 */
import Database from "better-sqlite3";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDist, type BuildSummary } from "../../build/build.ts";

export const BASE_URL = "https://api.example.org";
const SCHEMA = readFileSync(new URL("../../data/schema.sql", import.meta.url), "utf8");
const FIXTURE = readFileSync(new URL("../fixtures/snapshot.sql", import.meta.url), "utf8");

export function makeTempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `spamcheck-${label}-`));
}

/** Writes a snapshot from the schema plus `sql` (the fixture by default) and returns its path. */
export function createSnapshot(dir: string, sql = FIXTURE, name = "snapshot.sqlite"): string {
  const path = join(dir, name);
  rmSync(path, { force: true });
  const db = new Database(path);
  db.exec(SCHEMA);
  db.exec(sql);
  db.close();
  return path;
}

/** Calls `use` with a one-off snapshot of the schema plus `sql`, and removes it afterwards. */
export function withSnapshot<T>(label: string, sql: string, use: (db: string) => T): T {
  const dir = makeTempDir(label);
  try {
    return use(createSnapshot(dir, sql));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface BuiltFixture {
  dir: string;
  db: string;
  dist: string;
  summary: BuildSummary;
  /** The snapshot opened read-only, for computing expected values with SQL. */
  sql: Database.Database;
  cleanup(): void;
}

export function buildFixture(label: string, sql?: string): BuiltFixture {
  const dir = makeTempDir(label);
  const db = createSnapshot(dir, sql);
  const dist = join(dir, "dist");
  const summary = buildDist({ db, out: dist, baseUrl: BASE_URL, progress: null });
  const snapshot = new Database(db, { readonly: true });
  return {
    dir,
    db,
    dist,
    summary,
    sql: snapshot,
    cleanup() {
      snapshot.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
