/**
 * The build benchmark (issue: core data API): at --scale usernames (default 1 000 000) it
 * measures sample generation, the full build and its peak RSS, and the build's time and its
 * writer's throughput beside a raw-write floor measured in the same run: a bare loop writing as
 * many files of the same sizes (every file of the manifest) into one folder on the same disk.
 */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readManifestFile } from "../build/writer/tree-reuse.cjs";

export interface BenchRow {
  metric: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
}

interface ChildStats {
  code: number;
  seconds: number;
  maxRssBytes: number;
}

const ROOT = resolve(import.meta.dirname, "..");

function runChild(script: string, args: string[], statsFile: string): Promise<ChildStats> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "bench/child.ts"), script, ...args], {
      cwd: ROOT,
      // What `npm run build` sets (package.json; docs/operators.md "What the build writes"), so a build here is an operator's.
      env: { ...process.env, BENCH_STATS: statsFile, ...(script === "cli/build.ts" ? { MALLOC_ARENA_MAX: "2" } : {}) },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", reject);
    child.on("exit", () => {
      const stats = JSON.parse(readFileSync(statsFile, "utf8")) as ChildStats;
      if (stats.code !== 0) reject(new Error(`${script} failed with exit code ${stats.code}`));
      else resolvePromise(stats);
    });
  });
}

/**
 * Lets the disk settle before a timed step: the kernel writes a build's 1.2 GB back for a
 * while after it ends, and a build or a floor loop that runs meanwhile pays for it (up to 40 %
 * slower here). `sync` waits until everything written so far is on disk; after a large deletion
 * the disk then goes on writing (the freed inodes and blocks) and discarding for a while, so it
 * also waits (up to ten minutes) until the disk is idle: fewer than IDLE_REQUESTS writes and
 * discards in 5 s (Linux's counts, where there are any). What this cannot see: on ext4 without
 * a journal, as on the benchmarks' machine, creating files stays several times slower for up to
 * six minutes after a large deletion, though the disk is idle: the inode allocator checks every
 * recently freed inode it passes over (docs/operators.md, "What the build writes"). Waiting that
 * out before every row would add most of an hour to the incremental benchmark.
 */
export function settleDisk(): void {
  spawnSync("sync", { stdio: "ignore" });
  const deadline = Date.now() + 10 * 60_000;
  for (let before = countWrites(); before !== null && Date.now() < deadline; ) {
    spawnSync("sleep", ["5"]);
    const now = countWrites();
    if (now === null || now - before < IDLE_REQUESTS) break;
    before = now;
  }
}

const IDLE_REQUESTS = 100;

/** Write and discard requests completed by every block device so far (/proc/diskstats), or null where it does not say. */
function countWrites(): number | null {
  try {
    // After major, minor and name: reads (4 fields), writes completed (index 7), …, discards completed (index 14).
    return readFileSync("/proc/diskstats", "utf8")
      .split("\n")
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields.length >= 18)
      .reduce((sum, fields) => sum + Number(fields[7]) + Number(fields[14]), 0);
  } catch {
    return null;
  }
}

/**
 * Reads a file through once, so that the build that follows finds it in the page cache: a
 * snapshot kept from an earlier run (`--reuse-sample`) may have been evicted since, and a build
 * that reads its 780 MB from this disk cold spent half a minute more (its digest thread and its
 * report pass waiting on the disk), which no floor loop pays.
 */
export function warmFile(path: string): void {
  const fd = openSync(path, "r");
  try {
    const chunk = Buffer.allocUnsafe(1 << 22);
    while (readSync(fd, chunk, 0, chunk.length, null) > 0);
  } finally {
    closeSync(fd);
  }
}

/** `npm run build` with these flags in a process of its own: its seconds and peak RSS. */
export function runBuildChild(args: string[], statsFile: string): Promise<ChildStats> {
  return runChild("cli/build.ts", args, statsFile);
}

/**
 * Every file of a build's manifest (precompressed siblings included): path, size and SHA-256, read
 * as it streams past by the writer's own reader of manifests (build/writer/tree-reuse.cjs).
 */
export function forEachManifestFile(manifestPath: string, visit: (path: string, size: number, sha256: string) => void): void {
  readManifestFile(manifestPath, (bytes, pathFrom, pathTo, size, digest) => visit(bytes.toString("latin1", pathFrom, pathTo), size, digest.toString("hex")));
}

/** The size of every file the build wrote. */
function readFileSizes(manifestPath: string): number[] {
  const sizes: number[] = [];
  forEachManifestFile(manifestPath, (_path, size) => sizes.push(size));
  return sizes;
}

/** The floor: write `sizes.length` files of those sizes into one folder with nothing else in the loop. */
export function measureRawWrites(dir: string, sizes: number[]): number {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let max = 1;
  for (const size of sizes) if (size > max) max = size;
  const payload = Buffer.alloc(max, 0x61);
  const started = performance.now();
  for (let i = 0; i < sizes.length; i++) writeFileSync(join(dir, `u${i}.json`), payload.subarray(0, sizes[i]));
  return (performance.now() - started) / 1000;
}

export async function runBuildBench(options: { scale: number; workDir: string; reuseSample: boolean }): Promise<BenchRow[]> {
  const { scale, workDir } = options;
  mkdirSync(workDir, { recursive: true });
  const db = join(workDir, `sample-${scale}.sqlite`);
  const dist = join(workDir, "dist");
  const rows: BenchRow[] = [];
  const fmt = (n: number, digits = 1) => n.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });

  let sampleSeconds = Number.NaN;
  if (!options.reuseSample || !existsSync(db)) {
    const stats = await runChild("cli/sample.ts", ["--scale", String(scale), "--out", db], join(workDir, "sample-stats.json"));
    sampleSeconds = stats.seconds;
  }
  // The floor before the build is written in the disk's state the build will meet: on these
  // machines a deletion of a million files (an earlier run's dist) slows file creation for minutes
  // after it, beyond what `sync` waits for. It needs the sizes, from an earlier run's manifest of
  // the same sample when there is one; its files stay until the end, so that no deletion falls
  // between it and the build.
  const earlierSizes = options.reuseSample && existsSync(join(dist, "manifest.json")) ? readFileSizes(join(dist, "manifest.json")) : null;
  // An earlier run's dist would be retired by this build and deleted in the background while it
  // runs; it is deleted here instead, outside every measurement.
  rmSync(dist, { force: true });
  rmSync(join(workDir, ".dist-builds"), { recursive: true, force: true });
  rmSync(join(workDir, "raw-floor"), { recursive: true, force: true });
  rmSync(join(workDir, "raw-floor-before"), { recursive: true, force: true });
  settleDisk();
  const floorBefore = earlierSizes && measureRawWrites(join(workDir, "raw-floor-before"), earlierSizes);
  warmFile(db);
  settleDisk();
  const build = await runChild("cli/build.ts", ["--db", db, "--out", dist], join(workDir, "build-stats.json"));
  const summary = JSON.parse(readFileSync(join(workDir, ".dist-builds/last-build.json"), "utf8"));
  const sizes = readFileSizes(join(dist, "manifest.json"));
  settleDisk();
  const floorSeconds = measureRawWrites(join(workDir, "raw-floor"), sizes);
  // The floors' files are deleted now, outside every measurement.
  rmSync(join(workDir, "raw-floor"), { recursive: true, force: true });
  rmSync(join(workDir, "raw-floor-before"), { recursive: true, force: true });

  const floorRate = sizes.length / floorSeconds;
  const writeRate = summary.writes.files / summary.writes.seconds;
  const phaseRate = summary.checkPhase.files / summary.checkPhase.seconds;
  rows.push(
    { metric: `sample generation (${fmt(scale, 0)} usernames)`, value: Number.isNaN(sampleSeconds) ? "reused" : `${fmt(sampleSeconds)} s`, baseline: "", ratio: "", target: "" },
    {
      metric: "full build (separate process)",
      value: `${fmt(build.seconds)} s`,
      baseline: `floor: a bare loop writing its ${fmt(sizes.length, 0)} files, same sizes, right after the build: ${fmt(floorSeconds)} s`,
      ratio: `${fmt(build.seconds / floorSeconds, 2)}×`,
      target: "≤ 1.5×",
    },
    ...(floorBefore === null
      ? []
      : [
          {
            metric: "  the same, beside the floor written right before the build",
            value: `${fmt(build.seconds)} s`,
            baseline: `floor: ${fmt(earlierSizes!.length, 0)} files (an earlier run's), same sizes: ${fmt(floorBefore)} s`,
            ratio: `${fmt(build.seconds / floorBefore, 2)}×`,
            target: "≤ 1.5×",
          },
        ]),
    { metric: "build peak RSS", value: `${fmt(build.maxRssBytes / 2 ** 20, 0)} MiB`, baseline: "", ratio: "", target: "< 1024 MiB" },
    { metric: "reports read", value: fmt(summary.counts.reports_read, 0), baseline: "", ratio: "", target: "" },
    { metric: "files written", value: fmt(summary.files, 0), baseline: "", ratio: "", target: "" },
    {
      metric: "writer thread: files listed per second it was busy (hashing, placing, writing, its share of compressing)",
      value: `${fmt(writeRate, 0)} files/s`,
      baseline: `${fmt(floorRate, 0)} files/s raw loop`,
      ratio: `${fmt(writeRate / floorRate, 2)}×`,
      target: "≥ 0.5×",
    },
    {
      metric: "check files end to end (JSON, write; the report pass is the model step)",
      value: `${fmt(phaseRate, 0)} files/s`,
      baseline: `${fmt(floorRate, 0)} files/s raw loop`,
      ratio: `${fmt(phaseRate / floorRate, 2)}×`,
      target: "",
    },
  );
  for (const [name, seconds] of Object.entries(summary.timings as Record<string, number>)) {
    rows.push({ metric: name === "model" ? "  model (snapshot read, report pass)" : `  emitter ${name}`, value: `${fmt(seconds, 2)} s`, baseline: "", ratio: "", target: "" });
  }
  return rows;
}

export function printTable(title: string, rows: BenchRow[]): void {
  const headers: (keyof BenchRow)[] = ["metric", "value", "baseline", "ratio", "target"];
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => r[h].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(`\n${title}\n`);
  console.log(line(headers));
  console.log(`| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
  for (const row of rows) console.log(line(headers.map((h) => row[h])));
}
