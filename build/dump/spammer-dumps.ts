/**
 * The spammer dumps: the full one (every valid username) and the weekly "new" ones — for every
 * ISO week in which some valid username was first reported, the usernames whose first report
 * (`first_seen`, from the snapshot: no clock) falls in it, in username order, with the columns
 * of the full spammer dump. A researcher who last fetched week W takes the files of W and later
 * instead of the whole dump again.
 *
 * Both come from one pass over the spammer table in username order: each row is formatted once
 * and its record goes to the full CSV and to its week's. Every CSV is held gzip-compressed
 * (csv.ts): about 30 MiB for the full dump at a million usernames and as much again for the weeks,
 * with a batch in the making for each week (builds with two passes, the weeks' one a week at a
 * time, peaked about 70 MiB lower at a million usernames). Two passes with the compression
 * thread took 5.8 s against 4.7 s: the second pass reads the table out of order and formats every
 * row again.
 */
import { formatIsoWeek, getIsoWeek, getIsoWeekMonday } from "../../core/iso-week.ts";
import type { Urls } from "../../core/urls.ts";
import type { SpammerTable } from "../model/spammer-table.ts";
import { SPAMMER_COLUMNS, createSpammerRecordFormatter } from "./columns.ts";
import { CsvCollector, endsBatch, type CsvFiles } from "./csv.ts";
import type { MemberCompressor } from "./member-compressor.ts";

const DAY_MS = 86_400_000;

export interface NewWeek {
  /** `2026-W11` */
  week: string;
  /** UTC day numbers of its Monday and Sunday. */
  firstDay: number;
  lastDay: number;
}

export interface SpammerDump extends CsvFiles {
  rows: number;
}

export interface SpammerDumps {
  all: SpammerDump;
  /** Weeks with first reports, oldest first. */
  weeks: (SpammerDump & { week: NewWeek })[];
}

/** Every spammer dump of the table (see the header); `compressor` gzips their batches on its thread. */
export function collectSpammerDumps(table: SpammerTable, urls: Urls, compressor: MemberCompressor | null = null): SpammerDumps {
  const header = SPAMMER_COLUMNS.map((c) => c.name);
  const format = createSpammerRecordFormatter(urls);
  const all = new CsvCollector(header, compressor);
  const weeks = new Map<number, CsvCollector>();
  for (const spammer of table.views()) {
    const record = format(spammer);
    // Batches cut by username: a publish that changed a few rows compresses their batches only.
    const cut = endsBatch(spammer.username);
    all.addRecord(record, cut);
    const monday = getIsoWeekMonday(spammer.firstSeenMs);
    let week = weeks.get(monday);
    if (!week) weeks.set(monday, (week = new CsvCollector(header, compressor)));
    week.addRecord(record, cut);
  }
  return {
    all: { ...all.finish(), rows: all.rows },
    weeks: [...weeks]
      .sort(([a], [b]) => a - b)
      .map(([monday, collector]) => ({
        week: { week: formatIsoWeek(getIsoWeek(monday * DAY_MS)), firstDay: monday, lastDay: monday + 6 },
        ...collector.finish(),
        rows: collector.rows,
      })),
  };
}
