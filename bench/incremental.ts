/**
 * The incremental build benchmark (docs/incremental-builds.md): at --scale usernames, a full
 * build of a sample, then builds of the snapshots that follow it, each made incrementally onto
 * the one before (as an operator publishes), every figure beside the full build of the same run:
 *
 * - nothing changed: the same rows in a fresh export (VACUUM INTO): the digests say so, nothing is built;
 * - appends only (one more report for 1 % of usernames): the first incremental build, which has
 *   no previous build's folder to bring up to date yet, so it links every unchanged file into a new one;
 * - a day of changes: as_of a day later, one more report within that day for 1 % of usernames,
 *   0.05 % of reports deleted and 0.01 % moved to another category, a company renamed, one moved
 *   to another category and one added with reports, a detection rule changed — and the same
 *   snapshot built with --full, whose manifest (every file's SHA-256) and build id must be equal;
 * - five minutes later (as an operator who publishes every few minutes): as_of five minutes on,
 *   one more report within them for 0.01 % of usernames, twice: the row is the second, whose
 *   previous change was as small;
 * - 0.1 %, 10 % and 50 % of usernames with one more report each, each onto the one before;
 * - every report's username changed (another data set): a full build by itself.
 *
 * Each build runs as `npm run build` would, in its own process (seconds and peak RSS).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { getBuildsLayout, getCurrentBuild } from "../build/publish.ts";
import type { BenchRow } from "./build.ts";
import { forEachManifestFile, measureRawWrites, runBuildChild, settleDisk, warmFile } from "./build.ts";

interface Step {
  name: string;
  /** SQL applied to a copy of the previous step's snapshot; null: a fresh export of it, unchanged. */
  sql: string | null;
  /** Also build it with --full in another folder, and compare. */
  compare?: boolean;
  /** Not a row of its own (it only sets up the next step). */
  setup?: boolean;
}

/** One more report for the usernames whose first report id is in `share` (a fraction) of them, within as_of's day. */
const moreReports = (share: number, tag: string, within: "hours" | "minutes" = "hours") => `
  INSERT INTO reports (username, category, company_id, person_id, reporter, confidence, created_at)
  SELECT username, category, company_id, NULL, '${tag}-' || id, 60,
         strftime('%Y-%m-%dT%H:%M:%SZ', (SELECT value FROM meta WHERE key = 'as_of'), '-' || (id % ${within === "hours" ? 9 : 5}) || ' ${within}')
  FROM reports WHERE id IN (SELECT min(id) FROM reports WHERE username IS NOT NULL GROUP BY username)
    AND (id * 2654435761) % 100000 < ${Math.round(share * 100_000)};`;

export const DAY_OF_CHANGES = `
  UPDATE meta SET value = strftime('%Y-%m-%dT%H:%M:%SZ', value, '+1 day') WHERE key = 'as_of';
  ${moreReports(0.01, "day")}
  DELETE FROM reports WHERE (id * 40503) % 10000 < 5;
  UPDATE reports SET category = CASE category WHEN 'crypto' THEN 'gambling' ELSE 'crypto' END WHERE (id * 7919) % 10000 = 17;
  UPDATE companies SET name = name || ' Group' WHERE id = (SELECT min(id) + 5 FROM companies);
  UPDATE companies SET category = CASE category WHEN 'gambling' THEN 'crypto' ELSE 'gambling' END WHERE id = (SELECT min(id) + 6 FROM companies);
  INSERT INTO companies (id, name, slug, category, website, created_at)
    SELECT max(id) + 1, 'Day One Partners', 'day-one-partners', 'affiliate', 'https://day-one.example', (SELECT value FROM meta WHERE key = 'as_of') FROM companies;
  INSERT INTO reports (username, category, company_id, person_id, reporter, confidence, created_at)
    SELECT username, 'affiliate', (SELECT max(id) FROM companies), NULL, 'new-co-' || id, 70, (SELECT value FROM meta WHERE key = 'as_of')
    FROM reports WHERE (id * 31) % 20000 = 3 AND username IS NOT NULL;
  UPDATE detection_rules SET weight = weight + 0.25 WHERE id = (SELECT min(id) FROM detection_rules);`;

/** The next publish of an operator who publishes every few minutes. */
const fiveMinutesLater = (tag: string) => `
  UPDATE meta SET value = strftime('%Y-%m-%dT%H:%M:%SZ', value, '+5 minutes') WHERE key = 'as_of';
  ${moreReports(0.0001, tag, "minutes")}`;

const STEPS: Step[] = [
  { name: "nothing changed (a fresh export of the same rows)", sql: null },
  // There is no previous build's folder yet: this one links every unchanged file into a new one.
  { name: "appends only: one more report for 1 % of usernames (first incremental build: a new folder, unchanged files linked)", sql: moreReports(0.01, "append") },
  { name: "a day of changes", sql: DAY_OF_CHANGES, compare: true },
  // Two of them: the first brings the folder it rewrites past the day (the two-tree layout: a build
  // pays for the change before it too), so the row measures a five-minute change alone.
  { name: "five minutes after the day", sql: fiveMinutesLater("minutes-1"), setup: true },
  { name: "five minutes later: one more report for 0.01 % of usernames", sql: fiveMinutesLater("minutes-2") },
  { name: "0.1 % of usernames changed", sql: moreReports(0.001, "p01") },
  { name: "10 % of usernames changed", sql: moreReports(0.1, "p10") },
  { name: "50 % of usernames changed", sql: moreReports(0.5, "p50") },
  { name: "every report's username changed (another data set)", sql: "UPDATE reports SET username = username || '_2' WHERE username IS NOT NULL;" },
];

export async function runIncrementalBench(options: { scale: number; workDir: string; reuseSample: boolean }): Promise<BenchRow[]> {
  const { workDir } = options;
  mkdirSync(workDir, { recursive: true });
  const fmt = (n: number, digits = 1) => n.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const sample = makeSample(options);
  const inc = join(workDir, "inc", "dist");
  const full = join(workDir, "full", "dist");
  const dayFloor = join(workDir, "day-floor");
  for (const dir of [join(workDir, "inc"), join(workDir, "full"), dayFloor]) rmSync(dir, { recursive: true, force: true });
  warmFile(sample);
  waitForDeletions(inc);

  const rows: BenchRow[] = [];
  const first = await runBuildChild(["--db", sample, "--out", inc], join(workDir, "stats.json"));
  const mib = (bytes: number) => `${fmt(bytes / 2 ** 20, 0)} MiB`;
  // The baseline of every row is the faster of the run's two full builds (this one and the day's
  // --full), set once both are known: a full build that met a slow disk would flatter every ratio.
  const baselineRow: BenchRow = { metric: "full build, the baseline of every row (the faster of this run's two)", value: "", baseline: "", ratio: "", target: "" };
  const stepRows: { row: BenchRow; seconds: number }[] = [];
  // Rows whose ratio is a floor's seconds to the full build's, set with the others at the end.
  const floorRows: { row: BenchRow; seconds: number }[] = [];
  let fullSeconds = first.seconds;
  rows.push(
    baselineRow,
    { metric: "  the first full build (of the sample)", value: `${fmt(first.seconds)} s`, baseline: "", ratio: "", target: "" },
    { metric: "  its peak RSS", value: mib(first.maxRssBytes), baseline: "", ratio: "", target: "" },
    { metric: "  its files", value: fmt(readSummary(inc).files, 0), baseline: "", ratio: "", target: "" },
    { metric: "  where the time went", value: describeTimings(readSummary(inc).timings), baseline: "", ratio: "", target: "" },
  );
  let previous = sample;
  for (const [i, step] of STEPS.entries()) {
    const db = join(workDir, `step-${i}.sqlite`);
    makeSnapshot(previous, db, step.sql);
    previous = db;
    waitForDeletions(inc);
    // The build this one follows: its change feed is relative to it, and so must the --full build's be.
    const followed = getCurrentBuild(getBuildsLayout(inc));
    const run = await runBuildChild(["--db", db, "--out", inc, "--reader-grace", "0"], join(workDir, "stats.json"));
    if (step.setup) continue;
    const summary = readSummary(inc);
    const mode = summary.mode;
    const what =
      mode.mode === "incremental"
        ? `${fmt(mode.written, 0)} written, ${fmt(mode.kept, 0)} kept, ${fmt(mode.deleted, 0)} deleted; ${Object.entries(mode.changed).map(([k, n]) => `${fmt(n, 0)} ${k}`).join(", ")} changed; ${describeReports(mode.reports)}${mode.unmade ? `; ${fmt(mode.unmade, 0)} files not made again` : ""}${describeMembers(mode.dumpMembers)}`
        : mode.mode === "unchanged"
          ? `nothing built: ${fmt(mode.kept, 0)} kept`
          : `full: ${mode.reason}`;
    const target = step.name.startsWith("a day") ? "≤ 10 %" : step.name.startsWith("nothing changed") ? "≤ 5 %" : "";
    const stepRow: BenchRow = { metric: step.name, value: `${fmt(run.seconds)} s`, baseline: "", ratio: "", target };
    stepRows.push({ row: stepRow, seconds: run.seconds });
    rows.push(
      stepRow,
      { metric: "  files", value: what, baseline: "", ratio: "", target: "" },
      { metric: "  where the time went", value: describeTimings(summary.timings), baseline: "", ratio: "", target: "" },
      { metric: "  peak RSS", value: mib(run.maxRssBytes), baseline: `${mib(first.maxRssBytes)} full`, ratio: `${fmt(run.maxRssBytes / first.maxRssBytes, 2)}×`, target: "" },
    );
    if (step.compare) {
      waitForDeletions(inc);
      // The full build publishes after the same build (left untouched: an incremental build brings the one before it up to date).
      mkdirSync(join(workDir, "full"), { recursive: true });
      if (followed) symlinkSync(followed, full);
      const again = await runBuildChild(["--db", db, "--out", full, "--full"], join(workDir, "stats.json"));
      fullSeconds = Math.min(fullSeconds, again.seconds);
      const same = readFileSync(join(inc, "manifest.json")).equals(readFileSync(join(full, "manifest.json")));
      const sameId = readSummary(inc).buildId === readSummary(full).buildId;
      rows.push(
        { metric: "  the same snapshot with --full", value: `${fmt(again.seconds)} s`, baseline: "", ratio: `${fmt((run.seconds / again.seconds) * 100, 1)} %`, target: "≤ 10 %" },
        { metric: "  the two trees", value: same && sameId ? "identical manifests (every file's SHA-256) and build id" : "DIFFERENT", baseline: "", ratio: "", target: "identical" },
      );
      // Deleted at the end, not here: a million files deleted beside the next rows' builds made their writes several times slower.
      // The floor of the day: writing the files it changed and nothing else; they too stay until the end.
      if (followed) {
        const sizes = listChangedSizes(join(followed, "manifest.json"), join(inc, "manifest.json"));
        settleDisk();
        const floor = measureRawWrites(dayFloor, sizes);
        const floorRow: BenchRow = { metric: `  its floor: a bare loop writing the ${fmt(sizes.length, 0)} files it changed (new bytes at their path, same sizes)`, value: `${fmt(floor)} s`, baseline: "", ratio: "", target: "" };
        floorRows.push({ row: floorRow, seconds: floor });
        rows.push(floorRow, { metric: "  the day beside its floor", value: `${fmt(run.seconds)} s`, baseline: `${fmt(floor)} s floor`, ratio: `${fmt(run.seconds / floor, 2)}×`, target: "" });
      }
    }
  }
  baselineRow.value = `${fmt(fullSeconds)} s`;
  for (const { row, seconds } of [...stepRows, ...floorRows]) Object.assign(row, { baseline: `${fmt(fullSeconds)} s full`, ratio: `${fmt((seconds / fullSeconds) * 100, 1)} %` });
  const du = spawnSync("du", ["-sm", join(workDir, "inc", ".dist-builds")], { encoding: "utf8" });
  rows.push({ metric: "disk of the kept build folders (current and previous; hard links counted once)", value: `${du.stdout.split("\t")[0]} MiB`, baseline: "", ratio: "", target: "" });
  rows.push({ metric: "build state beside them (.dist-builds/state.json)", value: `${fmt(readFileSync(join(workDir, "inc", ".dist-builds", "state.json")).byteLength / 1024, 0)} KiB`, baseline: "", ratio: "", target: "" });
  const model = join(workDir, "inc", ".dist-builds", "model");
  const keptBytes = (kind: string) => readdirSync(model).filter((name) => name.endsWith(kind)).reduce((n, name) => n + statSync(join(model, name)).size, 0);
  rows.push({
    metric: "the kept report pass (.dist-builds/model/: username rows + report rows)",
    value: `${mib(keptBytes(".groups") + keptBytes(".rows"))} (${mib(keptBytes(".groups"))} + ${mib(keptBytes(".rows"))})`,
    baseline: "",
    ratio: "",
    target: "",
  });
  for (let i = 0; i < STEPS.length; i++) rmSync(join(workDir, `step-${i}.sqlite`), { force: true });
  rmSync(join(workDir, "full"), { recursive: true, force: true });
  rmSync(dayFloor, { recursive: true, force: true });
  return rows;
}

/** The sample of `scale` usernames in `workDir` (kept with `reuseSample`: making one of a million takes minutes). */
export function makeSample({ scale, workDir, reuseSample }: { scale: number; workDir: string; reuseSample: boolean }): string {
  const sample = join(workDir, `sample-${scale}.sqlite`);
  if (!reuseSample || !existsSync(sample)) {
    const made = spawnSync(process.execPath, ["--import", "tsx", "cli/sample.ts", "--scale", String(scale), "--out", sample], { stdio: "inherit" });
    if (made.status !== 0) throw new Error("making the sample failed");
  }
  return sample;
}

/**
 * Waits until the build folders the builds of `dist` retired or set aside are deleted (their
 * deleters run in the background, a retired one after its readers' grace), then for the disk to
 * settle (settleDisk): each row starts on a settled disk rather than beside the deletion of a
 * million files the row before left (on the benchmark's disk, ext4 without a journal, that made
 * a full build's writes several times slower, and still can for some minutes: settleDisk). An
 * operator publishing often meets that deletion; a row measures one build.
 */
function waitForDeletions(dist: string): void {
  const buildsDir = getBuildsLayout(dist).buildsDir;
  const deadline = Date.now() + 20 * 60_000;
  const pending = () => existsSync(buildsDir) && readdirSync(buildsDir).some((name) => name.startsWith("trash-"));
  while (pending() && Date.now() < deadline) spawnSync("sleep", ["1"]);
  settleDisk();
}

/** A snapshot of `from` with `sql` applied, written as a fresh export (VACUUM INTO: new pages, as an operator's export makes). */
export function makeSnapshot(from: string, to: string, sql: string | null): void {
  rmSync(to, { force: true });
  const db = new Database(from, { readonly: sql === null });
  try {
    if (sql === null) {
      db.prepare("VACUUM INTO ?").run(to);
      return;
    }
  } finally {
    db.close();
  }
  // A copy with the change, then exported: the change runs on the copy, never on `from`.
  const source = new Database(from, { readonly: true });
  source.prepare("VACUUM INTO ?").run(to);
  source.close();
  const copy = new Database(to);
  try {
    copy.exec(`BEGIN; ${sql} COMMIT;`);
    copy.exec("VACUUM");
  } finally {
    copy.close();
  }
}

/**
 * The sizes of the files of `after` that `before` does not hold with the same bytes (new paths
 * and changed ones, precompressed siblings included): what publishing the change has to write,
 * however the build makes it.
 */
export function listChangedSizes(before: string, after: string): number[] {
  const known = new Map<string, string>();
  forEachManifestFile(before, (path, _size, sha256) => known.set(path, sha256));
  const sizes: number[] = [];
  forEachManifestFile(after, (path, size, sha256) => {
    if (known.get(path) !== sha256) sizes.push(size);
  });
  return sizes;
}

/** The dump's gzip members the build took from the current build's files (their batches unchanged). */
function describeMembers(members: { reused: number; made: number } | undefined): string {
  return members ? `; ${members.reused.toLocaleString("en")} of ${(members.reused + members.made).toLocaleString("en")} dump members reused` : "";
}

/** Whose reports an incremental build's pass read again, or why it read them all. */
function describeReports(reports: { usernames: number } | { reason: string } | undefined): string {
  if (!reports) return "";
  return "usernames" in reports ? `reports of ${reports.usernames.toLocaleString("en")} usernames read again` : `every report read (${reports.reason})`;
}

export function readSummary(dist: string): {
  files: number;
  buildId: string;
  buildDir: string;
  timings: Record<string, number>;
  mode: { mode: string; reason?: string; written: number; kept: number; deleted: number; changed: Record<string, number>; reports?: { usernames: number } | { reason: string }; unmade?: number; dumpMembers?: { reused: number; made: number } };
} {
  return JSON.parse(readFileSync(join(dist, "..", ".dist-builds", "last-build.json"), "utf8"));
}


/** The largest steps of a build (digest, model, the emitters), in seconds. */
function describeTimings(timings: Record<string, number>): string {
  const top = Object.entries(timings).sort(([, a], [, b]) => b - a).slice(0, 5);
  return top.map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`).join(", ");
}
