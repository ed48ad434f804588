/**
 * The server's only input: a built dist. It keeps in memory what the dynamic routes need (the
 * ranked company list with its lookups, the spammer top lists) and reads everything else from
 * files. `dist` is normally a link that each build swaps atomically; the source notices the swap
 * and moves to the new build without a restart. Requests wait for the new build's lists rather
 * than mix two builds, and the previous build stays on disk for requests already under way.
 */
import { lstatSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { CATEGORIES, type Category } from "../core/categories.ts";
import { indexCompanies } from "../core/lookup.ts";
import { FINGERPRINT_INDEX_FILE, SPAMMER_RANKING_FILE, getRoute } from "../core/routes/table.ts";
import { openSpammerRanking, type SpammerRanking } from "../core/spammer-ranking.ts";
import { fillTemplate } from "../core/routes/templates.ts";
import type { SpammerItem } from "../core/spammer-item.ts";
import { createUrls, type Urls } from "../core/urls.ts";
import type { FingerprintIndex } from "../core/fingerprint/index.ts";
import { FileStore, type FileStoreOptions } from "./file-store.ts";
import { GenerationCache } from "./generation-cache.ts";
import type { PreparedAnswer } from "./respond.ts";
import { createKnownAnswers, type KnownAnswer } from "./known-answers.ts";
import type { FileAnswer } from "./send-file.ts";
import { createFingerprintMatching, type FingerprintMatching, type MatchCache } from "./fingerprint-matching.ts";
import { loadLazySearch, type LazySearch } from "./search-state.ts";
import { openSpanFile } from "./span-file.ts";

export interface CompanyItem {
  id: number;
  name: string;
  slug: string;
  reports_count: number;
  url: string;
}

export interface SpammerList {
  data: SpammerItem[];
  total: number;
}

export interface BuildState {
  /** Real path of the build folder this state was loaded from. */
  root: string;
  asOf: string;
  urls: Urls;
  companies: CompanyItem[];
  /** Lower-cased slug → position in `companies`. */
  companyBySlug: Map<string, number>;
  /** Lower-cased name → position of the best-ranked company of that name. */
  companyByName: Map<string, number>;
  spammers: SpammerList;
  spammersByCategory: Map<Category, SpammerList>;
  /** The matcher and answer cache of this build; null for a build made before the fingerprint index existed. */
  fingerprint: FingerprintMatching | null;
  /**
   * The search indexes of this build (null for a build made before they existed), loaded after
   * the rest: no other answer waits for them (server/search-state.ts).
   */
  search: LazySearch;
  /** The spammer lists' order, read by spans (pages beyond the tops); null for a build made before it existed. */
  ranking: SpammerRanking | null;
  /** The build's files as the file routes answer them (held in memory within a budget, or streamed). */
  files: FileStore;
  /** `as_of` as an HTTP date: every file's `Last-Modified`. */
  lastModified: string;
  /** Computed answers that are the same until the next build (list pages), bounded in bytes. */
  answers: GenerationCache<PreparedAnswer>;
  /** Where each URL's answer lives, once it was answered (server/known-answers.ts). */
  known: GenerationCache<KnownAnswer>;
  /** The answer objects of the file routes, one per route and status (server/files.ts). */
  fileAnswers: Map<string, FileAnswer>;
}

/** Bytes of computed list pages a build keeps (a page of 200 items is about 40 KB). */
const ANSWER_CACHE_BYTES = 16 << 20;

/** How often, at most, a request checks whether `dist` points at a new build. */
const RECHECK_MS = 250;

/** What the server says when it starts serving a build (docs/operators.md "Commands": it logs each build it loads). */
export interface LoadedBuild {
  /** The build folder's name: a hash of the build's manifest. */
  id: string;
  asOf: string;
  counts: { usernames: number; companies: number; people: number; reports_read: number };
}

export interface BuildStateOptions {
  /** Told of every build once it is loaded and about to be served: the first, and each newly published one. */
  onLoaded?: (build: LoadedBuild) => void;
  /**
   * The fingerprint answer cache of a build, given the build's id (its folder's name: the build
   * names it by its manifest's hash). Default: a new cache in this server's memory.
   */
  createMatchCache?: (buildId: string) => MatchCache;
  /** How much of each build's files the server holds in memory. Default DEFAULT_FILE_STORE. */
  fileStore?: FileStoreOptions;
}

export class DistSource {
  private readonly path: string;
  private link: string | null = null;
  private state!: Promise<BuildState>;
  /** The state `state` resolved to, once it has; null while a build loads. */
  private loaded: BuildState | null = null;
  private checkedAt = 0;
  private readonly options: BuildStateOptions;

  constructor(distPath: string, options: BuildStateOptions = {}) {
    this.path = resolve(distPath);
    this.options = options;
    this.link = this.readLink();
    this.setState(this.load());
    // Surface a broken dist at start-up rather than on the first request.
    this.state.catch(() => {});
  }

  /** The current build's state; switches to a newly published build first if there is one. */
  current(): Promise<BuildState> {
    this.checkLink();
    return this.state;
  }

  /**
   * The current build's state when it is loaded, without a promise (the hot path); null while a
   * build is loading, when current() must be awaited.
   */
  currentNow(): BuildState | null {
    this.checkLink();
    return this.loaded;
  }

  private checkLink(): void {
    const now = performance.now();
    if (now - this.checkedAt < RECHECK_MS) return;
    this.checkedAt = now;
    const link = this.readLink();
    if (link === this.link) return;
    this.link = link;
    const previous = this.state;
    // A half-published or broken build must not take the server down: keep the old one. The
    // old build answers until the new one's search indexes are loaded too.
    this.setState(
      this.load()
        .then(async (state) => (await state.search.ready, state))
        .catch((error) => {
          process.emitWarning(`dist changed but the new build could not be loaded: ${String(error)}`);
          return previous;
        }),
    );
  }

  private setState(state: Promise<BuildState>): void {
    this.state = state;
    this.loaded = null;
    state.then(
      (loaded) => {
        if (this.state === state) this.loaded = loaded;
      },
      () => {},
    );
  }

  private load(): Promise<BuildState> {
    return loadBuildState(this.resolveRoot(), this.options);
  }

  private readLink(): string | null {
    try {
      return lstatSync(this.path).isSymbolicLink() ? readlinkSync(this.path) : null;
    } catch {
      return null;
    }
  }

  private resolveRoot(): string {
    try {
      return this.link === null ? realpathSync(this.path) : realpathSync(resolve(dirname(this.path), this.link));
    } catch (error) {
      throw new Error(`no built dist at ${this.path} (run \`npm run build\` first)`, { cause: error });
    }
  }
}

export async function loadBuildState(root: string, options: BuildStateOptions = {}): Promise<BuildState> {
  const read = async <T>(path: string): Promise<T> => JSON.parse(await readFile(resolve(root, path), "utf8")) as T;
  const report = await read<{ as_of: string; base_url: string; counts: LoadedBuild["counts"] }>("build-report.json");
  const [all, top, ...perCategory] = await Promise.all([
    read<{ data: CompanyItem[] }>(getRoute("getCompanyListAll").file!),
    read<SpammerList>(getRoute("getSpammerTop").file!),
    ...CATEGORIES.map((category) => read<SpammerList>(fillTemplate(getRoute("getSpammerCategoryTop").file!, { category }))),
  ]);
  const fingerprintIndex = await read<FingerprintIndex>(FINGERPRINT_INDEX_FILE).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  const search = loadLazySearch(root, report.as_of);
  const ranking = openRanking(resolve(root, SPAMMER_RANKING_FILE));
  const companies = all!.data as CompanyItem[];
  const { bySlug: companyBySlug, byName: companyByName } = indexCompanies(companies);
  options.onLoaded?.({ id: basename(root), asOf: report.as_of, counts: report.counts });
  return {
    root,
    asOf: report.as_of,
    urls: createUrls(report.base_url),
    companies,
    companyBySlug,
    companyByName,
    spammers: top as SpammerList,
    spammersByCategory: new Map(CATEGORIES.map((c, i) => [c, perCategory[i] as SpammerList])),
    fingerprint: fingerprintIndex && createFingerprintMatching(fingerprintIndex, { cache: options.createMatchCache?.(basename(root)) }),
    search,
    ranking,
    files: new FileStore(root, options.fileStore),
    lastModified: new Date(report.as_of).toUTCString(),
    answers: new GenerationCache<PreparedAnswer>({ maxSize: ANSWER_CACHE_BYTES, sizeOf: (a) => a.body.byteLength + 512 }),
    known: createKnownAnswers(),
    fileAnswers: new Map(),
  };
}

/** The build's spammer ranking, or null for a build made before the file existed (its pages beyond the tops are then a 503). */
function openRanking(path: string): SpammerRanking | null {
  try {
    return openSpammerRanking(openSpanFile(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Synchronous existence check used by tests and the CLI before listening. */
export function assertDist(distPath: string): void {
  readFileSync(resolve(distPath, "build-report.json"));
}
