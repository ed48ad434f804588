/**
 * The search emitter: what dist/search/ holds for the fixture, checked against SQL and
 * constants read off test/fixtures/snapshot.sql, and that the same snapshot gives the same bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInMemory } from "../../build/build.ts";
import { EMITTERS } from "../../build/emitters/index.ts";
import { buildGlobalGrams, loadGlobalGrams } from "../../core/search/global-grams.ts";
import type { GlobalSearchIndex } from "../../core/search/global-index.ts";
import { createGlobalSearcher } from "../../core/search/global-searcher.ts";
import { loadLiveIndex } from "../../core/search/live-index-format.ts";
import { BASE_URL, buildFixture, type BuiltFixture } from "../helpers/fixture.ts";
import { expectedUsernames } from "../helpers/expected.ts";

let fixture: BuiltFixture;
let files: Map<string, Buffer>;
beforeAll(() => {
  fixture = buildFixture("search-build");
  files = buildInMemory({ db: fixture.db, baseUrl: BASE_URL }).files;
});
afterAll(() => fixture.cleanup());

const readGlobal = () => JSON.parse(files.get("search/global.json")!.toString("utf8")) as GlobalSearchIndex;
const readLive = () => loadLiveIndex({ json: files.get("search/live.json")!.toString("utf8"), binary: files.get("search/live.bin")! });

describe("the search emitter", () => {
  it("runs after the company list and the site pages, before the build report", () => {
    const names = EMITTERS.map((e) => e.name);
    expect(names.indexOf("search")).toBeGreaterThan(names.indexOf("companies"));
    expect(names.indexOf("search")).toBeGreaterThan(names.indexOf("site"));
    expect(names.indexOf("search")).toBeLessThan(names.indexOf("report"));
  });

  it("writes the same bytes for the same snapshot", () => {
    const again = buildInMemory({ db: fixture.db, baseUrl: BASE_URL }).files;
    for (const path of ["search/global.json", "search/global.bin", "search/live.json", "search/live.bin"]) expect(again.get(path)?.equals(files.get(path)!), path).toBe(true);
  });

  it("writes the global index's n-gram postings as the server would derive them, and a searcher on them answers the same", () => {
    const index = readGlobal();
    const grams = loadGlobalGrams(files.get("search/global.bin")!, index);
    const derived = buildGlobalGrams(index);
    expect([grams.bits, Buffer.from(grams.offsets.buffer, grams.offsets.byteOffset, grams.offsets.byteLength).equals(Buffer.from(derived.offsets.buffer))]).toEqual([derived.bits, true]);
    expect([...grams.postings]).toEqual([...derived.postings]);
    const [read, made] = [createGlobalSearcher(index, { grams }), createGlobalSearcher(index)];
    for (const q of ["alpha", "alpah", "альфа", "spin", "capstone", "ivan"]) expect(read.search(q), q).toEqual(made.search(q));
  });

  it("refuses postings that are not the index's", () => {
    const index = readGlobal();
    const bytes = files.get("search/global.bin")!;
    expect(() => loadGlobalGrams(bytes.subarray(0, bytes.byteLength - 4), index)).toThrow(/does not fit/);
    expect(() => loadGlobalGrams(bytes, { titles: [] })).toThrow(/not this index/);
  });

  it("indexes every page-able entity once, by type, with site-relative URLs", () => {
    const index = readGlobal();
    const counts = Object.fromEntries(index.types.map((type, t) => [type, index.typeStarts[t + 1]! - index.typeStarts[t]!]));
    // 9 companies less the one whose slug has a space; every content row of the fixture has a good slug or username.
    expect(counts).toEqual({ company: 8, person: 2, glossary: 3, video: 3, video_channel: 2, chat_channel: 2, chat: 4, blog_post: 3 });
    expect(index.urls.every((url) => url.startsWith("/") && !url.startsWith("//"))).toBe(true);
    expect(new Set(index.urls).size).toBe(index.urls.length);
    expect(index.urls).toContain("/chats/quiet_chat");
  });

  it("searches companies by aliases and website domain too", () => {
    const index = readGlobal();
    const alpha = index.urls.indexOf("/company/alpha-leads");
    expect(index.texts.slice(index.textStarts[alpha], index.textStarts[alpha + 1])).toEqual(["alpha leads", "alphaleads", "alphaleads.example"]);
  });

  it("holds every valid reported username with its reports count, most reported first", () => {
    const live = readLive();
    const { joined, textStarts } = live.spammerTexts;
    const usernames = Array.from({ length: textStarts.length - 1 }, (_, r) => joined.slice(textStarts[r]!, textStarts[r + 1]! - 1));
    expect([...usernames].sort()).toEqual(expectedUsernames(fixture.sql));
    const counts = new Map(
      fixture.sql
        .prepare(
          `SELECT lower(CASE WHEN substr(trim(username), 1, 1) = '@' THEN substr(trim(username), 2) ELSE trim(username) END) u, count(*) n
           FROM reports WHERE strftime('%s', created_at) IS NOT NULL AND created_at <> 'now' GROUP BY u`,
        )
        .raw()
        .all() as [string, number][],
    );
    expect(usernames.map((u, r) => [u, live.spammerCounts[r]])).toEqual(usernames.map((u) => [u, counts.get(u)]));
    expect(usernames[0]).toBe("spam_king");
  });

  it("gives people the snapshot's avatar only when it is an absolute http(s) URL", () => {
    // Ivan Petrov's avatar is the relative path /avatars/ivan-petrov.png; Мария Иванова has none.
    expect(readLive().people.map((p) => [p.slug, p.avatar])).toEqual([
      ["ivan-petrov", `${BASE_URL}/avatars/ivan-petrov.svg`],
      ["mariya-ivanova", `${BASE_URL}/avatars/mariya-ivanova.svg`],
    ]);
  });
});
