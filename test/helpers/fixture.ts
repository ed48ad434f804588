/**
 * The shared test fixture: a real SQLite snapshot made from data/schema.sql and
 * test/fixtures/snapshot.sql in a temporary folder, built into a real dist.
 */
import Database from "better-sqlite3";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDist, type BuildSummary } from "../../build/build.ts";
import { generateSample } from "../../data/sample/generate.ts";

export const BASE_URL = "https://api.example.org";
const SCHEMA = readFileSync(new URL("../../data/schema.sql", import.meta.url), "utf8");
/** The fixture snapshot's rows (test/fixtures/snapshot.sql): every test that varies it starts from this. */
export const FIXTURE_SQL = readFileSync(new URL("../fixtures/snapshot.sql", import.meta.url), "utf8");

export function makeTempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `spamcheck-${label}-`));
}

/** Writes a snapshot from the schema plus `sql` (the fixture by default) and returns its path. */
export function createSnapshot(dir: string, sql = FIXTURE_SQL, name = "snapshot.sqlite"): string {
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
  /** The base URL it was built with (`--base-url`). */
  baseUrl: string;
  db: string;
  dist: string;
  summary: BuildSummary;
  /** The snapshot opened read-only, for computing expected values with SQL. */
  sql: Database.Database;
  cleanup(): void;
}

/** The fixture (or `sql`) built into a temporary dist; `baseUrl` may carry a path (README "Base URL with a path"). */
export function buildFixture(label: string, sql?: string, options: { baseUrl?: string } = {}): BuiltFixture {
  const dir = makeTempDir(label);
  const db = createSnapshot(dir, sql);
  const dist = join(dir, "dist");
  const baseUrl = options.baseUrl ?? BASE_URL;
  const summary = buildDist({ db, out: dist, baseUrl, progress: null });
  const snapshot = new Database(db, { readonly: true });
  return {
    dir,
    baseUrl,
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

/**
 * A generated sample built into `dir/dist` (the link): large enough, at a few thousand usernames,
 * that every list is longer than its default limit and spans several pages (the fixture has one).
 */
export function buildSampleDist(dir: string, scale: number): string {
  const db = join(dir, "sample.sqlite");
  generateSample({ scale, seed: "1", out: db, asOf: "2026-11-15T18:00:00Z" });
  const dist = join(dir, "dist");
  buildDist({ db, out: dist, baseUrl: BASE_URL, progress: null });
  return dist;
}

/** Each route's example request, as a build's openapi.json records it (`x-example-request`), by route id. */
export function readExampleRequests(dist: string): Map<string, { url: string; body?: unknown }> {
  const openapi = JSON.parse(readFileSync(join(dist, "openapi.json"), "utf8")) as {
    paths: Record<string, Record<string, { operationId: string; "x-example-request"?: { url: string; body?: unknown } }>>;
  };
  const requests = new Map<string, { url: string; body?: unknown }>();
  for (const item of Object.values(openapi.paths)) for (const op of Object.values(item)) if (op["x-example-request"]) requests.set(op.operationId, op["x-example-request"]);
  return requests;
}
