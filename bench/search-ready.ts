/**
 * Server start with the search indexes at benchmark scale: how long `npm run serve` takes, in a
 * fresh process, from spawn to answering both search routes, and how long loading the indexes
 * alone takes (server/search-state.ts, the server's own loader, reading files from disk).
 *
 * The dist is a real build of a small sample whose search/ files are then replaced with the
 * benchmark's (100 000 entities, 1 000 000 usernames), written exactly as the search emitter
 * writes them; the same server on the small build, indexes untouched, is the baseline.
 *
 * Once that server is ready, global search is timed over HTTP as clients see it: wrk (Debian's
 * `wrk`, a C load generator, as the serve benchmark uses) on 1, 2 and 4 keep-alive connections
 * (HTTP_CLIENTS), each request a query of the bench's mix at random, after a second's warm-up;
 * the server pinned to one core and wrk to the other, as the serve benchmark pins them. The
 * server answers on one thread: with c connections a request waits for up to c - 1 others.
 * Beside them, the 4 clients once more from this process over Node's fetch, as this benchmark
 * measured before: a Node client's own event loop is then most of what the p99 shows.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { buildDist } from "../build/build.ts";
import { DEFAULT_AS_OF, generateSample } from "../data/sample/generate.ts";
import { loadSearchState, SEARCH_INDEX_PATHS } from "../server/search-state.ts";
import { readRssBytes, startServeProcess } from "../test/helpers/serve-process.ts";
import { runLoad, summarizeLoad } from "./http-load.ts";
import type { LoadSummary } from "./http-load.ts";
import { pinProcess, runWrk, writePathsScript, type WrkFigures } from "./serve-load.ts";

/** Concurrent connections of each HTTP run. */
export const HTTP_CLIENTS = [1, 2, 4] as const;
const HTTP_SECONDS = 8;
const HTTP_WARMUP_SECONDS = 2;
/** The server on the first core, wrk on the second (when there are two), as in the serve benchmark. */
const PIN = availableParallelism() >= 2 && spawnSync("taskset", ["-V"]).status === 0;


export interface SearchIndexFiles {
  global: string;
  /** The global index's n-gram postings, as the search emitter writes them beside it. */
  globalGrams: Uint8Array;
  liveHeader: string;
  liveBinary: Uint8Array;
}

export interface ReadyFigures {
  /** Spawn → both search routes answered, small build (indexes of a 2 000-username sample). */
  baselineMs: number;
  /** The same with the benchmark's indexes. */
  readyMs: number;
  /** loadSearchState on the benchmark's index files, in this process. */
  loadMs: number;
  /** Server RSS once ready, with the benchmark's indexes. */
  rssBytes: number;
  /** GET /api/search/global over HTTP on that server, from wrk, one run per HTTP_CLIENTS entry. */
  http: WrkFigures[];
  /** The same at 4 clients from this process over Node's fetch. */
  fetchClients: LoadSummary;
}

/** `queries`: what the HTTP runs ask global search, in turn. */
export async function measureServerReady(workDir: string, files: SearchIndexFiles, queries: readonly string[]): Promise<ReadyFigures> {
  if (spawnSync("wrk", ["-v"]).error) throw new Error("the search benchmark needs wrk (Debian: apt-get install wrk)");
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const db = join(workDir, "small.sqlite");
  generateSample({ scale: 2000, seed: "1", out: db, asOf: DEFAULT_AS_OF });
  const dist = join(workDir, "dist");
  const { buildDir } = buildDist({ db, out: dist, baseUrl: "http://127.0.0.1", progress: null });
  const baseline = await timeServerStart(dist);
  writeFileSync(join(buildDir, SEARCH_INDEX_PATHS.global), files.global);
  writeFileSync(join(buildDir, SEARCH_INDEX_PATHS.globalGrams), files.globalGrams);
  writeFileSync(join(buildDir, SEARCH_INDEX_PATHS.liveHeader), files.liveHeader);
  writeFileSync(join(buildDir, SEARCH_INDEX_PATHS.liveBinary), files.liveBinary);
  const started = performance.now();
  await loadSearchState(buildDir, DEFAULT_AS_OF);
  const loadMs = performance.now() - started;
  let http: Pick<ReadyFigures, "http" | "fetchClients"> | undefined;
  const ready = await timeServerStart(dist, async (url, pid) => {
    http = await measureGlobalSearchHttp(url, pid, queries, join(workDir, "queries.lua"));
  });
  // ~150 MB of indexes at full scale: nothing here is worth keeping between runs.
  rmSync(workDir, { recursive: true, force: true });
  return { baselineMs: baseline.ms, readyMs: ready.ms, loadMs, rssBytes: ready.rssBytes, ...http! };
}

async function measureGlobalSearchHttp(url: string, pid: number, queries: readonly string[], scriptFile: string): Promise<Pick<ReadyFigures, "http" | "fetchClients">> {
  const paths = queries.map((q) => `/api/search/global?q=${encodeURIComponent(q)}`);
  if (PIN) pinProcess(pid, 0);
  const script = writePathsScript(scriptFile, paths);
  const http: WrkFigures[] = [];
  for (const connections of HTTP_CLIENTS) http.push(await runWrk(url, { seconds: HTTP_SECONDS, connections, pin: PIN ? 1 : null, script }));
  const urls = paths.map((path) => new URL(path, url));
  const send = (i: number) => fetch(urls[Math.abs(i) % urls.length]!);
  const fetchClients = summarizeLoad([await runLoad(send, 200, { concurrency: 4, seconds: HTTP_SECONDS, maxRequests: 1_000_000, warmupSeconds: HTTP_WARMUP_SECONDS })]);
  return { http, fetchClients };
}

/**
 * Starts `cli/serve.ts` on a free port and polls both search routes until they answer 200; then
 * runs `whileUp` on it (its URL and process id), if given, before stopping it.
 */
async function timeServerStart(dist: string, whileUp?: (url: string, pid: number) => Promise<void>): Promise<{ ms: number; rssBytes: number }> {
  const started = performance.now();
  const { child, url } = await startServeProcess(dist);
  try {
    for (const path of ["api/search?q=crypto", "api/search/global?q=crypto"]) {
      for (;;) {
        const res = await fetch(new URL(path, url));
        await res.arrayBuffer();
        if (res.status === 200) break;
        if (res.status !== 503 || performance.now() - started > 60_000) throw new Error(`${path}: ${res.status}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    const ms = performance.now() - started;
    const rssBytes = readRssBytes(child.pid!);
    await whileUp?.(url, child.pid!);
    return { ms, rssBytes };
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
}

