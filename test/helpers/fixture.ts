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
import { getRoutePath } from "../../core/routes/match.ts";
import { isChangeFeedFile } from "../../core/changes/merge.ts";
import type { ChangeIndex } from "../../core/routes/changes-schema.ts";
import type { RouteId } from "../../core/routes/table.ts";
import { applyEdit } from "./snapshot-edits.ts";

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

/** The fixture (or `sql`) built into a temporary dist; `baseUrl` may carry a path (docs/operators.md "Base URL with a path"). */
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
export function buildSampleDist(dir: string, scale: number, { publishes = 2, keep }: { publishes?: number; keep?: number } = {}): string {
  const db = join(dir, "sample.sqlite");
  generateSample({ scale, seed: "1", out: db, asOf: "2026-11-15T18:00:00Z" });
  const dist = join(dir, "dist");
  // Published more than once, so that the change feed has publishes with files: a day before
  // each, some reports not yet in, a company under its old name, and one not yet in the catalog.
  for (let daysBefore = publishes - 1; daysBefore >= 1; daysBefore--) {
    const earlier = join(dir, "sample-earlier.sqlite");
    applyEdit(db, earlier, {
      name: `${daysBefore} days before`,
      sql:
        `DELETE FROM reports WHERE id % ${8 + daysBefore} = 0 OR id > (SELECT max(id) - ${20 * daysBefore} FROM reports); ` +
        `UPDATE companies SET name = name || ' Old' WHERE id % ${6 + daysBefore} = 0; DELETE FROM companies WHERE id = (SELECT max(id) FROM companies); ` +
        `UPDATE meta SET value = strftime('%Y-%m-%dT%H:%M:%SZ', value, '-${daysBefore} days') WHERE key = 'as_of'`,
    });
    buildDist({ db: earlier, out: dist, baseUrl: BASE_URL, progress: null, readerGraceSeconds: 0 });
    rmSync(earlier);
  }
  const changeRetention = keep === undefined ? undefined : { publishes: keep, days: 0 };
  buildDist({ db, out: dist, baseUrl: BASE_URL, progress: null, readerGraceSeconds: 0, changeRetention });
  return dist;
}

/**
 * Each route's example request, as a build's openapi.json records it (`x-example-request`), by
 * route id; the change feed's, which the docs cannot show, from its index (`undocumented`).
 */
export function readExampleRequests(dist: string): Map<string, { url: string; body?: unknown; undocumented?: true }> {
  const openapi = JSON.parse(readFileSync(join(dist, "openapi.json"), "utf8")) as {
    paths: Record<string, Record<string, { operationId: string; "x-example-request"?: { url: string; body?: unknown } }>>;
  };
  const requests = new Map<string, { url: string; body?: unknown; undocumented?: true }>();
  for (const item of Object.values(openapi.paths)) for (const op of Object.values(item)) if (op["x-example-request"]) requests.set(op.operationId, op["x-example-request"]);
  for (const [id, url] of readChangeFeedRequests(dist)) requests.set(id, { url, undocumented: true });
  return requests;
}

/**
 * Files of a build that follow the publishes before it (the change feed, and the data package and
 * manifest that list it): a build of the same snapshot after another history differs in these only.
 */
export const isHistoryPath = (path: string) => isChangeFeedFile(path) || path === "manifest.json";

/**
 * Requests of the change feed's routes, which the docs cannot show (its files are written after
 * them, named by the build id): from the build's change index, the newest publish with files.
 */
export function readChangeFeedRequests(dist: string): Map<string, string> {
  const index = JSON.parse(readFileSync(join(dist, "dumps/changes/index.json"), "utf8")) as ChangeIndex;
  const urls = new Map<string, string>();
  for (const id of ["getChangeIndex", "getChangeExpired", "getChangesFeedRss", "getChangesFeedAtom", "getChangesFeedJson", "getDataPackage"]) urls.set(id, getRoutePath(id as RouteId));
  const publish = index.publishes.find((p) => p.previous !== null);
  if (publish) {
    urls.set("getChangeFile", getRoutePath("getChangeFile", { name: publish.build }));
    urls.set("getChangeFileGzip", getRoutePath("getChangeFileGzip", { name: `${publish.build}-companies` }));
    const oldest = index.publishes.at(-1)!;
    urls.set("listChanges", `${getRoutePath("listChanges")}?since=${oldest.previous ?? oldest.build}`);
  }
  return urls;
}
