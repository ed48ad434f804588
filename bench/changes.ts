/**
 * The change feed benchmark (docs/change-feed.md): at --scale usernames, a full build of a
 * sample, then a day of changes (the incremental benchmark's) built onto it as an operator
 * publishes. Beside the full dump of the same run:
 *
 * - the day's change files: rows, CSV and gzip bytes, beside the dumps they change;
 * - the build's change-feed step (the merge of the previous and new dumps, the files carried on,
 *   the index and feeds), beside the dump step that writes the dumps themselves;
 * - `/api/changes?since=` on the live server (in-process): the merged answer read whole, beside
 *   the full spammer dump read whole from the same server;
 * - a client applying the change file to the dump it holds (streamed, core/changes/merge.ts),
 *   beside reading the new full dump.
 */
import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { applyChanges, parseChange } from "../core/changes/merge.ts";
import { readCsvRecords } from "../core/changes/records.ts";
import type { ChangeIndex } from "../core/routes/changes-schema.ts";
import { createApp } from "../server/app.ts";
import { runBuildChild, settleDisk, type BenchRow } from "./build.ts";
import { DAY_OF_CHANGES, makeSample, makeSnapshot, readSummary } from "./incremental.ts";

export async function runChangesBench(options: { scale: number; workDir: string; reuseSample: boolean }): Promise<BenchRow[]> {
  const { workDir } = options;
  mkdirSync(workDir, { recursive: true });
  const sample = makeSample(options);
  const dist = join(workDir, "out", "dist");
  rmSync(join(workDir, "out"), { recursive: true, force: true });
  settleDisk();
  const first = await runBuildChild(["--db", sample, "--out", dist], join(workDir, "stats.json"));
  const previousBuild = readSummary(dist).buildDir;
  const day = join(workDir, "day.sqlite");
  makeSnapshot(sample, day, DAY_OF_CHANGES);
  settleDisk();
  const run = await runBuildChild(["--db", day, "--out", dist, "--reader-grace", "0"], join(workDir, "stats.json"));
  const summary = readSummary(dist);
  const index = JSON.parse(readFileSync(join(dist, "dumps/changes/index.json"), "utf8")) as ChangeIndex;
  const publish = index.publishes[0]!;
  const fmt = (n: number, digits = 1) => n.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const mb = (bytes: number) => `${fmt(bytes / 1e6, 2)} MB`;
  const pct = (a: number, b: number) => `${fmt((a / b) * 100, 2)} %`;
  const rows: BenchRow[] = [
    { metric: "full build of the sample", value: `${fmt(first.seconds)} s`, baseline: "", ratio: "", target: "" },
    { metric: "a day of changes, built onto it", value: `${fmt(run.seconds)} s (${summary.mode.mode})`, baseline: `${fmt(first.seconds)} s full`, ratio: pct(run.seconds, first.seconds), target: "" },
    {
      metric: "  its change-feed step (merge of the two dumps, index, feeds)",
      value: `${fmt(summary.timings.changes ?? 0, 2)} s`,
      baseline: `${fmt(summary.timings.dump ?? 0, 2)} s the dump step`,
      ratio: pct(summary.timings.changes ?? 0, summary.timings.dump ?? 1),
      target: "",
    },
  ];
  for (const dataset of ["spammers", "companies"] as const) {
    const csv = publish.files.find((f) => f.dataset === dataset && f.name.endsWith(".csv"))!;
    const gz = publish.files.find((f) => f.dataset === dataset && f.name.endsWith(".csv.gz"))!;
    const dump = statSync(join(dist, `dumps/${dataset}-latest.csv`)).size;
    const dumpGz = statSync(join(dist, `dumps/${dataset}-latest.csv.gz`)).size;
    const counts = publish[dataset];
    rows.push(
      {
        metric: `${dataset}: the day's change file`,
        value: `${fmt(csv.rows, 0)} rows (${fmt(counts.added, 0)} added, ${fmt(counts.updated, 0)} updated, ${fmt(counts.removed, 0)} removed), ${mb(csv.bytes)}`,
        baseline: `${mb(dump)} the full dump`,
        ratio: pct(csv.bytes, dump),
        target: "",
      },
      { metric: "  gzip", value: mb(gz.bytes), baseline: `${mb(dumpGz)} the full dump's`, ratio: pct(gz.bytes, dumpGz), target: "" },
    );
  }

  // The live route, in-process: the merged answer beside the full dump from the same server.
  const app = createApp({ dist, fingerprintRateLimit: 0 });
  const read = async (url: string) => {
    const started = performance.now();
    const res = await app.request(url);
    const bytes = (await res.arrayBuffer()).byteLength;
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return { seconds: (performance.now() - started) / 1000, bytes };
  };
  await read("/dumps/changes/index.json");
  const merged = await read(`/api/changes?since=${publish.previous}`);
  const whole = await read("/dumps/spammers-latest.csv");
  rows.push({ metric: "GET /api/changes?since= (the day, read whole)", value: `${fmt(merged.seconds * 1000, 0)} ms, ${mb(merged.bytes)}`, baseline: `${fmt(whole.seconds * 1000, 0)} ms, ${mb(whole.bytes)} the full dump`, ratio: pct(merged.seconds, whole.seconds), target: "" });

  // A client: the dump it holds plus the change file, streamed, against reading the new dump.
  const csv = publish.files.find((f) => f.dataset === "spammers" && f.name.endsWith(".csv"))!;
  let started = performance.now();
  const changes = [...readCsvRecords([readFileSync(join(dist, "dumps/changes", csv.name))])].slice(1).map(parseChange);
  let applied = 0;
  for (const record of applyChanges(readCsvRecords([readFileSync(join(previousBuild, "dumps/spammers-latest.csv"))]), changes, "spammers")) applied += Buffer.byteLength(record);
  const applySeconds = (performance.now() - started) / 1000;
  started = performance.now();
  let parsed = 0;
  for (const record of readCsvRecords([readFileSync(join(dist, "dumps/spammers-latest.csv"))])) parsed += Buffer.byteLength(record.text);
  const parseSeconds = (performance.now() - started) / 1000;
  const same = applied === parsed && applied === whole.bytes;
  rows.push({ metric: "a client applying the change file to its dump", value: `${fmt(applySeconds, 2)} s${same ? "" : " (SIZE DIFFERS)"}`, baseline: `${fmt(parseSeconds, 2)} s reading the new dump's records`, ratio: `${fmt(applySeconds / parseSeconds, 2)}×`, target: "" });
  rmSync(join(workDir, "out"), { recursive: true, force: true });
  rmSync(day, { force: true });
  return rows;
}
