/**
 * `npm run build` given a snapshot it cannot build from, in its own process: a directory, a file
 * that is not SQLite (empty, text, compressed), a truncated copy, one it may not read, one another
 * process holds an exclusive lock on, one missing a table and columns, one whose text is UTF-16.
 * Each is one `error:` line
 * naming the problem and exit status 2 (no retry fixes the input), before anything is written:
 * the previous dist stays as it was. A snapshot that is not there at all stays exit status 1
 * (docs/operators.md "Commands": a failure while working). The outcomes are printed as the table in docs/operators.md.
 */
import Database from "better-sqlite3";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDist } from "../../build/build.ts";
import { FaultTable, getErrorLine, readDistState, type DistState } from "../helpers/fault-report.ts";
import { BASE_URL, createSnapshot, makeTempDir } from "../helpers/fixture.ts";
import { runScript, type RunOptions } from "../helpers/run-command.ts";

/**
 * Root reads any file whatever its mode: the unreadable case then runs as root without that
 * capability (not as another user, who could not read a checkout that only its owner may enter).
 */
const asRoot = process.getuid?.() === 0;

let dir: string;
let out: string;
let good: string;
let before: DistState;
const table = new FaultTable("Snapshot faults (test/cli/snapshot-faults.test.ts)");

beforeAll(() => {
  dir = makeTempDir("snapshot-faults");
  out = join(dir, "dist");
  good = createSnapshot(dir);
  buildDist({ db: good, out, baseUrl: BASE_URL, progress: null });
  before = readDistState(out);
});
afterAll(() => {
  table.print();
  rmSync(dir, { recursive: true, force: true });
});

async function buildFrom(db: string, options: Partial<RunOptions> = {}) {
  return runScript("cli/build.ts", ["--db", db, "--out", out], { cwd: dir, ...options });
}

interface Fault {
  fault: string;
  /** Makes the snapshot, returns its path. */
  make: () => string;
  message: RegExp;
  status?: number;
  options?: Partial<RunOptions>;
}

const at = (name: string) => join(dir, name);
const FAULTS: Fault[] = [
  { fault: "`--db` names a directory", make: () => (mkdirSync(at("folder.sqlite")), at("folder.sqlite")), message: /^snapshot \S+folder\.sqlite is a directory, not an SQLite file$/ },
  { fault: "an empty file", make: () => (writeFileSync(at("empty.sqlite"), ""), at("empty.sqlite")), message: /^snapshot \S+ is empty, not an SQLite database$/ },
  { fault: "a CSV file", make: () => (writeFileSync(at("export.csv"), "id,name\r\n1,Alpha\r\n".repeat(20)), at("export.csv")), message: /^snapshot \S+ is not an SQLite database$/ },
  { fault: "a gzip-compressed snapshot", make: () => (writeFileSync(at("s.sqlite.gz"), gzipSync(readFileSync(good))), at("s.sqlite.gz")), message: /^snapshot \S+ is not an SQLite database$/ },
  {
    fault: "a truncated copy (the first half)",
    make: () => {
      copyFileSync(good, at("half.sqlite"));
      truncateSync(at("half.sqlite"), Math.floor(statSync(good).size / 2 / 4096) * 4096 + 100);
      return at("half.sqlite");
    },
    message: /^snapshot \S+ is truncated: \d+ bytes, where its header says \d+ \(\d+ pages of 4096\); copy it again$/,
  },
  {
    fault: `a file the user may not read${asRoot ? " (run as root without the capability to read any file)" : ""}`,
    make: () => (copyFileSync(good, at("secret.sqlite")), chmodSync(at("secret.sqlite"), 0o000), at("secret.sqlite")),
    message: /^snapshot \S+ cannot be read: permission denied$/,
    options: asRoot ? { withoutReadOverride: true } : {},
  },
  {
    fault: "a snapshot missing a table and two columns",
    make: () => {
      const path = createSnapshot(dir, undefined, "old-export.sqlite");
      const db = new Database(path);
      db.exec("DROP TABLE blog_posts; ALTER TABLE reports DROP COLUMN confidence; ALTER TABLE companies RENAME COLUMN website TO site;");
      db.close();
      return path;
    },
    message: /^snapshot \S+ does not follow data\/schema\.sql: missing table blog_posts; missing columns companies\.website, reports\.confidence$/,
  },
  {
    fault: "a snapshot whose text is UTF-16",
    make: () => copyAsUtf16(good, at("utf16.sqlite")),
    message: /^snapshot \S+utf16\.sqlite stores its text as UTF-16le, where the build reads UTF-8 \(SQLite's default\): export it again as UTF-8 \(`sqlite3 OLD \.dump \| sqlite3 NEW` does\)$/,
  },
  { fault: "no file at that path", make: () => at("missing.sqlite"), message: /^snapshot not found: \S+missing\.sqlite \(run `npm run sample` to make one\)$/, status: 1 },
];

/**
 * `from`'s schema and rows in a new database whose text is UTF-16, as some exports make it
 * (SQLite's BINARY order is then UTF-16's code units, byte by byte: not the build's).
 */
function copyAsUtf16(from: string, to: string): string {
  // SQLite attaches only databases of the main one's encoding: the rows go through here.
  const source = new Database(from, { readonly: true });
  const db = new Database(to);
  try {
    db.pragma("encoding = 'UTF-16le'");
    const objects = source.prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type <> 'table', rowid").all() as { type: string; name: string; sql: string }[];
    for (const { type, name, sql } of objects) {
      db.exec(sql);
      if (type !== "table") continue;
      const rows = source.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][];
      if (rows.length === 0) continue;
      const insert = db.prepare(`INSERT INTO "${name}" VALUES (${rows[0]!.map(() => "?").join(", ")})`);
      db.transaction(() => rows.forEach((row) => insert.run(row)))();
    }
  } finally {
    source.close();
    db.close();
  }
  return to;
}

describe("npm run build with a snapshot it cannot use", () => {
  it.each(FAULTS)("refuses $fault in one line, before writing anything", async ({ fault, make, message, status = 2, options }) => {
    const result = await buildFrom(make(), options);
    const line = getErrorLine(result);
    expect(line.replace(/^error: /, "")).toMatch(message);
    expect(result.stderr.trimEnd().split("\n")).toEqual([line]);
    expect(result.status).toBe(status);
    const untouched = JSON.stringify(readDistState(out)) === JSON.stringify(before);
    table.add(fault, line, result.status, untouched);
    expect(readDistState(out)).toEqual(before);
  });

  it("refuses a snapshot another process holds an exclusive lock on, after SQLite's busy wait", async () => {
    const locked = createSnapshot(dir, undefined, "locked.sqlite");
    const holder = new Database(locked);
    holder.exec("BEGIN EXCLUSIVE");
    try {
      const result = await buildFrom(locked);
      const line = getErrorLine(result);
      expect(line).toMatch(/^error: snapshot \S+locked\.sqlite is locked by another process \(a write in progress\?\); build again once it is done$/);
      expect(result.status).toBe(2);
      table.add("a snapshot another process holds an exclusive lock on", line, result.status, JSON.stringify(readDistState(out)) === JSON.stringify(before));
      expect(readDistState(out)).toEqual(before);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    // Once the lock is gone, the same file builds.
    expect((await buildFrom(locked)).status).toBe(0);
  });
});
