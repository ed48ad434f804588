/**
 * The page /dumps/: the same facts as `dumps/index.json` (build/dump/dump-index.ts), for people.
 * Tables spell out <thead> and <tbody>: a parser would imply the <tbody> of bare rows, and every
 * page's elements must be the ones its source opens (the browser test checks it).
 */
import type { DumpIndex, DumpIndexFile } from "../../core/routes/dump-index-schema.ts";
import { escapeMarkup as e } from "../../core/escape.ts";
import { formatCount } from "../../core/format.ts";
import type { Urls } from "../../core/urls.ts";
import { renderPage } from "./layout.ts";

function renderFileRows(files: DumpIndexFile[]): string {
  return files
    .map((f) => `<tr><td class="nw"><a href="${e(f.url)}">${e(f.name)}</a></td><td class="n">${formatCount(f.rows)}</td><td class="n">${formatCount(f.bytes)}</td><td><code>${f.sha256}</code></td></tr>`)
    .join("\n");
}

const TABLE_HEAD = "<thead><tr><th>file</th><th>rows</th><th>bytes</th><th>SHA-256</th></tr></thead>";

/** The index as a page: the same facts as index.json, for people. */
export function renderDumpIndexPage(index: DumpIndex, urls: Urls): string {
  const weeks = index.weeks.map(
    (w) => `<h3 id="${e(w.week)}">${e(w.week)} <small>(${e(w.first_day)} to ${e(w.last_day)})</small></h3>
<table>
${TABLE_HEAD}
<tbody>
${renderFileRows(w.files)}
</tbody>
</table>`,
  );
  return renderPage({
    title: "Open data: the weekly dumps",
    urls,
    asOf: index.as_of.slice(0, 10),
    body: `<h1>Open data: the weekly dumps</h1>
<p>Licensed <a href="${e(index.license.url)}" rel="license">${e(index.license.title)}</a>. Credit line:</p>
<pre>${e(index.license.credit)}</pre>
<p><a href="${e(index.license.text)}">LICENSE.txt</a> · <a href="${e(index.datapackage)}">datapackage.json</a> (every column's type and meaning) · <a href="${e(urls.dump("index.json"))}">index.json</a> (this page as data).</p>
<p>Values are as of ${e(index.as_of)}. <code>spammers</code> and <code>companies</code> hold everything, for week ${e(index.week)};
<code>spammers-new</code> holds the usernames first reported in its week, for every week that had any, so you can take only what is new
since the week you last fetched (fetch that week again: it may have grown). Each <code>.csv.gz</code> is its <code>.csv</code> compressed;
check a download against its SHA-256.</p>
<h2>Latest (stable names)</h2>
<table>
${TABLE_HEAD}
<tbody>
${renderFileRows(index.latest)}
</tbody>
</table>
<h2>Changes since your last download</h2>
<p>Every publish also writes what changed since the publish before it: <code>changes/{build}.csv</code> for the usernames and
<code>changes/{build}-companies.csv</code> for the companies (each with its <code>.csv.gz</code>) — a <code>change</code> column
(<code>added</code>, <code>updated</code>, <code>removed</code>) followed by the dump's own columns, rows in the dump's order.
Applied to the previous publish's <code>-latest</code> dump (drop the rows it names, put in its added and updated rows) it gives
this publish's, byte for byte. <a href="${e(urls.changeIndex())}">changes/index.json</a> lists the publishes kept, newest first,
each with the publish it follows; the live server merges all of them since yours in one request,
<code>${e(urls.changes())}?since={build}</code>; <a href="${e(urls.changesRss())}">a feed</a> announces each publish.</p>
<h2>By week</h2>
${weeks.join("\n")}`,
  });
}
