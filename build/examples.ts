/**
 * Real answers of this build for the docs and the OpenAPI document. Each route's example request
 * (the table's `example`, filled with keys of this build) is answered the way the live server
 * answers it: a file route by the very bytes written for it (kept as they pass to the writer; a
 * Set lookup per file), a computed route by the same core code the server runs, over the
 * indexes this build wrote. The keys (which username, which company) come from the model.
 */
import { formatBulkCheck, listBulkUsernames, readBulkCheckRequest, type BulkItem } from "../core/bulk-check.ts";
import { createMatcher } from "../core/fingerprint/matcher.ts";
import type { FingerprintIndex } from "../core/fingerprint/fingerprint-index.ts";
import { formatIsoWeek, getIsoWeek } from "../core/iso-week.ts";
import { answerGlobalSearch, answerLiveSearch } from "../core/search/answers.ts";
import { createGlobalSearcher } from "../core/search/global-searcher.ts";
import type { GlobalSearchIndex } from "../core/search/global-index.ts";
import { loadLiveIndex, toLiveIndexSource, type LiveIndexSections } from "../core/search/live-index-format.ts";
import type { RouteExample } from "../core/routes/openapi.ts";
import { FINGERPRINT_INDEX_FILE, ROUTES, SEARCH_INDEX_FILES, type RouteId } from "../core/routes/table.ts";
import { getRouteFile } from "../core/routes/match.ts";
import { fillTemplate } from "../core/routes/templates.ts";
import { MEDIA_TYPES, type ExampleKeys, type ExampleRequest, type Route } from "../core/routes/types.ts";
import type { Urls } from "../core/urls.ts";
import type { Model } from "./model/types.ts";
import { UNCHANGED, type OutputFile } from "./writer/index.ts";

/** Text examples (HTML, SVG, CSV, feeds) are shown cut to this many characters. */
const TEXT_EXAMPLE_CHARS = 1600;
/** Arrays longer than LONG_ARRAY items (lists, manifests) are shown with their first SHOWN_ITEMS. */
const LONG_ARRAY = 10;
const SHOWN_ITEMS = 3;

export class ExampleCollector {
  private readonly keys: ExampleKeys;
  /** The files the examples show (and the indexes computed routes are answered from), by path. */
  private readonly wanted: Set<string>;
  private readonly kept = new Map<string, string | Uint8Array>();
  /** The live index's binary part as the sections it was written from (never one buffer: see build/emitters/search.ts). */
  private liveSections: LiveIndexSections["sections"] | undefined;
  private readonly sizes = new Map<string, number>();

  /** The keys of this build (the first username, the best-ranked company, …) and so the files to keep. */
  constructor(model: Model) {
    const company = model.ranked[0] ?? null;
    const content = model.content;
    this.keys = {
      username: model.spammers.size > 0 ? model.spammers.username(0) : null,
      companySlug: company?.slug ?? null,
      companyName: company?.name ?? null,
      chatUsername: content.chats[0]?.username ?? null,
      personSlug: model.people[0]?.slug ?? null,
      glossarySlug: content.glossary[0]?.slug ?? null,
      videoSlug: content.videos[0]?.slug ?? null,
      videoChannelSlug: content.videoChannels[0]?.slug ?? null,
      chatChannelUsername: content.chatChannels[0]?.username ?? null,
      blogSlug: content.blogPosts[0]?.slug ?? null,
      searchWord: company?.name.split(/\s+/u).find((w) => /^[\p{L}\p{N}]{2,}$/u.test(w))?.slice(0, 20) ?? null,
      dumpWeek: formatIsoWeek(getIsoWeek(model.asOfMs)),
      signals: null,
    };
    this.wanted = new Set([SEARCH_INDEX_FILES.global, SEARCH_INDEX_FILES.liveHeader, SEARCH_INDEX_FILES.liveBinary, FINGERPRINT_INDEX_FILE]);
    for (const route of ROUTES as readonly Route[]) {
      const request = route.example(this.keys);
      const file = request && getExampleFile(route, request);
      if (file) this.wanted.add(file);
      // The bulk check shows the check files of its usernames (absent ones: not found).
      for (const username of listBulkUsernames(getBulkItems(request))) this.wanted.add(checkFileOf(username));
    }
  }

  /** Whether the examples show the file at `path`: an emitter makes its bytes even when it need not (UNCHANGED). */
  wants(path: string): boolean {
    return this.wanted.has(path);
  }

  /** Called with every file on its way to the writer. */
  offer({ path, data }: OutputFile): void {
    if (!this.wanted.has(path) || data === UNCHANGED) return;
    this.sizes.set(path, typeof data === "string" ? Buffer.byteLength(data) : data.byteLength);
    if (path === SEARCH_INDEX_FILES.liveBinary && typeof data !== "string" && !(data instanceof Uint8Array)) {
      this.liveSections = [...data.chunks()];
      return;
    }
    // A large file made while it is written (the dumps): its first chunk is all an example shows.
    this.kept.set(path, typeof data === "string" || data instanceof Uint8Array ? data : (data.chunks()[Symbol.iterator]().next().value ?? new Uint8Array(0)));
  }

  /** Every route's real example (routes whose example this build cannot give are left out). */
  answer(urls: Urls, asOfMs: number): Map<string, RouteExample> {
    const keys = this.keys;
    const fingerprint = this.json<FingerprintIndex>(FINGERPRINT_INDEX_FILE);
    keys.signals = fingerprint && getProfileSignals(fingerprint);
    const examples = new Map<string, RouteExample>();
    for (const route of ROUTES as readonly Route[]) {
      const request = route.example(keys);
      if (request === null) continue;
      const url = getExampleUrl(route, request);
      const computed = this.compute(route.id as RouteId, request, urls, asOfMs, fingerprint);
      const file = getExampleFile(route, request);
      const body = computed ?? (file ? this.kept.get(file) : undefined);
      if (body === undefined) continue;
      examples.set(route.id, {
        url,
        ...(request.body === undefined ? {} : { body: request.body }),
        status: 200,
        contentType: MEDIA_TYPES[route.media],
        response: toExampleBody(route, body, (file ? this.sizes.get(file) : undefined) ?? body.length),
      });
    }
    return examples;
  }

  /** The answer of a computed route (search, fingerprint match), or undefined for a file route. */
  private compute(id: RouteId, request: ExampleRequest, urls: Urls, asOfMs: number, fingerprint: FingerprintIndex | null): string | undefined {
    const q = request.query?.q ?? "";
    if (id === "searchLive" || id === "searchGlobal") {
      const live = this.loadLive();
      if (id === "searchLive") return JSON.stringify(answerLiveSearch(live, asOfMs, urls, q, false));
      const searcher = createGlobalSearcher(this.json<GlobalSearchIndex>(SEARCH_INDEX_FILES.global)!, { usernames: live });
      return JSON.stringify(answerGlobalSearch(searcher, urls, q, false, 0));
    }
    if (id === "checkUsernames") {
      const check = (username: string) => (this.kept.has(checkFileOf(username)) ? this.text(checkFileOf(username)) : null);
      return formatBulkCheck(getBulkItems(request), check);
    }
    if (id === "matchFingerprint" && fingerprint && request.body) {
      const { signals } = request.body as { signals: Record<string, string> };
      return JSON.stringify({ match: createMatcher(fingerprint).match(signals), cached: false });
    }
    return undefined;
  }

  /** The live index as the server loads it, once for both search examples (at 4M usernames it is half a gigabyte). */
  private loadLive(): ReturnType<typeof loadLiveIndex> {
    if (this.live) return this.live;
    const json = this.text(SEARCH_INDEX_FILES.liveHeader);
    this.live = this.liveSections
      ? loadLiveIndex(toLiveIndexSource({ json, byteLength: this.sizes.get(SEARCH_INDEX_FILES.liveBinary)!, sections: this.liveSections }))
      : loadLiveIndex({ json, binary: this.kept.get(SEARCH_INDEX_FILES.liveBinary) as Uint8Array });
    return this.live;
  }

  private live: ReturnType<typeof loadLiveIndex> | undefined;

  private text(path: string): string {
    const data = this.kept.get(path);
    if (data === undefined) throw new Error(`the docs need ${path}, which this build did not write`);
    return typeof data === "string" ? data : Buffer.from(data).toString("utf8");
  }

  private json<T>(path: string): T | null {
    return this.kept.has(path) ? (JSON.parse(this.text(path)) as T) : null;
  }
}

const checkFileOf = (username: string) => getRouteFile("checkUsername", { identifier: username });

/** The usernames of a bulk check example (none for any other request). */
function getBulkItems(request: ExampleRequest | null): BulkItem[] {
  const read = request?.body === undefined ? null : readBulkCheckRequest(request.body);
  return read && "items" in read ? read.items : [];
}

/** The URL of an example request, site-relative, with its query. */
function getExampleUrl(route: Route, request: ExampleRequest): string {
  const path = fillTemplate(route.path, request.params ?? {}, true);
  const query = new URLSearchParams(request.query ?? {}).toString();
  return query ? `${path}?${query}` : path;
}

/** The dist file that answers an example request: the route's file, or the file of its query form. */
function getExampleFile(route: Route, request: ExampleRequest): string | null {
  const query = request.query ?? {};
  if (route.static.kind === "query") {
    for (const form of route.static.forms) {
      const names = Object.keys(query);
      const fits = names.every((n) => n in form.when || form.defaults?.[n] === query[n]) && Object.entries(form.when).every(([n, re]) => new RegExp(`^(?:${re})$`).test(query[n] ?? ""));
      if (fits) return fillTemplate(form.file, query);
    }
    return null;
  }
  if (route.file === null || Object.keys(query).length > 0) return null;
  return fillTemplate(route.file, request.params ?? {});
}

/** The best-ranked public profile's signals, one value per key: a request that matches it. */
function getProfileSignals(index: FingerprintIndex): Record<string, string> | null {
  const profile = index.profiles[0];
  if (!profile) return null;
  const signals: Record<string, string> = {};
  for (const [key, value, ids] of index.postings) if (ids.includes(profile.id) && !(key in signals)) signals[key] = value;
  return Object.keys(signals).length > 0 ? signals : null;
}

/** JSON parsed (long arrays shortened, said so), text cut, binary named. */
export function toExampleBody(route: Route, body: string | Uint8Array, size: number): unknown {
  if (route.media === "gzip" || route.media === "binary") return `(${size} bytes of ${MEDIA_TYPES[route.media]})`;
  const text = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
  if (route.media === "json" || route.media === "feedJson") return shorten(JSON.parse(text));
  return text.length > TEXT_EXAMPLE_CHARS ? `${text.slice(0, TEXT_EXAMPLE_CHARS)}…` : text;
}

function shorten(value: unknown): unknown {
  if (Array.isArray(value)) return (value.length > LONG_ARRAY ? value.slice(0, SHOWN_ITEMS) : value).map(shorten);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
}
