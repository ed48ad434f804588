/**
 * The steps the commands share, each printing what it did the same way whichever command runs it:
 * `npm run sample` and `npm start` write a sample alike, `npm run build` and `npm start` build
 * alike. Options arrive resolved (cli/resolve-options.ts); these only do the work and report it.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { buildDist, type BuildSummary } from "../build/build.ts";
import { generateSample } from "../data/sample/generate.ts";
import { createLog, formatCount, formatMiB, formatSeconds } from "./log.ts";
import { createBuildProgress, createSampleProgress } from "./progress.ts";
import type { BuildStep, SampleStep } from "./resolve-options.ts";

export function runSample(options: SampleStep): void {
  mkdirSync(dirname(options.out), { recursive: true });
  const started = performance.now();
  const progress = createSampleProgress(process.stderr);
  const summary = generateSample({ ...options, onProgress: progress.update });
  progress.done();
  const counts = `${formatCount(summary.usernames)} usernames, ${formatCount(summary.reports)} reports, ${formatCount(summary.companies)} companies, ${formatCount(summary.people)} people`;
  createLog("sample").info(`wrote ${options.out}: ${counts} in ${formatSeconds(performance.now() - started)}`);
}

export function runBuild(options: BuildStep): BuildSummary {
  const started = performance.now();
  const summary = buildDist({ ...options, progress: createBuildProgress(process.stderr) });
  const log = createLog("build");
  for (const line of describeBuild(summary, options.out, performance.now() - started)) log.info(line);
  // Published, but something after it failed (old builds not removed, last-build.json not written),
  // or built as asked from a snapshot whose output an operator would not want unawares.
  const warn = createLog("warning", process.stderr);
  for (const warning of [...summary.notices, ...summary.warnings]) warn.info(warning);
  return summary;
}

/** The end-of-build summary DESIGN asks for: counts, rejected rows, time (and where it went). */
function describeBuild(summary: BuildSummary, out: string, milliseconds: number): string[] {
  const c = summary.counts;
  return [
    `${summary.mode.mode === "unchanged" ? "kept" : "published"} ${out} -> ${summary.buildDir} in ${formatSeconds(milliseconds)}`,
    `  reports ${formatCount(c.reports_read)}, usernames ${formatCount(c.usernames)}, companies ${formatCount(c.companies)} (${formatCount(c.companies_with_reports)} with reports), people ${formatCount(c.people)}`,
    `  files ${formatCount(summary.files)}, ${formatMiB(summary.bytes)}; rejected rows ${formatCount(summary.rejected)} (by reason in build-report.json; samples in ${join(dirname(summary.buildDir), "last-build.json")})`,
    ...(summary.rejections.length > 0 ? [`  rejected by reason: ${summary.rejections.map(({ reason, count }) => `${reason} ${formatCount(count)}`).join(", ")}`] : []),
    `  ${Object.entries(summary.timings).map(([name, seconds]) => `${name} ${seconds.toFixed(1)}s`).join(", ")}`,
    describeMode(summary.mode),
  ];
}

/** The last line: which kind of build it was, and why or what it redid (docs/incremental-builds.md). */
export function describeMode(mode: BuildSummary["mode"]): string {
  if (mode.mode === "full") return `full: ${mode.reason}`;
  if (mode.mode === "unchanged") return `incremental: nothing changed (the snapshot holds the same rows as the current build's); 0 files written, ${formatCount(mode.kept)} kept`;
  const changed = Object.entries(mode.changed).map(([name, n]) => `${formatCount(n)} ${name}`);
  const onto = mode.base === "previous" ? "" : " (into a new folder: no earlier folder to bring up to date)";
  const reports = "usernames" in mode.reports ? `reports of ${formatCount(mode.reports.usernames)} usernames read again` : `every report read: ${mode.reports.reason}`;
  const unmade = mode.unmade > 0 ? `, ${formatCount(mode.unmade)} files not made again` : "";
  const { reused, made, refused } = mode.dumpMembers;
  // The first two kept dump files that could not be used (last-build.json lists them all).
  const notUsed = refused.length === 0 ? "" : ` (not used: ${refused.slice(0, 2).join("; ")}${refused.length > 2 ? `; and ${refused.length - 2} more` : ""})`;
  const dump = reused + made > 0 ? `; ${formatCount(reused)} of ${formatCount(reused + made)} dump members reused${notUsed}` : "";
  return `incremental: ${changed.join(", ")} changed; ${formatCount(mode.written)} files written, ${formatCount(mode.kept)} kept, ${formatCount(mode.deleted)} deleted; ${reports}${unmade}${dump}${onto}`;
}
