/**
 * `npm run fingerprints -- import`, in its own process as an operator runs it: the shipped library
 * goes into their snapshot once, a second run changes nothing, a snapshot the build could not read
 * or an unknown action is refused in one line with exit 2; and a build of a snapshot without a
 * public profile says, as a warning, that every match would answer `unknown`.
 */
import Database from "better-sqlite3";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFingerprintLibrary } from "../../data/fingerprints/library.ts";
import { createSnapshot, makeTempDir } from "../helpers/fixture.ts";
import { runScript } from "../helpers/run-command.ts";

const library = readFingerprintLibrary();
let dir: string;
beforeAll(() => {
  dir = makeTempDir("fingerprints-import");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const importInto = (db: string, action = "import") => runScript("cli/fingerprints.ts", [action, "--db", db], { cwd: dir, timeoutMs: 60_000 });
const countProfiles = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare("SELECT count(*) FROM fp_profiles").pluck().get();
  } finally {
    db.close();
  }
};

describe("npm run fingerprints -- import", () => {
  it("loads the library into a snapshot without one, and changes nothing the second time", async () => {
    const db = createSnapshot(dir, undefined, "own.sqlite");
    expect(countProfiles(db)).toBe(0);
    const first = await importInto(db);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(`${library.profiles.length} added, 0 updated, 0 unchanged`);
    expect(countProfiles(db)).toBe(library.profiles.length);
    const second = await importInto(db);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain(`0 added, 0 updated, ${library.profiles.length} unchanged`);
    expect(countProfiles(db)).toBe(library.profiles.length);
  });

  it("refuses a snapshot the build could not read, and an unknown action, in one line with exit 2", async () => {
    const partial = join(dir, "partial.sqlite");
    const db = new Database(partial);
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    db.close();
    for (const [result, message] of [
      [await importInto(partial), /^error: snapshot .*partial\.sqlite does not follow data\/schema\.sql/],
      [await importInto(dir), /^error: snapshot .* is a directory/],
      [await importInto(createSnapshot(dir, undefined, "other.sqlite"), "export"), /^error: unknown action "export": the actions are import$/],
    ] as const) {
      expect(result.status).toBe(2);
      expect(result.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(message)]);
    }
  });

  it("is what a build without a public profile tells the operator to run", async () => {
    const db = createSnapshot(dir, undefined, "no-profiles.sqlite");
    const result = await runScript("cli/build.ts", ["--db", db, "--out", join(dir, "dist")], { cwd: dir, timeoutMs: 60_000 });
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/^warning: the snapshot has no public fingerprint profile, .*`npm run fingerprints -- import --db FILE`$/m);
    await importInto(db);
    const again = await runScript("cli/build.ts", ["--db", db, "--out", join(dir, "dist")], { cwd: dir, timeoutMs: 60_000 });
    expect(again.status).toBe(0);
    expect(again.stderr).not.toMatch(/^warning:/m);
  });
});
