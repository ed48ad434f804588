/**
 * The API documentation page (/docs), generated from the OpenAPI document (itself generated from
 * the route table): every route with its parameters and bounds, its statuses, a real answer of
 * this build and a curl line; then the embed sizes, limits, feeds, open data and licence. Plain
 * HTML: readable offline, without script, nothing fetched.
 */
import { CATEGORIES, getCategoryLabel } from "../../core/categories.ts";
import { escapeMarkup as e } from "../../core/escape.ts";
import type { RouteExample } from "../../core/routes/openapi.ts";
import type { Urls } from "../../core/urls.ts";
import { EMBED_SIZES, EMBED_STYLES } from "./embed-styles.ts";

type Json = Record<string, any>;

/** `code` spans of the descriptions (Markdown backticks) as <code>, everything escaped. */
const prose = (text: string) => e(text).replace(/`([^`]+)`/g, "<code>$1</code>");

function describeSchema(schema: Json | undefined): string {
  if (!schema) return "";
  if (schema.$ref) return String(schema.$ref).split("/").pop()!;
  if (schema.anyOf) return schema.anyOf.map((s: Json) => (s.const !== undefined ? JSON.stringify(s.const) : describeSchema(s))).join(" | ");
  const bounds: string[] = [];
  if (schema.minimum !== undefined || schema.maximum !== undefined) bounds.push(`${schema.minimum ?? "…"}..${schema.maximum ?? "…"}`);
  if (schema.maxLength !== undefined) bounds.push(`at most ${schema.maxLength} characters`);
  if (schema.default !== undefined) bounds.push(`default ${JSON.stringify(schema.default)}`);
  return [schema.type ?? "", ...bounds].filter(Boolean).join(", ");
}

function renderParameters(parameters: Json[] | undefined): string {
  if (!parameters?.length) return "";
  const rows = parameters.map(
    (p) => `<tr><td><code>${e(p.name)}</code></td><td>${e(p.in)}${p.required ? ", required" : ""}</td><td>${e(describeSchema(p.schema))}</td><td>${prose(p.description ?? "")}</td></tr>`,
  );
  return `<table>\n<thead><tr><th scope="col">Parameter</th><th scope="col">In</th><th scope="col">Type and bounds</th><th scope="col">Meaning</th></tr></thead>\n<tbody>\n${rows.join("\n")}\n</tbody>\n</table>`;
}

function renderResponses(responses: Json): string {
  const rows = Object.entries(responses).map(([status, r]) => {
    const content = Object.entries((r.content ?? {}) as Json)
      .map(([type, media]) => `<code>${e(type.split(";")[0]!)}</code>${media.schema?.$ref ? ` (${e(describeSchema(media.schema))})` : ""}`)
      .join(", ");
    return `<tr><td class="n">${e(status)}</td><td>${content}</td><td>${prose(r.description ?? "")}</td></tr>`;
  });
  return `<table>\n<thead><tr><th scope="col">Status</th><th scope="col">Body</th><th scope="col">When</th></tr></thead>\n<tbody>\n${rows.join("\n")}\n</tbody>\n</table>`;
}

function renderExample(method: string, base: string, example: RouteExample | undefined): string {
  if (!example) return "<p>No example: this build has nothing of this kind.</p>";
  const url = base + example.url;
  const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
  const curl =
    method === "post"
      ? `curl -i -X POST ${quote(url)} -H 'content-type: application/json' -d ${quote(JSON.stringify(example.body))}`
      : `curl -i ${quote(url)}`;
  const shown = typeof example.response === "string" ? example.response : JSON.stringify(example.response, null, 2);
  const link = method === "get" ? `<p>Try it: <a href="${e(url)}"><code>${e(url)}</code></a></p>\n` : "";
  return `${link}<pre><code>${e(curl)}</code></pre>
<p>Answer of this build (<code>${e(String(example.status))}</code>, <code>${e(example.contentType)}</code>; long lists show their first items):</p>
<pre><code>${e(shown)}</code></pre>`;
}

function renderOperations(document: Json, examples: ReadonlyMap<string, RouteExample>, base: string): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      // The CORS preflight is for browsers, not readers: its POST's section says what it answers.
      if (method === "options") continue;
      const html = `<section id="${e(op.operationId)}">
<h3><code>${e(method.toUpperCase())} ${e(path)}</code> — ${e(op.summary)}</h3>
${op.description.split("\n\n").map((p: string) => `<p>${prose(p)}</p>`).join("\n")}
${renderParameters(op.parameters)}
${op.requestBody ? `<p>Body: ${prose(op.requestBody.description ?? "")} Schema <code>${e(describeSchema(op.requestBody.content["application/json"].schema))}</code>.</p>` : ""}
${renderResponses(op.responses)}
${renderExample(method, base, examples.get(op.operationId))}
</section>`;
      const tag = op.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const toc = [...byTag.keys()].map((tag) => `<li><a href="#tag-${e(tag.replace(/\W+/g, "-"))}">${e(tag)}</a></li>`).join("");
  const sections = [...byTag].map(([tag, ops]) => `<h2 id="tag-${e(tag.replace(/\W+/g, "-"))}">${e(tag)}</h2>\n${ops.join("\n")}`);
  return `<nav aria-label="Routes"><ul>${toc}</ul></nav>\n${sections.join("\n")}`;
}

export function renderDocsBody(urls: Urls, document: Json, examples: ReadonlyMap<string, RouteExample>): string {
  const links = (items: [string, string][]) => items.map(([href, label]) => `<li><a href="${e(href)}">${e(label)}</a></li>`).join("\n");
  const sizes = EMBED_STYLES.map((s) => `<tr><td><code>${s}</code></td><td class="n">${EMBED_SIZES[s].width}×${EMBED_SIZES[s].height}</td></tr>`).join("\n");
  const categoryFeeds = CATEGORIES.map((c): [string, string] => [urls.rss(c), `${getCategoryLabel(c)} (RSS)`]);
  return `<h1>API documentation</h1>
<p>A public, read-only JSON API; no keys, no sign-up. Base address: <code>${e(urls.base)}</code>. Every answer carries
<code>Access-Control-Allow-Origin: *</code>, a strong ETag (send <code>If-None-Match</code> for a 304) and, for data,
<code>Cache-Control: public, max-age=300</code>. URLs in answers are absolute and resolve on this deployment.</p>
<p>The machine-readable description is <a href="${e(urls.openApi())}"><code>/openapi.json</code></a> (OpenAPI ${e(document.openapi)}, version ${e(document.info.version)}): generate a client or validate answers with it. This page is generated from it.</p>
${renderOperations(document, examples, urls.base)}
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
