/**
 * Build properties: deterministic bytes, a manifest that lists exactly what is on disk, atomic
 * publishing (a failed build leaves the old dist), and loud rejections.
 */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDist, buildInMemory } from "../../build/build.ts";
import { EMITTERS } from "../../build/emitters/index.ts";
import { BuildError } from "../../build/errors.ts";
import { tallyCategories } from "../../build/snapshot/report-sql.ts";
import { CATEGORIES } from "../../core/categories.ts";
import { FIXTURE_SQL, BASE_URL, buildFixture, createSnapshot, makeTempDir, withSnapshot, type BuiltFixture } from "../helpers/fixture.ts";
import { expectedUsernameRejections } from "../helpers/expected.ts";

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(root, path).split("\\").join("/"));
    }
  };
  walk(root);
  return out.sort();
}

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("build");
});
afterAll(() => fixture.cleanup());

describe("the build", () => {
  it("publishes dist as a link to a finished build folder", () => {
    expect(lstatSync(fixture.dist).isSymbolicLink()).toBe(true);
    expect(join(fixture.dir, readlinkSync(fixture.dist))).toBe(fixture.summary.buildDir);
  });

  it("gives the same bytes for the same snapshot, on disk and in memory", () => {
    const again = buildFixture("build-again");
    try {
      const a = listFiles(fixture.summary.buildDir);
      // The precompressed variants are among the bytes compared (docs/operators.md "Compression").
      expect(a.filter((p) => p.endsWith(".gz") && !p.startsWith("dumps/")).length).toBeGreaterThan(0);
      expect(a.filter((p) => p.endsWith(".br")).length).toBeGreaterThan(0);
      expect(listFiles(again.summary.buildDir)).toEqual(a);
      for (const path of a) {
        expect(readFileSync(join(again.summary.buildDir, path)), path).toEqual(readFileSync(join(fixture.summary.buildDir, path)));
      }
      expect(again.summary.buildId).toBe(fixture.summary.buildId);
      const memory = buildInMemory({ db: fixture.db, baseUrl: BASE_URL }).files;
      expect([...memory.keys()].sort()).toEqual(a);
      for (const path of a) expect(memory.get(path), path).toEqual(readFileSync(join(fixture.summary.buildDir, path)));
    } finally {
      again.cleanup();
    }
    // Two builds and a byte comparison: seconds on a quiet disk, several times that on a slow one.
  }, 120_000);

  it("lists every file in the manifest with its size and SHA-256, and nothing else", () => {
    const root = fixture.summary.buildDir;
    const manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8"));
    const listed = manifest.files.map((f: { path: string }) => f.path).sort();
    expect(listed).toEqual(listFiles(root).filter((p) => p !== "manifest.json"));
    for (const file of manifest.files) {
      const bytes = readFileSync(join(root, file.path));
      expect(file.size).toBe(bytes.byteLength);
      expect(file.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
    expect(manifest).toMatchObject({ as_of: "2026-03-11T10:00:00Z", base_url: BASE_URL, file_count: listed.length });
    expect(manifest.counts).toEqual({ reports_read: 27, usernames: 6, companies: 8, companies_with_reports: 6, people: 2 });
  });

  it("reports rejected usernames by reason with samples, as SQL classifies them", () => {
    const byReason = new Map<string, { count: number; samples: Record<string, unknown>[] }>(fixture.summary.rejections.map((r) => [r.reason, r]));
    // Each sample points at the first report of its username, whatever its spelling.
    const firstReport = fixture.sql.prepare(
      "SELECT min(id) FROM reports WHERE lower(CASE WHEN substr(trim(username), 1, 1) = '@' THEN substr(trim(username), 2) ELSE trim(username) END) = ?",
    ).pluck();
    for (const { reason, n } of expectedUsernameRejections(fixture.sql)) {
      expect(byReason.get(reason), reason).toMatchObject({ count: n });
      const samples = byReason.get(reason)!.samples as { username: string; report_id: number }[];
      expect(samples.length).toBeGreaterThan(0);
      for (const sample of samples) expect(sample.report_id, sample.username).toBe(firstReport.get(sample.username));
    }
    // Samples come in the order the build meets them: the username pass, then reports without a username.
    expect(byReason.get("report_invalid_created_at")).toMatchObject({
      count: 2,
      samples: [{ report_id: 17, username: "solo_user" }, { report_id: 26, created_at: "now" }],
    });
    expect(byReason.get("report_unknown_company")).toMatchObject({ count: 1, samples: [{ report_id: 22, company_id: 42 }] });
    expect(byReason.get("company_invalid_slug")).toMatchObject({ count: 1, samples: [{ company_id: 8, slug: "bad slug!" }] });
    expect(byReason.get("report_unknown_category")).toMatchObject({ count: 2, samples: [{ username: "spam_king", reports: 1, report_id: 6, category: "spamz" }, { report_id: 25, category: "bogus" }] });
    expect(fixture.summary.counts.usernames).toBe(6);
  });

  it("publishes the rejections' counts and effects but not their samples (row ids and raw values stay with the operator)", () => {
    const report = JSON.parse(readFileSync(join(fixture.dist, "build-report.json"), "utf8"));
    expect(report.rejections).toEqual(fixture.summary.rejections.map(({ reason, count, effect }) => ({ reason, count, effect })));
    expect(report.rejected_total).toBe(fixture.summary.rejected);
    expect(JSON.stringify(report)).not.toMatch(/"samples"|report_id|profile_id/);
    const operator = JSON.parse(readFileSync(join(fixture.dir, ".dist-builds", "last-build.json"), "utf8"));
    expect(operator.rejections).toEqual(fixture.summary.rejections);
  });

  it("groups usernames stored as numbers or blobs by their text, and rejects a blob as empty, pointing at first reports", () => {
    // A loose export: SQLite keeps what it is given, so a username column can hold an integer or a blob.
    const sql = `INSERT INTO meta VALUES ('as_of', '2026-03-11T10:00:00Z');
      INSERT INTO reports (username, category, reporter, created_at) VALUES
        (123456789, 'scam', 'r1', '2026-03-10T10:00:00Z'),
        ('123456789', 'scam', 'r2', '2026-03-09T10:00:00Z'),
        ('@123456789', 'spam', 'r3', '2026-03-08T10:00:00Z'),
        (X'616263646566', 'scam', 'r4', '2026-03-08T10:00:00Z'),
        ('@Bad-Name', 'scam', 'r5', '2026-03-08T10:00:00Z'),
        ('bad-name', 'scam', 'r6', 'yesterday'),
        ('bad-name', 'scam', 'r7', '2026-03-08T10:00:00Z');`;
    const { files, summary } = withSnapshot("loose-usernames", sql, (db) => buildInMemory({ db, baseUrl: BASE_URL }));
    const check = JSON.parse(files.get("api/check/123456789.json")!.toString());
    expect(check).toMatchObject({ username: "123456789", reports_count: 3, unique_reports: 3 });
    const byReason = new Map(summary.rejections.map((r) => [r.reason, r]));
    expect(byReason.get("username_empty")).toMatchObject({ count: 1, samples: [{ username: "", reports: 1, report_id: 4 }] });
    // The samples point at the first report of any spelling, and of the undated ones.
    expect(byReason.get("username_invalid_characters")).toMatchObject({ count: 2, samples: [{ username: "bad-name", reports: 2, report_id: 5, spelling: "@Bad-Name" }] });
    expect(byReason.get("report_invalid_created_at")).toMatchObject({ count: 1, samples: [{ username: "bad-name", reports: 1, report_id: 6, created_at: "yesterday" }] });
  });

  it("leaves out a confidence that is not an integer, and reports it", () => {
    const sql = `INSERT INTO meta VALUES ('as_of', '2026-03-11T10:00:00Z');
      INSERT INTO reports (id, username, category, reporter, confidence, created_at) VALUES
        (1, 'conf_text', 'scam', 'r1', 'high', '2026-03-10T10:00:00Z'),
        (2, 'conf_text', 'scam', 'r2', 70, '2026-03-10T10:00:00Z'),
        (3, 'conf_real', 'scam', 'r1', 59.5, '2026-03-10T10:00:00Z'),
        (4, 'conf_int', 'scam', 'r1', '65', '2026-03-10T10:00:00Z');`;
    const { files, summary } = withSnapshot("loose-confidence", sql, (db) => buildInMemory({ db, baseUrl: BASE_URL }));
    const confidence = (u: string) => JSON.parse(files.get(`api/check/${u}.json`)!.toString()).confidence_max;
    expect([confidence("conf_text"), confidence("conf_real"), confidence("conf_int")]).toEqual([70, 0, 65]);
    expect(summary.rejections).toContainEqual(expect.objectContaining({ reason: "report_invalid_confidence", count: 2, samples: [{ report_id: 1, confidence: "high" }] }));
  });

  it("fails with the reason when the username pass's query thread fails", () => {
    // reports as a view whose created_at overflows when read: the username query (on its own
    // thread) is the first to read it.
    const sql = `INSERT INTO meta VALUES ('as_of', '2026-03-11T10:00:00Z');
      DROP TABLE reports;
      CREATE TABLE raw_reports (id INTEGER PRIMARY KEY, username TEXT, reporter TEXT);
      INSERT INTO raw_reports VALUES (1, 'spam_king', 'r1');
      CREATE VIEW reports AS SELECT id, username, 'scam' AS category, NULL AS company_id, NULL AS person_id, reporter,
        50 AS confidence, CASE WHEN id > 0 THEN abs(-9223372036854775807 - 1) END AS created_at FROM raw_reports;`;
    withSnapshot("query-thread-failure", sql, (db) => {
      expect(() => buildInMemory({ db, baseUrl: BASE_URL })).toThrow(/reading reports by username: integer overflow/);
    });
  });

  it("keeps escaping hostile names in JSON: they parse back to the exact text", () => {
    const card = JSON.parse(readFileSync(join(fixture.dist, "api/company/bold-co.json"), "utf8"));
    expect(card.name).toBe('<b>Bold & "Co"</b>');
  });
});

describe("category tallies", () => {
  it("count each category by the position SQLite's instr gives it, and every other position as unknown", () => {
    const db = new Database(":memory:");
    // The positions as the build's SQL computes them for every category and a misspelling.
    const list = `|${CATEGORIES.join("|")}|`;
    const position = db.prepare("SELECT instr(?, '|' || ? || '|')").pluck();
    const positions = CATEGORIES.map((c) => position.get(list, c) as number);
    expect(position.get(list, "scamm")).toBe(0);
    db.close();
    const counts = new Uint32Array(CATEGORIES.length);
    const text = [...positions, positions[3], 0, positions[11], 9999, positions[3]].join(",");
    expect(tallyCategories(text, counts)).toBe(2);
    expect([...counts]).toEqual(CATEGORIES.map((_, i) => (i === 3 ? 3 : i === 11 ? 2 : 1)));
    expect(tallyCategories(null, counts)).toBe(0);
    expect(tallyCategories(String(positions[5]), counts)).toBe(0);
    expect(counts[5]).toBe(2);
  });
});

describe("atomic publishing", () => {
  let dir: string;
  let out: string;
  let db: string;
  beforeAll(() => {
    dir = makeTempDir("atomic");
    out = join(dir, "dist");
    db = createSnapshot(dir);
    buildDist({ db, out, baseUrl: BASE_URL, progress: null });
  });

  const snapshotOfDist = () => {
    const target = readlinkSync(out);
    const files = listFiles(join(dir, target));
    return { target, files, manifest: readFileSync(join(out, "manifest.json"), "utf8") };
  };

  it("leaves the previous dist untouched when a build fails half-way, and says why", () => {
    const before = snapshotOfDist();
    const failing = [
      EMITTERS[0]!,
      {
        name: "broken",
        writes: "nothing",
        *emit() {
          yield { path: "api/partial.json", data: "{}" };
          throw new Error("disk on fire");
        },
      },
    ];
    expect(() => buildDist({ db, out, baseUrl: BASE_URL, progress: null, emitters: failing })).toThrow(/disk on fire/);
    expect(snapshotOfDist()).toEqual(before);
    expect(existsSync(join(out, "api/partial.json"))).toBe(false);
    // The half-written staging folder was moved out of the way for background deletion.
    const leftovers = readdirSync(join(dir, ".dist-builds")).filter((n) => n.startsWith("staging-"));
    expect(leftovers).toEqual([]);
  });

  it("refuses a snapshot that breaks the contract with a BuildError naming the problem", () => {
    const before = snapshotOfDist();
    const broken = createSnapshot(dir, "INSERT INTO meta VALUES ('as_of', 'soon');", "broken.sqlite");
    expect(() => buildDist({ db: broken, out, baseUrl: BASE_URL, progress: null })).toThrow(BuildError);
    expect(() => buildDist({ db: broken, out, baseUrl: BASE_URL, progress: null })).toThrow(/as_of is not an ISO 8601 instant/);
    expect(() => buildDist({ db: join(dir, "missing.sqlite"), out, baseUrl: BASE_URL, progress: null })).toThrow(/snapshot not found/);
    expect(snapshotOfDist()).toEqual(before);
  });

  it("puts a plain-folder dist back where it was when the link to the new build cannot be made", () => {
    const legacyOut = join(dir, "plain");
    mkdirSync(legacyOut);
    writeFileSync(join(legacyOut, "index.html"), "copied by hand");
    // A folder where the build makes its new link: removing it fails, as making the link could (no inode left).
    mkdirSync(join(dir, ".plain-builds", `link-${process.pid}`, "in-the-way"), { recursive: true });
    expect(() => buildDist({ db, out: legacyOut, baseUrl: BASE_URL, progress: null })).toThrow(/^publishing \S+plain: /);
    expect(lstatSync(legacyOut).isDirectory()).toBe(true);
    expect(readFileSync(join(legacyOut, "index.html"), "utf8")).toBe("copied by hand");
    expect(readdirSync(join(dir, ".plain-builds")).filter((n) => !n.startsWith("trash-"))).toEqual([`link-${process.pid}`]);
  });

  it("stands by a published build when only its timings file cannot be written, and says so", () => {
    const out2 = join(dir, "timed");
    mkdirSync(join(dir, ".timed-builds", "last-build.json"), { recursive: true });
    const summary = buildDist({ db, out: out2, baseUrl: BASE_URL, progress: null });
    expect(readlinkSync(out2)).toBe(join(".timed-builds", summary.buildId));
    expect(summary.warnings).toEqual([expect.stringMatching(/^writing \S+last-build\.json: EISDIR/)]);
  });

  it("swaps to a new build in one step and keeps the previous one for readers still in it", () => {
    const before = snapshotOfDist();
    const other = createSnapshot(dir, FIXTURE_SQL.replace("'Test fixture'", "'Second fixture'"), "second.sqlite");
    buildDist({ db: other, out, baseUrl: BASE_URL, progress: null });
    const after = snapshotOfDist();
    expect(after.target).not.toBe(before.target);
    expect(JSON.parse(readFileSync(join(out, "build-report.json"), "utf8")).source).toBe("Second fixture");
    expect(statSync(join(dir, before.target)).isDirectory()).toBe(true);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));
});
