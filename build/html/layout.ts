/**
 * The one layout of the human site pages: plain HTML and one small inline stylesheet, no script,
 * no framework, no web font. A meta CSP forbids every script and plug-in even if a hostile string
 * slipped past escaping, and travels with the file to any static host. Every text that comes from
 * the snapshot goes through `text()` (escaped, and bidi-isolated so right-to-left or override
 * characters in one name cannot reorder the words around it). The empty data: icon stops
 * browsers from asking for a /favicon.ico that the build does not publish.
 */
import { escapeMarkup as e } from "../../core/escape.ts";
import type { Urls } from "../../core/urls.ts";

/** Images may come from anywhere (a person's avatar URL); nothing else loads, nothing runs. */
const SITE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; base-uri 'none'; form-action 'none'";

const CSS = [
  "body{font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;max-width:48rem;margin:0 auto;padding:1rem;color:#1b1b1b;background:#fff;overflow-wrap:anywhere}",
  "a{color:#0b57d0}header nav a{margin-right:1rem}h1{line-height:1.2;overflow-wrap:anywhere}",
  "table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #ddd;overflow-wrap:anywhere}",
  "td.n{text-align:right;font-variant-numeric:tabular-nums}td.nw{white-space:nowrap}dt{font-weight:600}dd{margin:0 0 .5rem;overflow-wrap:anywhere}",
  "pre{background:#f4f4f4;padding:.5rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.8125rem}",
  "code{font-family:ui-monospace,'DejaVu Sans Mono',monospace}img.avatar{border-radius:50%}",
  "footer{margin-top:2rem;border-top:1px solid #ddd;color:#555;font-size:.875rem}",
].join("");

/** A snapshot text for a page: escaped and bidi-isolated. */
export function text(value: string): string {
  return `<bdi>${e(value)}</bdi>`;
}


export interface PageOptions {
  /** The page title, unescaped. */
  title: string;
  /** Already-rendered HTML of the main content. */
  body: string;
  urls: Urls;
  /**
   * `as_of` as a date, for the footer of a page about the whole data set at that moment (the
   * landing page, the lists, the docs). A page about one entity leaves it out and shows its own
   * dates: otherwise as_of moving a day would change every page's bytes (and its ETag) with it,
   * and a day's publish would rewrite every page, however few entries changed.
   */
  asOf?: string;
  /** Extra elements for the head (already rendered). */
  head?: string;
}

export function renderPage({ title, body, urls, asOf, head = "" }: PageOptions): string {
  const feeds = [
    ["application/rss+xml", urls.rss(), "RSS"],
    ["application/atom+xml", urls.atom(), "Atom"],
    ["application/feed+json", urls.jsonFeed(), "JSON Feed"],
  ] as const;
  const alternates = feeds.map(([type, href, name]) => `<link rel="alternate" type="${type}" href="${e(href)}" title="${name}: newest reports">`).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${SITE_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${e(title)}</title>
${alternates}
${head}<style>${CSS}</style>
</head>
<body>
<header><nav aria-label="Site"><a href="${e(urls.home())}">Home</a><a href="${e(urls.companyList())}">Companies</a><a href="${e(urls.docs())}">API docs</a></nav></header>
<main>
${body}
</main>
<footer><p>${asOf === undefined ? "" : `Data as of ${e(asOf)}. `}Licensed <a href="https://creativecommons.org/licenses/by/4.0/" rel="license">CC BY 4.0</a>: please credit the source. A missing entry does not mean an account or company is clean.
Feeds: ${feeds.map(([, href, name]) => `<a href="${e(href)}">${name}</a>`).join(", ")}.</p></footer>
</body>
</html>
`;
}

/** A definition list from label/value pairs; values are already-rendered HTML, null rows are left out. */
export function renderFacts(rows: [label: string, html: string | null][]): string {
  const items = rows.filter(([, html]) => html !== null).map(([label, html]) => `<dt>${e(label)}</dt><dd>${html}</dd>`);
  return `<dl>\n${items.join("\n")}\n</dl>`;
}
