/**
 * Every field of every data endpoint, against values computed from the fixture with SQL; run
 * in-process and through a real listening server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, buildFixture, type BuiltFixture } from "../helpers/fixture.ts";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";
import { expectedCard, expectedCheck, expectedCompanies, expectedUsernames, expectedWidgetParts } from "../helpers/expected.ts";

/** DESIGN's order, written out: reports desc, then name lower-cased by code point, then id. */
const RANKED_SLUGS = ["alpha-leads", "zed-network", "beta-partnery", "zed-network-2", "emile-ads", "bold-co", "also-zero", "zero-co"];
const RANKED_USERNAMES = ["spam_king", "quiet", "tie1", "tie2", "only_at", "solo_user"];

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("api");
});
afterAll(() => fixture.cleanup());

describe.each(CLIENT_KINDS)("data endpoints (%s)", (kind) => {
  let client: Client;
  const get = (path: string, init?: RequestInit) => client.fetch(path, init);
  const json = async (path: string) => {
    const res = await get(path);
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  beforeAll(async () => {
    client = await createClient(kind, fixture.dist);
  });
  afterAll(() => client.close());

  describe("GET /api/check/{identifier}", () => {
    it("answers every field of every valid username as the snapshot's SQL says", async () => {
      const usernames = expectedUsernames(fixture.sql);
      expect(usernames).toEqual([...RANKED_USERNAMES].sort());
      for (const username of usernames) {
        const { status, headers, body } = await json(`/api/check/${username}`);
        expect(status).toBe(200);
        expect(headers.get("cache-control")).toBe("public, max-age=300");
        expect(body).toEqual(expectedCheck(fixture.sql, username));
      }
    });

    it("counts week boundaries in UTC whatever offset the report was written in", async () => {
      const { body } = await json("/api/check/spam_king");
      // 03-05T00:00Z and 03-04T21:30-03:00 (= 03-05T00:30Z) are this week, 03-11 09:00 too;
      // 03-04T23:59:59Z and 03-05T02:30+03:00 (= 03-04T23:30Z) are last week.
      expect(body.last_7_days).toBe(3);
      expect(body.week_trend).toBe(50);
      expect(body.first_seen).toBe("2026-02-25T23:00:00Z");
      expect(body.last_seen).toBe("2026-03-11T09:00:00Z");
    });

    it("breaks category ties by enum order and companies by count, then name", async () => {
      const king = (await json("/api/check/spam_king")).body;
      expect(king.categories).toEqual(["gambling", "crypto"]);
      const quiet = (await json("/api/check/quiet")).body;
      expect(quiet.companies.map((c: { slug: string }) => c.slug)).toEqual(["beta-partnery", "bold-co", "alpha-leads"]);
      expect(quiet.week_trend).toBe(-100);
      expect(quiet.companies[1].name).toBe('<b>Bold & "Co"</b>');
    });

    it.each(["@spam_king", "SPAM_KING", "@Spam_King", "%40spam_king", "%20spam_king%20"])("finds %s as spam_king", async (spelling) => {
      const { status, body } = await json(`/api/check/${spelling}`);
      expect(status).toBe(200);
      expect(body.username).toBe("spam_king");
      expect(body.found).toBe(true);
    });

    it("answers 200 found:false for a valid unknown username", async () => {
      const { status, headers, body } = await json("/api/check/@Nobody_Here");
      expect(status).toBe(200);
      expect(headers.get("cache-control")).toBe("public, max-age=300");
      expect(body).toEqual({ found: false, username: "nobody_here", reports_count: 0 });
    });

    it.each([
      ["bad%20name", "letters a-z"],
      ["%D0%B8%D0%BC%D1%8F", "letters a-z"],
      ["x".repeat(65), "longer than 64"],
      ["%40", "empty"],
      ["a.b", "letters a-z"],
    ])("rejects %s with 422 problem+json", async (identifier, detail) => {
      const res = await get(`/api/check/${identifier}`);
      expect(res.status).toBe(422);
      expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
      const body = (await res.json()) as any;
      expect(body).toMatchObject({ type: "about:blank", title: "Unprocessable Content", status: 422 });
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]).toMatchObject({ name: "identifier", in: "path" });
      expect(body.errors[0].detail).toContain(detail);
    });

    it("never lists an invalid username's reports under any name", async () => {
      for (const name of ["bad_name", "badname", "imya"]) expect((await json(`/api/check/${name}`)).body.found).toBe(false);
    });
  });

  describe("GET /api/companies", () => {
    it("lists every company ranked, with SQL's counts", async () => {
      const { status, body } = await json("/api/companies");
      expect(status).toBe(200);
      const rows = new Map(expectedCompanies(fixture.sql).map((c) => [c.slug, c]));
      expect(body.data.map((c: { slug: string }) => c.slug)).toEqual(RANKED_SLUGS);
      for (const item of body.data) {
        const row = rows.get(item.slug)!;
        expect(item).toEqual({ id: row.id, name: row.name, slug: row.slug, reports_count: row.n, url: `${BASE_URL}/company/${row.slug}` });
      }
      expect(body).toMatchObject({ total: 8, page: 1, pages: 1 });
    });

    it("paginates with limit and page", async () => {
      const { body } = await json("/api/companies?limit=3&page=2");
      expect(body.data.map((c: { slug: string }) => c.slug)).toEqual(RANKED_SLUGS.slice(3, 6));
      expect(body).toMatchObject({ total: 8, page: 2, pages: 3 });
      const past = await json("/api/companies?limit=3&page=4");
      expect(past.status).toBe(200);
      expect(past.body).toEqual({ data: [], total: 8, page: 4, pages: 3 });
    });

    it("filters to one company by slug, ignoring case", async () => {
      const { body } = await json("/api/companies?slug=ALPHA-LEADS");
      expect(body.data.map((c: { id: number }) => c.id)).toEqual([1]);
      expect(body).toMatchObject({ total: 1, page: 1, pages: 1 });
      expect((await json("/api/companies?slug=nope")).body).toEqual({ data: [], total: 0, page: 1, pages: 0 });
    });

    it.each([
      ["limit=0", "limit"],
      ["limit=201", "limit"],
      ["limit=abc", "limit"],
      ["limit=", "limit"],
      ["limit=1.5", "limit"],
      ["page=-1", "page"],
      ["page=0", "page"],
      ["limit=1&limit=2", "limit"],
    ])("rejects %s with 422 naming %s", async (query, name) => {
      const res = await get(`/api/companies?${query}`);
      expect(res.status).toBe(422);
      const body = (await res.json()) as any;
      expect(body.errors.map((e: { name: string }) => e.name)).toEqual([name]);
    });

    it("names every bad parameter at once", async () => {
      const body = (await (await get("/api/companies?limit=0&page=x")).json()) as any;
      expect(body.errors.map((e: { name: string }) => e.name)).toEqual(["limit", "page"]);
    });
  });

  describe("GET /api/spammers", () => {
    it("lists usernames by reports, then last seen, then username", async () => {
      const { status, headers, body } = await json("/api/spammers");
      expect(status).toBe(200);
      expect(headers.get("cache-control")).toBe("public, max-age=300");
      expect(body.total).toBe(6);
      expect(body.data.map((s: { username: string }) => s.username)).toEqual(RANKED_USERNAMES);
      for (const item of body.data) {
        const check = expectedCheck(fixture.sql, item.username);
        const primary = check.categories[0] ?? null;
        expect(item).toEqual({
          username: check.username,
          reports_count: check.reports_count,
          last_seen: check.last_seen,
          category: primary,
          primary_category: primary,
          categories: check.categories,
          url: check.url,
        });
      }
    });

    it("honours limit and page", async () => {
      const { body } = await json("/api/spammers?limit=2");
      expect(body.data.map((s: { username: string }) => s.username)).toEqual(RANKED_USERNAMES.slice(0, 2));
      expect(body).toMatchObject({ total: 6, page: 1, pages: 3 });
      const third = await json("/api/spammers?limit=2&page=3");
      expect(third.body.data.map((s: { username: string }) => s.username)).toEqual(RANKED_USERNAMES.slice(4, 6));
      expect(third.headers.get("link")).toBe(`<${BASE_URL}/api/spammers?limit=2&page=2>; rel="prev"`);
      expect((await json("/api/spammers?limit=2&page=4")).body).toEqual({ data: [], total: 6, page: 4, pages: 3 });
    });

    it("filters by category: usernames with at least one report in it", async () => {
      expect((await json("/api/spammers?category=forex")).body).toMatchObject({ total: 2 });
      expect((await json("/api/spammers?category=forex")).body.data.map((s: { username: string }) => s.username)).toEqual(["tie1", "tie2"]);
      // spam_king's primary category is gambling but it has crypto reports too.
      expect((await json("/api/spammers?category=crypto")).body.data.map((s: { username: string }) => s.username)).toEqual(["spam_king"]);
      expect((await json("/api/spammers?category=payments")).body).toEqual({ data: [], total: 0, page: 1, pages: 0 });
    });

    it("finds one username exactly, normalised", async () => {
      const { body } = await json("/api/spammers?username=@SPAM_King");
      expect(body.total).toBe(1);
      expect(body.data[0].username).toBe("spam_king");
      expect((await json("/api/spammers?username=spam_kin")).body).toEqual({ data: [], total: 0, page: 1, pages: 0 });
      expect((await json("/api/spammers?username=spam_king&category=forex")).body).toEqual({ data: [], total: 0, page: 1, pages: 0 });
      expect((await json("/api/spammers?username=spam_king&category=crypto")).body.total).toBe(1);
    });

    it.each([["category=spamz", "category"], ["limit=0", "limit"], ["limit=500", "limit"], ["username=bad%20name", "username"], ["page=0", "page"], ["page=abc", "page"], ["page=-1", "page"], ["page=1&page=2", "page"]])(
      "rejects %s with 422",
      async (query, name) => {
        const res = await get(`/api/spammers?${query}`);
        expect(res.status).toBe(422);
        expect(((await res.json()) as any).errors[0].name).toBe(name);
      },
    );
  });

  describe("GET /api/company/{slug}", () => {
    it("answers every company's card as SQL says, zero-report companies included", async () => {
      for (const row of expectedCompanies(fixture.sql)) {
        const { status, headers, body } = await json(`/api/company/${row.slug}`);
        expect(status).toBe(200);
        expect(headers.get("cache-control")).toBe("public, max-age=300");
        expect(body).toEqual(expectedCard(fixture.sql, row));
      }
      const zero = (await json("/api/company/zero-co")).body;
      expect(zero).toMatchObject({ reports_count: 0, first_report_date: null, last_report_date: null, week_trend: 0, last_7_days: 0 });
    });

    it.each([
      ["ALPHA-LEADS", "alpha-leads"],
      ["alpha%20leads", "alpha-leads"],
      [encodeURIComponent("бета партнёры"), "beta-partnery"],
      [encodeURIComponent("БЕТА ПАРТНЁРЫ"), "beta-partnery"],
      ["ZED%20NETWORK", "zed-network"],
      [encodeURIComponent("émile ads"), "emile-ads"],
    ])("finds %s by slug or exact name", async (query, slug) => {
      const { status, body } = await json(`/api/company/${query}`);
      expect(status).toBe(200);
      expect(body.slug).toBe(slug);
    });

    it("answers 404 {found:false, query} for an unknown company, and aliases are not keys", async () => {
      for (const query of ["nope", "AlphaLeads", "bad%20slug!"]) {
        const res = await get(`/api/company/${query}`);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ found: false, query: decodeURIComponent(query) });
      }
    });

    it("maps an unknown category to other", async () => {
      expect((await json("/api/company/bold-co")).body).toMatchObject({ category: "other", category_label: "Other" });
    });
  });

  describe("GET /api/widget/{slug}", () => {
    it("answers every company's widget with per-day counts and CORS for any origin", async () => {
      for (const row of expectedCompanies(fixture.sql)) {
        const res = await get(`/api/widget/${row.slug}`, { headers: { origin: "https://blog.example" } });
        expect(res.status).toBe(200);
        expect(res.headers.get("access-control-allow-origin")).toBe("*");
        expect(res.headers.get("cache-control")).toBe("public, max-age=300");
        const body = (await res.json()) as any;
        const card = expectedCard(fixture.sql, row);
        const { days, top } = expectedWidgetParts(fixture.sql, row.id);
        const whole = Math.sign(card.week_trend as number) * Math.floor(Math.abs(card.week_trend as number) + 0.5);
        expect(body).toEqual({
          found: true,
          name: row.name,
          slug: row.slug,
          reports_count: row.n,
          trend: `${whole < 0 ? "-" : "+"}${Math.abs(whole)}%`,
          trend_direction: whole > 0 ? "up" : whole < 0 ? "down" : "flat",
          last_7_days: days,
          top_category: top ?? card.category,
          badge_url: card.badge_url,
          card_url: card.card_url,
          embed_url: `${BASE_URL}/embed/badge/${row.slug}`,
          page_url: card.url,
        });
        expect(days.reduce((a, b) => a + b, 0)).toBe(card.last_7_days);
      }
    });

    it("shows the fixture's known trends", async () => {
      expect((await json("/api/widget/alpha-leads")).body).toMatchObject({ trend: "+50%", trend_direction: "up", last_7_days: [2, 0, 0, 0, 0, 0, 1], top_category: "gambling" });
      expect((await json("/api/widget/beta-partnery")).body).toMatchObject({ trend: "-100%", trend_direction: "down" });
      expect((await json("/api/widget/zero-co")).body).toMatchObject({ trend: "+0%", trend_direction: "flat", top_category: "tools" });
    });

    it("answers 404 with found:false, slug, reports_count 0 and a page that exists", async () => {
      const res = await get("/api/widget/nope");
      expect(res.status).toBe(404);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(await res.json()).toEqual({ found: false, slug: "nope", reports_count: 0, page_url: `${BASE_URL}/companies` });
    });
  });
});
