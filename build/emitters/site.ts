/**
 * The human pages that API URLs point at, so every URL the API emits resolves on the same
 * deployment (DESIGN "URLs"): company/{slug}/index.html (a company's card for a person) and
 * companies/index.html plus companies/page/{n}/index.html (the ranked list, 50 a page). Plain,
 * escaped HTML with no script; the server and static hosts serve a folder's index.html.
 */
import { getCategoryLabel } from "../../core/categories.ts";
import { escapeMarkup as e } from "../../core/escape.ts";
import { formatDate } from "../../core/time.ts";
import { formatTrend, getWeekTrend } from "../../core/trend.ts";
import type { EmitContext } from "../context.ts";
import type { Company } from "../model.ts";
import type { OutputFile } from "../writer.ts";
import { getCompanyWeeks } from "./company.ts";
import { DEFAULT_COMPANY_LIMIT } from "./companies.ts";

function page(title: string, asOf: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}a{color:#0b57d0}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #ddd}td.n{text-align:right;font-variant-numeric:tabular-nums}dt{font-weight:600}footer{margin-top:2rem;color:#555;font-size:.875rem}</style>
</head>
<body>
${body}
<footer>Data as of ${e(asOf)}. Licensed CC BY 4.0: please credit the source. A missing entry does not mean an account or company is clean.</footer>
</body>
</html>
`;
}

function companyPage(company: Company, ctx: EmitContext, asOf: string): string {
  const { urls } = ctx;
  const { current, previous, days } = getCompanyWeeks(company);
  const date = (ms: number | null) => (ms === null ? "none yet" : formatDate(ms));
  const aliases = company.aliases.length ? `<dt>Also known as</dt><dd>${company.aliases.map(e).join(", ")}</dd>` : "";
  const website = company.website ? `<dt>Website</dt><dd>${e(company.website)}</dd>` : "";
  return page(
    `${company.name} — complaints`,
    asOf,
    `<p><a href="${e(urls.companyList())}">All companies</a></p>
<h1>${e(company.name)}</h1>
<dl>
<dt>Category</dt><dd>${e(getCategoryLabel(company.category))}</dd>
<dt>Complaints</dt><dd>${company.reportsCount}</dd>
<dt>First and last complaint</dt><dd>${date(company.firstReportMs)} – ${date(company.lastReportMs)}</dd>
<dt>Last 7 days</dt><dd>${current} (${e(formatTrend(getWeekTrend(current, previous)))} week over week; by day: ${days.join(", ")})</dd>
${aliases}${website}
</dl>
<p>Data: <a href="${e(`${urls.base}/api/company/${encodeURIComponent(company.slug)}`)}">JSON card</a>,
<a href="${e(`${urls.base}/api/widget/${encodeURIComponent(company.slug)}`)}">widget data</a>.</p>`,
  );
}

export function* emitSitePages(ctx: EmitContext): Generator<OutputFile> {
  const { model, urls } = ctx;
  const asOf = formatDate(model.asOfMs);
  for (const company of model.ranked) {
    yield { path: `company/${company.slug}/index.html`, data: companyPage(company, ctx, asOf) };
  }
  const ranked = model.ranked;
  const pages = Math.max(1, Math.ceil(ranked.length / DEFAULT_COMPANY_LIMIT));
  for (let n = 1; n <= pages; n++) {
    const rows = ranked
      .slice((n - 1) * DEFAULT_COMPANY_LIMIT, n * DEFAULT_COMPANY_LIMIT)
      .map((c, i) => `<tr><td class="n">${(n - 1) * DEFAULT_COMPANY_LIMIT + i + 1}</td><td><a href="${e(urls.companyPage(c.slug))}">${e(c.name)}</a></td><td>${e(getCategoryLabel(c.category))}</td><td class="n">${c.reportsCount}</td></tr>`)
      .join("\n");
    const nav = [n > 1 ? `<a href="${e(n === 2 ? urls.companyList() : `${urls.companyList()}/page/${n - 1}`)}" rel="prev">Previous</a>` : "", n < pages ? `<a href="${e(`${urls.companyList()}/page/${n + 1}`)}" rel="next">Next</a>` : ""]
      .filter(Boolean)
      .join(" · ");
    const html = page(
      `Companies by complaints${n > 1 ? ` — page ${n}` : ""}`,
      asOf,
      `<h1>Companies by complaints</h1>
<p>${ranked.length} companies, most complaints first. Page ${n} of ${pages}. <a href="${e(`${urls.base}/api/companies`)}">JSON</a></p>
<table>
<thead><tr><th scope="col">#</th><th scope="col">Company</th><th scope="col">Category</th><th scope="col">Complaints</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<nav>${nav}</nav>`,
    );
    yield { path: n === 1 ? "companies/index.html" : `companies/page/${n}/index.html`, data: html };
  }
}
