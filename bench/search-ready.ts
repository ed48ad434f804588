/**
 * Server start with the search indexes at benchmark scale: how long `npm run serve` takes, in a
 * fresh process, from spawn to answering both search routes, and how long loading the indexes
 * alone takes (server/search-state.ts, the server's own loader, reading files from disk).
 *
 * The dist is a real build of a small sample whose search/ files are then replaced with the
 * benchmark's (100 000 entities, 1 000 000 usernames), written exactly as the search emitter
 * writes them; the same server on the small build, indexes untouched, is the baseline.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildDist } from "../build/build.ts";
import { DEFAULT_AS_OF, generateSample } from "../data/sample/generate.ts";
import { loadSearchState, SEARCH_INDEX_PATHS } from "../server/search-state.ts";
import { readRssBytes, startServeProcess } from "../test/helpers/serve-process.ts";


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
}

export async function measureServerReady(workDir: string, files: SearchIndexFiles): Promise<ReadyFigures> {
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
  const ready = await timeServerStart(dist);
  // ~150 MB of indexes at full scale: nothing here is worth keeping between runs.
  rmSync(workDir, { recursive: true, force: true });
  return { baselineMs: baseline.ms, readyMs: ready.ms, loadMs, rssBytes: ready.rssBytes };
}

/** Starts `cli/serve.ts` on a free port and polls both search routes until they answer 200. */
async function timeServerStart(dist: string): Promise<{ ms: number; rssBytes: number }> {
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
    return { ms, rssBytes: readRssBytes(child.pid!) };
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
}

