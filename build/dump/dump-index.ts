/**
 * The index of /dumps/: `index.json` (core/routes/dump-index-schema.ts) and the same as an HTML
 * page, listing every file by ISO week with its size, SHA-256 and rows, and the licence. Sizes
 * and hashes are the collectors' own (the manifest is written after this, so it cannot be asked),
 * and a test holds them equal to the files' bytes.
 */
import type { DumpIndex, DumpIndexFile } from "../../core/routes/dump-index-schema.ts";
import { escapeMarkup as e } from "../../core/escape.ts";
import { formatCount } from "../../core/format.ts";
import { formatDate, formatInstant } from "../../core/time.ts";
import { MEDIA_TYPES } from "../../core/routes/types.ts";
import type { Urls } from "../../core/urls.ts";
import { renderPage } from "../html/layout.ts";
import { LICENSE, type Credit } from "./credit.ts";

const DAY_MS = 86_400_000;

/** One CSV dump and its gzip, as the dump emitter wrote them. */
export interface ListedDump {
  /** The file name without extension: `spammers-new-2026-W11`. */
  name: string;
  dataset: DumpIndexFile["dataset"];
  week: string;
  /** UTC day numbers of the week's Monday and Sunday. */
  firstDay: number;
  lastDay: number;
  rows: number;
  csv: { byteLength: number; sha256: string };
  gz: { byteLength: number; sha256: string };
  /** The stable name the same bytes also have (`spammers-latest`), for the full dumps. */
  latest?: string;
}

export interface DumpIndexOptions {
  asOfMs: number;
  week: string;
  credit: Credit;
  urls: Urls;
  dumps: readonly ListedDump[];
}

function toFiles(dump: ListedDump, name: string, urls: Urls): DumpIndexFile[] {
  const file = (fileName: string, media: string, data: { byteLength: number; sha256: string }): DumpIndexFile => ({
    name: fileName,
    url: urls.dump(fileName),
    dataset: dump.dataset,
    media_type: media,
    bytes: data.byteLength,
    sha256: data.sha256,
    rows: dump.rows,
  });
  return [file(`${name}.csv`, MEDIA_TYPES.csv.split(";")[0]!, dump.csv), file(`${name}.csv.gz`, MEDIA_TYPES.gzip, dump.gz)];
}

export function createDumpIndex({ asOfMs, week, credit, urls, dumps }: DumpIndexOptions): DumpIndex {
  const weeks = new Map<string, DumpIndex["weeks"][number]>();
  // Newest week first; within a week the full dumps, then the new usernames.
  for (const dump of [...dumps].sort((a, b) => b.firstDay - a.firstDay)) {
    const entry = weeks.get(dump.week) ?? { week: dump.week, first_day: formatDate(dump.firstDay * DAY_MS), last_day: formatDate(dump.lastDay * DAY_MS), files: [] };
    entry.files.push(...toFiles(dump, dump.name, urls));
    weeks.set(dump.week, entry);
  }
  return {
    as_of: formatInstant(asOfMs),
    week,
    license: { id: LICENSE.id, title: LICENSE.title, url: LICENSE.url, credit: credit.line, text: urls.dump("LICENSE.txt") },
    datapackage: urls.dump("datapackage.json"),
    latest: dumps.flatMap((dump) => (dump.latest ? toFiles(dump, dump.latest, urls) : [])),
    weeks: [...weeks.values()],
  };
}

function renderFileRows(files: DumpIndexFile[]): string {
  return files
    .map((f) => `<tr><td class="nw"><a href="${e(f.url)}">${e(f.name)}</a></td><td class="n">${formatCount(f.rows)}</td><td class="n">${formatCount(f.bytes)}</td><td><code>${f.sha256}</code></td></tr>`)
    .join("\n");
}

const TABLE_HEAD = "<tr><th>file</th><th>rows</th><th>bytes</th><th>SHA-256</th></tr>";

/** The index as a page: the same facts as index.json, for people. */
export function renderDumpIndexPage(index: DumpIndex, urls: Urls): string {
  const weeks = index.weeks.map(
    (w) => `<h3 id="${e(w.week)}">${e(w.week)} <small>(${e(w.first_day)} to ${e(w.last_day)})</small></h3>
<table>
${TABLE_HEAD}
${renderFileRows(w.files)}
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
${renderFileRows(index.latest)}
</table>
<h2>By week</h2>
${weeks.join("\n")}`,
  });
}
