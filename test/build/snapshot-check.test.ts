/**
 * The snapshot contract as the build checks it before any work starts: the same tables and
 * columns as data/schema.sql, every one missing named at once, anything extra welcome. (What the
 * command prints and its exit status for each bad snapshot: test/cli/snapshot-faults.test.ts.)
 */
import Database from "better-sqlite3";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildDist, buildInMemory } from "../../build/build.ts";
import { BuildError } from "../../build/errors.ts";
import { SNAPSHOT_CONTRACT } from "../../build/snapshot/contract.ts";
import { BASE_URL, FIXTURE_SQL, makeTempDir, withSnapshot } from "../helpers/fixture.ts";

const dir = makeTempDir("snapshot-check");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Builds from the fixture changed by `sql`, returning the error it throws (or null). */
function tryBuild(label: string, sql: string): BuildError | null {
  return withSnapshot(label, `${FIXTURE_SQL}\n${sql}`, (db) => {
    try {
      buildInMemory({ db, baseUrl: BASE_URL }).files;
      return null;
    } catch (error) {
      if (error instanceof BuildError) return error;
      throw error;
    }
  });
}

describe("the snapshot contract", () => {
  it("is data/schema.sql's tables and columns, in order", () => {
    const schema = new Database(":memory:");
    schema.exec(readFileSync(new URL("../../data/schema.sql", import.meta.url), "utf8"));
    const tables = schema.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid").pluck().all() as string[];
    const columns = schema.prepare("SELECT name FROM pragma_table_info(?)").pluck();
    expect(Object.fromEntries(tables.map((table) => [table, columns.all(table)]))).toEqual(SNAPSHOT_CONTRACT);
    schema.close();
  });

  it("names every missing table and column at once, as bad input", () => {
    const error = tryBuild("contract-missing", "DROP TABLE glossary; DROP TABLE fp_signals; ALTER TABLE people DROP COLUMN avatar; ALTER TABLE chats DROP COLUMN spam_blocked;");
    expect(error?.kind).toBe("input");
    expect(error?.message).toMatch(/ does not follow data\/schema\.sql: missing tables glossary, fp_signals; missing columns people\.avatar, chats\.spam_blocked$/);
  });

  it("welcomes extra tables, columns, indexes and views, and names in another case", () => {
    const extra = `CREATE TABLE audit (id INTEGER PRIMARY KEY, note TEXT);
      ALTER TABLE companies ADD COLUMN internal_notes TEXT;
      CREATE INDEX reports_created ON reports (created_at);
      CREATE VIEW recent AS SELECT * FROM reports WHERE created_at > '2026-03-01';
      ALTER TABLE videos RENAME COLUMN title TO TITLE;
      ALTER TABLE chat_channels RENAME TO renaming; ALTER TABLE renaming RENAME TO Chat_Channels;`;
    expect(tryBuild("contract-extra", extra)).toBeNull();
  });

  it("refuses a bad snapshot before making the builds folder", () => {
    const out = join(dir, "dist");
    expect(() => buildDist({ db: dir, out, baseUrl: BASE_URL, progress: null })).toThrow(expect.objectContaining({ kind: "input", message: expect.stringMatching(/is a directory/) }));
    expect(existsSync(join(dir, ".dist-builds"))).toBe(false);
  });
});
