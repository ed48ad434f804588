/**
 * The site and its links: a crawl of a built fixture finds no dead link (every `url`, `*_url` and
 * `avatar` of every JSON file, every href and src of every HTML, SVG and feed file, resolved
 * through the app), every page is well-formed HTML, hostile names come out escaped, and content
 * rows whose slug or username cannot be a path are reported instead of published.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUrlMatcher } from "../../core/routes/match.ts";
import { createApp } from "../../server/app.ts";
import { escapeMarkup } from "../../core/escape.ts";
import { FIXTURE_SQL, BASE_URL, buildFixture, type BuiltFixture } from "../helpers/fixture.ts";
import { checkHtml } from "../helpers/html-check.ts";
import { collectJsonLinks, collectLinks, listFiles, readDistFile, type FoundLink } from "../helpers/links.ts";

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("site");
});
afterAll(() => fixture.cleanup());

/** Every title in the snapshot, as a search query (global search takes at most 120 characters). */
function listSearchQueries(db: BuiltFixture["sql"]): string[] {
  const titles = db
    .prepare(
      `SELECT name FROM companies UNION ALL SELECT name FROM people UNION ALL SELECT term FROM glossary UNION ALL SELECT title FROM videos
       UNION ALL SELECT name FROM video_channels UNION ALL SELECT title FROM chat_channels UNION ALL SELECT title FROM chats
       UNION ALL SELECT title FROM blog_posts UNION ALL SELECT '@' || username FROM chats`,
    )
    .pluck()
    .all() as string[];
  return titles.map((t) => [...t].slice(0, 60).join(""));
}

/**
 * The links in search answers: they are computed by the server, not files, so the crawl asks
 * live and global search for every title the snapshot has and collects their url and avatar fields.
 */
async function collectSearchLinks(app: ReturnType<typeof createApp>, queries: string[]): Promise<{ links: FoundLink[]; failed: string[] }> {
  const links: FoundLink[] = [];
  const failed: string[] = [];
  for (const q of queries) {
    for (const route of ["/api/search", "/api/search/global"]) {
      const request = `${route}?q=${encodeURIComponent(q)}`;
      const res = await app.request(request);
      if (res.status !== 200) {
        failed.push(`${res.status} ${request}`);
        await res.arrayBuffer();
        continue;
      }
      for (const url of collectJsonLinks(await res.json())) links.push({ url: new URL(url, `${BASE_URL}/`).href, source: request });
    }
  }
  return { links, failed };
}

async function findDeadLinks(dist: string, db: BuiltFixture["sql"]): Promise<{ checked: string[]; dead: string[] }> {
  const app = createApp({ dist });
  const search = await collectSearchLinks(app, listSearchQueries(db));
  const links = [...collectLinks(dist), ...search.links];
  const dead: string[] = [...search.failed];
  const byTarget = new Map<string, FoundLink[]>();
  for (const link of links) byTarget.set(link.url, [...(byTarget.get(link.url) ?? []), link]);
  const matchRoute = createUrlMatcher();
  for (const [url, found] of byTarget) {
    const path = url.slice(BASE_URL.length);
    // A POST route's address (the bulk check's example request in openapi.json) is alive when its preflight is answered.
    const postOnly = matchRoute("GET", path.split("?")[0]!) === null && matchRoute("POST", path) !== null;
    const res = await app.request(path, { method: postOnly ? "OPTIONS" : "GET" });
    await res.arrayBuffer();
    if (res.status !== (postOnly ? 204 : 200)) dead.push(`${res.status} ${url} (from ${found.map((f) => f.source).slice(0, 3).join(", ")}${found.length > 3 ? ", …" : ""})`);
  }
  return { checked: [...byTarget.keys()], dead };
}

describe("the link crawl", () => {
  it("finds no dead link among the URLs of every JSON, HTML, SVG and feed file and of search answers", async () => {
    const { checked, dead } = await findDeadLinks(fixture.dist, fixture.sql);
    expect(dead).toEqual([]);
    // The crawl reaches every kind of target: API files, server answers, pages, images, feeds, dumps.
    for (const path of [
      "/api/check/spam_king", "/api/company/alpha-leads", "/api/widget/alpha-leads", "/api/badge/alpha-leads.svg", "/api/card/alpha-leads.svg",
      "/api/chat/traders_chat/status", "/api/chat/traders_chat/badge.svg", "/api/detection-rules", "/embed/badge/alpha-leads",
      "/company/alpha-leads", "/companies", "/people/ivan-petrov", "/avatars/ivan-petrov.svg", "/glossary/hostile-term",
      "/videos/formula-video", "/video-channels/spam-watch-tv", "/channels/spamwatch_news", "/chats/hostile_chat", "/blog/hostile-post",
      "/rss/all", "/rss/category/crypto", "/dumps/spammers-latest.csv", "/docs", "/",
    ]) {
      expect(checked).toContain(`${BASE_URL}${path}`);
    }
  });

  it("would notice a dead link in a page and in a JSON file", async () => {
    const probe = join(fixture.dist, "crawl-probe");
    mkdirSync(probe);
    try {
      writeFileSync(join(probe, "index.html"), `<!doctype html><a href="${BASE_URL}/nowhere">x</a><img src="/api/badge/nothing.svg" alt="">`);
      writeFileSync(join(probe, "probe.json"), JSON.stringify({ items: [{ page_url: `${BASE_URL}/company/nothing` }] }));
      const { dead } = await findDeadLinks(fixture.dist, fixture.sql);
      expect(dead).toEqual([
        `404 ${BASE_URL}/nowhere (from crawl-probe/index.html)`,
        `404 ${BASE_URL}/api/badge/nothing.svg (from crawl-probe/index.html)`,
        `404 ${BASE_URL}/company/nothing (from crawl-probe/probe.json)`,
      ]);
    } finally {
      rmSync(probe, { recursive: true });
    }
  });

  it("stays on the deployment: every link found is absolute on the base URL or leaves the site on purpose", () => {
    const foreign = collectLinks(fixture.dist, { keepExternal: true }).filter((l) => !l.url.startsWith(`${BASE_URL}/`));
    expect([...new Set(foreign.map((l) => new URL(l.url).origin))]).toEqual(["https://creativecommons.org"]);
  });

  it("reaches the docs, the dumps and the feeds from the landing page", () => {
    const landing = collectLinks(fixture.dist).filter((l) => l.source === "index.html").map((l) => l.url);
    for (const path of ["/docs", "/companies", "/dumps/spammers-latest.csv", "/dumps/companies-latest.csv", "/dumps/datapackage.json", "/dumps/LICENSE.txt", "/rss/all", "/rss/all.atom", "/rss/all.feed.json"]) {
      expect(landing).toContain(`${BASE_URL}${path}`);
    }
    const html = readDistFile(fixture.dist, "index.html");
    expect(html).toContain(`<link rel="alternate" type="application/rss+xml" href="${BASE_URL}/rss/all"`);
    expect(html).toContain(`<link rel="alternate" type="application/atom+xml" href="${BASE_URL}/rss/all.atom"`);
    expect(html).toContain(`<link rel="alternate" type="application/feed+json" href="${BASE_URL}/rss/all.feed.json"`);
  });
});

describe("site pages", () => {
  it("are well-formed HTML with balanced tags and escaped text, every one of them", () => {
    const pages = listFiles(fixture.dist).filter((p) => p.endsWith(".html"));
    expect(pages.length).toBeGreaterThan(60);
    const problems = pages.flatMap((path) => checkHtml(readDistFile(fixture.dist, path)).errors.map((error) => `${path}: ${error}`));
    expect(problems).toEqual([]);
  });

  it("exist for every person and content row, at the paths the API links to", () => {
    const slugs = (sql: string) => fixture.sql.prepare(sql).pluck().all() as string[];
    const expected = [
      ...slugs("SELECT 'people/' || slug FROM people"),
      ...slugs("SELECT 'glossary/' || slug FROM glossary"),
      ...slugs("SELECT 'videos/' || slug FROM videos"),
      ...slugs("SELECT 'video-channels/' || slug FROM video_channels"),
      ...slugs("SELECT 'channels/' || lower(username) FROM chat_channels"),
      ...slugs("SELECT 'chats/' || lower(username) FROM chats"),
      ...slugs("SELECT 'blog/' || slug FROM blog_posts"),
    ];
    const files = new Set(listFiles(fixture.dist));
    for (const path of expected) expect(files.has(`${path}.html`), path).toBe(true);
    for (const slug of slugs("SELECT slug FROM people")) expect(files.has(`avatars/${slug}.svg`), slug).toBe(true);
  });

  it.each([
    ["ivan-petrov", "IP", "Ivan Petrov"],
    ["mariya-ivanova", "МИ", "Мария Иванова"],
  ])("draw %s an initials avatar that is well-formed SVG", (slug, initials, name) => {
    const svg = readDistFile(fixture.dist, `avatars/${slug}.svg`);
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain(`role="img" aria-label="${name}"`);
    expect(svg).toContain(`font-weight="600">${initials}</text>`);
  });

  it.each([
    ["traders_chat", "yes", "2025-11-02", "154,320"],
    ["lapsed_chat", "no", "2025-04-30", "5,000"],
    ["quiet_chat", "no", "never", "0"],
  ])("show chat %s protected: %s, as its status JSON says", async (username, shown, began, checked) => {
    const status = await (await createApp({ dist: fixture.dist }).request(`/api/chat/${username}/status`)).json();
    expect(status.protected).toBe(shown === "yes");
    const html = readDistFile(fixture.dist, `chats/${username}.html`);
    expect(html).toContain(`<dt>Protected</dt><dd>${shown}</dd>`);
    expect(html).toContain(`<dt>Protection began</dt><dd>${began}</dd>`);
    expect(html).toContain(`<dt>Messages checked</dt><dd>${checked}</dd>`);
  });

  it("serves a company page as escaped HTML with its badge and a snippet for every embed style", async () => {
    const app = createApp({ dist: fixture.dist });
    const res = await app.request("/company/bold-co");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toContain("<h1><bdi>&lt;b&gt;Bold &amp; &quot;Co&quot;&lt;/b&gt;</bdi></h1>");
    expect(html).not.toContain("<b>Bold");
    expect(html).toContain(`<img src="${BASE_URL}/api/badge/bold-co.svg" alt="&lt;b&gt;Bold &amp; &quot;Co&quot;&lt;/b&gt;: 1 spam complaint">`);
    // The snippet is shown as text: the markup a user pastes, escaped once more for the page.
    expect(html).toContain(
      `&lt;iframe src=&quot;${BASE_URL}/embed/banner-dark/bold-co&quot; width=&quot;468&quot; height=&quot;60&quot; title=&quot;&amp;lt;b&amp;gt;Bold &amp;amp; &amp;quot;Co&amp;quot;&amp;lt;/b&amp;gt;: spam complaints&quot; loading=&quot;lazy&quot;`,
    );
    for (const style of ["badge", "counter-dark", "counter-light", "banner-dark", "banner-light"]) expect(html).toContain(`/embed/${style}/bold-co&quot;`);
    expect(html).toContain(`[![&lt;b&gt;Bold &amp; &quot;Co&quot;&lt;/b&gt;: spam complaints](${BASE_URL}/api/badge/bold-co.svg)](${BASE_URL}/company/bold-co)`);
    const list = await (await app.request("/companies")).text();
    expect(list).toContain(`<a href="${BASE_URL}/company/alpha-leads"><bdi>Alpha Leads</bdi></a>`);
    expect(list).toContain("&lt;b&gt;Bold");
  });

  it.each([
    ["glossary/hostile-term", "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co", "<script"],
    ["chats/hostile_chat", "&lt;img src=x onerror=alert(1)&gt; שלום \u202eevil", "<img src=x"],
    ["blog/hostile-post", "@everyone -check this &quot;post&quot; &amp; &lt;more&gt;", "<more>"],
    ["videos/formula-video", "+cmd|&#39; /C calc&#39;!A0 &quot;quoted&quot; video", "+cmd|'"],
  ])("escapes the hostile title of %s", (path, escaped, raw) => {
    const html = readDistFile(fixture.dist, `${path}.html`);
    expect(html).toContain(`<h1><bdi>${escaped}</bdi></h1>`);
    expect(html).not.toContain(raw);
    expect(html).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
  });

  it.each([
    ["a & b", "a &amp; b"],
    [`<x y="1">'`, "&lt;x y=&quot;1&quot;&gt;&#39;"],
    ["bell\u0007null\u0000tab\t", "bellnulltab\t"],
    ["🎰 \u202eevil", "🎰 \u202eevil"],
  ])("escapes %j", (text, escaped) => {
    expect(escapeMarkup(text)).toBe(escaped);
  });
});

describe("embeds over HTTP", () => {
  it.each(["/embed/badge/no-such-company", "/embed/sideways/alpha-leads", "/embed/badge"])("answer %s with an HTML 404 that still frames", async (path) => {
    const res = await createApp({ dist: fixture.dist }).request(path);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(await res.text()).toContain("Not in the catalog");
  });

  it("send a strict CSP that allows framing and no X-Frame-Options", async () => {
    const res = await createApp({ dist: fixture.dist }).request("/embed/counter-light/alpha-leads");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors *");
    expect(res.headers.get("x-frame-options")).toBeNull();
    const html = await res.text();
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`);
    expect(html).not.toContain("<script");
  });
});

describe("a company's category", () => {
  // beta-partnery is a crypto company whose complaints name nutra most (the widget's top_category).
  it("is the company's own on its badge, card, page and every embed, whatever its complaints name most", () => {
    const widget = JSON.parse(readDistFile(fixture.dist, "api/widget/beta-partnery.json"));
    expect(widget.top_category).toBe("nutra");
    const views = [
      readDistFile(fixture.dist, "api/card/beta-partnery.svg"),
      readDistFile(fixture.dist, "company/beta-partnery.html"),
      ...["badge", "counter-dark", "counter-light", "banner-dark", "banner-light"].map((style) => readDistFile(fixture.dist, `embed/${style}/beta-partnery.html`)),
    ];
    expect(views.filter((view) => view.includes("Crypto")).length).toBeGreaterThanOrEqual(4);
    for (const view of views) expect(view).not.toContain("Nutra");
  });
});

describe("content rows without a usable address", () => {
  const extra = `
    INSERT INTO glossary (id, term, slug, definition) VALUES (10, 'Spaced', 'bad slug!', 'x'), (11, 'Shouting', 'AFFILIATE-NETWORK', 'x');
    INSERT INTO chats (id, username, title) VALUES (10, '@Traders_Chat', 'Copycat'), (11, 'no such name!', 'Broken');
    INSERT INTO blog_posts (id, title, slug, published_at) VALUES (10, 'Dotted', '.hidden', '2026-01-01T00:00:00Z');
    INSERT INTO companies (id, name, slug, category, created_at) VALUES (20, 'Flip \u202ecipf [x]', 'flip', 'other', '2024-01-01T00:00:00Z');`;
  let odd: BuiltFixture;
  beforeAll(() => {
    odd = buildFixture("site-odd", FIXTURE_SQL + extra);
  });
  afterAll(() => odd.cleanup());

  it("are left out and reported in the build report, each with its table and id", () => {
    const byReason = Object.fromEntries(odd.summary.rejections.map((r) => [r.reason, r]));
    expect(byReason.content_invalid_path?.samples).toEqual([
      { table: "glossary", id: 10, slug: "bad slug!" },
      { table: "chats", id: 11, username: "no such name!" },
      { table: "blog_posts", id: 10, slug: ".hidden" },
    ]);
    expect(byReason.content_duplicate_path?.samples).toEqual([
      { table: "glossary", id: 11, slug: "AFFILIATE-NETWORK" },
      { table: "chats", id: 10, username: "@Traders_Chat" },
    ]);
    const traders = readDistFile(odd.dist, "chats/traders_chat.html");
    expect(traders).toContain("<h1><bdi>Traders chat</bdi></h1>");
    expect(readDistFile(odd.dist, "glossary/affiliate-network.html")).toContain("<h1><bdi>Affiliate network</bdi></h1>");
  });

  it("drop bidi controls from the name in copy-paste snippets, where they would reverse the code", () => {
    const html = readDistFile(odd.dist, "company/flip.html");
    expect(html).toContain("<h1><bdi>Flip \u202ecipf [x]</bdi></h1>");
    expect(html).toContain(`[![Flip cipf \\[x\\]: spam complaints](${BASE_URL}/api/badge/flip.svg)](${BASE_URL}/company/flip)`);
    expect(html).toContain("title=&quot;Flip cipf [x]: spam complaints&quot;");
    const snippets = [...html.matchAll(/<pre dir="ltr"><code>([^<]*)<\/code><\/pre>/g)].map((m) => m[1]!);
    expect(snippets).toHaveLength(7);
    for (const snippet of snippets) expect(snippet).not.toContain("\u202e");
  });

  it("leave no dead link behind", async () => {
    expect((await findDeadLinks(odd.dist, odd.sql)).dead).toEqual([]);
  });
});
