/**
 * The scaling benchmark: a full build at --scale usernames (4 000 000 for the README's scaling
 * figures), beside a full build at a quarter of that in the same run, each `npm run build --
 * --full` in a process of its own: seconds, peak RSS, files, disk. The smaller build's folder is
 * deleted before the larger one starts, so both find the disk alike.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { BenchRow } from "./build.ts";
import { runBuildChild, settleDisk } from "./build.ts";
import { makeSample, readSummary } from "./incremental.ts";

interface ScaledBuild {
  scale: number;
  seconds: number;
  rssBytes: number;
  files: number;
  reports: number;
  diskMiB: number;
}

async function buildAt(scale: number, workDir: string, reuseSample: boolean, last: boolean): Promise<ScaledBuild> {
  const sample = makeSample({ scale, workDir, reuseSample });
  const root = join(workDir, `dist-${scale}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  settleDisk();
  const out = join(root, "dist");
  const run = await runBuildChild(["--db", sample, "--out", out, "--full"], join(workDir, "stats.json"));
  const summary = readSummary(out) as ReturnType<typeof readSummary> & { counts: { reports_read: number } };
  const du = spawnSync("du", ["-sm", summary.buildDir], { encoding: "utf8" });
  const build = { scale, seconds: run.seconds, rssBytes: run.maxRssBytes, files: summary.files, reports: summary.counts.reports_read, diskMiB: Number(du.stdout.split("\t")[0]) };
  if (last) {
    // Millions of files: deleted in the background, as the build deletes a retired build.
    const trash = `${root}-deleting`;
    renameSync(root, trash);
    spawn("rm", ["-rf", trash], { detached: true, stdio: "ignore" }).unref();
  } else rmSync(root, { recursive: true, force: true });
  return build;
}

export async function runScalingBench(options: { scale: number; workDir: string; reuseSample: boolean }): Promise<BenchRow[]> {
  const { scale, workDir, reuseSample } = options;
  mkdirSync(workDir, { recursive: true });
  const small = await buildAt(Math.round(scale / 4), workDir, reuseSample, false);
  const large = await buildAt(scale, workDir, reuseSample, true);
  const n = (value: number, digits = 0) => value.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const gib = (bytes: number) => `${n(bytes / 2 ** 30, 2)} GiB`;
  const at = `at ${n(small.scale)}`;
  const ratio = (a: number, b: number) => `${n(a / b, 2)}×`;
  return [
    { metric: `full build at ${n(large.scale)} usernames`, value: `${n(large.seconds, 1)} s`, baseline: `${at}: ${n(small.seconds, 1)} s`, ratio: ratio(large.seconds, small.seconds), target: "" },
    { metric: "  its peak RSS", value: gib(large.rssBytes), baseline: `${at}: ${gib(small.rssBytes)}`, ratio: ratio(large.rssBytes, small.rssBytes), target: "≤ 2 GiB" },
    { metric: "  reports read", value: n(large.reports), baseline: `${at}: ${n(small.reports)}`, ratio: ratio(large.reports, small.reports), target: "" },
    { metric: "  files written", value: n(large.files), baseline: `${at}: ${n(small.files)}`, ratio: ratio(large.files, small.files), target: "" },
    { metric: "  disk (du of the build folder)", value: `${n(large.diskMiB / 1024, 1)} GiB`, baseline: `${at}: ${n(small.diskMiB / 1024, 1)} GiB`, ratio: ratio(large.diskMiB, small.diskMiB), target: "" },
    { metric: "  seconds per million files", value: `${n(large.seconds / (large.files / 1e6), 1)} s`, baseline: `${at}: ${n(small.seconds / (small.files / 1e6), 1)} s`, ratio: ratio(large.seconds / large.files, small.seconds / small.files), target: "" },
  ];
}
