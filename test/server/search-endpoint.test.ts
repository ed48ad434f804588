/**
 * GET /api/search (live search) over the fixture build, in-process and through a real listening
 * server: shapes, ranking, caps, bounds, @usernames and links, other scripts, hostile queries,
 * and a new build answering from its own indexes (both search routes). Expected results are
 * constants read off test/fixtures/snapshot.sql and the look-alike rows (test/helpers/search.ts),
 * or counted with SQL; never the searcher's own output.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDist } from "../../build/build.ts";
import { createApp } from "../../server/app.ts";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";
import { BASE_URL, buildFixture, createSnapshot, type BuiltFixture } from "../helpers/fixture.ts";
import { countComplaints as complaints, FIXTURE_SQL, HOSTILE_QUERIES as HOSTILE, LOOK_ALIKES_SQL, q } from "../helpers/search.ts";

let plain: BuiltFixture;
let crowded: BuiltFixture;
beforeAll(() => {
  plain = buildFixture("search-endpoint");
  crowded = buildFixture("search-crowded", FIXTURE_SQL + LOOK_ALIKES_SQL);
});
afterAll(() => {
  plain.cleanup();
  crowded.cleanup();
});

describe.each(CLIENT_KINDS)("GET /api/search (%s)", (kind) => {
  let client: Client;
  let crowdedClient: Client;
  beforeAll(async () => {
    client = await createClient(kind, plain.dist);
    crowdedClient = await createClient(kind, crowded.dist);
  });
  afterAll(async () => {
    await client.close();
    await crowdedClient.close();
  });
  const search = async (c: Client, query: string) => {
    const res = await c.fetch(`/api/search?q=${query}`);
    return { res, body: (await res.json()) as any };
  };
  const names = async (query: string, c = client) => {
    const { body } = await search(c, query);
    return { people: body.people.map((p: any) => p.name), companies: body.companies.map((x: any) => x.name), spammers: body.spammers.map((s: any) => s.username) };
  };

  it("answers all three groups in the reference's shapes, cached for five minutes", async () => {
    const { res, body } = await search(client, "zed");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(body).toEqual({
      people: [],
      companies: [
        { name: "Zed Network", url: `${BASE_URL}/company/zed-network`, count: complaints(plain, "zed-network"), cat: "traffic", last: "2 days ago" },
        { name: "zed network", url: `${BASE_URL}/company/zed-network-2`, count: complaints(plain, "zed-network-2"), cat: "traffic", last: "yesterday" },
      ],
      spammers: [],
    });
  });

  it("describes people with their page, avatar and complaints", async () => {
    expect((await search(client, "ivan")).body.people).toEqual([
      { name: "Ivan Petrov", url: `${BASE_URL}/people/ivan-petrov`, avatar: `${BASE_URL}/avatars/ivan-petrov.svg`, reports_count: 2 },
    ]);
    const people = (await search(crowdedClient, "cap%20person%201")).body.people;
    expect(people).toEqual([{ name: "Cap Person 1", url: `${BASE_URL}/people/cap-person-1`, avatar: "https://cdn.example/cap.png", reports_count: 0 }]);
  });

  it("finds spammers by @username, case-insensitively, with their check URL", async () => {
    expect((await search(client, q("@SPAM_King"))).body.spammers).toEqual([{ username: "spam_king", url: `${BASE_URL}/api/check/spam_king`, count: 6 }]);
    expect((await names(q("@only_at"))).spammers).toEqual(["only_at"]);
  });

  it("ranks exact > prefix > substring, then by reports", async () => {
    // quiet has 4 reports, tie1 and tie2 one each: all three only contain "ie".
    expect((await names("ie")).spammers).toEqual(["quiet", "tie1", "tie2"]);
    // Zero Co starts with "zero", Also Zero only contains it: prefix first, though "also" sorts first.
    expect((await names("zero")).companies).toEqual(["Zero Co", "Also Zero"]);
    // Every Capstone N starts with "capstone"; Big Capstone, with more complaints than any, only contains it.
    expect((await names("capstone", crowdedClient)).companies).toEqual([9, 8, 7, 6, 5, 4, 3].map((n) => `Capstone ${n}`));
    expect((await names("stone", crowdedClient)).companies).toEqual(["Big Capstone", ...[9, 8, 7, 6, 5, 4].map((n) => `Capstone ${n}`)]);
    expect((await names(q("Capstone 1"), crowdedClient)).companies).toEqual(["Capstone 1"]);
    expect((await names("capper_1", crowdedClient)).spammers).toEqual(["capper_1"]);
  });

  it("caps the groups at 7 companies, 6 people and 4 spammers", async () => {
    expect(await names("cap", crowdedClient)).toEqual({
      people: [1, 2, 3, 4, 5, 6].map((n) => `Cap Person ${n}`),
      companies: [9, 8, 7, 6, 5, 4, 3].map((n) => `Capstone ${n}`),
      spammers: ["capper_9", "capper_8", "capper_7", "capper_6"],
    });
  });

  it.each([
    "https://www.alphaleads.example/path?x=1#top",
    "http://alphaleads.example",
    "www.alphaleads.example",
    "alphaleads.example/about",
    "ALPHALEADS.EXAMPLE",
    "alphaleads",
  ])("finds a company by its website domain written as %j", async (domain) => {
    expect((await names(q(domain))).companies).toEqual(["Alpha Leads"]);
  });

  it("tells how long ago each company's last complaint was, against as_of", async () => {
    const last = async (query: string, c = client) => Object.fromEntries((await search(c, q(query))).body.companies.map((x: any) => [x.name, x.last]));
    expect(await last("alpha")).toEqual({ "Alpha Leads": "today" });
    expect(await last("бета")).toEqual({ "Бета Партнёры": "7 days ago" });
    expect(await last("bold")).toEqual({ '<b>Bold & "Co"</b>': "2 weeks ago" });
    expect(await last("https://zero.example/")).toEqual({ "Zero Co": "no complaints yet" });
    expect(await last("big capstone", crowdedClient)).toEqual({ "Big Capstone": "5 weeks ago" });
  });

  it("folds case, accents and ё, and matches Cyrillic names", async () => {
    for (const query of ["бета", "ПАРТНЁРЫ", "партнеры", "beta partnery"]) expect((await names(q(query))).companies, query).toEqual(["Бета Партнёры"]);
    expect((await names("EMILE")).companies).toEqual(["Émile Ads"]);
    expect((await names(q("мария"))).people).toEqual(["Мария Иванова"]);
  });

  it.each([
    ["one character", "a"],
    ["one character between spaces", "%20%20a%20%20"],
    ["only spaces", "%20%20%20%20"],
    ["empty", ""],
  ])("answers %s with three empty groups", async (_label, query) => {
    const { res, body } = await search(client, query);
    expect(res.status).toBe(200);
    expect(body).toEqual({ people: [], companies: [], spammers: [] });
  });

  it.each([
    ["2 characters", "ie", 200],
    ["200 characters", "x".repeat(200), 200],
    ["200 emoji (400 UTF-16 units)", q("😀".repeat(200)), 200],
    ["201 characters", "x".repeat(201), 422],
    ["10 KB", "x".repeat(10_240), 422],
  ])("answers a query of %s with %i", async (_label, query, status) => {
    const { res, body } = await search(client, query);
    expect(res.status).toBe(status);
    if (status === 422) {
      expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
      expect(body).toMatchObject({ status: 422, errors: [{ name: "q", in: "query" }] });
    } else expect(Object.keys(body)).toEqual(["people", "companies", "spammers"]);
  });

  it("answers 422 naming q when it is missing or given twice", async () => {
    for (const path of ["/api/search", "/api/search?query=zed", "/api/search?q=zed&q=alpha"]) {
      const res = await client.fetch(path);
      expect(res.status, path).toBe(422);
      expect(((await res.json()) as any).errors.map((e: any) => e.name), path).toEqual(["q"]);
    }
  });

  it.each(HOSTILE)("answers %s with JSON within the caps", async (_label, query) => {
    const { res, body } = await search(client, query);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(body.people.length).toBeLessThanOrEqual(6);
    expect(body.companies.length).toBeLessThanOrEqual(7);
    expect(body.spammers.length).toBeLessThanOrEqual(4);
  });

  it("answers a repeated request with 304 by its ETag", async () => {
    const first = await client.fetch("/api/search?q=zed");
    const again = await client.fetch("/api/search?q=zed", { headers: { "if-none-match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });
});
describe("a new build", () => {
  it("answers from its own search indexes once published", async () => {
    const local = buildFixture("search-reload");
    try {
      const app = createApp({ dist: local.dist });
      const live = async () => ((await (await app.request("/api/search?q=cap")).json()) as any).companies.length;
      const global = async () => ((await (await app.request("/api/search/global?q=capstone")).json()) as any).total;
      expect(await live()).toBe(0);
      expect(await global()).toBe(0);
      const next = createSnapshot(local.dir, FIXTURE_SQL + LOOK_ALIKES_SQL, "next.sqlite");
      buildDist({ db: next, out: local.dist, baseUrl: BASE_URL, progress: null });
      // The server looks for a new build at most every 250 ms.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await live()).toBe(7);
      expect(await global()).toBe(10);
    } finally {
      local.cleanup();
    }
  });

  it("without search indexes (an older build) answers 503 problem+json", async () => {
    const local = buildFixture("search-none");
    try {
      rmSync(join(local.summary.buildDir, "search"), { recursive: true });
      const app = createApp({ dist: local.dist });
      for (const path of ["/api/search?q=zed", "/api/search/global?q=zed"]) {
        const res = await app.request(path);
        expect(res.status, path).toBe(503);
        expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
      }
      expect((await app.request("/api/companies")).status).toBe(200);
    } finally {
      local.cleanup();
    }
  });
});
