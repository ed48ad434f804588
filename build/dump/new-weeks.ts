/**
 * The weekly "new" dumps: for every ISO week in which some valid username was first reported,
 * the usernames whose first report (`first_seen`, from the snapshot: no clock) falls in it, in
 * username order, with the columns of the full spammer dump. A researcher who last fetched week
 * W takes the files of W and later instead of the whole dump again.
 *
 * Rows are grouped by week with a counting sort of row indexes (a week number per row and a
 * typed array of rows: about 8 bytes a username), and each week's CSV is made, handed over and
 * let go before the next, so memory holds one week's compressed CSV at a time.
 */
import { formatIsoWeek, getIsoWeek, getIsoWeekMonday } from "../../core/iso-week.ts";
import type { Urls } from "../../core/urls.ts";
import type { SpammerTable } from "../model/spammer-table.ts";
import { SPAMMER_COLUMNS, createSpammerRecordFormatter } from "./columns.ts";
import { CsvCollector } from "./csv.ts";
import type { ChunkedData } from "../writer/index.ts";

const DAY_MS = 86_400_000;

export interface NewWeek {
  /** `2026-W11` */
  week: string;
  /** UTC day numbers of its Monday and Sunday. */
  firstDay: number;
  lastDay: number;
  /** Its rows of the table, in username order. */
  rows: Uint32Array;
}

/** Weeks with first reports, oldest first, each known by the day number of its Monday. */
export function groupRowsByFirstWeek(table: SpammerTable): NewWeek[] {
  const n = table.size;
  const weekOf = new Int32Array(n);
  const counts = new Map<number, number>();
  for (let row = 0; row < n; row++) {
    const week = getIsoWeekMonday(table.firstSeenMs(row));
    weekOf[row] = week;
    counts.set(week, (counts.get(week) ?? 0) + 1);
  }
  const weeks = [...counts.keys()].sort((a, b) => a - b);
  const starts = new Map<number, number>();
  let offset = 0;
  for (const week of weeks) {
    starts.set(week, offset);
    offset += counts.get(week)!;
  }
  const order = new Uint32Array(n);
  const next = new Map(starts);
  for (let row = 0; row < n; row++) {
    const week = weekOf[row]!;
    const at = next.get(week)!;
    order[at] = row;
    next.set(week, at + 1);
  }
  return weeks.map((monday) => {
    const start = starts.get(monday)!;
    return { week: formatIsoWeek(getIsoWeek(monday * DAY_MS)), firstDay: monday, lastDay: monday + 6, rows: order.subarray(start, start + counts.get(monday)!) };
  });
}

export interface NewWeekDump {
  week: NewWeek;
  csv: ChunkedData & { sha256: string };
  gz: ChunkedData & { sha256: string };
  rows: number;
}

/** Each week's CSV and gzip, oldest week first, made when asked for. */
export function* collectNewWeekDumps(table: SpammerTable, urls: Urls): Generator<NewWeekDump> {
  const format = createSpammerRecordFormatter(urls);
  for (const week of groupRowsByFirstWeek(table)) {
    const collector = new CsvCollector(SPAMMER_COLUMNS.map((c) => c.name));
    for (const spammer of table.viewsOf(week.rows)) collector.addRecord(format(spammer));
    yield { week, ...collector.finish(), rows: collector.rows };
  }
}
