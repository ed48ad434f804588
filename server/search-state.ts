/**
 * The search side of a loaded build: the global searcher over dist/search/global.json and the
 * live index over dist/search/live.json + live.bin (build/emitters/search.ts). Both belong to
 * one build, loaded with it (server/dist-source.ts), so a newly published build answers from its
 * own indexes and never from the previous build's.
 *
 * Loading is the only whole-corpus work: the global searcher reads its n-gram postings as the
 * build wrote them (search/global.bin; derived from the texts for an older build), the live index
 * maps its raw arrays back as they are, and global search's username group searches those same
 * arrays. Requests then only look up.
 *
 * The indexes load after the rest of the build (loadLazySearch): at a million usernames they are
 * most of what loading a build costs (~150 ms of ~170), and only the two search routes need them;
 * those wait for them, every other answer does not.
 *
 * The usernames' postings are the one part not read at load: at a million usernames they are
 * 90 MB of the 137 MB of live.bin, and a search reads a few of their lists, from the file as
 * searches need them (server/span-file.ts).
 */
import { readFile } from "node:fs/promises";
import { SEARCH_INDEX_FILES } from "../core/routes/table.ts";
import { resolve } from "node:path";
import { loadGlobalGrams } from "../core/search/global-grams.ts";
import { GLOBAL_SEARCH_INDEX_FORMAT, type GlobalSearchIndex } from "../core/search/global-index.ts";
import { createGlobalSearcher, type GlobalSearcher } from "../core/search/global-searcher.ts";
import type { LiveIndex } from "../core/search/live-index.ts";
import { loadLiveIndex } from "../core/search/live-index-format.ts";
import { openSpanFile } from "./span-file.ts";

/** Where the build writes the indexes (the route table's support files). */
export const SEARCH_INDEX_PATHS = SEARCH_INDEX_FILES;

export interface SearchState {
  global: GlobalSearcher;
  live: LiveIndex;
  /** The build's as_of in milliseconds: "now" for relative times such as a company's `last`. */
  asOfMs: number;
}

/** A build's search indexes, loading or loaded. */
export interface LazySearch {
  /** The indexes once loaded (null: the build has none); undefined while they load. */
  now: SearchState | null | undefined;
  /** Settles when they are loaded; a failure to load them is the routes' 500 (and logged once). */
  ready: Promise<SearchState | null>;
}

/**
 * Starts loading a build's search indexes on the next turn of the event loop, after what the
 * build's first answers need.
 */
export function loadLazySearch(root: string, asOf: string): LazySearch {
  const lazy: LazySearch = {
    now: undefined,
    ready: new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => loadSearchState(root, asOf))
      .then((state) => (lazy.now = state)),
  };
  lazy.ready.catch((error: unknown) => process.emitWarning(`the build's search indexes could not be loaded: ${String(error)}`));
  return lazy;
}

/** The build's search indexes, or null for a build made before they existed (the routes then answer 503). */
export async function loadSearchState(root: string, asOf: string): Promise<SearchState | null> {
  const read = (path: string) => readFile(resolve(root, path));
  let global: Buffer;
  let live: LiveIndex;
  try {
    [global, live] = await Promise.all([read(SEARCH_INDEX_PATHS.global), loadLiveIndexFiles(root)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const asOfMs = Date.parse(asOf);
  if (!Number.isFinite(asOfMs)) throw new Error(`build-report.json as_of is not an instant: ${JSON.stringify(asOf)}`);
  const globalIndex = JSON.parse(global.toString("utf8")) as GlobalSearchIndex;
  if (globalIndex.format !== GLOBAL_SEARCH_INDEX_FORMAT) throw new Error(`${SEARCH_INDEX_PATHS.global}: unknown format ${JSON.stringify(globalIndex.format)}`);
  // The postings as the build wrote them; derived from the texts for a build made before it did.
  const gramFile = await read(SEARCH_INDEX_PATHS.globalGrams).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  const grams = gramFile && loadGlobalGrams(gramFile, globalIndex);
  // Global search's username group reads the live index's arrays: one copy of every username.
  return { global: createGlobalSearcher(globalIndex, { usernames: live, grams: grams ?? undefined }), live, asOfMs };
}

/** The build's live index (live.json, live.bin): its postings of usernames read from the file as searches need them. */
export async function loadLiveIndexFiles(root: string): Promise<LiveIndex> {
  const header = await readFile(resolve(root, SEARCH_INDEX_PATHS.liveHeader), "utf8");
  return loadLiveIndex({ json: header, ...openSpanFile(resolve(root, SEARCH_INDEX_PATHS.liveBinary)) });
}
