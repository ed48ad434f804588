/**
 * Incremental builds (docs/benchmarks.md "Incremental builds"): whatever came before, a build onto an earlier
 * one publishes exactly the tree, manifest and build id that a full build of the same snapshot
 * makes; and anything it cannot trust means a full build, said in its reason.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDist, buildInMemory, type BuildOptions, type BuildSummary } from "../../build/build.ts";
import { EMITTERS } from "../../build/emitters/index.ts";
import { getBuildsLayout, getCurrentBuild } from "../../build/publish.ts";
import { applyChanges, CHANGE_DATASETS, parseChange } from "../../core/changes/merge.ts";
import { readCsvRecords } from "../../core/changes/records.ts";
import type { ChangeIndex } from "../../core/routes/changes-schema.ts";
import { generateSample } from "../../data/sample/generate.ts";
import { BASE_URL, FIXTURE_SQL, makeTempDir } from "../helpers/fixture.ts";
import { applyEdit, findEdit, SNAPSHOT_EDITS, type SnapshotEdit } from "../helpers/snapshot-edits.ts";

/** Every file of a build folder by path, as its SHA-256 (hard links and all: bytes are what count). */
function readTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(root, path), createHash("sha256").update(readFileSync(path)).digest("hex"));
    }
  };
  walk(root);
  return files;
}

/** The build each summary's build followed (its change feed is relative to it), or null for a first build. */
const followed = new WeakMap<BuildSummary, string | null>();

function buildInto(out: string, db: string, options: Pick<BuildOptions, "full" | "rewriteBudget" | "progress"> = {}): BuildSummary {
  const previous = getCurrentBuild(getBuildsLayout(out));
  const summary = buildDist({ db, out, baseUrl: BASE_URL, progress: null, readerGraceSeconds: 0, ...options });
  followed.set(summary, previous);
  return summary;
}

let dir: string;
let counter = 0;
/**
 * Compares `summary`'s tree with a full build of `db`: `--full` into a folder of its own (which
 * goes afterwards), or by default the same emitters into memory, which test/build/build.test.ts
 * holds byte-equal to a full build on disk (and costs no million-inode folder to write and delete).
 */
function expectSameAsFull(summary: BuildSummary, db: string, { onDisk = false } = {}): void {
  const actual = readTree(summary.buildDir);
  // The change feed is relative to the publish before: the full build follows the same one.
  const previous = followed.get(summary) ?? null;
  let expected: Map<string, string>;
  let expectedId: string;
  if (onDisk) {
    const out = join(dir, `full-${counter++}`, "dist");
    try {
      mkdirSync(join(out, ".."), { recursive: true });
      if (previous) symlinkSync(previous, out);
      const full = buildInto(out, db, { full: true });
      expect(full.mode).toEqual({ mode: "full", reason: "asked for (--full)" });
      expected = readTree(full.buildDir);
      expectedId = full.buildId;
    } finally {
      rmSync(join(out, ".."), { recursive: true, force: true });
    }
  } else {
    const built = buildInMemory({ db, baseUrl: BASE_URL, previousBuild: previous ?? undefined });
    expected = new Map([...built.files].map(([path, bytes]) => [path, createHash("sha256").update(bytes).digest("hex")]));
    expectedId = built.summary.buildId;
  }
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  const differing = [...expected].filter(([path, hash]) => actual.get(path) !== hash).map(([path]) => path);
  expect(differing).toEqual([]);
  expect(summary.buildId).toBe(expectedId);
}

/**
 * The publish's change files, applied to the dumps of the build it followed, give its own dumps
 * byte for byte (docs/change-feed.md); a build of the same files keeps the history as it was.
 */
function expectChangesApply(summary: BuildSummary): void {
  const previous = followed.get(summary) ?? null;
  const index = JSON.parse(readFileSync(join(summary.buildDir, "dumps/changes/index.json"), "utf8")) as ChangeIndex;
  expect(index.build).toBe(summary.buildId);
  const publish = index.publishes[0]!;
  expect(publish.build).toBe(summary.buildId);
  if (previous === null || previous === summary.buildDir) return;
  expect(publish.previous).toBe(previous.split("/").pop());
  for (const dataset of CHANGE_DATASETS) {
    const file = publish.files.find((f) => f.dataset === dataset && f.name.endsWith(".csv"))!;
    const dump = (root: string) => readFileSync(join(root, `dumps/${dataset}-latest.csv`));
    const changes = [...readCsvRecords([readFileSync(join(summary.buildDir, "dumps/changes", file.name))])].slice(1).map(parseChange);
    const applied = [...applyChanges(readCsvRecords([dump(previous)]), changes, dataset)].join("");
    expect(applied).toBe(dump(summary.buildDir).toString("utf8"));
    expect(changes.length).toBe(file.rows);
  }
}

let base: string;
beforeAll(() => {
  dir = makeTempDir("incremental");
  base = join(dir, "base.sqlite");
  generateSample({ scale: 300, seed: "incremental", out: base, asOf: "2026-03-11T10:00:00Z" });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.sequential("an incremental build, after each kind of change in turn", () => {
  let out: string;
  let previous: string;
  beforeAll(() => {
    out = join(dir, "chain", "dist");
    previous = base;
    const first = buildInto(out, base);
    expect(first.mode).toEqual({ mode: "full", reason: "no earlier build" });
  });

  it.each(SNAPSHOT_EDITS.map((edit, i) => [edit.name, edit, i] as const))("%s: equals a full build of the same snapshot", (_, edit, i) => {
    const next = join(dir, `chain-${i}.sqlite`);
    applyEdit(previous, next, edit);
    previous = next;
    const before = readlinkSync(out);
    const summary = buildInto(out, next);
    if (edit.name === "nothing changed") {
      // The same rows: nothing is built, the current build stays.
      expect(summary.mode).toMatchObject({ mode: "unchanged" });
      expect(readlinkSync(out)).toBe(before);
    } else {
      // Incremental, and the pass read only the changed usernames' reports again.
      expect(summary.mode).toMatchObject({ mode: "incremental", reports: { usernames: expect.any(Number) } });
    }
    expectSameAsFull(summary, next);
    expectChangesApply(summary);
  });

  it("a snapshot of another data set: equals a full build of it", () => {
    const other = join(dir, "other.sqlite");
    generateSample({ scale: 200, seed: "another data set", out: other, asOf: "2026-05-01T00:00:00Z" });
    const summary = buildInto(out, other);
    expect(summary.mode.mode).toBe("incremental");
    expect(summary.mode.mode === "incremental" && summary.mode.deleted).toBeGreaterThan(0);
    expectSameAsFull(summary, other, { onDisk: true });
    expectChangesApply(summary);
  });
});

describe("a change larger than a full build costs", () => {
  it("is built in full by itself, and the next build onto it is incremental again", () => {
    const out = join(dir, "larger", "dist");
    const one = join(dir, "larger-1.sqlite");
    const other = join(dir, "larger-2.sqlite");
    generateSample({ scale: 5000, seed: "one data set", out: one, asOf: "2026-05-01T00:00:00Z" });
    generateSample({ scale: 5000, seed: "another data set", out: other, asOf: "2026-05-01T00:00:00Z" });
    buildInto(out, one);
    const summary = buildInto(out, other);
    expect(summary.mode.mode === "full" && summary.mode.reason).toMatch(/^the change is larger than a full build costs \(\d+ % of the report ranges changed\)$/);
    const next = join(dir, "larger-3.sqlite");
    applyEdit(other, next, findEdit("company renamed"));
    const after = buildInto(out, next);
    expect(after.mode.mode).toBe("incremental");
    expectSameAsFull(after, next);
  }, 120_000);
});

describe("a change that turns out larger than its budget of check files to write anew", () => {
  const budget = { share: 0.08, minimum: 10 };
  const everyUsername: SnapshotEdit = {
    name: "one more report for every username",
    sql: "INSERT INTO reports (username, category, company_id, reporter, confidence, created_at) SELECT username, category, company_id, 'every-' || id, 55, created_at FROM reports WHERE id IN (SELECT min(id) FROM reports WHERE username IS NOT NULL GROUP BY username)",
  };
  const twoUsernames: SnapshotEdit = {
    name: "one more report for two usernames",
    sql: "INSERT INTO reports (username, category, company_id, reporter, confidence, created_at) SELECT username, category, NULL, 'r-y', 50, created_at FROM reports WHERE username IN (SELECT DISTINCT username FROM reports WHERE username GLOB '[a-z]*' ORDER BY username LIMIT 2)",
  };
  /** The phases the build went through, as its progress display hears them. */
  const recordPhases = (phases: string[]): BuildOptions["progress"] => () => ({ phase: (name) => phases.push(name), update() {}, done() {} });
  const reason = /^the change is larger than a full build costs \(more than [\d,]+ check files to write anew, 8 % of the usernames\)$/;

  it("gives way to a full build from the model already read; the next build onto it is incremental again", () => {
    const out = join(dir, "over-budget", "dist");
    buildInto(out, base);
    const one = join(dir, "over-budget-1.sqlite");
    applyEdit(base, one, twoUsernames);
    // Under the budget: incremental, into a new folder; the next one brings the first build's folder up to date.
    expect(buildInto(out, one, { rewriteBudget: budget }).mode).toMatchObject({ mode: "incremental", base: "linked" });
    const many = join(dir, "over-budget-2.sqlite");
    applyEdit(one, many, everyUsername);
    const phases: string[] = [];
    const summary = buildInto(out, many, { rewriteBudget: budget, progress: recordPhases(phases) });
    expect(summary.mode.mode === "full" && summary.mode.reason).toMatch(reason);
    // The model is read once; the full build starts from it.
    expect(phases.filter((p) => p === "model")).toHaveLength(1);
    expect(phases.filter((p) => p.startsWith("full: "))).toHaveLength(1);
    expect(summary.timings.model).toBeGreaterThan(0);
    expect(summary.rssAfter.model).toBeGreaterThan(0);
    expectSameAsFull(summary, many);
    expectChangesApply(summary);
    // The folder it had begun to bring up to date is gone; the current and the one before are kept.
    const builds = join(out, "..", ".dist-builds");
    expect(readdirSync(builds).filter((name) => name.startsWith("staging-"))).toEqual([]);
    const state = JSON.parse(readFileSync(join(builds, "state.json"), "utf8"));
    expect(Object.keys(state.trees).sort()).toEqual([readlinkSync(out).split("/").pop(), followed.get(summary)!.split("/").pop()].sort());
    const next = join(dir, "over-budget-3.sqlite");
    applyEdit(many, next, findEdit("company renamed"));
    const after = buildInto(out, next);
    expect(after.mode).toMatchObject({ mode: "incremental", base: "previous" });
    expectSameAsFull(after, next, { onDisk: true });
  }, 120_000);

  it("does so from a new folder with the current build's files linked too", () => {
    const out = join(dir, "over-budget-linked", "dist");
    buildInto(out, base);
    const many = join(dir, "over-budget-linked.sqlite");
    applyEdit(base, many, everyUsername);
    const summary = buildInto(out, many, { rewriteBudget: budget });
    expect(summary.mode.mode === "full" && summary.mode.reason).toMatch(reason);
    expectSameAsFull(summary, many);
  });
});

describe("a snapshot whose meta table has no rowid (WITHOUT ROWID, as some exports make it)", () => {
  it("builds, and a build of the same rows is 'nothing changed'", () => {
    const path = join(dir, "without-rowid.sqlite");
    const db = new Database(path);
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID");
    db.exec(readFileSync(new URL("../../data/schema.sql", import.meta.url), "utf8"));
    db.exec(FIXTURE_SQL);
    db.close();
    const out = join(dir, "without-rowid", "dist");
    expect(buildInto(out, path).mode).toEqual({ mode: "full", reason: "no earlier build" });
    expect(buildInto(out, path).mode).toMatchObject({ mode: "unchanged" });
  });
});

describe("what it counts", () => {
  it("says how many usernames and companies changed, and keeps what did not", () => {
    const out = join(dir, "counts", "dist");
    buildInto(out, base);
    const next = join(dir, "counts.sqlite");
    applyEdit(base, next, { name: "one more report for two usernames", sql: "INSERT INTO reports (username, category, company_id, reporter, confidence, created_at) SELECT username, category, NULL, 'r-x', 50, created_at FROM reports WHERE username IN (SELECT DISTINCT username FROM reports WHERE username GLOB '[a-z]*' ORDER BY username LIMIT 2)" });
    const summary = buildInto(out, next);
    // Into a new folder (the first build left no second one): the unchanged files are linked.
    expect(summary.mode).toMatchObject({ mode: "incremental", base: "linked", changed: { usernames: 2, companies: 0 } });
    const again = buildInto(out, base);
    expect(again.mode).toMatchObject({ mode: "incremental", base: "previous", changed: { usernames: 2, companies: 0 } });
    if (again.mode.mode === "incremental") expect(again.mode.kept).toBeGreaterThan(again.mode.written * 10);
    // The other usernames' check files were not made again (but the few the docs' examples show),
    // nor the badges, widgets and embeds of the companies (none of whose complaints changed: 9 files each).
    for (const built of [summary, again]) {
      if (built.mode.mode !== "incremental") throw new Error("not incremental");
      expect(built.checkPhase.unmade).toBeLessThanOrEqual(built.counts.usernames - 2);
      expect(built.checkPhase.unmade).toBeGreaterThan(built.counts.usernames - 12);
      expect(built.mode.unmade - built.checkPhase.unmade).toBeGreaterThan((built.counts.companies - 2) * 9);
      expect(built.mode.unmade - built.checkPhase.unmade).toBeLessThanOrEqual(built.counts.companies * 9);
    }
    expectSameAsFull(again, base, { onDisk: true });
  });
});

describe("the dump's gzip members", () => {
  // Enough usernames for the full dump to be several members (about 1 300 rows each).
  let larger: string;
  let out: string;
  let twoMore: string;
  const statePath = () => join(out, "..", ".dist-builds", "state.json");
  const members = (summary: BuildSummary) => {
    if (summary.mode.mode !== "incremental") throw new Error(`not incremental: ${JSON.stringify(summary.mode)}`);
    return summary.mode.dumpMembers;
  };
  beforeAll(() => {
    larger = join(dir, "members.sqlite");
    generateSample({ scale: 6000, seed: "members", out: larger, asOf: "2026-03-11T10:00:00Z" });
    twoMore = join(dir, "members-two-more.sqlite");
    // And a new username early in username order: every row after it moves. (This sample's full
    // dump is too few members for that to tell content-defined batches from fixed ones: the
    // batching test in dump.test.ts does, on 30 000 rows.)
    applyEdit(larger, twoMore, {
      name: "one more report for two usernames, and a new one",
      sql: `INSERT INTO reports (username, category, company_id, reporter, confidence, created_at) SELECT username, category, NULL, 'r-x', 50, created_at FROM reports WHERE username IN (SELECT DISTINCT username FROM reports WHERE username GLOB '[a-z]*' ORDER BY username DESC LIMIT 2);
            INSERT INTO reports (username, category, company_id, reporter, confidence, created_at) VALUES ('a00_newcomer', 'crypto', NULL, 'r-y', 50, '2026-03-10T08:00:00Z');`,
    });
    out = join(dir, "members", "dist");
  });

  it("are taken from the current build where their rows did not change: only the changed batches are compressed again", () => {
    buildInto(out, larger);
    const summary = buildInto(out, twoMore);
    const { reused, made, refused } = members(summary);
    expect(refused).toEqual([]);
    // Three usernames: at most their batches of the full dump and of their weeks' dumps.
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThanOrEqual(6);
    expect(reused).toBeGreaterThan(made);
    expectSameAsFull(summary, twoMore);
    // Back: the members of the build before last are not kept, those of the current one are.
    expect(members(buildInto(out, larger)).made).toBeLessThanOrEqual(6);
  });

  it("listed under keys that are not theirs in the state: compressed again (their trailers do not hold the batch), the same bytes", () => {
    buildInto(out, larger);
    const state = JSON.parse(readFileSync(statePath(), "utf8"));
    const current = state.trees[readlinkSync(out).split("/").pop()!];
    const file = current.dumps.find((f: { path: string }) => f.path === "dumps/spammers-latest.csv.gz");
    // Every member listed under the next one's key (lengths kept: the file still adds up).
    const entries = Buffer.from(file.members, "base64");
    const keys = Array.from({ length: entries.byteLength / 20 }, (_, i) => Buffer.from(entries.subarray(i * 20, i * 20 + 16)));
    expect(keys.length).toBeGreaterThan(2);
    keys.forEach((_, i) => keys[(i + 1) % keys.length]!.copy(entries, i * 20));
    file.members = entries.toString("base64");
    writeFileSync(statePath(), JSON.stringify(state));
    const summary = buildInto(out, twoMore);
    expect(members(summary).made).toBeGreaterThanOrEqual(keys.length);
    expectSameAsFull(summary, twoMore);
  });

  it("listed in a state cut short (a member's entry half there): not used, said, the same bytes", () => {
    buildInto(out, larger);
    const state = JSON.parse(readFileSync(statePath(), "utf8"));
    const current = state.trees[readlinkSync(out).split("/").pop()!];
    const file = current.dumps.find((f: { path: string }) => f.path === "dumps/spammers-latest.csv.gz");
    // The first member's key and two bytes of its length.
    file.members = Buffer.from(file.members, "base64").subarray(0, 18).toString("base64");
    writeFileSync(statePath(), JSON.stringify(state));
    const summary = buildInto(out, twoMore);
    expect(members(summary).refused).toEqual(["dumps/spammers-latest.csv.gz: not the file the state describes"]);
    expectSameAsFull(summary, twoMore);
  });

  it("in a file that is not the one the state describes: not used, said, the same bytes", () => {
    buildInto(out, larger);
    const gz = join(out, "dumps/spammers-latest.csv.gz");
    const bytes = readFileSync(gz);
    bytes[bytes.length >> 1]! ^= 1;
    // Not through the hard links it may share with the other build folder.
    rmSync(gz);
    writeFileSync(gz, bytes);
    const summary = buildInto(out, twoMore);
    expect(members(summary).refused).toEqual(["dumps/spammers-latest.csv.gz: not the file the state describes"]);
    expect(members(summary).made).toBeGreaterThan(2);
    expectSameAsFull(summary, twoMore);
  });
});

describe("random sequences of changes", () => {
  it("give the same bytes as a full build after every build", () => {
    const edits = SNAPSHOT_EDITS.filter((e) => e.name !== "nothing changed");
    let run = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...edits), { minLength: 2, maxLength: 3 }), (sequence: SnapshotEdit[]) => {
        const out = join(dir, `random-${run}`, "dist");
        let db = base;
        buildInto(out, db);
        sequence.forEach((edit, step) => {
          const next = join(dir, `random-${run}-${step}.sqlite`);
          applyEdit(db, next, edit);
          db = next;
          const summary = buildInto(out, db);
          expect(summary.mode.mode).toBe("incremental");
          expectSameAsFull(summary, db);
          expectChangesApply(summary);
        });
        rmSync(join(out, ".."), { recursive: true, force: true });
        run++;
      }),
      { numRuns: 4, seed: 22 },
    );
    // About 30 s on a quiet machine: the time limit follows the work, with room for a slow disk.
  }, 240_000);
});

describe("what it does not trust", () => {
  let out: string;
  let changed: string;
  beforeAll(() => {
    out = join(dir, "distrust", "dist");
    changed = join(dir, "distrust.sqlite");
    applyEdit(base, changed, findEdit("report categories edited"));
  });
  const statePath = () => join(out, "..", ".dist-builds", "state.json");

  it("a build made by other code: a full build", () => {
    buildInto(out, base);
    const state = JSON.parse(readFileSync(statePath(), "utf8"));
    for (const tree of Object.values<{ code: string }>(state.trees)) tree.code = "0".repeat(32);
    writeFileSync(statePath(), JSON.stringify(state));
    const summary = buildInto(out, changed);
    expect(summary.mode).toEqual({ mode: "full", reason: "the code changed" });
    expectSameAsFull(summary, changed);
  });

  it("a build by other emitters (as tests make): the next build of the same snapshot is full, not 'nothing changed'", () => {
    const fewer = EMITTERS.filter((e) => e.name !== "feeds");
    buildDist({ db: changed, out, baseUrl: BASE_URL, progress: null, emitters: fewer });
    const summary = buildInto(out, changed);
    expect(summary.mode).toEqual({ mode: "full", reason: "the code changed" });
    expectSameAsFull(summary, changed);
  });

  it("a corrupt state: a full build", () => {
    buildInto(out, base);
    writeFileSync(statePath(), '{"format": 1, "trees": ');
    const summary = buildInto(out, changed);
    expect(summary.mode.mode).toBe("full");
    expect(summary.mode.mode === "full" && summary.mode.reason).toMatch(/^its state is unreadable \(not JSON/);
    expectSameAsFull(summary, changed);
  });

  it.each([
    ["username rows", "groups", "the kept username rows are missing or damaged"],
    ["report rows", "rows", "the kept report rows are missing or damaged"],
  ] as const)("the kept %s damaged, then missing: every report read, the same bytes; the next build reads only what changed again", (_, kind, reason) => {
    const current = buildInto(out, base);
    const kept = join(out, "..", ".dist-builds", "model", `${current.buildId}.${kind}`);
    const bytes = readFileSync(kept);
    bytes[bytes.length >> 1]! ^= 1;
    writeFileSync(kept, bytes);
    const damaged = buildInto(out, changed);
    expect(damaged.mode).toMatchObject({ mode: "incremental", reports: { reason } });
    expectSameAsFull(damaged, changed);
    rmSync(join(out, "..", ".dist-builds", "model", `${damaged.buildId}.${kind}`));
    const missing = buildInto(out, base);
    expect(missing.mode).toMatchObject({ mode: "incremental", reports: { reason } });
    expectSameAsFull(missing, base);
    const again = buildInto(out, changed);
    expect(again.mode).toMatchObject({ mode: "incremental", reports: { usernames: expect.any(Number) } });
    expectSameAsFull(again, changed);
  });

  it("a username that is a number, a blob or a text with a NUL: every report read, the same bytes; once it is gone, only what changed again", () => {
    buildInto(out, base);
    const odd = join(dir, "distrust-odd.sqlite");
    applyEdit(changed, odd, {
      name: "usernames that are not plain text",
      sql: `INSERT INTO reports (username, category, reporter, confidence, created_at) VALUES (12345, 'crypto', 'r-n', 20, '2026-03-01T00:00:00Z'),
              (X'6162', 'crypto', 'r-b', 20, '2026-03-01T00:00:00Z'), ('nul' || char(0) || 'after', 'crypto', 'r-z', 20, '2026-03-01T00:00:00Z')`,
    });
    const summary = buildInto(out, odd);
    expect(summary.mode).toMatchObject({ mode: "incremental", reports: { reason: "a report's username is not plain text (a number, a blob, or a text with a NUL)" } });
    expectSameAsFull(summary, odd);
    // Nothing was kept of that pass: the next build reads every report (and keeps it), the one after only what changed.
    expect(buildInto(out, changed).mode).toMatchObject({ mode: "incremental", reports: { reason: "nothing was kept" } });
    const next = buildInto(out, base);
    expect(next.mode).toMatchObject({ mode: "incremental", reports: { usernames: expect.any(Number) } });
    expectSameAsFull(next, base);
    // A full build (--full) of such a snapshot keeps nothing either.
    expect(buildInto(out, odd, { full: true }).mode).toEqual({ mode: "full", reason: "asked for (--full)" });
    const afterFull = buildInto(out, changed);
    expect(afterFull.mode).toMatchObject({ mode: "incremental", reports: { reason: "nothing was kept" } });
    expectSameAsFull(afterFull, changed);
    // And a full build of plain usernames keeps its pass: the next one reads only what changed.
    buildInto(out, base, { full: true });
    const afterPlain = buildInto(out, changed);
    expect(afterPlain.mode).toMatchObject({ mode: "incremental", reports: { usernames: expect.any(Number) } });
    expectSameAsFull(afterPlain, changed);
  });

  it("a text changed after a NUL in it: seen by the digests (SQLite's quote() stops at a NUL), never 'nothing changed'", () => {
    const withNul = join(dir, "distrust-nul-1.sqlite");
    const edited = join(dir, "distrust-nul-2.sqlite");
    applyEdit(base, withNul, {
      name: "a reporter with a NUL",
      sql: "UPDATE reports SET reporter = 'r' || char(0) || 'one' WHERE id = (SELECT min(id) FROM reports WHERE username IS NOT NULL)",
    });
    applyEdit(withNul, edited, { name: "changed after the NUL", sql: "UPDATE reports SET reporter = 'r' || char(0) || 'two' WHERE reporter = 'r' || char(0) || 'one'" });
    buildInto(out, withNul);
    const summary = buildInto(out, edited);
    expect(summary.mode.mode).toBe("incremental");
    expectSameAsFull(summary, edited);
  });

  it("a state whose snapshot digests do not hold together: an incremental build, never 'nothing changed'", () => {
    buildInto(out, base);
    const state = JSON.parse(readFileSync(statePath(), "utf8"));
    for (const tree of Object.values<{ snapshot?: { reportDigests: string } }>(state.trees)) if (tree.snapshot) tree.snapshot.reportDigests = "AAAA";
    writeFileSync(statePath(), JSON.stringify(state));
    const summary = buildInto(out, base);
    expect(summary.mode.mode).toBe("incremental");
    expectSameAsFull(summary, base);
  });

  it("a missing state: a full build", () => {
    buildInto(out, base);
    rmSync(statePath());
    const summary = buildInto(out, changed);
    expect(summary.mode).toEqual({ mode: "full", reason: "its state is missing" });
  });

  it("another base URL: a full build", () => {
    buildInto(out, base);
    const summary = buildDist({ db: changed, out, baseUrl: "https://elsewhere.example", progress: null, readerGraceSeconds: 0 });
    expect(summary.mode).toEqual({ mode: "full", reason: "the base URL changed (--base-url)" });
  });

  it("a build folder whose manifest is not its own is not brought up to date: a new folder is", () => {
    buildInto(out, base);
    buildInto(out, changed);
    const state = JSON.parse(readFileSync(statePath(), "utf8"));
    const current = readlinkSync(out).split("/").pop();
    const other = Object.keys(state.trees).find((name) => name !== current)!;
    const manifest = join(out, "..", ".dist-builds", other, "manifest.json");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace('"size":', '"size": '));
    const summary = buildInto(out, base);
    expect(summary.mode).toMatchObject({ mode: "incremental", base: "linked" });
    expectSameAsFull(summary, base);
  });

  it("the current build's manifest altered: a full build", () => {
    buildInto(out, base);
    const manifest = join(out, "manifest.json");
    const text = readFileSync(manifest, "utf8");
    rmSync(manifest);
    writeFileSync(manifest, text + " ");
    const summary = buildInto(out, changed);
    expect(summary.mode.mode).toBe("full");
    expect(summary.mode.mode === "full" && summary.mode.reason).toMatch(/does not match its id/);
  });
});

describe("a build that fails or is killed half-way", () => {
  /** `first`, then `first` changed by `edit`, built into `label/dist`: the previous build's folder is there to be taken. */
  function publishTwo(label: string, first: string, edit: string) {
    const out = join(dir, label, "dist");
    buildInto(out, first);
    const changed = join(dir, `${label}-1.sqlite`);
    applyEdit(first, changed, findEdit(edit));
    buildInto(out, changed);
    const published = readlinkSync(out);
    const before = readTree(join(out, "..", published));
    return { out, published, before };
  }

  it("fails: the published build is untouched, and the next build is still right", () => {
    const { out, published, before } = publishTwo("failing", base, "reports added for existing usernames");
    const failing = EMITTERS.map((e) => (e.name === "dump" ? { ...e, emit: () => { throw new Error("boom"); } } : e));
    expect(() => buildDist({ db: base, out, baseUrl: BASE_URL, progress: null, readerGraceSeconds: 0, emitters: failing })).toThrow(/boom/);
    expect(readlinkSync(out)).toBe(published);
    expect(readTree(join(out, "..", published))).toEqual(before);
    const summary = buildInto(out, base);
    expect(summary.mode.mode).toBe("incremental");
    expectSameAsFull(summary, base);
  });

  it("is killed: the published build is untouched, and the next build is still right", async () => {
    const big = join(dir, "killed.sqlite");
    generateSample({ scale: 3000, seed: "killed", out: big, asOf: "2026-03-11T10:00:00Z" });
    const { out, published, before } = publishTwo("killed", big, "as_of a day later");
    const builds = join(out, "..", ".dist-builds");
    const child = spawn(process.execPath, ["--import", "tsx", "cli/build.ts", "--db", big, "--out", out, "--base-url", BASE_URL, "--reader-grace", "0"], { stdio: "ignore" });
    // Killed once it has taken the previous folder to bring it up to date.
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (readdirSync(builds).some((name) => name.startsWith("staging-"))) {
          clearInterval(poll);
          child.kill("SIGKILL");
          resolve();
        }
      }, 5);
      child.on("exit", () => {
        clearInterval(poll);
        reject(new Error("the build finished before it could be killed"));
      });
    });
    await new Promise((resolve) => child.on("exit", resolve));
    expect(readlinkSync(out)).toBe(published);
    expect(readTree(join(out, "..", published))).toEqual(before);
    const summary = buildInto(out, big);
    expect(summary.mode.mode).toBe("incremental");
    expectSameAsFull(summary, big, { onDisk: true });
    expect(existsSync(join(builds, `staging-build-${child.pid}`))).toBe(false);
  }, 120_000);
});
