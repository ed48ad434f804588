/**
 * POST /api/fingerprint/match over HTTP: requests per second with concurrent keep-alive clients,
 * for answers from the cache, fresh matches, and a mix, beside two GETs on the same server in
 * the same run (a static file, and a computed JSON answer) as the baseline.
 *
 * The dist is built from the test fixture plus the shipped profile library; the server runs in
 * a child process (as in production, and so that the load generator does not share its event
 * loop), with the rate limit off. Before timing, every kind of request must get the right answer.
 * Run: npx tsx bench/fingerprint-http.ts [--concurrency N] [--seconds S] [--rounds R]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath, pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { buildDist } from "../build/build.ts";
import { isPublicProfile } from "../core/fingerprint/index.ts";
import { importFingerprintLibrary } from "../data/fingerprints/import.ts";
import { readFingerprintLibrary } from "../data/fingerprints/library.ts";
import { getSignalSetKey } from "../server/fingerprint-matching.ts";
import { startServer } from "../server/listen.ts";
import { BASE_URL, createSnapshot, makeTempDir } from "../test/helpers/fixture.ts";
import { runLoad, summarizeLoad, type LoadOptions, type LoadResult, type SendRequest } from "./http-load.ts";

export interface FingerprintHttpRow {
  scenario: string;
  concurrency: number;
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** perSecond over the static-file GET's. */
  vsStatic: number;
}

const MATCH = "/api/fingerprint/match";
const JSON_POST = { method: "POST", headers: { "content-type": "application/json" } } as const;

/**
 * The distinct signal sets of the public library profiles (some profiles share one, e.g. Chrome
 * and Edge on the same machine): each must match a profile that fits it perfectly (fit 1; how
 * confident that is depends on the profiles of other kinds near it).
 */
export function createBenchSignals(): Record<string, string>[] {
  const sets = new Map<string, Record<string, string>>();
  for (const { signals } of readFingerprintLibrary().profiles.filter(isPublicProfile)) {
    sets.set(getSignalSetKey(Object.entries(signals)), signals);
  }
  return [...sets.values()];
}

/** Builds the benchmark's dist (fixture + shipped library) in a temporary folder. */
export function buildBenchDist(): { dist: string; cleanup(): void } {
  const dir = makeTempDir("fp-http-bench");
  const path = createSnapshot(dir);
  const db = new Database(path);
  importFingerprintLibrary(db);
  db.close();
  const dist = join(dir, "dist");
  buildDist({ db: path, out: dist, baseUrl: BASE_URL, progress: null });
  return { dist, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Throws unless each kind of benchmark request gets the answer the benchmark assumes. */
export async function verifyBenchAnswers(baseUrl: string): Promise<void> {
  const post = async (signals: Record<string, string>) => {
    const res = await fetch(new URL(MATCH, baseUrl), { ...JSON_POST, body: JSON.stringify({ signals }) });
    if (res.status !== 200) throw new Error(`fingerprint bench: POST answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { match: { basis: { fit: number }; ignored_signals: string[] }; cached: boolean };
  };
  for (const signals of createBenchSignals()) {
    const first = await post(signals);
    const again = await post(signals);
    if (first.match.basis.fit !== 1 || first.cached || !again.cached) {
      throw new Error(`fingerprint bench: unexpected answer for ${JSON.stringify(signals)}: ${JSON.stringify([first, again.cached])}`);
    }
  }
  const fresh = await post({ ...createBenchSignals()[0]!, bench_nonce: "verify" });
  if (fresh.cached || fresh.match.basis.fit !== 1 || fresh.match.ignored_signals.join() !== "bench_nonce") {
    throw new Error(`fingerprint bench: a fresh request was not matched afresh: ${JSON.stringify(fresh)}`);
  }
  for (const path of ["/api/companies/all.json", "/api/companies?limit=5"]) {
    const res = await fetch(new URL(path, baseUrl));
    if (res.status !== 200) throw new Error(`fingerprint bench: GET ${path} answered ${res.status}`);
    await res.arrayBuffer();
  }
}

export interface FingerprintHttpBenchOptions extends LoadOptions {
  /**
   * Each scenario runs in this many slices, the scenarios taking turns, so that a machine whose
   * load changes during the run (other processes) slows every scenario alike.
   */
  rounds: number;
}

export async function runFingerprintHttpBench(options: Partial<FingerprintHttpBenchOptions> = {}): Promise<FingerprintHttpRow[]> {
  const { rounds, ...load }: FingerprintHttpBenchOptions = { concurrency: 16, seconds: 4, maxRequests: 1_000_000, warmupSeconds: 0.5, rounds: 4, ...options };
  const built = buildBenchDist();
  const server = await startServerProcess(built.dist);
  try {
    await verifyBenchAnswers(server.url);
    const bodies = createBenchSignals().map((signals) => JSON.stringify({ signals }));
    // A fresh signal set per request: an unknown key with a new value misses the cache and is ignored by the matcher.
    const fresh = (tag: string, i: number) => `${bodies[Math.abs(i) % bodies.length]!.slice(0, -2)},"bench_nonce":"${tag}${i}"}}`;
    const post = (body: string) => fetch(new URL(MATCH, server.url), { ...JSON_POST, body });
    const scenarios: [string, SendRequest][] = [
      ["GET static file /api/companies/all.json (baseline)", () => fetch(new URL("/api/companies/all.json", server.url))],
      ["GET computed /api/companies?limit=5", () => fetch(new URL("/api/companies?limit=5", server.url))],
      [`POST match, all cached (${bodies.length} signal sets)`, (i) => post(bodies[Math.abs(i) % bodies.length]!)],
      ["POST match, 80% cached / 20% new", (i) => post(i % 5 === 0 ? fresh("mix", i) : bodies[Math.abs(i) % bodies.length]!)],
      ["POST match, all new (uncached)", (i) => post(fresh("new", i))],
    ];
    const results: LoadResult[][] = scenarios.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (const [s, [, send]] of scenarios.entries()) {
        // Request numbers go on across rounds, so "new" signal sets stay new.
        const first = results[s]!.reduce((n, r) => n + r.requests, 0) + round * 1_000_000;
        const slice = { ...load, seconds: load.seconds / rounds, warmupSeconds: round === 0 ? load.warmupSeconds : 0 };
        results[s]!.push(await runLoad(send, 200, slice, first));
      }
    }
    const rows = scenarios.map(([scenario], s): FingerprintHttpRow => {
      const summary = summarizeLoad(results[s]!);
      if (summary.failures > 0) throw new Error(`fingerprint bench: ${summary.failures} failed requests in "${scenario}"`);
      return { scenario, concurrency: load.concurrency, requests: summary.requests, perSecond: summary.perSecond, p50Ms: summary.p50Ms, p99Ms: summary.p99Ms, vsStatic: 0 };
    });
    for (const row of rows) row.vsStatic = row.perSecond / rows[0]!.perSecond;
    return rows;
  } finally {
    server.stop();
    built.cleanup();
  }
}

function formatFingerprintHttpTable(rows: readonly FingerprintHttpRow[]): string {
  const header = ["scenario", "clients", "requests", "req/s", "p50 ms", "p99 ms", "× static GET"];
  const lines = rows.map((r) => [
    r.scenario, String(r.concurrency), String(r.requests), r.perSecond.toFixed(0), r.p50Ms.toFixed(2), r.p99Ms.toFixed(2), r.vsStatic.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [format(header), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(format)].join("\n");
}

/** The server in its own process: this file with --serve, started through tsx like `npm run serve`. */
async function startServerProcess(dist: string): Promise<{ url: string; stop(): void }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--serve", dist], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const found = /listening (\S+)/.exec(output);
      if (found) resolve(found[1]!);
    });
    child.once("exit", (code) => reject(new Error(`fingerprint bench: server exited with ${code}: ${output}`)));
  });
  return { url, stop: () => void child.kill("SIGTERM") };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { serve: { type: "string" }, concurrency: { type: "string" }, seconds: { type: "string" }, rounds: { type: "string" } } });
  if (values.serve) {
    const server = await startServer({ dist: values.serve, port: 0, host: "127.0.0.1", fingerprintRateLimit: 0 });
    console.log(`listening ${server.url}`);
    // Exit normally on SIGTERM, so that a profile (node --cpu-prof) is written.
    process.once("SIGTERM", () => void server.close().finally(() => process.exit(0)));
    return;
  }
  const rows = await runFingerprintHttpBench({
    ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}),
    ...(values.seconds ? { seconds: Number(values.seconds) } : {}),
    ...(values.rounds ? { rounds: Number(values.rounds) } : {}),
  });
  console.log(formatFingerprintHttpTable(rows));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
