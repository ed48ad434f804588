/**
 * index.html, the landing page: what the service is, the top companies, the newest posts, and
 * links to the docs, the OpenAPI document, the dumps and the feeds; and 404.html, the page every
 * site page answers with status 404 when its slug or username names nothing. (The docs page is
 * the docs emitter's: it is generated from the OpenAPI document.)
 */
import { escapeMarkup as e } from "../../core/escape.ts";
import { formatDate } from "../../core/time.ts";
import type { EmitContext } from "../context.ts";
import { getRouteFile } from "../../core/routes/match.ts";
import { NOT_FOUND_PAGE_FILE } from "../../core/routes/table.ts";
import { formatCount } from "../../core/format.ts";
import { renderPage, text } from "../html/layout.ts";
import type { OutputFile } from "../writer/index.ts";

const TOP_COMPANIES = 10;
const NEWEST_POSTS = 5;

function renderLanding({ model, urls }: EmitContext, asOf: string): string {
  const companies = model.ranked
    .slice(0, TOP_COMPANIES)
    .map((c) => `<li><a href="${e(urls.companyPage(c.slug))}">${text(c.name)}</a>: ${formatCount(c.reportsCount)}</li>`)
    .join("\n");
  const posts = [...model.content.blogPosts]
    .sort((a, b) => (b.publishedMs ?? -Infinity) - (a.publishedMs ?? -Infinity) || a.id - b.id)
    .slice(0, NEWEST_POSTS)
    .map((post) => `<li><a href="${e(urls.blogPost(post.slug))}">${text(post.title)}</a>${post.publishedMs === null ? "" : ` (${formatDate(post.publishedMs)})`}</li>`)
    .join("\n");
  const username = model.spammerLists.top[0]?.username;
  const list = (items: string) => (items ? `<ul>\n${items}\n</ul>` : "<p>None yet.</p>");
  return renderPage({
    title: "Spam reports and company catalog",
    urls,
    asOf,
    body: `<h1>Spam reports and company catalog</h1>
<p>Check whether a messenger username was reported as a spammer, see which companies people complain about,
embed a badge on your site, or download the whole data set (CC BY 4.0).
${formatCount(model.spammerLists.total)} reported usernames, ${formatCount(model.ranked.length)} companies.</p>
<h2>For developers</h2>
<ul>
<li><a href="${e(urls.docs())}">API documentation</a>: every endpoint with examples, the limits and the licence; <a href="${e(urls.openApi())}">OpenAPI 3.1 description</a> for clients.</li>
${username ? `<li>Try it: <a href="${e(urls.spammer(username))}"><code>${e(urls.spammer(username))}</code></a></li>` : ""}
<li><a href="${e(urls.detectionRules())}">Spam detection rules</a> (JSON) for chat bots.</li>
</ul>
<h2>Most complained-about companies</h2>
${list(companies)}
<p><a href="${e(urls.companyList())}">All companies</a></p>
<h2>Open data</h2>
<ul>
<li><a href="${e(urls.dumpIndex())}">Every dump by week</a>, with sizes and SHA-256, and the usernames new each week</li>
<li><a href="${e(urls.dump("spammers-latest.csv"))}">Reported usernames (CSV)</a></li>
<li><a href="${e(urls.dump("companies-latest.csv"))}">Companies (CSV)</a></li>
<li><a href="${e(urls.dump("datapackage.json"))}">Data package (every column described)</a></li>
<li><a href="${e(urls.changeIndex())}">What changed in each publish</a>: change files to bring your copy up to date</li>
<li><a href="${e(urls.dump("LICENSE.txt"))}">Licence and credit line</a></li>
</ul>
<h2>Feeds</h2>
<ul>
<li><a href="${e(urls.rss())}">RSS</a>, <a href="${e(urls.atom())}">Atom</a>, <a href="${e(urls.jsonFeed())}">JSON Feed</a>: newest reported usernames and companies with rising complaints.</li>
<li><a href="${e(urls.changesRss())}">RSS</a>, <a href="${e(urls.changesAtom())}">Atom</a>, <a href="${e(urls.changesJsonFeed())}">JSON Feed</a>: every publish, with what it changed.</li>
</ul>
<h2>From the blog</h2>
${list(posts)}`,
  });
}

/** Constant, so a static host serves the same bytes; it never repeats the address asked for. */
function renderNotFound({ urls }: EmitContext): string {
  return renderPage({
    title: "Not found",
    urls,
    body: `<h1>Not found</h1>
<p>Nothing is published at this address. Names and usernames are found whatever their case: the
spelling may be off, or the entry is not in the catalog.</p>
<ul>
<li><a href="${e(urls.companyList())}">All companies</a></li>
<li><a href="${e(urls.home())}">The landing page</a>, with the newest posts</li>
</ul>`,
  });
}

export function* emitHomePages(ctx: EmitContext): Generator<OutputFile> {
  const asOf = formatDate(ctx.model.asOfMs);
  yield { path: getRouteFile("getHome"), data: renderLanding(ctx, asOf) };
  yield { path: NOT_FOUND_PAGE_FILE, data: renderNotFound(ctx) };
}
