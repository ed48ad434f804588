/**
 * Every reported username is reachable: /api/spammers, overall and per category, pages through
 * the whole set in DESIGN's order (reports desc, last_seen desc, username) — any limit with any
 * page, beyond the top 200 the server holds too — with `total`, `pages` and a `Link` header whose
 * rel=next walks every page; the page files answer the same; bad pages are 422 problems. The
 * expected order is the dump's rows sorted here with core's comparator, not the build's ranking.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATEGORIES } from "../../core/categories.ts";
import { compareSpammers } from "../../core/ranking.ts";
import { DEFAULT_SPAMMER_PAGE_FILES } from "../../core/routes/table.ts";
import { buildInMemory } from "../../build/build.ts";
import { openSpammerRanking } from "../../core/spammer-ranking.ts";
import { generateSample } from "../../data/sample/generate.ts";
import { createApp } from "../../server/app.ts";
import { BASE_URL, buildSampleDist, makeTempDir } from "../helpers/fixture.ts";

let dir: string;
let dist: string;
let app: ReturnType<typeof createApp>;
let ranked: string[];
const rankedIn = new Map<string, string[]>();

beforeAll(() => {
  dir = makeTempDir("spammer-pages");
  dist = buildSampleDist(dir, 3000);
  app = createApp({ dist });
  const rows = Papa.parse<Record<string, string>>(readFileSync(join(dist, "dumps/spammers-latest.csv"), "utf8"), { header: true, skipEmptyLines: true }).data;
  const order = rows
    .map((r) => ({ username: r.username!, reportsCount: Number(r.reports_count), lastSeenMs: Date.parse(r.last_seen!), categories: JSON.parse(r.categories!) as string[] }))
    .sort(compareSpammers);
  ranked = order.map((s) => s.username);
  for (const category of CATEGORIES) rankedIn.set(category, order.filter((s) => s.categories.includes(category)).map((s) => s.username));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (path: string) => app.request(path);
const json = async (path: string) => {
  const res = await get(path);
  return { status: res.status, link: res.headers.get("link"), body: (await res.json()) as { data: { username: string }[]; total: number; page: number; pages: number } };
};
const usernames = (data: { username: string }[]) => data.map((s) => s.username);

/** rel → site-relative URL of a Link header. */
function readLinks(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of header?.split(", ") ?? []) {
    const found = /^<([^>]+)>; rel="(next|prev)"$/.exec(part);
    expect(found, part).not.toBeNull();
    expect(found![1]!.startsWith(`${BASE_URL}/`), "absolute, from the base URL").toBe(true);
    links[found![2]!] = found![1]!.slice(BASE_URL.length);
  }
  return links;
}

describe("GET /api/spammers, page by page", () => {
  it("has more usernames than the top the server holds, in every list that is tested beyond it", () => {
    expect(ranked.length).toBeGreaterThan(2000);
    expect(Math.max(...[...rankedIn.values()].map((l) => l.length))).toBeGreaterThan(400);
  });

  it.each([null, ...CATEGORIES])("walks the whole list of category %s by rel=next, every username once, in order", async (category) => {
    const expected = category === null ? ranked : rankedIn.get(category)!;
    const pages = Math.ceil(expected.length / 50);
    let url: string | undefined = category === null ? "/api/spammers" : `/api/spammers?category=${category}`;
    const seen: string[][] = [];
    for (let page = 1; url !== undefined; page++) {
      const { status, link, body } = await json(url);
      expect(status).toBe(200);
      expect([body.page, body.pages, body.total]).toEqual([page, pages, expected.length]);
      seen.push(usernames(body.data));
      const links = readLinks(link);
      // rel=prev leads back to the page before, which answers what it answered on the way here.
      if (page > 1) expect(usernames((await json(links.prev!)).body.data)).toEqual(seen[page - 2]);
      else expect(links.prev).toBeUndefined();
      url = links.next;
    }
    expect(seen.flat()).toEqual(expected);
  });

  it("answers any limit with any page from the same order, beyond the top 200 too", async () => {
    const expected = rankedIn.get("crypto")!.length > 450 ? rankedIn.get("crypto")! : ranked;
    const category = expected === ranked ? "" : "&category=crypto";
    for (const limit of [1, 7, 50, 133, 200]) {
      const pages = Math.ceil(expected.length / limit);
      for (const page of new Set([1, Math.floor(190 / limit) + 1, Math.floor(200 / limit) + 1, Math.floor(260 / limit) + 2, Math.floor(expected.length / limit / 2), pages])) {
        const { status, body } = await json(`/api/spammers?limit=${limit}&page=${page}${category}`);
        expect(status).toBe(200);
        expect(usernames(body.data), `limit ${limit} page ${page}`).toEqual(expected.slice((page - 1) * limit, page * limit));
        expect([body.total, body.page, body.pages]).toEqual([expected.length, page, pages]);
      }
    }
  });

  it("answers a page past the end with an empty list, pages and total, and no Link", async () => {
    const pages = Math.ceil(ranked.length / 50);
    const { status, link, body } = await json(`/api/spammers?page=${pages + 1}`);
    expect(status).toBe(200);
    expect(body).toEqual({ data: [], total: ranked.length, page: pages + 1, pages });
    expect(link).toBeNull();
  });

  it("serves the page files with the bytes and the Link of the query they stand for, beyond the top 200 too", async () => {
    const pairs = [
      ["/api/spammers/page/3", "/api/spammers?page=3"],
      // Past the top the server holds: the query's items come from the ranking and the check files.
      ["/api/spammers/page/5", "/api/spammers?page=5"],
      [`/api/spammers/page/${DEFAULT_SPAMMER_PAGE_FILES}`, `/api/spammers?page=${DEFAULT_SPAMMER_PAGE_FILES}`],
      ["/api/spammers/category/crypto/page/2", "/api/spammers?category=crypto&page=2"],
      ["/api/spammers/category/crypto", "/api/spammers?category=crypto"],
      ["/api/spammers/top", "/api/spammers?limit=200"],
      ["/api/spammers/category/gambling/top", "/api/spammers?category=gambling&limit=200"],
      ["/api/companies/page/2", "/api/companies?page=2"],
    ];
    for (const [file, query] of pairs) {
      const [a, b] = await Promise.all([get(file!), get(query!)]);
      expect([a.status, a.headers.get("link")], file).toEqual([200, b.headers.get("link")]);
      expect(Buffer.from(await a.arrayBuffer()).equals(Buffer.from(await b.arrayBuffer())), file).toBe(true);
    }
  });

  it("writes page files for the first pages of each list only, and marks where a list goes on past them", async () => {
    const pages = Math.ceil(ranked.length / 50);
    expect(pages).toBeGreaterThan(DEFAULT_SPAMMER_PAGE_FILES + 1);
    const last = await get(`/api/spammers/page/${DEFAULT_SPAMMER_PAGE_FILES}`);
    // The last page file's rel=next is the query form of the page after, which the live server answers.
    expect(readLinks(last.headers.get("link")).next).toBe(`/api/spammers?page=${DEFAULT_SPAMMER_PAGE_FILES + 1}`);
    expect((await json(`/api/spammers?page=${DEFAULT_SPAMMER_PAGE_FILES + 1}`)).status).toBe(200);
    expect((await get(`/api/spammers/page/${DEFAULT_SPAMMER_PAGE_FILES + 1}`)).status).toBe(404);
    expect(existsSync(join(dist, `api/spammers/page/${DEFAULT_SPAMMER_PAGE_FILES + 1}.json.live`))).toBe(true);
    expect(existsSync(join(dist, `api/spammers/page/${DEFAULT_SPAMMER_PAGE_FILES + 2}.json.live`))).toBe(false);
    // A list shorter than the page files has them all, and no marker.
    const short = [...rankedIn.entries()].find(([, list]) => list.length > 50 && list.length <= 50 * DEFAULT_SPAMMER_PAGE_FILES);
    expect(short, "a category of a few pages").toBeDefined();
    const [category, list] = short!;
    const shortPages = Math.ceil(list.length / 50);
    expect(existsSync(join(dist, `api/spammers/category/${category}/page/${shortPages}.json`))).toBe(true);
    expect(readdirSync(join(dist, `api/spammers/category/${category}/page`)).filter((f) => f.endsWith(".live"))).toEqual([]);
    expect(readLinks((await get(`/api/spammers/category/${category}/page/${shortPages}`)).headers.get("link")).next).toBeUndefined();
  });

  it("keeps the other parameters in its links, limit only when it is not the default", async () => {
    expect((await json("/api/spammers?limit=20&category=crypto&page=2")).link).toBe(
      `<${BASE_URL}/api/spammers?limit=20&category=crypto&page=3>; rel="next", <${BASE_URL}/api/spammers?limit=20&category=crypto&page=1>; rel="prev"`,
    );
    expect((await json("/api/spammers?limit=50&page=2")).link).toBe(`<${BASE_URL}/api/spammers?page=3>; rel="next", <${BASE_URL}/api/spammers?page=1>; rel="prev"`);
    expect((await json("/api/companies?limit=20&page=2")).link).toBe(`<${BASE_URL}/api/companies?limit=20&page=3>; rel="next", <${BASE_URL}/api/companies?limit=20&page=1>; rel="prev"`);
  });

  it.each(["page=0", "page=-1", "page=abc", "page=1.5", "page=", "page=100000001", "page=1&page=2"])("refuses %s with a 422 problem naming page", async (query) => {
    const res = await get(`/api/spammers?${query}`);
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    const problem = (await res.json()) as { errors: { name: string; in: string }[] };
    expect(problem.errors).toEqual([expect.objectContaining({ name: "page", in: "query" })]);
  });
});

describe("a build of an older version, without the ranking file", () => {
  it("answers the top 200 of each list, and a page beyond them with a 503 problem saying to rebuild", async () => {
    const local = makeTempDir("spammer-pages-old");
    try {
      const dist = buildSampleDist(local, 600);
      rmSync(join(realpathSync(dist), "api/spammers/ranking.bin"));
      const old = createApp({ dist });
      expect((await old.request("/api/spammers?page=4")).status).toBe(200);
      expect((await old.request("/api/spammers?limit=200")).status).toBe(200);
      const beyond = await old.request("/api/spammers?page=5");
      expect(beyond.status).toBe(503);
      expect(beyond.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
      expect(((await beyond.json()) as { detail: string }).detail).toMatch(/rebuild/);
    } finally {
      rmSync(local, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("--list-pages", () => {
  it("writes that many page files of each list, the marker of the page after, and the ranking of every username", () => {
    const local = makeTempDir("spammer-pages-two");
    try {
      const db = join(local, "sample.sqlite");
      generateSample({ scale: 600, seed: "1", out: db, asOf: "2026-11-15T18:00:00Z" });
      const { files } = buildInMemory({ db, baseUrl: BASE_URL, listPages: 2 });
      const pages = [...files.keys()].filter((path) => path.startsWith("api/spammers/page/")).sort();
      expect(pages).toEqual(["api/spammers/page/1.json", "api/spammers/page/1.json.br", "api/spammers/page/1.json.gz", "api/spammers/page/2.json", "api/spammers/page/2.json.br", "api/spammers/page/2.json.gz", "api/spammers/page/3.json.live"]);
      const ranking = files.get("api/spammers/ranking.bin")!;
      const read = openSpammerRanking({ size: ranking.byteLength, read: (offset, length) => ranking.subarray(offset, offset + length) });
      const dumped = Papa.parse<Record<string, string>>(files.get("dumps/spammers-latest.csv")!.toString("utf8"), { header: true, skipEmptyLines: true }).data;
      expect(read.count()).toBe(dumped.length);
      expect(read.usernames(undefined, 0, 100)).toEqual(JSON.parse(files.get("api/spammers/top.json")!.toString("utf8")).data.slice(0, 100).map((s: { username: string }) => s.username));
    } finally {
      rmSync(local, { recursive: true, force: true });
    }
  }, 60_000);
});
