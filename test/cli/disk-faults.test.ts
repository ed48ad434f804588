/**
 * `npm run build` meeting a full disk at each point a build writes: the writer's first byte (the
 * manifest, on its worker thread), the small files of the worker, a large file on the main thread,
 * the manifest's last write, the inode of the new dist link (publishing), the staging folder.
 * Each ends in one `error:` line saying so, exit status 1, the staging folder gone before the
 * command returns (the space is free again: a retry does not meet its leftovers) and the
 * previous dist as it was. The outcomes are printed as the table in docs/operators.md.
 *
 * The disk is a real tmpfs whose free space and inodes are set exactly (root only). Where none
 * can be mounted, each fault is injected instead (test/helpers/inject-enospc.cjs) and the suite's
 * title says so: it never skips. The large file is injected on a tmpfs too: the main thread writes
 * it while the worker may still be writing the files before it, so on a real disk which of the two
 * meets the full disk first is a race. FAULT_DISK=injected forces injection everywhere.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDist } from "../../build/build.ts";
import { generateSample } from "../../data/sample/generate.ts";
import { FaultTable, getErrorLine, readDistState, type DistState } from "../helpers/fault-report.ts";
import { BASE_URL, createSnapshot, FIXTURE_SQL, makeTempDir } from "../helpers/fixture.ts";
import { runScript } from "../helpers/run-command.ts";
import { countBuild, mountScratchDisk, type BuildCounts, type ScratchDisk, type Usage } from "../helpers/scratch-disk.ts";

const INJECT = new URL("../helpers/inject-enospc.cjs", import.meta.url).pathname;
/**
 * Whether a tmpfs can be mounted, tried once while the suite is collected (and unmounted at once:
 * a mount made here would outlive a run whose filter skips the suite's hooks); beforeAll mounts the
 * one the tests use.
 */
function probeTmpfs(): string | null {
  if (process.env.FAULT_DISK === "injected") return "FAULT_DISK=injected";
  const probe = mountScratchDisk("disk-probe");
  if ("unavailable" in probe) return probe.unavailable;
  probe.unmount();
  return null;
}
const noTmpfs = probeTmpfs();
const PATH_RAN = noTmpfs === null ? "a real tmpfs" : `injected ENOSPC, no tmpfs: ${noTmpfs}`;
if (noTmpfs !== null) console.warn(`disk-faults: ${PATH_RAN}`);
let disk: ScratchDisk | null = null;

interface DiskFault {
  fault: string;
  /** What the one line names as the step that met the full disk. */
  step: RegExp;
  /** INJECT_ENOSPC for the injected run (see inject-enospc.cjs). */
  inject: string;
  /** On a tmpfs: what to leave free, given what the next build takes; null: injected there too. */
  free: ((next: BuildCounts) => Usage) | null;
  /** The snapshot to build on a tmpfs: the fixture's variant, or a sample large enough that its check files outrun the writer's queue. */
  tmpfsDb?: "sample";
}

const FAULTS: DiskFault[] = [
  { fault: "the disk is already full", step: /writing manifest\.json/, inject: "write:manifest.json:0", free: () => ({ pages: 0, inodes: 1000 }) },
  {
    fault: "the disk fills up during the small files, on the writer's thread",
    step: /writing api\/check\/\w+\.json/,
    inject: "write:/api/check/:5",
    // Room for the manifest's first page and 15 check files; the main thread, at most 64 batches ahead, is still making check files.
    free: () => ({ pages: 16, inodes: 30_000 }),
    tmpfsDb: "sample",
  },
  { fault: "the disk fills up during a dump, a large file written on the main thread", step: /writing dumps\/\S+/, inject: "write:/dumps/:0", free: null },
  {
    fault: "the disk fills up within the manifest's last write",
    step: /writing manifest\.json/,
    inject: "write:manifest.json:1",
    // Every file and the manifest's file list fit, its closing fields do not: the kernel writes part of
    // them and says so only by the count it returns. Taken for done, that was a cut-short manifest, published.
    free: (next) => ({ pages: next.pages - next.manifestPages + next.manifestListPages, inodes: next.inodes + 10 }),
  },
  {
    fault: "no inode left for the new dist link, when publishing",
    step: /publishing \S+dist/,
    inject: "symlink:link-:0",
    free: (next) => ({ pages: next.pages + 10, inodes: next.inodes }),
  },
  { fault: "no inode left for the staging folder", step: /creating a staging folder in \S+/, inject: "mkdir:staging-:0", free: () => ({ pages: 100, inodes: 0 }) },
];

let base: string;
let snapshots: string;
let out: string;
let next: { db: string; counts: BuildCounts };
let sample: string;
let before: DistState;
const table = new FaultTable(`Disk faults (test/cli/disk-faults.test.ts, on ${noTmpfs === null ? "a real tmpfs" : "injected ENOSPC"})`);

beforeAll(() => {
  if (noTmpfs === null) {
    const mounted = mountScratchDisk("disk-faults");
    if ("unavailable" in mounted) throw new Error(`a tmpfs could be mounted a moment ago, not now: ${mounted.unavailable}`);
    disk = mounted;
  }
  snapshots = makeTempDir("disk-faults-snapshots");
  base = disk?.dir ?? makeTempDir("disk-faults");
  out = join(base, "dist");
  // The dist in place, and the next build: the same fixture with another source, measured where space is plenty.
  const fixture = createSnapshot(snapshots);
  buildDist({ db: fixture, out, baseUrl: BASE_URL, progress: null });
  before = readDistState(out);
  next = buildNextFixture(fixture);
  if (disk) {
    sample = join(snapshots, "sample.sqlite");
    generateSample({ scale: 20_000, seed: "1", out: sample, asOf: "2026-11-15T18:00:00Z" });
  }
});
/**
 * The next build, measured: the fixture with another source and, so that the manifest's closing
 * fields (about 2 KB) start a page of their own (the first test), extra usernames, ten at a time
 * (a check file and a manifest line each, about 1.2 KB the ten): where the page ends depends on
 * every file's size, and the precompressed variants moved it once already.
 */
function buildNextFixture(fixture: string): { db: string; counts: BuildCounts } {
  for (let extra = 0; extra <= 60; extra += 10) {
    const reports = Array.from({ length: extra }, (_, i) => `(${9000 + i}, 'page_filler_${i}', 'crypto', 1, NULL, 'r1', 50, '2026-03-01T00:00:00Z')`);
    const more = reports.length > 0 ? `\nINSERT INTO reports (id, username, category, company_id, person_id, reporter, confidence, created_at) VALUES ${reports.join(",")};` : "";
    const db = createSnapshot(snapshots, FIXTURE_SQL.replace("'Test fixture'", "'Next fixture'") + more, `next-${extra}.sqlite`);
    // Onto a build of the fixture, as the faults' builds are: its change files are written too.
    const measured = join(snapshots, `measure-${extra}`, "dist");
    buildDist({ db: fixture, out: measured, baseUrl: BASE_URL, progress: null });
    const counts = countBuild(buildDist({ db, out: measured, baseUrl: BASE_URL, progress: null, full: true }).buildDir);
    if (counts.manifestListPages < counts.manifestPages) return { db, counts };
  }
  throw new Error("no next fixture within 60 extra usernames has a manifest whose closing fields start a page of their own");
}

afterAll(() => {
  table.print();
  try {
    disk?.unmount();
  } finally {
    if (snapshots) rmSync(snapshots, { recursive: true, force: true });
    if (!disk && base) rmSync(base, { recursive: true, force: true });
  }
});

describe(`npm run build --full on a full disk (${PATH_RAN})`, () => {
  it("has a next build whose manifest's closing fields start a page of their own (so the last write can be cut short)", () => {
    expect(next.counts.manifestListPages).toBeLessThan(next.counts.manifestPages);
  });

  it.each(FAULTS)("says $fault in one line, deletes the staging folder at once and leaves dist as it was", async (fault) => {
    const onTmpfs = disk !== null && fault.free !== null;
    const db = onTmpfs && fault.tmpfsDb === "sample" ? sample : next.db;
    // On a tmpfs an injected fault gets room enough that only the injection fails.
    disk?.setFree(onTmpfs ? fault.free!(next.counts) : { pages: 65_536, inodes: 65_536 });
    const usage = disk?.getUsage();
    // The base URL the next build was measured with: a shorter one (the default) made a build that fit.
    // A full build: these faults are aimed at what a full build writes (an incremental one writes less, below).
    const result = await runScript("cli/build.ts", ["--db", db, "--out", out, "--base-url", BASE_URL, "--full"], {
      cwd: snapshots,
      preload: onTmpfs ? undefined : INJECT,
      env: onTmpfs ? {} : { INJECT_ENOSPC: fault.inject },
      timeoutMs: 25_000,
    });
    const line = getErrorLine(result);
    const untouched = JSON.stringify(readDistState(out)) === JSON.stringify(before);
    table.add(`${fault.fault} (${onTmpfs ? "tmpfs" : "injected"})`, line, result.status, untouched);
    const said = new RegExp(`^error: no space left on the disk of \\S+/\\.dist-builds \\((${fault.step.source})\\)(; the unfinished build was deleted)?, \\S+/dist is as it was: free some space and build again$`);
    expect(line).toMatch(said);
    expect(result.status).toBe(1);
    expect(readDistState(out)).toEqual(before);
    // Every page and inode the failed build took is free again when the command returns.
    if (disk) expect(disk.getUsage()).toEqual(usage);
  });
});

/**
 * The same promises for an incremental build, which brings the previous build's folder up to
 * date in place rather than writing a new one: on a full disk it says so in one line, the
 * published build is untouched, and the next build is still the same bytes as a full one (the
 * folder it was bringing up to date is discarded, not trusted). Injected, so each fault is aimed
 * at the step an incremental build takes.
 */
const INCREMENTAL_FAULTS = [
  { fault: "the disk fills up during the small files", step: /writing api\/check\/\w+\.json/, inject: "write:/api/check/:2" },
  { fault: "the disk fills up during a dump, written aside", step: /writing dumps\/\S+/, inject: "write:/dumps/:0" },
  { fault: "the disk fills up within the manifest", step: /writing manifest\.json/, inject: "write:manifest.json:1" },
  { fault: "no inode left for the new dist link", step: /publishing \S+dist/, inject: "symlink:link-:0" },
];

describe("an incremental npm run build on a full disk (injected ENOSPC)", () => {
  let dir: string;
  let dist: string;
  let first: string;
  let second: string;
  let third: string;
  let state: DistState;
  const publishedBefore = () => ({ target: state.target, manifest: state.manifest });
  beforeAll(() => {
    dir = makeTempDir("disk-faults-incremental");
    dist = join(dir, "dist");
    first = createSnapshot(dir, FIXTURE_SQL, "first.sqlite");
    second = createSnapshot(dir, FIXTURE_SQL.replace("'Test fixture'", "'Second fixture'").replace(/'2026-03-0/g, "'2026-03-1"), "second.sqlite");
    third = createSnapshot(dir, FIXTURE_SQL.replace("'Test fixture'", "'Third fixture'").replace(/'2026-03-0/g, "'2026-03-2"), "third.sqlite");
    // A current and a previous build: the next build (of a third snapshot) brings the previous one's folder up to date.
    buildDist({ db: first, out: dist, baseUrl: BASE_URL, progress: null });
    buildDist({ db: second, out: dist, baseUrl: BASE_URL, progress: null });
    state = readDistState(dist);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(INCREMENTAL_FAULTS)("says $fault in one line and leaves dist as it was; the next build is still right", async (fault) => {
    const result = await runScript("cli/build.ts", ["--db", third, "--out", dist, "--base-url", BASE_URL, "--reader-grace", "0"], {
      cwd: dir,
      preload: INJECT,
      env: { INJECT_ENOSPC: fault.inject },
      timeoutMs: 25_000,
    });
    const line = getErrorLine(result);
    // The published build as it was (the previous build's folder, taken to be brought up to date, is discarded).
    const published = () => ({ target: readDistState(dist).target, manifest: readDistState(dist).manifest });
    table.add(`incremental: ${fault.fault} (injected)`, line, result.status, JSON.stringify(published()) === JSON.stringify(publishedBefore()));
    expect(line).toMatch(new RegExp(`^error: no space left on the disk of \\S+/\\.dist-builds \\((${fault.step.source})\\)(; the unfinished build was deleted)?, \\S+/dist is as it was: free some space and build again$`));
    expect(result.status).toBe(1);
    expect(published()).toEqual(publishedBefore());
    const next = buildDist({ db: third, out: dist, baseUrl: BASE_URL, progress: null });
    const full = buildDist({ db: third, out: join(dir, `full-${fault.inject}`, "dist"), baseUrl: BASE_URL, progress: null, full: true });
    expect(next.mode.mode).toBe("incremental");
    expect(next.buildId).toBe(full.buildId);
    // Back to where each fault starts from: the second snapshot current, another folder the previous
    // (its change feed now follows the third publish: the same build id, another history).
    buildDist({ db: second, out: dist, baseUrl: BASE_URL, progress: null });
    expect(published().target).toBe(publishedBefore().target);
    state = readDistState(dist);
  });
});
