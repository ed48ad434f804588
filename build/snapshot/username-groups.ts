/**
 * The username pass's rows: every reported username's reports aggregated by SQLite, one row per
 * normalised username, in username order, stepped on a query thread (group-worker.cjs) a batch
 * ahead of the main thread that reads them.
 */
import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import { compareCodePoints } from "../../core/order.ts";
import { normalizeUsername } from "../../core/username.ts";
import { BuildError } from "../errors.ts";
import { startWorker } from "../threads.ts";
import type { Snapshot } from "./open.ts";
import { categoryPositionSql, instantSql } from "./report-sql.ts";
import type { GroupAnswer, GroupBatch, GroupRequest, GroupWorkerData } from "./thread-protocol.ts";

/** Windows of the trend arithmetic, in Unix seconds: [previousStart, currentStart, currentEnd). */
export interface TrendWindows {
  previousStart: number;
  currentStart: number;
  currentEnd: number;
}

/**
 * One username's reports, aggregated by SQLite (GROUP_COLUMNS), read in place from the batch the
 * query thread packed (build/group-worker.cjs). The stream moves the same object on to its next
 * row, so read what you need before asking for the next one. Undated reports are counted but kept
 * out of every other aggregate.
 */
/** One username's aggregates, as the pass reads them (UsernameGroupRow from SQLite, or a row an earlier build kept: model/group-store.ts). */
export interface GroupRow {
  readonly username: string;
  readonly categories: string | null;
  readonly companyIds: string | null;
  readonly count: number;
  readonly undated: number;
  readonly reporters: number;
  readonly confidenceMax: number;
  readonly first: number;
  readonly last: number;
  readonly currentWeek: number;
  readonly previousWeek: number;
  readonly recent: string | null;
  /**
   * Set on a row an incremental build kept from the current build's pass (model/group-source.ts)
   * whose trend counts the new windows left as they were: the row the current build had.
   */
  readonly unchanged?: boolean;
}

export class UsernameGroupRow implements GroupRow {
  private texts: readonly (string | null)[] = [];
  private numbers: Float64Array = new Float64Array(0);
  private textAt = 0;
  private numberAt = 0;

  /** The normal form (both queries group by it). */
  get username(): string {
    return this.texts[this.textAt]!;
  }
  /** Comma-separated category positions of the dated reports (see tallyCategories), or null. */
  get categories(): string | null {
    return this.texts[this.textAt + 1]!;
  }
  /** Comma-separated company ids, one per dated report that names a company, or null. */
  get companyIds(): string | null {
    return this.texts[this.textAt + 2]!;
  }
  /** Dated reports. */
  get count(): number {
    return this.numbers[this.numberAt]!;
  }
  get undated(): number {
    return this.numbers[this.numberAt + 1]!;
  }
  /** Distinct reporters of the dated reports. */
  get reporters(): number {
    return this.numbers[this.numberAt + 2]!;
  }
  /** The highest integer confidence of the dated reports, NaN when none has one. */
  get confidenceMax(): number {
    return this.numbers[this.numberAt + 3]!;
  }
  /** Unix seconds of the first and last dated report (NaN when there is none). */
  get first(): number {
    return this.numbers[this.numberAt + 4]!;
  }
  get last(): number {
    return this.numbers[this.numberAt + 5]!;
  }
  /** Dated reports in the trend windows (TrendWindows). */
  get currentWeek(): number {
    return this.numbers[this.numberAt + 6]!;
  }
  get previousWeek(): number {
    return this.numbers[this.numberAt + 7]!;
  }
  /** Unix seconds of the dated reports since the start of the earlier trend window, comma-separated (null when none): the kept row's trends follow as_of from them (model/group-store.ts). */
  get recent(): string | null {
    return this.texts[this.textAt + 3]!;
  }

  /** Points at row `index` of a batch. */
  moveTo(texts: readonly (string | null)[], numbers: Float64Array, index: number): void {
    this.texts = texts;
    this.numbers = numbers;
    this.textAt = index * GROUP_TEXT_COLUMNS.length;
    this.numberAt = index * (GROUP_COLUMN_COUNT - GROUP_TEXT_COLUMNS.length);
  }
}

const DATED = (expr: string) => `CASE WHEN t IS NOT NULL THEN ${expr} END`;
/** In the order UsernameGroupRow reads them: username first, then these. */
const GROUP_AGGREGATES = [
  "count(t)",
  "count(*) - count(t)",
  `count(DISTINCT ${DATED("reporter")})`,
  // A confidence that is not an integer (text in a loose export) is left out rather than printed.
  `max(CASE WHEN t IS NOT NULL AND typeof(confidence) = 'integer' THEN confidence END)`,
  "min(t)",
  "max(t)",
  "count(CASE WHEN t >= @currentStart AND t < @currentEnd THEN 1 END)",
  "count(CASE WHEN t >= @previousStart AND t < @currentStart THEN 1 END)",
  `group_concat(${DATED(categoryPositionSql("category"))})`,
  `group_concat(${DATED("company_id")})`,
  "group_concat(CASE WHEN t >= @previousStart THEN t END)",
];
const GROUP_COLUMNS = GROUP_AGGREGATES.join(", ");
/** Positions of the text columns in `u, GROUP_COLUMNS`: the username and the three lists. */
const GROUP_TEXT_COLUMNS = [0, 9, 10, 11];
const GROUP_COLUMN_COUNT = 1 + GROUP_AGGREGATES.length;

const REPORT_COLUMNS = (table: string) =>
  `${table}.reporter, ${table}.confidence, ${table}.category, ${table}.company_id, ${instantSql(`${table}.created_at`)} AS t`;

/**
 * Username aggregates in normalised-username order, one row per username. Sorting millions of
 * reports by a computed key is the slowest thing SQLite could do here, so nothing is sorted:
 *
 * - Usernames whose every spelling is already the normal form (nearly all) are grouped in the
 *   order of the `reports_username` index, which *is* normalised order for them.
 * - The few normal forms that also appear spelled otherwise ("@Foo", " FOO ") get a small
 *   temporary table mapping each spelling to its normal form, indexed by normal form; SQLite walks
 *   it in that order and looks each spelling's reports up in the same index, so all spellings of
 *   one username arrive together and are aggregated as one (distinct reporters included).
 *
 * The subqueries' `ORDER BY … LIMIT -1` keeps SQLite from flattening them, so each report's time
 * is parsed once, and their order follows the indexes, so nothing is sorted. Both streams are in
 * SQLite BINARY order (UTF-8 bytes, i.e. code points) and hold different usernames; the merge
 * compares the same way. Without the index SQLite sorts instead, which is slower but correct.
 */
export function readUsernameGroups(db: Snapshot, windows: TrendWindows): UsernameGroups {
  /** Every raw spelling of each normal form that is also spelled otherwise (the normal form included). */
  const spellingsOf = new Map<string, unknown[]>();
  return {
    [Symbol.iterator]: () => iterateUsernameGroups(db, windows, spellingsOf),
    ...lookUpReports(db, spellingsOf),
    spellingsOf,
  };
}

/**
 * The rows of the chosen normal forms only, each aggregated from the reports of every spelling
 * `spellings` gives it ([raw, normal] pairs, the normal form itself among them), by the same
 * aggregates as readUsernameGroups, in username order: an incremental build's pass reads these
 * and keeps every other username's row (model/group-source.ts).
 */
export function readChosenUsernameGroups(db: Snapshot, windows: TrendWindows, spellings: [string, string][]): Iterable<UsernameGroupRow> {
  return {
    *[Symbol.iterator]() {
      const streams = startQueryStreams(db, {
        setup: SPELLING_SETUP,
        insert: SPELLING_INSERT,
        spellings,
        params: windows,
        queries: [SPELLINGS_QUERY],
      });
      try {
        yield* streams[0]!;
      } finally {
        streams.stop();
      }
    },
  };
}

/** Which of `spellings` some report still spells its username with (the username index makes it a lookup each). */
export function selectSpelledUsernames(db: Snapshot, spellings: Iterable<string>): Set<string> {
  const used = db.prepare("SELECT 1 FROM reports WHERE username = ? LIMIT 1").pluck();
  const found = new Set<string>();
  for (const spelling of spellings) if (used.get(spelling) !== undefined) found.add(spelling);
  return found;
}

/** A report's username as the snapshot holds it (undefined for an id it does not have): a primary key lookup. */
export function readUsernameOf(db: Snapshot): (id: number) => unknown {
  const username = db.prepare("SELECT username FROM reports WHERE id = ?").pluck();
  return (id) => username.get(id);
}

/** Whether the snapshot has an index that starts with reports.username (without one, reading a few usernames' reports is a pass over all of them). */
export function hasUsernameIndex(db: Snapshot): boolean {
  const indexes = db.prepare("SELECT name FROM pragma_index_list('reports')").pluck().all() as string[];
  const first = db.prepare("SELECT name FROM pragma_index_info(?) WHERE seqno = 0").pluck();
  return indexes.some((name) => first.get(name) === "username");
}

/** The samples' lookups: a username's first report ids (over every spelling `spellingsOf` knows), a report's own values. */
export function lookUpReports(db: Snapshot, spellingsOf: ReadonlyMap<string, unknown[]>): Pick<UsernameGroups, "firstReportIds" | "readReport"> {
  const first = db
    .prepare(
      `SELECT min(id), min(CASE WHEN t IS NULL THEN id END), min(CASE WHEN t IS NOT NULL AND category IS NOT NULL AND ${categoryPositionSql("category")} = 0 THEN id END)
       FROM (SELECT id, category, ${instantSql("created_at")} AS t FROM reports WHERE username = ?)`,
    )
    .raw();
  const values = db.prepare("SELECT CAST(username AS TEXT), CAST(created_at AS TEXT), CAST(category AS TEXT), CAST(confidence AS TEXT) FROM reports WHERE id = ?").raw();
  return {
    firstReportIds(username) {
      const smallest = [Infinity, Infinity, Infinity];
      for (const raw of spellingsOf.get(username) ?? [username]) {
        const ids = first.get(raw) as (number | null)[];
        ids.forEach((id, k) => {
          if (id !== null && id < smallest[k]!) smallest[k] = id;
        });
      }
      const [firstId, undated, unknownCategory] = smallest.map((id) => (id === Infinity ? null : id));
      return { first: firstId!, firstUndated: undated!, firstUnknownCategory: unknownCategory! };
    },
    readReport(id) {
      const [username, createdAt, category, confidence] = (values.get(id) as (string | null)[] | undefined) ?? [null, null, null, null];
      return { username: username!, created_at: createdAt!, category: category!, confidence: confidence! };
    },
  };
}

/** A company as the check files show it and as its badges, widget and embeds do (model/company-shows.ts), kept between builds. */
export type CompanyShows = readonly [checkFiles: string, widgets: string];

/**
 * The username pass's rows, and what the build report's samples show: the smallest report id of a
 * username (of any spelling), of its undated reports and of its dated reports with an unknown
 * category, and a report's own values. Those are looked up for the few samples the report keeps
 * rather than aggregated for every username (two aggregates fewer per report: an eighth of the
 * pass's SQLite time).
 */
export interface UsernameGroups extends Iterable<GroupRow> {
  /** Every raw spelling of each normal form spelled more than one way (the normal form first), once the rows have been read. */
  spellingsOf: ReadonlyMap<string, unknown[]>;
  /** Only while the rows are being read (the spellings are known from then on). */
  firstReportIds(username: string): { first: number | null; firstUndated: number | null; firstUnknownCategory: number | null };
  /** A report's columns as text, as the snapshot holds them (all null for an unknown id). */
  readReport(id: number | null): { username: string | null; created_at: string | null; category: string | null; confidence: string | null };
  /** When rows were kept from the current build's pass: each company as that build showed it (id → CompanyShows, group-store.ts). */
  currentCompanies?: ReadonlyMap<number, CompanyShows>;
}

function* iterateUsernameGroups(db: Snapshot, windows: TrendWindows, spellingsOf: Map<string, unknown[]>): Generator<UsernameGroupRow> {
  const streams = startUsernameStreams(db, windows, spellingsOf);
  try {
    yield* mergeOrdered(streams);
  } finally {
    streams.stop();
  }
}

const SPELLING_SETUP = `DROP TABLE IF EXISTS temp.spelling;
  CREATE TEMP TABLE spelling (raw PRIMARY KEY, normal TEXT NOT NULL) WITHOUT ROWID;
  CREATE INDEX temp.spelling_normal ON spelling (normal, raw);`;
const SPELLING_INSERT = "INSERT OR IGNORE INTO temp.spelling (raw, normal) VALUES (?, ?)";
/** The reports of every spelling in temp.spelling, aggregated by normal form. */
const SPELLINGS_QUERY = `SELECT u, ${GROUP_COLUMNS} FROM (
    SELECT s.normal AS u, ${REPORT_COLUMNS("r")} FROM temp.spelling AS s CROSS JOIN reports AS r ON r.username = s.raw
    ORDER BY s.normal LIMIT -1)
  GROUP BY u ORDER BY u`;

/** Finds the usernames spelled otherwise (filling `spellingsOf`) and starts both queries. */
function startUsernameStreams(db: Snapshot, windows: TrendWindows, spellingsOf: Map<string, unknown[]>) {
  const distinct = db.prepare("SELECT DISTINCT username FROM reports WHERE username IS NOT NULL").pluck();
  const respelled: [unknown, string][] = [];
  for (const raw of distinct.iterate() as Iterable<unknown>) {
    const normal = typeof raw === "string" ? normalizeUsername(raw) : typeof raw === "number" ? normalizeUsername(String(raw)) : "";
    if (normal !== raw) respelled.push([raw, normal]);
  }
  for (const [raw, normal] of respelled) {
    const spellings = spellingsOf.get(normal);
    if (spellings) spellings.push(raw);
    else spellingsOf.set(normal, [normal, raw]);
  }
  // The normal spelling itself, whether or not any report uses it.
  const spellings = respelled.flatMap(([raw, normal]): [unknown, string][] => [[raw, normal], [normal, normal]]);
  return startQueryStreams(db, {
    setup: SPELLING_SETUP,
    insert: SPELLING_INSERT,
    spellings,
    params: windows,
    queries: [
      `SELECT u, ${GROUP_COLUMNS} FROM (
         SELECT username AS u, ${REPORT_COLUMNS("reports")} FROM reports
         WHERE username IS NOT NULL AND username NOT IN (SELECT raw FROM temp.spelling) ORDER BY u, id LIMIT -1)
       GROUP BY u ORDER BY u`,
      SPELLINGS_QUERY,
    ],
  });
}

/** Rows per batch the query thread hands over, and batches asked for ahead per query. */
const STREAM_BATCH_ROWS = 256;
const STREAM_PREFETCH = 4;

/** What the caller says; the rest of GroupWorkerData (path, columns, batch size, port) is this module's. */
type QueryStreamsSpec = Pick<GroupWorkerData, "setup" | "insert" | "spellings" | "params" | "queries">;

/**
 * Runs `queries` on a second read-only connection in a worker thread (group-worker.cjs)
 * and returns one row iterator per query. Each asks for batches ahead of the rows it hands out,
 * so SQLite steps through the next rows on the other core while this thread uses these; memory
 * stays at a few batches per query. Iterators may be read interleaved (a merge does).
 */
function startQueryStreams(db: Snapshot, spec: QueryStreamsSpec): IterableIterator<UsernameGroupRow>[] & { stop(): void } {
  const control = new SharedArrayBuffer(4);
  const answers = new Int32Array(control);
  const { port1, port2 } = new MessageChannel();
  const data: GroupWorkerData = { path: db.name, ...spec, textColumns: GROUP_TEXT_COLUMNS, batchRows: STREAM_BATCH_ROWS, port: port2, control };
  const worker = startWorker(new URL("./group-worker.cjs", import.meta.url), data, [port2]);
  worker.unref();
  const queued = spec.queries.map((): GroupBatch[] => []);
  let seen = 0;
  const ask = (stream: number) => port1.postMessage({ stream } satisfies GroupRequest);
  /** Waits for the worker's next answer and files it under its stream. */
  const receive = () => {
    while (Atomics.load(answers, 0) === seen) Atomics.wait(answers, 0, seen, 1000);
    const message = receiveMessageOnPort(port1)?.message as GroupAnswer | undefined;
    if (message === undefined) return;
    seen++;
    if ("error" in message) throw new BuildError(`reading reports by username: ${message.error}`);
    queued[message.stream]!.push(message);
  };
  function* rows(stream: number): Generator<UsernameGroupRow> {
    const row = new UsernameGroupRow();
    // Asks stay STREAM_PREFETCH ahead; the ones left over when a query ends get empty answers.
    for (let k = 0; k < STREAM_PREFETCH; k++) ask(stream);
    for (;;) {
      while (queued[stream]!.length === 0) receive();
      const batch = queued[stream]!.shift()!;
      if (!batch.done) ask(stream);
      for (let i = 0; i < batch.count; i++) {
        row.moveTo(batch.texts, batch.numbers, i);
        yield row;
      }
      if (batch.done) return;
    }
  }
  const streams = spec.queries.map((_, i) => rows(i)) as IterableIterator<UsernameGroupRow>[] & { stop(): void };
  streams.stop = () => {
    port1.close();
    void worker.terminate();
  };
  return streams;
}

/** Merges streams that are each ordered by username (code points); ties keep stream order. */
function* mergeOrdered(streams: IterableIterator<UsernameGroupRow>[]): Generator<UsernameGroupRow> {
  const heads = streams.map((s) => s.next());
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i]!;
      if (head.done) continue;
      if (best < 0 || compareCodePoints(head.value.username, (heads[best]!.value as UsernameGroupRow).username) < 0) best = i;
    }
    if (best < 0) return;
    yield heads[best]!.value as UsernameGroupRow;
    heads[best] = streams[best]!.next();
  }
}

