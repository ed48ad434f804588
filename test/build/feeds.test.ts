/**
 * The feeds: every RSS, Atom and JSON Feed file parses with a real parser, lists the entries
 * the fixture's SQL says it should, carries the CC BY 4.0 credit, escapes hostile text, holds no
 * control characters, and is byte-identical across builds; the server answers /rss/all with the
 * RSS media type, caching and 304s.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInMemory } from "../../build/build.ts";
import { CATEGORIES } from "../../core/categories.ts";
import { escapeMarkup } from "../../core/escape.ts";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";
import { expectedCard, expectedCompanies, expectedNewestUsernames } from "../helpers/expected.ts";
import { FIXTURE_SQL, BASE_URL, buildFixture, withSnapshot, type BuiltFixture } from "../helpers/fixture.ts";

/**
 * Hostile text where the feeds put it: a source with markup, a literal "&amp;", a CDATA end and
 * a bell; a rising company whose name closes CDATA sections twice; a fresh username naming it.
 */
const HOSTILE = `
UPDATE meta SET value = 'Test fixture <&> "&amp;" ]]>' || char(7) WHERE key = 'source';
INSERT INTO companies (id, name, slug, category, website, created_at) VALUES
  (10, ']]><script>alert(1)</script>]]> & &amp; ' || char(7) || 'bell', 'cdata-co', 'crypto', NULL, '2024-03-01T00:00:00Z');
INSERT INTO reports (id, username, category, company_id, person_id, reporter, confidence, created_at) VALUES
  (1001, 'fresh_one', 'crypto', 10, NULL, 'r20', 70, '2026-03-11T09:30:00Z'),
  (1002, NULL, 'crypto', 10, NULL, 'r21', 50, '2026-03-10T09:30:00Z');
`;
const SOURCE = 'Test fixture <&> "&amp;" ]]>';
const RIGHTS = `${SOURCE}, CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)`;
const CREDIT = `Data: ${SOURCE} (${BASE_URL}/), licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/).`;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const CONTROLS = new RegExp(CONTROL, "g");
const SCOPES = [null, ...CATEGORIES];
const fileOf = (category: string | null) => (category === null ? "rss/all" : `rss/category/${category}`);

/** Elements that may repeat, read as arrays even when there is one. */
const ARRAYS = new Set(["rss.channel.item", "rss.channel.item.category", "rss.channel.atom:link", "feed.link", "feed.entry", "feed.entry.link", "feed.entry.category"]);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  jPath: true,
  isArray: (_name, path) => ARRAYS.has(String(path)),
});

function parseXml(text: string): any {
  expect(XMLValidator.validate(text)).toBe(true);
  return parser.parse(text);
}

const decodeHtml = (html: string) =>
  html.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");

/** The JSON Feed 1.1 requirements (https://www.jsonfeed.org/version/1.1/) as a list of what is missing. */
function checkJsonFeed(feed: any): string[] {
  const problems: string[] = [];
  if (feed.version !== "https://jsonfeed.org/version/1.1") problems.push("version");
  if (typeof feed.title !== "string" || !feed.title) problems.push("title");
  if (!Array.isArray(feed.items)) return [...problems, "items"];
  for (const [key, value] of Object.entries(feed)) if (key.endsWith("_url") && typeof value !== "string") problems.push(key);
  for (const author of feed.authors ?? []) if (!author.name && !author.url) problems.push("authors[].name or url");
  feed.items.forEach((item: any, i: number) => {
    if (typeof item.id !== "string" || !item.id) problems.push(`items[${i}].id`);
    if (typeof item.content_html !== "string" && typeof item.content_text !== "string") problems.push(`items[${i}].content`);
    if (item.date_published !== undefined && Number.isNaN(Date.parse(item.date_published))) problems.push(`items[${i}].date_published`);
  });
  return problems;
}

let fixture: BuiltFixture;
let asOf: string;
beforeAll(() => {
  fixture = buildFixture("feeds", FIXTURE_SQL + HOSTILE);
  asOf = fixture.sql.prepare("SELECT value FROM meta WHERE key = 'as_of'").pluck().get() as string;
});
afterAll(() => fixture.cleanup());
const read = (path: string) => readFileSync(join(fixture.dist, path), "utf8");

interface Expected {
  id: string;
  link: string;
  date: string;
  title: string;
}

/**
 * Rising companies (more complaints in the last 7 days than the 7 before, most added first),
 * dated at the start of as_of's day, then the newest usernames; newest first, stable.
 */
function expectedEntries(category: string | null): Expected[] {
  const day = asOf.slice(0, 10);
  const companies = expectedCompanies(fixture.sql)
    .map((c) => ({ ...c, category: expectedCard(fixture.sql, c).category }))
    .filter((c) => c.cur > c.prev && (category === null || c.category === category))
    .sort((a, b) => b.cur - b.prev - (a.cur - a.prev) || b.n - a.n || (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1))
    .map((c) => ({ id: `${BASE_URL}/company/${c.slug}#rising-${day}`, link: `${BASE_URL}/company/${c.slug}`, date: `${day}T00:00:00Z`, title: `Rising complaints: ${c.name.replace(CONTROLS, "")} (` }));
  const usernames = expectedNewestUsernames(fixture.sql, category, 50).map((u) => ({
    id: `${BASE_URL}/api/check/${u.username}`,
    link: `${BASE_URL}/api/check/${u.username}`,
    date: u.first,
    title: `Newly reported: @${u.username}`,
  }));
  return [...companies, ...usernames].sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
}

describe.each(SCOPES)("the %s feed", (category) => {
  const file = () => fileOf(category);

  it("is RSS 2.0 with a channel, the credit and one item per expected entry", () => {
    const { rss } = parseXml(read(`${file()}.rss`));
    expect(rss["@version"]).toBe("2.0");
    const channel = rss.channel;
    expect(channel.title).toMatch(/^Newly reported usernames and rising companies/);
    expect(channel.link).toBe(`${BASE_URL}/`);
    // Readers show these as HTML: the source's markup is escaped HTML, which reads back as the literal text.
    expect(channel.copyright).toBe(escapeMarkup(RIGHTS));
    expect(decodeHtml(channel.description).endsWith(CREDIT)).toBe(true);
    expect(channel.description).not.toContain(SOURCE);
    expect(channel.lastBuildDate).toBe(new Date(asOf).toUTCString());
    expect(channel["atom:link"][0]["@href"]).toBe(`${BASE_URL}/${file()}`);
    const items: any[] = channel.item ?? [];
    const expected = expectedEntries(category);
    // Categories nobody reported this time give an empty but valid feed.
    if (category === null || category === "crypto") expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(items.map((i) => i.guid["#text"])).toEqual(expected.map((e) => e.id));
    items.forEach((item, i) => {
      expect(item.guid["@isPermaLink"]).toBe("false");
      expect(item.link).toBe(expected[i]!.link);
      expect(item.pubDate).toBe(new Date(expected[i]!.date).toUTCString());
      expect(decodeHtml(item.title).startsWith(expected[i]!.title), item.title).toBe(true);
      if (category !== null) expect(item.category).toContain(category);
    });
  });

  it("is Atom with an id, rights, an author and the same entries", () => {
    const { feed } = parseXml(read(`${file()}.atom`));
    expect(feed["@xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(feed.id).toBe(`${BASE_URL}/${file()}.atom`);
    expect(feed.updated).toBe(new Date(asOf).toISOString());
    // Text constructs that say they are HTML, with the source escaped (an author's name is text).
    expect(feed.title["@type"]).toBe("html");
    expect(feed.rights).toEqual({ "@type": "html", "#text": escapeMarkup(RIGHTS) });
    expect(feed.subtitle["@type"]).toBe("html");
    expect(decodeHtml(feed.subtitle["#text"]).endsWith(CREDIT)).toBe(true);
    expect(feed.author.name).toBe(SOURCE);
    const expected = expectedEntries(category);
    const entries: any[] = feed.entry ?? [];
    expect(entries.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    entries.forEach((entry, i) => {
      expect(entry.link[0]["@href"]).toBe(expected[i]!.link);
      expect(entry.updated).toBe(new Date(expected[i]!.date).toISOString());
      expect(entry.title["@type"]).toBe("html");
    });
  });

  it("is JSON Feed 1.1 with the credit and the same items", () => {
    const feed = JSON.parse(read(`${file()}.feed.json`));
    expect(checkJsonFeed(feed)).toEqual([]);
    expect(feed.feed_url).toBe(`${BASE_URL}/${file()}.feed.json`);
    expect(feed.description.endsWith(CREDIT)).toBe(true);
    expect(feed.authors).toEqual([{ name: SOURCE, url: `${BASE_URL}/` }]);
    expect(feed._license).toMatchObject({ name: "CC-BY-4.0", url: "https://creativecommons.org/licenses/by/4.0/", credit: CREDIT });
    const expected = expectedEntries(category);
    expect(feed.items.map((i: any) => i.id)).toEqual(expected.map((e) => e.id));
    feed.items.forEach((item: any, i: number) => {
      expect(item.url).toBe(expected[i]!.link);
      expect(item.date_published).toBe(new Date(expected[i]!.date).toISOString());
      expect(item.title.startsWith(expected[i]!.title), item.title).toBe(true);
    });
  });
});

describe("feed content", () => {
  const allFiles = () => SCOPES.flatMap((c) => [`${fileOf(c)}.rss`, `${fileOf(c)}.atom`, `${fileOf(c)}.feed.json`]);

  it("escapes a hostile company name in every format, however many CDATA ends it holds", () => {
    const item = parseXml(read("rss/all.rss")).rss.channel.item.find((i: any) => i.link === `${BASE_URL}/company/cdata-co`);
    expect(item.title).toBe("Rising complaints: ]]&gt;&lt;script&gt;alert(1)&lt;/script&gt;]]&gt; &amp; &amp;amp; bell (+100%)");
    expect(item.description).toContain(">]]&gt;&lt;script&gt;alert(1)&lt;/script&gt;]]&gt; &amp; &amp;amp; bell</a> (Crypto): 2 complaints");
    const entry = parseXml(read("rss/all.atom")).feed.entry.find((e: any) => e.link[0]["@href"] === `${BASE_URL}/company/cdata-co`);
    expect(entry.title["#text"]).toBe(item.title);
    const json = JSON.parse(read("rss/all.feed.json")).items.find((i: any) => i.url === `${BASE_URL}/company/cdata-co`);
    expect(json.title).toBe("Rising complaints: ]]><script>alert(1)</script>]]> & &amp; bell (+100%)");
    expect(json.content_html).not.toContain("<script>");
    const fresh = parseXml(read("rss/all.rss")).rss.channel.item.find((i: any) => i.link === `${BASE_URL}/api/check/fresh_one`);
    expect(fresh.description).toContain(`Named with: <a href="${BASE_URL}/company/cdata-co">]]&gt;&lt;script&gt;`);
  });

  it("lets no control character into any feed file, and no script tag into any XML or HTML", () => {
    for (const path of allFiles()) {
      const text = read(path);
      expect(text, path).not.toMatch(CONTROL);
      // JSON Feed titles are plain text, so only its HTML is checked.
      if (path.endsWith(".json")) for (const item of JSON.parse(text).items) expect(item.content_html, path).not.toContain("<script>");
      else expect(text, path).not.toContain("<script>");
    }
  });

  it("gives the same bytes in two builds", () => {
    const again = buildInMemory({ db: fixture.db, baseUrl: BASE_URL }).files;
    for (const path of allFiles()) expect(again.get(path)?.toString("utf8"), path).toBe(read(path));
  });

  it.each(["all.rss", "all.atom", "all.feed.json", "category/crypto.rss"])("matches the golden file for %s", (name) => {
    const golden = new URL(`../golden/feeds/${name.replace("/", "-")}`, import.meta.url);
    const actual = read(`rss/${name}`);
    if (process.env.UPDATE_GOLDEN === "1") {
      mkdirSync(new URL("../golden/feeds/", import.meta.url), { recursive: true });
      writeFileSync(golden, actual);
    }
    expect(actual).toBe(readFileSync(golden, "utf8"));
  });

  it("caps a feed at 50 newest usernames and 20 rising companies", () => {
    const rows: string[] = [];
    for (let i = 0; i < 60; i++) rows.push(`(${2000 + i}, 'many_${String(i).padStart(2, "0")}', 'adult', NULL, NULL, 'm${i}', 50, '2026-03-0${1 + (i % 9)}T10:00:00Z')`);
    const companies: string[] = [];
    for (let i = 0; i < 25; i++) {
      companies.push(`(${100 + i}, 'Riser ${i}', 'riser-${i}', 'adult', NULL, '2024-01-01T00:00:00Z')`);
      rows.push(`(${3000 + i}, NULL, 'adult', ${100 + i}, NULL, 'c${i}', 50, '2026-03-10T10:00:00Z')`);
    }
    const sql = `${FIXTURE_SQL}\nINSERT INTO companies (id, name, slug, category, website, created_at) VALUES ${companies.join(",")};
      INSERT INTO reports (id, username, category, company_id, person_id, reporter, confidence, created_at) VALUES ${rows.join(",")};`;
    const files = withSnapshot("feeds-cap", sql, (db) => buildInMemory({ db, baseUrl: BASE_URL }).files);
    const items: any[] = parseXml(files.get("rss/category/adult.rss")!.toString()).rss.channel.item;
    expect(items.filter((i) => i.link.includes("/api/check/")).length).toBe(50);
    expect(items.filter((i) => i.link.includes("/company/")).length).toBe(20);
    expect(items[20].link).toBe(`${BASE_URL}/api/check/many_08`);
  });
});

describe.each(CLIENT_KINDS)("serving the feeds (%s)", (kind) => {
  let client: Client;
  beforeAll(async () => {
    client = await createClient(kind, fixture.dist);
  });
  afterAll(() => client.close());

  it.each([
    ["/rss/all", "rss/all.rss", "application/rss+xml; charset=utf-8"],
    ["/rss/all.atom", "rss/all.atom", "application/atom+xml; charset=utf-8"],
    ["/rss/all.feed.json", "rss/all.feed.json", "application/feed+json; charset=utf-8"],
    ["/rss/category/crypto", "rss/category/crypto.rss", "application/rss+xml; charset=utf-8"],
  ])("answers %s with its media type, five minutes of caching and a strong ETag", async (path, file, type) => {
    const res = await client.fetch(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(await res.text()).toBe(read(file));
  });

  it("answers 304 with no body when the ETag matches", async () => {
    const etag = (await client.fetch("/rss/all")).headers.get("etag")!;
    const again = await client.fetch("/rss/all", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
  });

  it("answers an unknown feed with a problem+json 404", async () => {
    for (const path of ["/rss/category/nope", "/rss/all.xml", "/rss/"]) {
      const res = await client.fetch(path);
      expect(res.status, path).toBe(404);
    }
  });
});
