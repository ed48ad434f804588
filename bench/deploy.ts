/**
 * The deploy benchmark (issue 13, item 4): at each scale, a first deploy, an identical rebuild's
 * deploy and the deploy of one more report for one username, in files copied and seconds, beside
 * what a plain full copy (`cp -r`, what `rsync -aL` amounts to when every mtime changed) costs in
 * the same run; and the time to hash every file of the served folder, which is what trusting the
 * deploy record saves each deploy. Exported for the serve benchmark to call.
 */
import Database from "better-sqlite3";
import { isChangeFeedFile } from "../core/changes/merge.ts";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildDist } from "../build/build.ts";
import { hashContent } from "../build/writer/index.ts";
import { deployBuild, type DeploySummary } from "../cli/deploy/run-deploy.ts";
import { generateSample } from "../data/sample/generate.ts";
import type { BenchRow } from "./build.ts";

export interface DeployBenchOptions {
  /** Usernames of each sample measured (default: the sample's default and 100 000). */
  scales?: number[];
  workDir: string;
  reuseSample?: boolean;
}

export interface DeployFigures {
  scale: number;
  files: number;
  /** Files the first build's manifest lists, itself included (what `files` must be). */
  manifestFiles: number;
  fullCopySeconds: number;
  first: Measured;
  identical: Measured;
  /** `changedInBuild`: files new or different in the changed build's manifest (what a deploy must copy). */
  oneChange: Measured & { username: string; paths: string[]; changedInBuild: number };
  hashAllSeconds: number;
}

type Measured = { copied: number; seconds: number };

export async function runDeployBench(options: DeployBenchOptions): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const scale of options.scales ?? [20_000, 100_000]) rows.push(...toDeployRows(measureDeploys(scale, options)));
  return rows;
}

export function measureDeploys(scale: number, options: DeployBenchOptions): DeployFigures {
  const dir = join(options.workDir, String(scale));
  mkdirSync(dir, { recursive: true });
  const sample = join(dir, "sample.sqlite");
  if (!options.reuseSample || !existsSync(sample)) generateSample({ scale, seed: "1", out: sample, asOf: "2026-11-15T18:00:00Z" });
  const [dist, www, copy] = ["dist", "www", "full-copy"].map((name) => join(dir, name)) as [string, string, string];
  for (const old of [dist, www, copy, join(dir, ".dist-builds")]) rmSync(old, { recursive: true, force: true });
  const build = (db: string) => buildDist({ db, out: dist, baseUrl: "https://api.example.org", progress: null });

  build(sample);
  const manifestFiles = readManifestHashes(dist).size + 1;
  const first = timeDeploy(dist, www);
  settleDisk();
  let started = performance.now();
  spawnSync("cp", ["-rL", `${dist}/.`, copy], { stdio: "inherit" });
  const fullCopySeconds = (performance.now() - started) / 1000;
  const files = countFiles(copy);

  build(sample);
  const identical = timeDeploy(dist, www);

  const changed = join(dir, "one-more-report.sqlite");
  copyFileSync(sample, changed);
  const username = addOneReport(changed);
  const before = readManifestHashes(dist);
  build(changed);
  const after = readManifestHashes(dist);
  const changedInBuild = [...after].filter(([path, hash]) => before.get(path) !== hash).length;
  const paths: string[] = [];
  const oneChange = { ...timeDeploy(dist, www, (path) => paths.push(path)), username, paths, changedInBuild };

  settleDisk();
  started = performance.now();
  for (const path of listFiles(www)) hashContent(readFileSync(path));
  const hashAllSeconds = (performance.now() - started) / 1000;
  return { scale, files, manifestFiles, fullCopySeconds, first, identical, oneChange, hashAllSeconds };
}

function timeDeploy(dist: string, www: string, onCopied?: (path: string) => void): Measured {
  settleDisk();
  const started = performance.now();
  const summary: DeploySummary = deployBuild(dist, www, { onFile: (path, result) => result === "copied" && onCopied?.(path) });
  const seconds = (performance.now() - started) / 1000;
  return { copied: Object.values(summary.copied).reduce((a, b) => a + b, 0), seconds };
}

/** One more report for a username in the middle of the alphabet, a day before the snapshot's now. */
function addOneReport(db: string): string {
  const sql = new Database(db);
  try {
    const count = (sql.prepare("SELECT count(DISTINCT username) AS n FROM reports").get() as { n: number }).n;
    const { username } = sql.prepare("SELECT DISTINCT username FROM reports ORDER BY username LIMIT 1 OFFSET ?").get(Math.floor(count / 2)) as { username: string };
    const template = sql.prepare("SELECT * FROM reports WHERE username = ? ORDER BY id LIMIT 1").get(username) as Record<string, unknown>;
    const next = (sql.prepare("SELECT max(id) + 1 AS id FROM reports").get() as { id: number }).id;
    const columns = Object.keys(template);
    const row = { ...template, id: next, reporter: "bench", created_at: "2026-11-14T18:00:00Z" };
    sql.prepare(`INSERT INTO reports (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`).run(row);
    return username;
  } finally {
    sql.close();
  }
}

/** Path → SHA-256 of every file a build's manifest lists. */
function readManifestHashes(dist: string): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8")) as { files: { path: string; sha256: string }[] };
  return new Map(manifest.files.map((f) => [f.path, f.sha256]));
}

function listFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

const countFiles = (root: string): number => listFiles(root).length;

/** As the build benchmark does: what the previous step wrote is on disk before the next is timed. */
function settleDisk(): void {
  spawnSync("sync", { stdio: "ignore" });
}

export function toDeployRows(f: DeployFigures): BenchRow[] {
  const at = `${f.scale.toLocaleString("en")} usernames`;
  const copy = `cp -r: ${f.files.toLocaleString("en")} files, ${f.fullCopySeconds.toFixed(2)} s`;
  const row = (metric: string, m: Measured, target: string): BenchRow => ({
    metric: `${metric} (${at})`,
    value: `${m.copied.toLocaleString("en")} files, ${m.seconds.toFixed(2)} s`,
    baseline: copy,
    ratio: `${(m.seconds / f.fullCopySeconds).toFixed(2)}× the time`,
    target,
  });
  // Folders with a count: the files one report changed, short enough for a table cell.
  const groups = new Map<string, number>();
  for (const path of f.oneChange.paths) {
    const parts = path.split("/");
    const group = parts.length === 1 ? path : parts[0] === "api" && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!;
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  // The change feed's files (the publish's change files, their index, feeds) come with every publish.
  const oneChangeData = f.oneChange.paths.filter((path) => !isChangeFeedFile(path)).length;
  return [
    row("first deploy into an empty folder", f.first, ""),
    row("identical rebuild", f.identical, f.identical.copied === 0 ? "0 files ✓" : "0 files ✗"),
    row(`one more report for ${f.oneChange.username}`, f.oneChange, `< 50 files ${oneChangeData < 50 ? "✓" : "✗"} (besides the change feed's ${f.oneChange.copied - oneChangeData})`),
    { metric: "  which", value: [...groups].map(([group, n]) => (n > 1 ? `${group} ×${n}` : group)).join(", "), baseline: "", ratio: "", target: "" },
    { metric: `hash every served file (not done: the record is trusted) (${at})`, value: `${f.hashAllSeconds.toFixed(2)} s`, baseline: copy, ratio: `${(f.hashAllSeconds / f.fullCopySeconds).toFixed(2)}× the time`, target: "" },
  ];
}
