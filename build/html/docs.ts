/**
 * The API documentation page (/docs): every endpoint with a working example from this build's
 * own data, the limits, the errors and the licence. Examples are links, so the dead-link crawl
 * proves each of them answers on the deployment (the POST is shown as a curl command instead).
 */
import { CATEGORIES, getCategoryLabel } from "../../core/categories.ts";
import { escapeMarkup as e } from "../../core/escape.ts";
import type { Urls } from "../../core/urls.ts";
import { EMBED_SIZES, EMBED_STYLES } from "./embed-styles.ts";

/** Real keys of this build for the examples; null when the snapshot has none of that kind. */
export interface DocsExamples {
  companySlug: string | null;
  /** A word to search for (part of a company name). */
  searchWord: string | null;
  username: string | null;
  chatUsername: string | null;
}

interface Endpoint {
  method: "GET" | "POST";
  path: string;
  purpose: string;
  /** An absolute example URL (GET) or a command (POST); null when the build has nothing to show. */
  example: string | null;
}

function listEndpoints(urls: Urls, x: DocsExamples): Endpoint[] {
  const b = urls.base;
  const slug = x.companySlug;
  const q = encodeURIComponent(x.searchWord ?? "spam");
  return [
    { method: "GET", path: "/api/check/{username}", purpose: "Whether a messenger username was reported, with counts, categories and companies. A leading @ is optional. Unknown names answer 200 with found:false.", example: x.username && urls.spammer(x.username) },
    { method: "GET", path: "/api/spammers?limit=&username=&category=", purpose: "Reported usernames, most reports first (limit 1..200, default 50).", example: `${b}/api/spammers?limit=10&category=crypto` },
    { method: "GET", path: "/api/companies?limit=&page=&slug=", purpose: "Companies ranked by complaints, paginated (limit 1..200, default 50).", example: `${b}/api/companies?limit=10&page=1` },
    { method: "GET", path: "/api/company/{slug}", purpose: "A company's card, by slug or exact name (case-insensitive).", example: slug && `${b}/api/company/${encodeURIComponent(slug)}` },
    { method: "GET", path: "/api/widget/{slug}", purpose: "Compact widget data: reports, trend, the last 7 days.", example: slug && `${b}/api/widget/${encodeURIComponent(slug)}` },
    { method: "GET", path: "/api/badge/{slug}.svg", purpose: "An SVG badge for a company.", example: slug && urls.badge(slug) },
    { method: "GET", path: "/api/card/{slug}.svg", purpose: "An SVG card with the sparkline and trend.", example: slug && urls.card(slug) },
    { method: "GET", path: "/embed/{style}/{slug}", purpose: `An iframe widget; styles: ${EMBED_STYLES.join(", ")} (sizes below).`, example: slug && urls.embed(slug, "banner-light") },
    { method: "GET", path: "/api/search?q=", purpose: "Live search over companies, people and spammers (q: 2..200 characters).", example: `${b}/api/search?q=${q}` },
    { method: "GET", path: "/api/search/global?q=&limit=", purpose: "Global search over eight groups with typo tolerance (q: 2..120 characters, limit 1..50 per group).", example: `${b}/api/search/global?q=${q}` },
    { method: "GET", path: "/api/chat/{username}/status", purpose: "Anti-spam protection status of a chat; unknown chats answer 404 with found:false.", example: x.chatUsername && urls.chatStatus(x.chatUsername) },
    { method: "GET", path: "/api/chat/{username}/badge.svg", purpose: "An SVG badge of a chat's protection.", example: x.chatUsername && urls.chatBadge(x.chatUsername) },
    { method: "GET", path: "/api/detection-rules", purpose: "The enabled spam detection rules with a version; poll with If-None-Match.", example: urls.detectionRules() },
    {
      method: "POST",
      path: "/api/fingerprint/match",
      purpose: "Matches browser or bot fingerprint signals against the public profile library (at most 20 signals, each value at most 255 characters; 60 requests a minute per IP).",
      example: `curl -X POST ${b}/api/fingerprint/match -H 'content-type: application/json' -d '{"signals":{"ja4":"t13d1516h2_8daaf6152771_02713d6af862"}}'`,
    },
    { method: "GET", path: "/manifest.json", purpose: "Every file of this build with its size and SHA-256.", example: `${b}/manifest.json` },
  ];
}

function renderEndpoint({ method, path, purpose, example }: Endpoint): string {
  const shown = example === null ? "" : method === "GET" ? `<br>Example: <a href="${e(example)}"><code>${e(example)}</code></a>` : `<pre><code>${e(example)}</code></pre>`;
  return `<tr><td class="nw"><code>${method}</code></td><td><code>${e(path)}</code></td><td>${e(purpose)}${shown}</td></tr>`;
}

export function renderDocsBody(urls: Urls, examples: DocsExamples): string {
  const links = (items: [string, string][]) => items.map(([href, label]) => `<li><a href="${e(href)}">${e(label)}</a></li>`).join("\n");
  const sizes = EMBED_STYLES.map((s) => `<tr><td><code>${s}</code></td><td class="n">${EMBED_SIZES[s].width}×${EMBED_SIZES[s].height}</td></tr>`).join("\n");
  const categoryFeeds = CATEGORIES.map((c): [string, string] => [urls.rss(c), `${getCategoryLabel(c)} (RSS)`]);
  return `<h1>API documentation</h1>
<p>A public, read-only JSON API; no keys, no sign-up. Base address: <code>${e(urls.base)}</code>. Every answer carries
<code>Access-Control-Allow-Origin: *</code>, a strong ETag (send <code>If-None-Match</code> for a 304) and, for data,
<code>Cache-Control: public, max-age=300</code>. URLs in answers are absolute and resolve on this deployment.</p>
<h2>Endpoints</h2>
<table>
<thead><tr><th scope="col">Method</th><th scope="col">Path</th><th scope="col">What it answers</th></tr></thead>
<tbody>
${listEndpoints(urls, examples).map(renderEndpoint).join("\n")}
</tbody>
</table>
<h2>Embed sizes</h2>
<p>Each company page has copy-paste snippets; the iframe must have exactly this size.</p>
<table>
<thead><tr><th scope="col">Style</th><th scope="col">Width×height (CSS pixels)</th></tr></thead>
<tbody>
${sizes}
</tbody>
</table>
<h2>Limits</h2>
<ul>
<li><code>limit</code> on companies and spammers: 1..200, default 50; on global search: 1..50 per group.</li>
<li>Live search <code>q</code>: 2..200 characters; global search <code>q</code>: 2..120 characters (shorter queries answer empty groups).</li>
<li>Fingerprint match: 60 requests a minute per IP (<code>RateLimit-*</code> headers, <code>Retry-After</code> on 429), at most 20 signals, values at most 255 characters, bodies at most 16 KiB.</li>
<li>Reads are not rate limited unless the operator switches a limit on.</li>
</ul>
<h2>Errors</h2>
<p>Malformed requests answer <code>application/problem+json</code> (RFC 9457) with <code>status</code>, <code>detail</code> and
<code>errors[]</code> naming each bad field: 422 for a bad parameter (<code>limit=0</code>, an unknown category, a parameter given twice),
404 for an unknown route or company, 405 with <code>Allow</code> for a wrong method.</p>
<h2>Feeds</h2>
<ul>
${links([[urls.rss(), "Newest reports (RSS 2.0)"], [urls.atom(), "Newest reports (Atom)"], [urls.jsonFeed(), "Newest reports (JSON Feed)"], ...categoryFeeds])}
</ul>
<h2>Open data</h2>
<p>A weekly dump, named by the ISO week of the data, with a stable "latest" name and a gzip copy beside each file:</p>
<ul>
${links([
  [urls.dump("spammers-latest.csv"), "Reported usernames (CSV)"],
  [urls.dump("spammers-latest.csv.gz"), "Reported usernames (CSV, gzip)"],
  [urls.dump("companies-latest.csv"), "Companies (CSV)"],
  [urls.dump("companies-latest.csv.gz"), "Companies (CSV, gzip)"],
  [urls.dump("datapackage.json"), "Frictionless data package: every column described"],
  [urls.dump("LICENSE.txt"), "Licence and credit line"],
])}
</ul>
<h2>Licence</h2>
<p>The data is licensed <a href="https://creativecommons.org/licenses/by/4.0/" rel="license">Creative Commons Attribution 4.0</a>: use it freely and credit the source.
<code>found: false</code> means only that a username or company is not in the data; it is no guarantee that an account is clean.</p>`;
}
