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
import { SEARCH_INDEX_FILES } from "../../core/routes/table.ts";
import { createApp } from "../../server/app.ts";
import { escapeMarkup } from "../../core/escape.ts";
import { buildInMemory } from "../../build/build.ts";
import { FIXTURE_SQL, BASE_URL, buildFixture, withSnapshot, type BuiltFixture } from "../helpers/fixture.ts";
import { checkHtml } from "../helpers/html-check.ts";
import { collectJsonLinks, collectLinks, listFiles, readDistFile, toServerPath, type FoundLink } from "../helpers/links.ts";

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
       UNION ALL SELECT title FROM blog_posts UNION ALL SELECT '@' || username FROM chats UNION ALL SELECT DISTINCT username FROM reports WHERE username IS NOT NULL`,
    )
    .pluck()
    .all() as string[];
  return titles.map((t) => [...t].slice(0, 60).join(""));
}

/**
 * The links in search answers: they are computed by the server, not files, so the crawl asks
 * live and global search for every title the snapshot has and collects their url and avatar
 * fields, resolved as a browser on the deployment would (a site-relative one against its origin).
 */
async function collectSearchLinks(app: ReturnType<typeof createApp>, queries: string[], baseUrl: string): Promise<{ links: FoundLink[]; failed: string[] }> {
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
      for (const url of collectJsonLinks(await res.json())) links.push({ url: new URL(url, `${baseUrl}/`).href, source: request });
    }
  }
  return { links, failed };
}

/** Every link of the build, of search answers and of the JSON answers they reach that is not under `baseUrl` or does not answer 200 (204 for a POST's preflight). */
async function findDeadLinks(built: Pick<BuiltFixture, "dist" | "sql" | "baseUrl">): Promise<{ checked: string[]; dead: string[] }> {
  const { dist, baseUrl } = built;
  const app = createApp({ dist });
  const search = await collectSearchLinks(app, listSearchQueries(built.sql), baseUrl);
  // The global index holds its pages as paths below the base URL (core/search/global-index.ts), not as links.
  const indexed = (JSON.parse(readDistFile(dist, SEARCH_INDEX_FILES.global)) as { urls: string[] }).urls.map((path) => ({ url: baseUrl + path, source: SEARCH_INDEX_FILES.global }));
  const links = [...collectLinks(dist, { baseUrl }), ...search.links, ...indexed];
  const dead: string[] = [...search.failed];
  const byTarget = new Map<string, FoundLink[]>();
  // Links to other hosts are left out, as collectLinks does; another path on this host is kept and reported.
  const add = (link: FoundLink) => {
    if (new URL(link.url).origin === new URL(baseUrl).origin) byTarget.set(link.url, [...(byTarget.get(link.url) ?? []), link]);
  };
  for (const link of links) add(link);
  const matchRoute = createUrlMatcher();
  for (const [url, found] of byTarget) {
    const from = `(from ${found.map((f) => f.source).slice(0, 3).join(", ")}${found.length > 3 ? ", …" : ""})`;
    // The server sees the path below the base URL's own: a reverse proxy strips the prefix.
    const path = toServerPath(url, baseUrl);
    if (path === null) {
      dead.push(`outside the base URL: ${url} ${from}`);
      continue;
    }
    // A POST route's address (the bulk check's example request in openapi.json) is alive when its preflight is answered.
    const postOnly = matchRoute("GET", path.split("?")[0]!) === null && matchRoute("POST", path) !== null;
    const res = await app.request(path, { method: postOnly ? "OPTIONS" : "GET" });
    if (res.status !== (postOnly ? 204 : 200)) dead.push(`${res.status} ${url} ${from}`);
    // A JSON answer's own links are followed too (the map visits what is added while it is walked):
    // the server computes some answers (a query form, a lookup) from files with URLs of their own.
    if (res.status === 200 && /json/.test(res.headers.get("content-type") ?? "")) {
      for (const raw of collectJsonLinks(await res.json(), [], baseUrl)) add({ url: new URL(raw, `${baseUrl}/`).href, source: path });
    } else await res.arrayBuffer();
  }
  return { checked: [...byTarget.keys()], dead };
}

// At the root of a host and under a path (docs/operators.md "Base URL with a path"): every URL of every artefact stays under the base.
describe.each([BASE_URL, `${BASE_URL}/spam-api`])("the link crawl of a build for %s", (baseUrl) => {
  let built: BuiltFixture;
  beforeAll(() => {
    built = baseUrl === BASE_URL ? fixture : buildFixture("site-prefix", undefined, { baseUrl });
  });
  afterAll(() => {
    if (built !== fixture) built.cleanup();
  });

  it("finds no dead link among the URLs of every JSON, HTML, SVG and feed file and of search answers", async () => {
    const { checked, dead } = await findDeadLinks(built);
    expect(dead).toEqual([]);
    // The crawl reaches every kind of target: API files, server answers, pages, images, feeds, dumps.
    for (const path of [
      "/api/check/spam_king", "/api/company/alpha-leads", "/api/widget/alpha-leads", "/api/badge/alpha-leads.svg", "/api/card/alpha-leads.svg",
      "/api/chat/traders_chat/status", "/api/chat/traders_chat/badge.svg", "/api/detection-rules", "/embed/badge/alpha-leads",
      "/company/alpha-leads", "/companies", "/people/ivan-petrov", "/avatars/ivan-petrov.svg", "/glossary/hostile-term",
      "/videos/formula-video", "/video-channels/spam-watch-tv", "/channels/spamwatch_news", "/chats/hostile_chat", "/blog/hostile-post",
      "/rss/all", "/rss/category/crypto", "/dumps/spammers-latest.csv", "/docs", "/",
    ]) {
      expect(checked).toContain(`${baseUrl}${path}`);
    }
  });

  it("would notice a dead link in a page and in a JSON file, and one outside the base URL", async () => {
    const probe = join(built.dist, "crawl-probe");
    mkdirSync(probe);
    try {
      writeFileSync(join(probe, "index.html"), `<!doctype html><a href="${baseUrl}/nowhere">x</a><img src="${new URL(baseUrl).pathname.replace(/\/$/, "")}/api/badge/nothing.svg" alt="">`);
      // A site-relative path without the base URL's path is alive at the root and outside the deployment under a prefix.
      writeFileSync(join(probe, "probe.json"), JSON.stringify({ items: [{ page_url: `${baseUrl}/company/nothing` }, { url: "/company/alpha-leads" }] }));
      const { dead } = await findDeadLinks(built);
      expect(dead).toEqual([
        `404 ${baseUrl}/nowhere (from crawl-probe/index.html)`,
        `404 ${baseUrl}/api/badge/nothing.svg (from crawl-probe/index.html)`,
        `404 ${baseUrl}/company/nothing (from crawl-probe/probe.json)`,
        ...(baseUrl === BASE_URL ? [] : [`outside the base URL: ${BASE_URL}/company/alpha-leads (from crawl-probe/probe.json)`]),
      ]);
    } finally {
      rmSync(probe, { recursive: true });
    }
  });

  it("stays on the deployment: every link found is absolute on the base URL or leaves the site on purpose", () => {
    const foreign = collectLinks(built.dist, { baseUrl, keepExternal: true }).filter((l) => toServerPath(l.url, baseUrl) === null);
    expect([...new Set(foreign.map((l) => new URL(l.url).origin))]).toEqual(["https://creativecommons.org"]);
  });

  it("sends another spelling of a page to its canonical URL under the base URL, and names the company list there in a widget 404", async () => {
    const app = createApp({ dist: built.dist });
    const moved = await app.request("/company/Alpha%20Leads?x=1");
    expect([moved.status, moved.headers.get("location")]).toEqual([301, `${baseUrl}/company/alpha-leads?x=1`]);
    const missing = await app.request("/api/widget/no-such-company");
    expect([missing.status, (await missing.json()).page_url]).toEqual([404, `${baseUrl}/companies`]);
  });

  it("reaches the docs, the dumps and the feeds from the landing page", () => {
    const landing = collectLinks(built.dist, { baseUrl }).filter((l) => l.source === "index.html").map((l) => l.url);
    for (const path of ["/docs", "/companies", "/dumps/spammers-latest.csv", "/dumps/companies-latest.csv", "/dumps/datapackage.json", "/dumps/LICENSE.txt", "/rss/all", "/rss/all.atom", "/rss/all.feed.json"]) {
      expect(landing).toContain(`${baseUrl}${path}`);
    }
    const html = readDistFile(built.dist, "index.html");
    expect(html).toContain(`<link rel="alternate" type="application/rss+xml" href="${baseUrl}/rss/all"`);
    expect(html).toContain(`<link rel="alternate" type="application/atom+xml" href="${baseUrl}/rss/all.atom"`);
    expect(html).toContain(`<link rel="alternate" type="application/feed+json" href="${baseUrl}/rss/all.feed.json"`);
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
    expect((await findDeadLinks(odd)).dead).toEqual([]);
  });
});

describe("the date the data is as of", () => {
  /** The fixture built as it is and with as_of a day later, in memory: every file by path. */
  function buildTwoDays(): [Map<string, Buffer>, Map<string, Buffer>] {
    const later = `${FIXTURE_SQL}\nUPDATE meta SET value = strftime('%Y-%m-%dT%H:%M:%SZ', value, '+1 day') WHERE key = 'as_of';`;
    return [FIXTURE_SQL, later].map((sql) => withSnapshot("as-of", sql, (db) => buildInMemory({ db, baseUrl: BASE_URL }).files)) as [Map<string, Buffer>, Map<string, Buffer>];
  }

  it("is on the pages of the whole data set, not on one entity's, so as_of moving leaves those pages' bytes alone", () => {
    const [before, after] = buildTwoDays();
    const text = (files: Map<string, Buffer>, path: string) => files.get(path)!.toString("utf8");
    for (const path of ["index.html", "companies/index.html", "docs/index.html"]) {
      expect(text(before, path)).toContain("Data as of 2026-03-11.");
      expect(text(after, path)).toContain("Data as of 2026-03-12.");
    }
    const entityPages = [...after.keys()].filter((p) => /^(people|videos|video-channels|channels|chats|blog|glossary)\/.*\.html$/.test(p));
    expect(entityPages.length).toBeGreaterThan(10);
    for (const path of [...entityPages, "404.html"]) {
      expect(text(after, path), path).not.toContain("Data as of");
      expect(after.get(path)!.equals(before.get(path)!), path).toBe(true);
    }
    // A company page names the window's end only when the window holds reports; a quiet company's page stays as it was.
    const companyPages = [...after.keys()].filter((p) => /^company\/.*\.html$/.test(p));
    const quiet = companyPages.filter((p) => text(after, p).includes("<dt>Last 7 days</dt><dd>none, nor in the 7 before</dd>"));
    const active = companyPages.filter((p) => text(after, p).includes("<dt>Last 7 days, to 2026-03-12</dt>"));
    expect(quiet.length).toBeGreaterThan(0);
    expect(active.length).toBeGreaterThan(0);
    expect(quiet.length + active.length).toBe(companyPages.length);
    for (const path of quiet) expect(after.get(path)!.equals(before.get(path)!), path).toBe(true);
  });
});
