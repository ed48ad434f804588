/**
 * Search benchmark: global search (GET /api/search/global) beside plain fuse.js over the same
 * 100 000 entities in the same run, and live search (GET /api/search) over a million usernames
 * beside a linear scan. Global search has the live index's usernames as its username group, as
 * on the server. Reports latency, top-5 recall on generated typo queries and on the labelled set
 * (bench/search-labelled.json, bench/search-recall.ts), agreement with plain fuse.js, build time,
 * serialised size and load time.
 *
 * Run: npm run bench -- --only search, or npx tsx bench/search.ts [--quick] [--full]
 * Targets: global p50 ≤ 1 ms, p99 ≤ 5 ms (in-process, and over HTTP at 100 000 entities), ≥ 100×
 * plain fuse.js, top-5 recall ≥ plain fuse.js's and, on the labelled set, ≥ 97.5 % of every kind;
 * live p99 ≤ 10 ms over 1M usernames; load ≤ 3 s.
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import Fuse from "fuse.js";
import { createGlobalSearchIndex } from "../core/search/global-index.ts";
import type { GlobalSearchIndex } from "../core/search/global-index.ts";
import { buildGlobalGrams, serializeGlobalGrams } from "../core/search/global-grams.ts";
import { GLOBAL_FUSE_OPTIONS, createGlobalSearcher } from "../core/search/global-searcher.ts";
import type { FuseDocument, GlobalSearcher } from "../core/search/global-searcher.ts";
import { createBenchEntities, createRandom } from "./search-corpus.ts";
import { QUERY_KINDS, createBenchQueries } from "./search-queries.ts";
import type { BenchQuery } from "./search-queries.ts";
import { runLiveSearchBench } from "./search-live.ts";
import { LABELLED_CORPUS, readLabelledQueries } from "./search-labelled.ts";
import { measureLabelledRecall } from "./search-recall.ts";
import type { LiveIndex } from "../core/search/live-index.ts";
import { HTTP_CLIENTS, measureServerReady } from "./search-ready.ts";

export interface SearchBenchRow {
  metric: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
}

export interface SearchBenchOptions {
  entities?: number;
  usernames?: number;
  /** Typo queries per kind for our latency and recall. */
  queriesPerKind?: number;
  /** Of those, per kind, also run through plain fuse.js (≈ 1–5 s each at 100 000). */
  fuseQueriesPerKind?: number;
  /** Where the server-start measurement builds its dist (gitignored .bench/ by default). */
  workDir?: string;
  log?: (line: string) => void;
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const ms = (n: number) => `${fmt(n, n < 10 ? 3 : 1)} ms`;
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

export async function runSearchBench(options: SearchBenchOptions = {}): Promise<SearchBenchRow[]> {
  const log = options.log ?? ((line: string) => console.error(line));
  const rows: SearchBenchRow[] = [];
  const row = (metric: string, value: string, baseline = "", ratio = "", target = "") => rows.push({ metric, value, baseline, ratio, target });

  log(`generating ${options.entities ?? 100_000} entities…`);
  const steal = readCpuSteal();
  row("machine: cores, load average (1 min) at start", `${cpus().length}, ${fmt(loadavg()[0]!, 2)}`);
  row("machine: sum of 10M doubles (speed check)", ms(measureCalibration()), "≈ 10 ms on an idle 4 GHz core");
  const entityCount = options.entities ?? 100_000;
  const entities = createBenchEntities(entityCount);
  // The live index first: global search's username group searches its arrays, as on the server.
  const live = await runLiveSearchBench({ entities, usernames: options.usernames ?? 1_000_000, workDir: options.workDir ?? ".bench/search", log });
  const started = performance.now();
  const index = createGlobalSearchIndex(entities);
  const buildMs = performance.now() - started;
  const json = JSON.stringify(index);
  const load = measureLoad(json, live.live);
  const searcher = load.searcher;
  row("global: entities (+ the live index's usernames)", `${index.titles.length} (+ ${live.live.spammerCounts.length})`, "", "", "100 000 (+ 1 000 000)");
  row("global: index build", ms(buildMs));
  row("global: index size (JSON / gzip)", `${fmt(json.length / 1e6, 1)} MB / ${fmt(gzipSync(json).length / 1e6, 1)} MB`);
  row("global: load (JSON.parse + postings)", ms(load.totalMs), `parse ${ms(load.parseMs)}`, "", "≤ 3 s");

  const queries = createBenchQueries(entities, options.queriesPerKind ?? 100, createRandom(7));
  // The labelled set names items of the 100 000-entity corpus: at another scale it is left out.
  const labelled = entityCount === LABELLED_CORPUS.entities ? readLabelledQueries() : [];
  const timing = [...queries.map((q) => q.query), ...createEasyQueries(entities, 200), ...labelled.map((q) => q.query)];
  for (const q of timing) searcher.search(q); // warm-up: the JIT, not a cache (there is none)
  // Five timed passes: the first alone is the raw figure; the per-query best of five filters out
  // what other processes, CPU steal and GC pauses add on a shared machine.
  const passes = [0, 1, 2, 3, 4].map(() => timing.map((q) => timeOne(() => searcher.search(q))));
  const times = [...passes[0]!].sort((a, b) => a - b);
  const best = timing.map((_, i) => Math.min(...passes.map((pass) => pass[i]!))).sort((a, b) => a - b);
  const labelledTimes = passes[0]!.slice(timing.length - labelled.length).sort((a, b) => a - b);
  const hits = countHits(queries, (q) => searcher.search(q.query));

  log("plain fuse.js baseline…");
  const fuse = createPlainFuse(index);
  const sample = pickSample(queries, options.fuseQueriesPerKind ?? 2);
  const plain = sample.map((q) => {
    const variants = searcher.getVariants(q.query).filter((v) => v.kind !== "cyrillic");
    const start = performance.now();
    const typed = fuse.search(variants.slice(0, 1).map((v) => v.text));
    const typedMs = performance.now() - start;
    const groups = fuse.search(variants.map((v) => v.text), typed.results);
    return { q, groups: groups.groups, typed: typed.groups, typedMs, ms: performance.now() - start };
  });
  const plainTimes = plain.map((p) => p.ms).sort((a, b) => a - b);
  const typedTimes = plain.map((p) => p.typedMs).sort((a, b) => a - b);
  const ourSample = sample.map((q) => timeOne(() => searcher.search(q.query))).sort((a, b) => a - b);
  const ratio = percentile(plainTimes, 0.5) / percentile(ourSample, 0.5);
  const ratio99 = percentile(plainTimes, 0.99) / percentile(ourSample, 0.99);
  row(`global: p50 / p99 / max, ${timing.length} queries`, `${ms(percentile(times, 0.5))} / ${ms(percentile(times, 0.99))} / ${ms(times.at(-1)!)}`, "", "", "≤ 1 ms / ≤ 5 ms");
  row("  best of 5 passes per query", `${ms(percentile(best, 0.5))} / ${ms(percentile(best, 0.99))} / ${ms(best.at(-1)!)}`);
  if (labelled.length > 0) row(`  the ${labelled.length} labelled queries, first pass`, `${ms(percentile(labelledTimes, 0.5))} / ${ms(percentile(labelledTimes, 0.99))} / ${ms(labelledTimes.at(-1)!)}`);
  row(`global: p50 on the ${sample.length} baseline queries`, ms(percentile(ourSample, 0.5)), `fuse.js ${ms(percentile(plainTimes, 0.5))}`, `${fmt(ratio, 0)}×`, "≥ 100×");
  row(`global: p99 on the ${sample.length} baseline queries`, ms(percentile(ourSample, 0.99)), `fuse.js ${ms(percentile(plainTimes, 0.99))}`, `${fmt(ratio99, 0)}×`);
  row("  fuse.js given only the query as typed", "", ms(percentile(typedTimes, 0.5)), `${fmt(percentile(typedTimes, 0.5) / percentile(ourSample, 0.5), 0)}×`);

  const ours = countHits(sample, (q) => searcher.search(q.query));
  const theirs = countHits(sample, (q) => plain.find((p) => p.q === q)!.groups);
  const typedOnly = countHits(sample, (q) => plain.find((p) => p.q === q)!.typed);
  row(`global: top-5 recall, ${queries.length} typo queries`, `${hits.total.hit}/${hits.total.of}`, "", "", "");
  for (const kind of QUERY_KINDS) row(`  ${kind}`, `${hits.byKind.get(kind)?.hit ?? 0}/${hits.byKind.get(kind)?.of ?? 0}`);
  row(`global: top-5 recall, ${sample.length}-query sample`, `${ours.total.hit}/${ours.total.of}`, `fuse.js ${theirs.total.hit}/${theirs.total.of}`, "", "≥ fuse.js");
  row("  fuse.js given only the query as typed", "", `${typedOnly.total.hit}/${typedOnly.total.of}`);
  const agreement = measureAgreement(plain, searcher);
  row("global: top-5 agreement with fuse.js (per group)", `${fmt(agreement.mean * 100, 1)}%`, "", "", "", );
  row("global: same top-1 as fuse.js (intended group)", `${agreement.top1}/${plain.length}`);

  if (labelled.length > 0) rows.push(...measureLabelledRecall(searcher, index, live.live, labelled, log).rows);
  else row("labelled set", "left out: it names items of the 100 000-entity corpus");
  rows.push(...live.rows);

  log("server start…");
  const ready = await measureServerReady(
    options.workDir ?? ".bench/search",
    { global: json, globalGrams: serializeGlobalGrams(buildGlobalGrams(index)), liveHeader: live.serialized.json, liveBinary: live.serialized.binary },
    timing,
  );
  row("server: search indexes load (from files)", ms(ready.loadMs), "", "", "");
  row("server: ready (spawn → both search routes answer)", ms(ready.readyMs), `${ms(ready.baselineMs)} with a 2 000-username build`, "", "≤ 3 s");
  row("server: resident memory when ready", `${fmt(ready.rssBytes / 2 ** 20, 0)} MiB`);
  ready.http.forEach((load, i) => {
    const clients = HTTP_CLIENTS[i]!;
    const failures = load.failures > 0 ? ` (${load.failures} failed)` : "";
    row(`server: global search over HTTP, wrk, ${clients} connection${clients > 1 ? "s" : ""}, p50 / p99${failures}`, `${ms(load.p50Ms)} / ${ms(load.p99Ms)}`, `${fmt(load.perSecond, 0)} req/s`, "", "p99 ≤ 5 ms");
  });
  const viaFetch = ready.fetchClients;
  row(
    `  4 clients in the benchmark's own process over Node's fetch (${viaFetch.requests} requests${viaFetch.failures > 0 ? `, ${viaFetch.failures} not 200` : ""})`,
    `${ms(viaFetch.p50Ms)} / ${ms(viaFetch.p99Ms)}`,
    `${fmt(viaFetch.perSecond, 0)} req/s`,
  );
  row("machine: load average (1 min) at end", fmt(loadavg()[0]!, 2));
  const stealEnd = readCpuSteal();
  if (steal && stealEnd) row("machine: CPU time stolen by the host during the run", `${fmt((100 * (stealEnd.steal - steal.steal)) / Math.max(1, stealEnd.total - steal.total), 0)}%`);
  return rows;
}

/** A fixed loop, so that readers can scale the timings to their machine. */
function measureCalibration(): number {
  const values = new Float64Array(10_000_000).fill(1.5);
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[i]!;
    best = Math.min(best, performance.now() - start + (sum < 0 ? 1 : 0));
  }
  return best;
}

/** Linux /proc/stat "steal" jiffies, where available: a VM's vCPU taken by its host. */
function readCpuSteal(): { steal: number; total: number } | undefined {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    return { steal: fields[7] ?? 0, total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

function measureLoad(json: string, live: LiveIndex): { searcher: GlobalSearcher; parseMs: number; totalMs: number } {
  const start = performance.now();
  const parsed = JSON.parse(json) as GlobalSearchIndex;
  const parseMs = performance.now() - start;
  const searcher = createGlobalSearcher(parsed, { usernames: live });
  return { searcher, parseMs, totalMs: performance.now() - start };
}

/** Exact titles and 3–5 letter prefixes: the cheap end of real traffic, for honest percentiles. */
function createEasyQueries(entities: readonly { title: string }[], count: number): string[] {
  const random = createRandom(11);
  return Array.from({ length: count }, (_, i) => {
    const title = entities[random.int(entities.length)]!.title;
    return i % 2 === 0 ? title : title.slice(0, 3 + random.int(3));
  });
}

function pickSample(queries: readonly BenchQuery[], perKind: number): BenchQuery[] {
  return QUERY_KINDS.flatMap((kind) => queries.filter((q) => q.kind === kind).slice(0, perKind));
}

function timeOne(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

interface Group {
  type: string;
  items: { url: string }[];
}

function countHits(queries: readonly BenchQuery[], search: (q: BenchQuery) => Group[]) {
  const byKind = new Map<string, { hit: number; of: number }>();
  const total = { hit: 0, of: 0 };
  for (const q of queries) {
    const hit = search(q).find((g) => g.type === q.type)?.items.slice(0, 5).some((i) => i.url === q.url) ?? false;
    const counts = byKind.get(q.kind) ?? { hit: 0, of: 0 };
    byKind.set(q.kind, counts);
    for (const c of [counts, total]) {
      c.of++;
      if (hit) c.hit++;
    }
  }
  return { byKind, total };
}

/**
 * Plain fuse.js over every document, given the same query variants as the searcher scores
 * fuzzily; a document's score is its best over the variants, groups are cut at 5 like ours.
 */
function createPlainFuse(index: GlobalSearchIndex) {
  const docs: FuseDocument[] = index.titles.map((_, d) => {
    const texts = index.texts.slice(index.textStarts[d], index.textStarts[d + 1]);
    return { t: texts[0] ?? "", a: texts.slice(1), d };
  });
  const fuse = new Fuse(docs, GLOBAL_FUSE_OPTIONS);
  const typeOf = (d: number) => index.types[index.typeStarts.findLastIndex((start) => start <= d)]!;
  const rank = (best: Map<number, number>): Group[] => {
    const ranked = [...best].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    return index.types.map((type) => ({ type, items: ranked.filter(([d]) => typeOf(d) === type).slice(0, 5).map(([d]) => ({ url: index.urls[d]! })) }));
  };
  return {
    /** `seed`: the scores of variants[0] from an earlier call, so it is not searched twice. */
    search(variants: string[], seed?: Map<number, number>): { groups: Group[]; results: Map<number, number> } {
      const best = new Map(seed);
      for (const variant of seed === undefined ? variants : variants.slice(1)) {
        for (const result of fuse.search(variant)) {
          const score = result.score ?? 1;
          if (!(best.get(result.item.d)! <= score)) best.set(result.item.d, score);
        }
      }
      return { groups: rank(best), results: best };
    },
  };
}

/** How many of plain fuse.js's top 5 per group the searcher's fuse-score order also has. */
function measureAgreement(plain: { q: BenchQuery; groups: Group[] }[], searcher: GlobalSearcher) {
  let shared = 0;
  let total = 0;
  let top1 = 0;
  for (const { q, groups } of plain) {
    const ours = searcher.search(q.query, { rankBy: "fuse-score" });
    for (const group of groups) {
      const mine = new Set(ours.find((g) => g.type === group.type)?.items.slice(0, 5).map((i) => i.url));
      total += group.items.length;
      shared += group.items.filter((i) => mine.has(i.url)).length;
      if (group.type === q.type && group.items[0]?.url === ours.find((g) => g.type === q.type)?.items[0]?.url) top1++;
    }
  }
  return { mean: total === 0 ? 1 : shared / total, top1 };
}

function formatSearchBenchTable(rows: readonly SearchBenchRow[]): string {
  const headers: (keyof SearchBenchRow)[] = ["metric", "value", "baseline", "ratio", "target"];
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => r[h].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(headers), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map((r) => line(headers.map((h) => r[h])))].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes("--quick");
  const full = process.argv.includes("--full");
  runSearchBench(quick ? { entities: 20_000, usernames: 100_000, queriesPerKind: 30, fuseQueriesPerKind: 2 } : full ? { fuseQueriesPerKind: 10 } : {})
    .then((rows) => console.log(formatSearchBenchTable(rows)))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
