/**
 * The index of /dumps/: `index.json` (core/routes/dump-index-schema.ts; its page is
 * build/html/dump-index-page.ts), listing every file by ISO week with its size, SHA-256 and rows, and the licence. Sizes
 * and hashes are the collectors' own (the manifest is written after this, so it cannot be asked),
 * and a test holds them equal to the files' bytes.
 */
import type { DumpIndex, DumpIndexFile } from "../../core/routes/dump-index-schema.ts";
import { formatDate, formatInstant } from "../../core/time.ts";
import { MEDIA_TYPES } from "../../core/routes/types.ts";
import type { Urls } from "../../core/urls.ts";
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
