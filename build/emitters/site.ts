/**
 * The company pages that API URLs point at, so every URL the API emits resolves on the same
 * deployment (DESIGN "URLs"): company/{slug}.html (a company's card for a person, with its
 * badge and copy-paste snippets for the badge and each embed) and companies/index.html plus
 * companies/page/{n}/index.html (the ranked list, 50 a page). Layout: build/html/layout.ts.
 */
import { getCategoryLabel } from "../../core/categories.ts";
import { escapeMarkup as e } from "../../core/escape.ts";
import { formatDate } from "../../core/time.ts";
import { formatTrend, getWeekTrend } from "../../core/trend.ts";
import type { EmitContext } from "../context.ts";
import { EMBED_SIZES, EMBED_STYLES, renderBadgeHtml, renderBadgeMarkdown, renderIframeSnippet } from "../html/embed-styles.ts";
import { formatCount, pluralize } from "../../core/format.ts";
import { renderFacts, renderPage, text } from "../html/layout.ts";
import type { Company } from "../model/types.ts";
import type { OutputFile } from "../writer/index.ts";
import { getCompanyWeeks } from "../model/company-shows.ts";
import { LIST_LIMIT } from "../../core/routes/table.ts";
import { getRouteFile } from "../../core/routes/match.ts";

function renderSnippet(id: string, label: string, code: string): string {
  return `<h3 id="${id}">${e(label)}</h3>\n<pre dir="ltr"><code>${e(code)}</code></pre>`;
}

function companyPage(company: Company, { urls }: EmitContext, asOf: string): string {
  const { slug, name } = company;
  const { current, previous, days } = getCompanyWeeks(company);
  const date = (ms: number | null) => (ms === null ? "none yet" : formatDate(ms));
  const facts = renderFacts([
    ["Category", e(getCategoryLabel(company.category))],
    ["Complaints", formatCount(company.reportsCount)],
    ["First and last complaint", `${date(company.firstReportMs)} – ${date(company.lastReportMs)}`],
    // The window's end only where the window holds reports: a quiet company's page stays the same bytes as as_of moves.
    current + previous === 0
      ? ["Last 7 days", "none, nor in the 7 before"]
      : [`Last 7 days, to ${asOf}`, `${formatCount(current)} (${e(formatTrend(getWeekTrend(current, previous)))} week over week; by day, oldest first: ${days.join(", ")})`],
    ["Also known as", company.aliases.length ? company.aliases.map(text).join(", ") : null],
    ["Website", company.website ? text(company.website) : null],
  ]);
  const embeds = EMBED_STYLES.map((style) => {
    const { width, height } = EMBED_SIZES[style];
    return renderSnippet(`embed-${style}`, `Embed: ${style} (${width}×${height})`, renderIframeSnippet(urls, slug, name, style));
  });
  return renderPage({
    title: `${name}: spam complaints`,
    urls,
    body: `<p><a href="${e(urls.companyList())}">All companies</a></p>
<h1>${text(name)}</h1>
<p><img src="${e(urls.badge(slug))}" alt="${e(`${name}: ${formatCount(company.reportsCount)} spam ${pluralize(company.reportsCount, "complaint")}`)}"></p>
${facts}
<p>Data: <a href="${e(`${urls.base}/api/company/${encodeURIComponent(slug)}`)}">JSON card</a>,
<a href="${e(`${urls.base}/api/widget/${encodeURIComponent(slug)}`)}">widget data</a>,
<a href="${e(urls.card(slug))}">SVG card</a>.</p>
<h2>Badge and embeds for your site</h2>
<p>Copy one of these into your page. Embeds are sized iframes without script; they open this page in a new tab.</p>
${renderSnippet("badge-markdown", "Badge: Markdown", renderBadgeMarkdown(urls, slug, name))}
${renderSnippet("badge-html", "Badge: HTML", renderBadgeHtml(urls, slug, name))}
${embeds.join("\n")}`,
  });
}

function companyListPage(ranked: readonly Company[], n: number, pages: number, { urls }: EmitContext, asOf: string): string {
  const first = (n - 1) * LIST_LIMIT.default;
  const rows = ranked
    .slice(first, first + LIST_LIMIT.default)
    .map((c, i) => `<tr><td class="n">${first + i + 1}</td><td><a href="${e(urls.companyPage(c.slug))}">${text(c.name)}</a></td><td>${e(getCategoryLabel(c.category))}</td><td class="n">${formatCount(c.reportsCount)}</td></tr>`)
    .join("\n");
  const pageUrl = (k: number) => urls.companyListPage(k);
  const nav = [n > 1 ? `<a href="${e(pageUrl(n - 1))}" rel="prev">Previous</a>` : "", n < pages ? `<a href="${e(pageUrl(n + 1))}" rel="next">Next</a>` : ""]
    .filter(Boolean)
    .join(" · ");
  return renderPage({
    title: `Companies by complaints${n > 1 ? ` — page ${n}` : ""}`,
    urls,
    asOf,
    body: `<h1>Companies by complaints</h1>
<p>${formatCount(ranked.length)} companies, most complaints first. Page ${n} of ${pages}. <a href="${e(`${urls.base}/api/companies`)}">JSON</a></p>
<table>
<thead><tr><th scope="col">#</th><th scope="col">Company</th><th scope="col">Category</th><th scope="col">Complaints</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<nav aria-label="Pages">${nav}</nav>`,
  });
}

export function* emitSitePages(ctx: EmitContext): Generator<OutputFile> {
  const { model } = ctx;
  const asOf = formatDate(model.asOfMs);
  for (const company of model.ranked) {
    yield { path: getRouteFile("getCompanyPage", { slug: company.slug }), data: companyPage(company, ctx, asOf) };
  }
  const ranked = model.ranked;
  const pages = Math.max(1, Math.ceil(ranked.length / LIST_LIMIT.default));
  for (let n = 1; n <= pages; n++) {
    yield { path: n === 1 ? getRouteFile("getCompanyListHtml") : getRouteFile("getCompanyListHtmlPage", { page: n }), data: companyListPage(ranked, n, pages, ctx, asOf) };
  }
}
