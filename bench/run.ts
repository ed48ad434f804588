/**
 * `npm run bench`: every benchmark, each printing its figures beside a baseline measured in the
 * same run (ratios, not absolute times: these machines are shared and noisy).
 *
 *   npm run bench                      # all, build at 1 000 000 usernames
 *   npm run bench -- --only build      # one of: build, incremental, scaling, changes, fingerprint, fingerprint-http, routes, shutdown, search, deploy, serve
 *   npm run bench -- --scale 200000    # a smaller build benchmark
 *   npm run bench -- --reuse-sample    # keep .bench/sample-N.sqlite between runs
 *   npm run bench -- --write-docs      # and put each table that ran into docs/benchmarks.md
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { runCommand } from "../cli/command.ts";
import { BENCH } from "../cli/flag-table.ts";
import { readChoice, readInteger } from "../cli/values.ts";
import { printTable, runBuildBench, type BenchRow } from "./build.ts";
import { runDeployBench } from "./deploy.ts";
import { runIncrementalBench } from "./incremental.ts";
import { runScalingBench } from "./scaling.ts";
import { runChangesBench } from "./changes.ts";
import { runServeBench } from "./serve.ts";
import { runRoutesBench } from "./routes.ts";
import { runSearchBench } from "./search.ts";
import { runShutdownBench, toShutdownRows } from "./shutdown.ts";
import { BENCH_NAMES, noteMachine, replaceFigures, replaceSections, utcDay } from "./write-docs.ts";

/** `scaled`: the benchmark reads --scale, so the command that re-runs it says the scale. */
type Bench = { name: string; title: string; scaled?: boolean; run: () => Promise<BenchRow[]> };

const BENCH_DOCS = resolve(import.meta.dirname, "../docs/benchmarks.md");
const README = resolve(import.meta.dirname, "../README.md");

runCommand(BENCH, async ({ values, label }) => {
  const scale = readInteger(label("scale"), values.scale, 1000, 10_000_000);
  const workDir = resolve(values.dir);
  const benches: Bench[] = [
    {
      name: "build",
      scaled: true,
      title: `Build at ${scale.toLocaleString("en")} usernames`,
      run: () => runBuildBench({ scale, workDir: join(workDir, "build"), reuseSample: values["reuse-sample"] }),
    },
  ];
  benches.push({
    name: "incremental",
    scaled: true,
    title: `Incremental builds at ${scale.toLocaleString("en")} usernames, each beside the full build of the same run`,
    run: () => runIncrementalBench({ scale, workDir: join(workDir, "incremental"), reuseSample: values["reuse-sample"] }),
  });
  benches.push({
    name: "scaling",
    scaled: true,
    title: `A full build at ${scale.toLocaleString("en")} usernames, beside one at a quarter of that in the same run (run once at 4 000 000 for the scaling figures)`,
    run: () => runScalingBench({ scale, workDir: join(workDir, "scaling"), reuseSample: values["reuse-sample"] }),
  });
  benches.push({
    name: "changes",
    scaled: true,
    title: `The change feed at ${scale.toLocaleString("en")} usernames: a day's change files and /api/changes beside the full dump of the same run`,
    run: () => runChangesBench({ scale, workDir: join(workDir, "changes"), reuseSample: values["reuse-sample"] }),
  });
  // Benchmarks of later capabilities register themselves here when their modules exist.
  for (const extra of await loadOptionalBenches()) benches.push(extra);
  benches.push({
    name: "routes",
    title: "The route table: per-request dispatch and the build's docs step",
    run: () => runRoutesBench({ scale: Math.min(scale, 100_000), workDir: join(workDir, "routes") }),
  });
  benches.push({
    name: "shutdown",
    title: "Shutdown under load: npm run serve, keep-alive clients and slow uploads, then SIGTERM to npm",
    run: async () => toShutdownRows(await runShutdownBench({ concurrency: 32 }), 32),
  });
  benches.push({
    name: "search",
    title: "Search at 100 000 entities and 1 000 000 usernames (in-process, beside plain fuse.js and a linear scan of the same data)",
    run: () => runSearchBench({ workDir: join(workDir, "search"), fuseQueriesPerKind: 10 }),
  });
  benches.push({
    name: "serve",
    scaled: true,
    title: "Serving files: the live server beside nginx with the generated rules on the same dist (req/s, p50/p99, dump downloads, ready time and RSS, deploys)",
    run: () =>
      runServeBench({
        scale: Math.min(scale, 100_000),
        readyScale: scale,
        workDir: join(workDir, "serve"),
        reuseSample: values["reuse-sample"],
        sampleDir: join(workDir, "build"),
      }),
  });
  benches.push({
    name: "deploy",
    title: "Deploy by difference (npm run deploy) at the default sample and 100 000 usernames, beside a full copy of the same dist",
    run: () => runDeployBench({ workDir: join(workDir, "deploy"), reuseSample: values["reuse-sample"] }),
  });
  if (benches.map((b) => b.name).join() !== BENCH_NAMES.join()) throw new Error(`bench/write-docs.ts BENCH_NAMES lists ${BENCH_NAMES.join(", ")}; this file runs ${benches.map((b) => b.name).join(", ")}`);
  const only = values.only === undefined ? undefined : readChoice(label("only"), values.only, benches.map((b) => b.name));
  const selected = only ? benches.filter((b) => b.name === only) : benches;
  for (const bench of selected) {
    const machine = noteMachine();
    const day = utcDay(new Date());
    const rows = await bench.run();
    printTable(bench.title, rows);
    if (!values["write-docs"]) continue;
    const command = `npm run bench -- --only ${bench.name}${bench.scaled ? ` --scale ${scale}` : ""}`;
    const record = { name: bench.name, title: bench.title, command, rows, day, machine: { ...machine, loadAfter: loadavg()[0]! } };
    // Written after each benchmark, so that one failing later keeps the tables of those before it.
    const page = replaceSections(readFileSync(BENCH_DOCS, "utf8"), [record]);
    writeFileSync(BENCH_DOCS, page);
    writeFileSync(README, replaceFigures(readFileSync(README, "utf8"), page));
    console.log(`bench: wrote the "${bench.name}" section of docs/benchmarks.md and the README's figures`);
  }
});

async function loadOptionalBenches(): Promise<Bench[]> {
  const found: Bench[] = [];
  const here = import.meta.dirname;
  if (existsSync(join(here, "fingerprint-matcher.ts"))) {
    const mod = await import("./fingerprint-matcher.ts");
    found.push({
      name: "fingerprint",
      title: "Fingerprint matching (in-process, indexed matcher beside a linear scan of the same profiles)",
      run: async () =>
        (await mod.runFingerprintMatcherBench({})).map((r) => ({
          metric: `${r.library} (${r.profiles.toLocaleString("en")} public profiles)`,
          value: `${Math.round(r.indexedPerSecond).toLocaleString("en")} matches/s`,
          baseline: `${Math.round(r.linearPerSecond).toLocaleString("en")} matches/s linear scan`,
          ratio: `${r.speedup.toFixed(1)}×`,
          target: r.profiles >= 10_000 ? "≥ 100 000/s and ≥ 50×" : "",
        })),
    });
  }
  if (existsSync(join(here, "fingerprint-http.ts"))) {
    const mod = await import("./fingerprint-http.ts");
    found.push({
      name: "fingerprint-http",
      title: "POST /api/fingerprint/match over HTTP (beside a static GET on the same server)",
      run: async () =>
        (await mod.runFingerprintHttpBench({})).map((r) => ({
          metric: `${r.scenario} (${r.concurrency} clients)`,
          value: `${Math.round(r.perSecond).toLocaleString("en")} req/s, p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms`,
          baseline: "static GET on the same server",
          ratio: `${r.vsStatic.toFixed(2)}×`,
          target: "",
        })),
    });
  }
  return found;
}
