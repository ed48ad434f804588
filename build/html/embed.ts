/**
 * The iframe widgets (/embed/{style}/{slug}): one self-contained HTML document each, with the
 * widget data (api/widget/{slug}.json) laid out for its documented size. Inline CSS only, no
 * script, nothing fetched: the meta CSP says so to any static host, and our server adds the same
 * policy as a header with `frame-ancestors *` (a meta CSP cannot allow framing). The whole widget
 * is one link that opens the company page in a new tab; names end in an ellipsis, never overflow.
 */
import { getCategoryLabel } from "../../core/categories.ts";
import { escapeMarkup as e } from "../../core/escape.ts";
import { EMBED_CSP } from "../../core/embed-policy.ts";
import type { TrendDirection } from "../../core/trend.ts";
import type { Urls } from "../../core/urls.ts";
import { renderWidget } from "../api-json/company.ts";
import type { Company } from "../model/types.ts";
import { EMBED_SIZES, type EmbedStyle } from "./embed-styles.ts";
import { formatCount, pluralize } from "../../core/format.ts";


const FONT = "system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',Arial,sans-serif";
const BASE_CSS = `html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}body{font:12px/1.25 ${FONT}}a{text-decoration:none;color:inherit}.e{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}` +
  // A page opened on its own (the iframe's URL followed) has a main landmark and a heading, read by
  // screen readers and shown to no one: the link fills the frame as it did without them.
  "main{display:block;height:100%}.vh{position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;clip-path:inset(50%);white-space:nowrap}";
const ARROWS: Record<TrendDirection, string> = { up: "▲", down: "▼", flat: "■" };

const THEMES = {
  dark: { background: "#1d2330", border: "#2f3849", text: "#f2f4f8", muted: "#b4bccb", up: "#ff8a80", down: "#7ee2a8", flat: "#b4bccb", bar: "#8ab4f8" },
  light: { background: "#ffffff", border: "#d0d5dd", text: "#1b1f24", muted: "#555d6b", up: "#b3261e", down: "#1e7b34", flat: "#555d6b", bar: "#0b57d0" },
};

type Theme = keyof typeof THEMES;

interface EmbedData {
  name: string;
  reports: number;
  trend: string;
  direction: TrendDirection;
  days: number[];
  week: number;
  category: string;
}

function toEmbedData(company: Company, urls: Urls): EmbedData {
  const widget = renderWidget(company, urls);
  return {
    name: widget.name,
    reports: widget.reports_count,
    trend: widget.trend,
    direction: widget.trend_direction,
    days: widget.last_7_days,
    week: widget.last_7_days.reduce((a, b) => a + b, 0),
    // The company's own category, as on its badge, card, page and feed entries (docs/decisions.md "Decisions", "Words").
    category: getCategoryLabel(company.category),
  };
}

function complaints(n: number): string {
  return `${formatCount(n)} ${pluralize(n, "complaint")}`;
}

/** A document of exactly one link (and a heading only screen readers get); `linkTitle` is the link's tooltip (unescaped). */
function renderDocument(title: string, css: string, href: string, linkTitle: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${EMBED_CSP}">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<meta name="referrer" content="strict-origin-when-cross-origin">
<title>${e(title)}</title>
<style>${BASE_CSS}${css}</style>
</head>
<body><main><h1 class="vh">${e(title)}</h1><a class="w" href="${e(href)}" target="_blank" rel="noopener noreferrer" title="${e(linkTitle)}">${content}</a></main></body>
</html>
`;
}

interface EmbedParts {
  css: string;
  content: string;
}

function renderBadge(d: EmbedData): EmbedParts {
  const value = d.reports === 0 ? "#2e7d32" : "#b3261e";
  const h = EMBED_SIZES.badge.height - 4;
  const css = `.w{display:inline-flex;max-width:100%;height:${h}px;margin:2px 0;border-radius:4px;overflow:hidden;font-weight:600;line-height:${h}px;color:#fff}.k{background:#444c5a;padding:0 8px;flex:0 1 auto}.v{background:${value};padding:0 8px;flex:none;white-space:nowrap}`;
  return { css, content: `<span class="e k" dir="auto">${e(d.name)}</span><span class="v">${complaints(d.reports)}</span>` };
}

function renderCounter(d: EmbedData, theme: Theme): EmbedParts {
  const c = THEMES[theme];
  const css = `.w{display:flex;flex-direction:column;justify-content:center;box-sizing:border-box;width:100%;height:100%;padding:8px 10px;border:1px solid ${c.border};border-radius:8px;background:${c.background};color:${c.text}}.n{font-size:13px;line-height:16px;font-weight:600}.c{font-size:26px;line-height:30px;font-weight:700;font-variant-numeric:tabular-nums}.l,.t{font-size:11px;line-height:14px;color:${c.muted}}.t b{color:${c[d.direction]}}`;
  return {
    css,
    content: `<span class="e n" dir="auto">${e(d.name)}</span><span class="e c">${formatCount(d.reports)}</span><span class="e l">spam ${pluralize(d.reports, "complaint")}</span><span class="e t"><b><span aria-hidden="true">${ARROWS[d.direction]}</span> ${e(d.trend)}</b> · ${formatCount(d.week)} in 7 days</span>`,
  };
}

/** Seven bars, oldest day first, scaled to the busiest day (an all-zero week draws baseline stubs). */
function renderSparkline(days: number[], color: string): string {
  const max = Math.max(1, ...days);
  const bars = days.map((n, i) => {
    const height = Math.max(2, Math.round((n / max) * 26));
    return `<rect x="${i * 8}" y="${28 - height}" width="6" height="${height}" rx="1"/>`;
  });
  return `<svg class="sp" width="54" height="28" viewBox="0 0 54 28" role="img" aria-label="Complaints per day, last 7 days: ${days.join(", ")}" fill="${color}">${bars.join("")}</svg>`;
}

function renderBanner(d: EmbedData, theme: Theme): EmbedParts {
  const c = THEMES[theme];
  const css = `.w{display:flex;align-items:center;gap:14px;box-sizing:border-box;width:100%;height:100%;padding:0 14px;border:1px solid ${c.border};border-radius:8px;background:${c.background};color:${c.text}}.id{flex:1 1 auto;min-width:0}.n{font-size:15px;line-height:19px;font-weight:700}.s,small{font-size:11px;line-height:14px;color:${c.muted}}.c,.t{flex:none;display:flex;flex-direction:column;text-align:right}.c b{font-size:20px;line-height:24px;font-variant-numeric:tabular-nums}.t b{font-size:14px;line-height:18px;color:${c[d.direction]}}.sp{flex:none}`;
  return {
    css,
    content: `<span class="id"><span class="e n" dir="auto">${e(d.name)}</span><span class="e s">${e(d.category)} · spam complaints</span></span><span class="c"><b>${formatCount(d.reports)}</b><small>${pluralize(d.reports, "complaint")}</small></span>${renderSparkline(d.days, c.bar)}<span class="t"><b><span aria-hidden="true">${ARROWS[d.direction]}</span> ${e(d.trend)}</b><small>${formatCount(d.week)} in 7 days</small></span>`,
  };
}

export function renderEmbed(company: Company, urls: Urls, style: EmbedStyle): string {
  const d = toEmbedData(company, urls);
  const theme: Theme = style.endsWith("-dark") ? "dark" : "light";
  const { css, content } = style === "badge" ? renderBadge(d) : style.startsWith("counter-") ? renderCounter(d, theme) : renderBanner(d, theme);
  const title = `${d.name}: spam complaints`;
  const linkTitle = `${d.name}: ${complaints(d.reports)}, ${d.trend} week over week. Opens the company page in a new tab.`;
  return renderDocument(title, css, urls.companyPage(company.slug), linkTitle, content);
}

/** The answer for an unknown style or company: small enough to read inside any of the embed sizes. */
export function renderEmbedNotFound(urls: Urls): string {
  const css = `.w{display:flex;align-items:center;justify-content:center;box-sizing:border-box;width:100%;height:100%;padding:0 8px;color:#555d6b;background:#fff;text-decoration:underline}`;
  return renderDocument("Not found", css, urls.companyList(), "All companies, opens in a new tab", `<span class="e">Not in the catalog: see all companies</span>`);
}
