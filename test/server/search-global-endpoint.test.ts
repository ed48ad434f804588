/**
 * GET /api/search/global over the fixture build, in-process and through a real listening server:
 * the answer's shape and labels, a labelled query set (exact, prefix, typos, other script, wrong
 * layout, domains, @usernames), ranking, caps and `limit`, bounds, hostile queries. Expected
 * results are constants read off test/fixtures/snapshot.sql and the look-alike rows
 * (test/helpers/search.ts), never the searcher's own output.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";
import { FIXTURE_SQL, HOSTILE_QUERIES as HOSTILE, LOOK_ALIKES_SQL, q } from "../helpers/search.ts";

/**
 * The issue's cases: a username that only live search used to find (reported three times, once
 * as `@Spin_Official60`), another account a letter away, a username folding would mangle, and a
 * glossary term that `spam` must list above a company that only resembles it.
 */
const ISSUE_SQL = `
INSERT INTO glossary (id, term, slug, definition) VALUES (10, 'Spam bot', 'spam-bot', 'An account that posts spam automatically.');
INSERT INTO companies (id, name, slug, category, website, created_at) VALUES (120, 'Spark Media', 'spark-media', 'traffic', NULL, '2024-01-01T00:00:00Z');
INSERT INTO reports (id, username, category, company_id, person_id, reporter, confidence, created_at) VALUES
  (3001, 'spin_official60', 'crypto', 120, NULL, 'rs', 50, '2026-03-02T10:00:00Z'),
  (3002, '@Spin_Official60', 'crypto', 120, NULL, 'rt', 50, '2026-03-03T10:00:00Z'),
  (3003, 'spin_official60', 'crypto', NULL, NULL, 'ru', 50, '2026-03-04T10:00:00Z'),
  (3004, 'spin_official62', 'crypto', NULL, NULL, 'rs', 50, '2026-03-04T10:00:00Z'),
  (3005, '__proto__', 'other', NULL, NULL, 'rs', 50, '2026-03-04T10:00:00Z');
`;

let plain: BuiltFixture;
let crowded: BuiltFixture;
beforeAll(() => {
  plain = buildFixture("search-global-endpoint");
  crowded = buildFixture("search-global-crowded", FIXTURE_SQL + LOOK_ALIKES_SQL + ISSUE_SQL);
});
afterAll(() => {
  plain.cleanup();
  crowded.cleanup();
});

describe.each(CLIENT_KINDS)("GET /api/search/global (%s)", (kind) => {
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
  const search = async (query: string, c = client) => {
    const res = await c.fetch(`/api/search/global?q=${query}`);
    return { res, body: (await res.json()) as any };
  };
  const first = async (query: string, type: string) => (await search(q(query))).body.results.find((g: any) => g.type === type)?.items[0]?.url;

  it("answers {query, total, results} with labelled groups of site-relative items", async () => {
    const { res, body } = await search("arbitrazh");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(body).toEqual({
      query: "arbitrazh",
      total: 3,
      results: [
        { type: "glossary", label: "Glossary", count: 1, items: [{ type: "glossary", title: "Арбитраж трафика", url: "/glossary/arbitrazh-trafika", subtitle: "Покупка трафика для перепродажи." }] },
        { type: "video_channel", label: "Video channels", count: 1, items: [{ type: "video_channel", title: "Арбитраж Лаб", url: "/video-channels/arbitrazh-lab", subtitle: "Video channel" }] },
        { type: "chat_channel", label: "Channels", count: 1, items: [{ type: "chat_channel", title: "Арбитраж канал", url: "/channels/arbitrazh_channel", subtitle: "@arbitrazh_channel" }] },
      ],
    });
  });

  it("labels every group and leaves empty ones out", async () => {
    const labels = new Map<string, string>();
    for (const query of ["spam", "ivan", "zed", "affiliate", "traders", "spam_king"]) {
      const { body } = await search(query);
      expect(body.total, query).toBe(body.results.reduce((sum: number, g: any) => sum + g.count, 0));
      for (const group of body.results) {
        expect(group.items.length, query).toBeGreaterThan(0);
        labels.set(group.type, group.label);
      }
    }
    expect(Object.fromEntries(labels)).toEqual({
      company: "Companies", person: "People", glossary: "Glossary", video: "Videos", video_channel: "Video channels",
      chat_channel: "Channels", chat: "Chats", blog_post: "Blog posts", spammer: "Spammers",
    });
  });

  it.each([
    ["with @", "@spin_official60"],
    ["without @", "spin_official60"],
    ["as reported once, in capitals", "@Spin_Official60"],
    ["as a t.me link", "https://t.me/spin_official60"],
    ["typed on the Russian layout", "ызшт_щаашсшфд60"],
  ])("finds a reported username %s, first, linked to its check result", async (_label, query) => {
    const { body } = await search(q(query), crowdedClient);
    expect(body.results[0]).toEqual({
      type: "spammer",
      label: "Spammers",
      count: 1,
      items: [{ type: "spammer", title: "spin_official60", url: "/api/check/spin_official60", subtitle: "3 reports" }],
    });
    const check = (await (await crowdedClient.fetch(body.results[0].items[0].url)).json()) as any;
    expect([check.found, check.reports_count]).toEqual([true, 3]);
  });

  it("lists the usernames live search lists, in its order", async () => {
    for (const query of ["spin_official6", "official", "capper", "@spam_king", "king", "spam", "@__proto__", "quiet", "tie"]) {
      const global = (await search(q(query), crowdedClient)).body.results.find((g: any) => g.type === "spammer")?.items.map((i: any) => i.title) ?? [];
      const live = ((await (await crowdedClient.fetch(`/api/search?q=${q(query)}`)).json()) as any).spammers.map((s: any) => s.username);
      expect(global, query).toEqual(live);
      expect(global.length, query).toBeGreaterThan(0);
    }
  });

  it("offers no username a letter away from the one asked for: that is another account", async () => {
    expect((await search(q("spin_official61"), crowdedClient)).body.results).toEqual([]);
  });

  it("lists groups by their best match: `spam` puts the glossary's Spam bot above a company that only resembles it", async () => {
    const { body } = await search("spam", crowdedClient);
    // Prefix matches (in the fixed type order), then the fuzzy ones.
    expect(body.results.map((g: any) => [g.type, g.items[0].title])).toEqual([
      ["glossary", "Spam bot"],
      ["video_channel", "Spam Watch TV"],
      ["chat_channel", "Spam Watch News"],
      ["blog_post", "Spam waves in March"],
      ["spammer", "spam_king"],
      ["company", "Spark Media"],
      ["video", "How Binance scams spread"],
    ]);
    // An exact match puts its group first.
    expect((await search("spam_king", crowdedClient)).body.results[0].type).toBe("spammer");
    expect((await search(q("Spark Media"), crowdedClient)).body.results[0].type).toBe("company");
  });

  it.each([
    ["exact title", "Traders chat", "chat", "/chats/traders_chat"],
    ["prefix", "trad", "chat", "/chats/traders_chat"],
    ["a word's prefix", "watch", "video_channel", "/video-channels/spam-watch-tv"],
    ["one typo (transposition)", "tradres chat", "chat", "/chats/traders_chat"],
    ["one typo (deletion)", "afiliate network", "glossary", "/glossary/affiliate-network"],
    ["one typo (substitution)", "spam wavez", "blog_post", "/blog/spam-waves-in-march"],
    ["two typos", "spm wavez in march", "blog_post", "/blog/spam-waves-in-march"],
    ["Cyrillic query, Latin name", "бинанс", "video", "/videos/how-binance-scams-spread"],
    ["Latin query, Cyrillic name", "tikhiy chat", "chat", "/chats/quiet_chat"],
    ["Latin query, Cyrillic name, other spelling", "tihij chat", "chat", "/chats/quiet_chat"],
    ["ё written as е", "обзор партнерок", "video", "/videos/obzor-partnerok"],
    ["Russian typed on a Latin layout", "fh,bnhf;", "glossary", "/glossary/arbitrazh-trafika"],
    ["Latin typed on a Russian layout", "екфвукы", "chat", "/chats/traders_chat"],
    ["wrong layout, prefix", "ызфь цфеср", "video_channel", "/video-channels/spam-watch-tv"],
    ["domain", "alphaleads.example", "company", "/company/alpha-leads"],
    ["domain with scheme, www and path", "https://www.alphaleads.example/about", "company", "/company/alpha-leads"],
    ["@username of a chat", "@traders_chat", "chat", "/chats/traders_chat"],
    ["@username of a channel", "@spamwatch_news", "chat_channel", "/channels/spamwatch_news"],
    ["person, Latin", "ivan petrov", "person", "/people/ivan-petrov"],
    ["person, Cyrillic", "мария", "person", "/people/mariya-ivanova"],
    ["person, transliterated", "mariya ivanova", "person", "/people/mariya-ivanova"],
    ["company alias", "alphaleads", "company", "/company/alpha-leads"],
    ["accents folded", "emile", "company", "/company/emile-ads"],
  ])("%s: %j finds %s %s first", async (_label, query, type, url) => {
    expect(await first(query, type)).toBe(url);
  });

  it("ranks exact > prefix > word prefix, then by rank, and counts matches before the cap", async () => {
    const groups = (await search("capstone", crowdedClient)).body.results;
    expect(groups.map((g: any) => g.type)).toEqual(["company"]);
    // Default cap 8 of the 10 companies named with "capstone"; Big Capstone (20 complaints) only has it as a second word.
    expect(groups[0].count).toBe(10);
    expect(groups[0].items.map((i: any) => i.title)).toEqual([9, 8, 7, 6, 5, 4, 3, 2].map((n) => `Capstone ${n}`));
    const all = (await crowdedClient.fetch("/api/search/global?q=capstone&limit=50").then((r) => r.json())) as any;
    expect(all.results[0].items.map((i: any) => i.title)).toEqual([...[9, 8, 7, 6, 5, 4, 3, 2, 1].map((n) => `Capstone ${n}`), "Big Capstone"]);
    expect(all.results[0].items[0]).toEqual({ type: "company", title: "Capstone 9", url: "/company/capstone-9", subtitle: "Crypto · 9 complaints" });
    expect((await search(q("Capstone 1"), crowdedClient)).body.results[0].items[0].title).toBe("Capstone 1");
  });

  it("applies the default caps: 8 companies, 6 people", async () => {
    const groups = new Map((await search("cap", crowdedClient)).body.results.map((g: any) => [g.type, g]));
    expect((groups.get("company") as any).items).toHaveLength(8);
    expect((groups.get("person") as any).items.map((i: any) => i.title)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `Cap Person ${n}`));
    expect((groups.get("person") as any).count).toBe(8);
  });

  it("lets limit replace every group's cap, keeping the counts", async () => {
    for (const limit of [1, 2, 50]) {
      const body = (await (await crowdedClient.fetch(`/api/search/global?q=cap&limit=${limit}`)).json()) as any;
      const people = body.results.find((g: any) => g.type === "person");
      expect(people.count).toBe(8);
      expect(people.items).toHaveLength(Math.min(limit, 8));
      for (const group of body.results) expect(group.items.length).toBeLessThanOrEqual(limit);
    }
  });

  it.each([
    ["1 character", "a", 200],
    ["2 characters", "ab", 200],
    ["120 characters", "x".repeat(120), 200],
    ["121 characters", "x".repeat(121), 422],
    ["200 characters", "x".repeat(200), 422],
    ["201 characters", "x".repeat(201), 422],
    ["10 KB", "x".repeat(10_240), 422],
  ])("answers a query of %s with %i", async (_label, query, status) => {
    const { res, body } = await search(query);
    expect(res.status).toBe(status);
    if (status === 422) expect(body.errors.map((e: any) => e.name)).toEqual(["q"]);
    else expect(Object.keys(body)).toEqual(["query", "total", "results"]);
  });

  it("answers a query under two characters with no results", async () => {
    expect((await search("a")).body).toEqual({ query: "a", total: 0, results: [] });
    expect((await search("%20z%20")).body).toEqual({ query: "z", total: 0, results: [] });
  });

  it.each(["0", "51", "abc", "-1", "1.5", "", "5&limit=6"])("answers limit=%s with 422 naming limit", async (limit) => {
    const res = await client.fetch(`/api/search/global?q=zed&limit=${limit}`);
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).errors.map((e: any) => e.name)).toEqual(["limit"]);
  });

  it("names every bad parameter at once, and a missing q", async () => {
    const both = (await (await client.fetch(`/api/search/global?q=${"x".repeat(121)}&limit=0`)).json()) as any;
    expect(both.errors.map((e: any) => e.name)).toEqual(["q", "limit"]);
    const missing = await client.fetch("/api/search/global?limit=5");
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as any).errors.map((e: any) => e.name)).toEqual(["q"]);
  });

  it.each(HOSTILE)("answers %s with JSON within the default caps", async (_label, query) => {
    const { res, body } = await search(query);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(typeof body.query).toBe("string");
    for (const group of body.results) expect(group.items.length).toBeLessThanOrEqual(8);
  });

  it("returns hostile titles as JSON data, untouched", async () => {
    const glossary = (await search("script")).body.results.find((g: any) => g.type === "glossary");
    expect(glossary.items[0]).toEqual({
      type: "glossary",
      title: '<script>alert("x")</script> & co',
      url: "/glossary/hostile-term",
      // Subtitles are display text: the definition's bell character is gone.
      subtitle: '=HYPERLINK("http://evil.example") with a bell inside',
    });
  });
});
