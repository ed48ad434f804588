/** `npm run build -- [--db FILE] [--out DIR] [--base-url URL]`: compiles a snapshot into dist. */
import { checkBaseUrl } from "../core/urls.ts";
import { formatHelp, readFlags, runMain } from "../scripts/cli.ts";
import { buildDist } from "./build.ts";
import { createBuildProgress } from "../cli/progress.ts";

export const BUILD_FLAGS = {
  db: { type: "string", env: "DB", default: "data/sample.sqlite", description: "the snapshot to compile" },
  out: { type: "string", env: "DIST", default: "dist", description: "the dist link to publish (builds live beside it)" },
  "base-url": { type: "string", env: "BASE_URL", default: "http://localhost:3000", description: "absolute base URL of the deployment, used in every emitted URL" },
} as const;

runMain(() => {
  const flags = readFlags(BUILD_FLAGS);
  if (flags.help) return void console.log(formatHelp("npm run build -- [options]", BUILD_FLAGS));
  const problem = checkBaseUrl(flags["base-url"]!);
  if (problem) throw new Error(`--base-url ${problem}`);
  const started = performance.now();
  const summary = buildDist({ db: flags.db!, out: flags.out!, baseUrl: flags["base-url"]!, progress: createBuildProgress(process.stderr) });
  const seconds = (performance.now() - started) / 1000;
  const c = summary.counts;
  const fmt = (n: number) => n.toLocaleString("en");
  console.log(
    [
      `build: published ${flags.out} -> ${summary.buildDir} in ${seconds.toFixed(1)}s`,
      `  reports ${fmt(c.reports_read)}, usernames ${fmt(c.usernames)}, companies ${fmt(c.companies)} (${fmt(c.companies_with_reports)} with reports), people ${fmt(c.people)}`,
      `  files ${fmt(summary.files)}, ${(summary.bytes / 1048576).toFixed(1)} MiB; rejected rows ${fmt(summary.rejected)} (see build-report.json)`,
      `  ${Object.entries(summary.timings).map(([k, v]) => `${k} ${v.toFixed(1)}s`).join(", ")}`,
    ].join("\n"),
  );
});
