/**
 * Every SQL statement the build runs lives here (STYLE: "SQL lives in one snapshot-reading
 * module"). The snapshot is opened read-only; large tables are iterated, never loaded whole.
 */
import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { CATEGORIES } from "../core/categories.ts";
import { compareCodePoints } from "../core/order.ts";
import { normalizeUsername } from "../core/username.ts";
import { BuildError, withContext } from "./errors.ts";

export type Snapshot = Database.Database;

const REQUIRED_TABLES = [
  "meta", "companies", "company_aliases", "people", "reports", "glossary", "video_channels", "videos",
  "chat_channels", "chats", "blog_posts", "detection_rules", "fp_profiles", "fp_signals",
];

export function openSnapshot(path: string): Snapshot {
  if (!existsSync(path)) throw new BuildError(`snapshot not found: ${path} (run \`npm run sample\` to make one)`);
  const db = withContext(`opening snapshot ${path}`, () => new Database(path, { readonly: true, fileMustExist: true }));
  try {
    const present = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").pluck().all() as string[]),
    );
    const missing = REQUIRED_TABLES.filter((t) => !present.has(t));
    if (missing.length > 0) throw new BuildError(`snapshot ${path} does not follow data/schema.sql: missing ${missing.join(", ")}`);
    // Sorts spill to temporary files instead of growing the heap. This connection reads the small
    // tables and walks the username index once, so a small page cache does; the query threads,
    // which sort and look reports up, keep 64 MiB each (build/group-worker.cjs, query-worker.cjs).
    db.pragma("temp_store = FILE");
    db.pragma("cache_size = -8192");
    // A username that is not text (a number or blob in a loose export) normalises to "" and is
    // rejected as empty, rather than turning into the text "null".
    db.function("normalize_username", { deterministic: true }, (raw: unknown) =>
      typeof raw === "string" ? normalizeUsername(raw) : typeof raw === "number" ? normalizeUsername(String(raw)) : "",
    );
    return db;
  } catch (error) {
    db.close();
    throw error instanceof BuildError ? error : new BuildError(`reading snapshot ${path}: ${String(error)}`, { cause: error });
  }
}

export function readMeta(db: Snapshot): Map<string, string> {
  const rows = db.prepare("SELECT key, value FROM meta").raw().all() as [string, string][];
  return new Map(rows);
}

export interface CompanyRow {
  id: number;
  name: string;
  slug: string;
  category: string;
  website: string | null;
  created_at: string;
}

export function readCompanies(db: Snapshot): CompanyRow[] {
  return db.prepare("SELECT id, name, slug, category, website, created_at FROM companies ORDER BY id").all() as CompanyRow[];
}

/** Aliases per company id, in snapshot order (rowid) so output is stable. */
export function readAliases(db: Snapshot): Map<number, string[]> {
  const aliases = new Map<number, string[]>();
  for (const [companyId, alias] of db.prepare("SELECT company_id, alias FROM company_aliases ORDER BY company_id, rowid").raw().iterate() as Iterable<[number, string]>) {
    const list = aliases.get(companyId);
    if (list) list.push(alias);
    else aliases.set(companyId, [alias]);
  }
  return aliases;
}

export interface PersonRow {
  id: number;
  name: string;
  slug: string;
  avatar: string | null;
  company_id: number | null;
}

export function readPeople(db: Snapshot): PersonRow[] {
  return db.prepare("SELECT id, name, slug, avatar, company_id FROM people ORDER BY id").all() as PersonRow[];
}


/**
 * A report's time as Unix seconds, or NULL when it is not an ISO 8601 date-time. SQLite's own
 * parser does the work (it reads `Z` and `±HH:MM` offsets and returns UTC), but it also accepts
 * 'now' and Julian day numbers, which would make the build read the clock or invent dates, and
 * it rolls 02-30 over into March; the GLOB and the date round-trip refuse those. The parser
 * itself refuses months 00 and 13+ and days 00 and 32+, so only days 29–31 can roll over: the
 * round-trip runs for those alone (a fifth less time per report).
 */
export const instantSql = (column: string) =>
  `(CASE WHEN ${column} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND (substr(${column}, 9, 2) < '29' OR date(substr(${column}, 1, 10)) = substr(${column}, 1, 10)) THEN unixepoch(${column}) END)`;

/**
 * Categories travel from SQLite as their position in this list (instr), which is one cheap
 * string search per report instead of a comparison per category; 0 means "not a category".
 */
const CATEGORY_LIST = `|${CATEGORIES.join("|")}|`;
const categoryPositionSql = (column: string) => `instr('${CATEGORY_LIST}', '|' || ${column} || '|')`;
/** Category index by position in CATEGORY_LIST; -1 for any other position (0 included). */
const CATEGORY_AT_POSITION = new Int8Array(CATEGORY_LIST.length + 1).fill(-1);
CATEGORIES.forEach((c, i) => (CATEGORY_AT_POSITION[CATEGORY_LIST.indexOf(`|${c}|`) + 1] = i));
const COMMA = 44;
const ZERO = 48;

/**
 * Adds a comma-separated list of category positions to `counts`; returns how many were unknown.
 * Read digit by digit (it runs once per username and company) rather than split into strings.
 */
export function tallyCategories(positions: string | null, counts: Uint32Array): number {
  if (!positions) return 0;
  let unknown = 0;
  let position = 0;
  for (let i = 0; i <= positions.length; i++) {
    const code = i < positions.length ? positions.charCodeAt(i) : COMMA;
    if (code !== COMMA) {
      position = position * 10 + code - ZERO;
      continue;
    }
    const index = position < CATEGORY_AT_POSITION.length ? CATEGORY_AT_POSITION[position]! : -1;
    if (index < 0) unknown++;
    else counts[index]!++;
    position = 0;
  }
  return unknown;
}

export function readInstant(db: Snapshot, text: string): number | null {
  return db.prepare(`SELECT ${instantSql("x")} FROM (SELECT ? AS x)`).pluck().get(text) as number | null;
}

export function readNewestReport(db: Snapshot): number | null {
  return db.prepare(`SELECT max(${instantSql("created_at")}) FROM reports`).pluck().get() as number | null;
}

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
export class UsernameGroupRow {
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
];
const GROUP_COLUMNS = GROUP_AGGREGATES.join(", ");
/** Positions of the text columns in `u, GROUP_COLUMNS`: the username and the two lists. */
const GROUP_TEXT_COLUMNS = [0, 9, 10];
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
  const first = db.prepare(`SELECT min(id), min(CASE WHEN ${instantSql("created_at")} IS NULL THEN id END) FROM reports WHERE username = ?`).raw();
  return {
    [Symbol.iterator]: () => iterateUsernameGroups(db, windows, spellingsOf),
    firstReportIds(username) {
      let firstId = Infinity;
      let firstUndatedId = Infinity;
      for (const raw of spellingsOf.get(username) ?? [username]) {
        const [id, undatedId] = first.get(raw) as [number | null, number | null];
        if (id !== null && id < firstId) firstId = id;
        if (undatedId !== null && undatedId < firstUndatedId) firstUndatedId = undatedId;
      }
      return { first: firstId === Infinity ? null : firstId, firstUndated: firstUndatedId === Infinity ? null : firstUndatedId };
    },
  };
}

/**
 * The username pass's rows, and where the build report's samples point: the smallest report id
 * of a username (and of its undated reports). Those are looked up for the few samples the report
 * keeps rather than aggregated for every username (two aggregates fewer per report: an eighth of
 * the pass's SQLite time).
 */
export interface UsernameGroups extends Iterable<UsernameGroupRow> {
  /** Only while the rows are being read (the spellings are known from then on). */
  firstReportIds(username: string): { first: number | null; firstUndated: number | null };
}

function* iterateUsernameGroups(db: Snapshot, windows: TrendWindows, spellingsOf: Map<string, unknown[]>): Generator<UsernameGroupRow> {
  const streams = startUsernameStreams(db, windows, spellingsOf);
  try {
    yield* mergeOrdered(streams);
  } finally {
    streams.stop();
  }
}

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
    setup: `DROP TABLE IF EXISTS temp.spelling;
            CREATE TEMP TABLE spelling (raw PRIMARY KEY, normal TEXT NOT NULL) WITHOUT ROWID;
            CREATE INDEX temp.spelling_normal ON spelling (normal, raw);`,
    insert: "INSERT OR IGNORE INTO temp.spelling (raw, normal) VALUES (?, ?)",
    spellings,
    params: windows,
    queries: [
      `SELECT u, ${GROUP_COLUMNS} FROM (
         SELECT username AS u, ${REPORT_COLUMNS("reports")} FROM reports
         WHERE username IS NOT NULL AND username NOT IN (SELECT raw FROM temp.spelling) ORDER BY u, id LIMIT -1)
       GROUP BY u ORDER BY u`,
      `SELECT u, ${GROUP_COLUMNS} FROM (
         SELECT s.normal AS u, ${REPORT_COLUMNS("r")} FROM temp.spelling AS s CROSS JOIN reports AS r ON r.username = s.raw
         ORDER BY s.normal LIMIT -1)
       GROUP BY u ORDER BY u`,
    ],
  });
}

/** Rows per batch the query thread hands over, and batches asked for ahead per query. */
const STREAM_BATCH_ROWS = 256;
const STREAM_PREFETCH = 4;

interface QueryStreamsSpec {
  /** SQL run first on the thread's connection (temporary tables). */
  setup: string;
  /** Run once per spelling pair, in one transaction, after the setup. */
  insert: string;
  spellings: [unknown, string][];
  /** Named parameters of every query. */
  params: object;
  /** Each selects `u, GROUP_COLUMNS`. */
  queries: string[];
}

interface Batch {
  count: number;
  texts: (string | null)[];
  numbers: Float64Array;
  done: boolean;
}

/**
 * Runs `queries` on a second read-only connection in a worker thread (build/group-worker.cjs)
 * and returns one row iterator per query. Each asks for batches ahead of the rows it hands out,
 * so SQLite steps through the next rows on the other core while this thread uses these; memory
 * stays at a few batches per query. Iterators may be read interleaved (a merge does).
 */
function startQueryStreams(db: Snapshot, spec: QueryStreamsSpec): IterableIterator<UsernameGroupRow>[] & { stop(): void } {
  const control = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const script = fileURLToPath(new URL("./group-worker.cjs", import.meta.url));
  // Plain CommonJS from source text, like the writer's worker (build/writer.ts says why).
  const worker = new Worker(`require(${JSON.stringify(script)})`, {
    eval: true,
    execArgv: [],
    workerData: { path: db.name, ...spec, textColumns: GROUP_TEXT_COLUMNS, batchRows: STREAM_BATCH_ROWS, port: port2, control: control.buffer },
    transferList: [port2],
  });
  worker.unref();
  const queued = spec.queries.map((): Batch[] => []);
  let seen = 0;
  const ask = (stream: number) => port1.postMessage({ stream });
  /** Waits for the worker's next answer and files it under its stream. */
  const receive = () => {
    while (Atomics.load(control, 0) === seen) Atomics.wait(control, 0, seen, 1000);
    const message = receiveMessageOnPort(port1)?.message as (Batch & { stream?: number; error?: string }) | undefined;
    if (message === undefined) return;
    seen++;
    if (message.error !== undefined || message.stream === undefined) throw new BuildError(`reading reports by username: ${message.error ?? "the query thread stopped"}`);
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

/**
 * Complaint aggregates per company: [company_id, dated count, first, last, day offsets of the
 * reports since day-13 (comma-separated, 0 = day-13), category positions, smallest report id].
 * Unknown ids come back too, so the build can report them.
 */
export type CompanyAggregateRow = [number, number, number, number, string | null, string | null, number];
/** [person_id, count, smallest report id] for every person id that dated reports name. */
export type PersonCountRow = [number, number, number];
/**
 * Reports that name no username and cannot be dated or carry an unknown category (the
 * username pass counts those among reports that do name one): [id, created_at, category,
 * dated (0/1), category position].
 */
export type UnnamedOddityRow = [number, string, string | null, number, number | null];

export interface SideAggregates {
  companies: CompanyAggregateRow[];
  people: PersonCountRow[];
  oddities: UnnamedOddityRow[];
  /** [[count, smallest id]] of the reports whose confidence is not an integer (text or a fraction in a loose export). */
  badConfidences: [[number, number | null]];
}

const sideAggregateQueries = (since: number) => [
  {
    name: "companies",
    params: { since },
    // Each report's time is parsed once (the innermost subquery is not flattened, for its
    // LIMIT) and its day and category become small integers before the one sort, GROUP BY's:
    // sorting in the subquery as well, and sorting the category text, cost a quarter more.
    sql: `SELECT company_id, count(*), min(t), max(t), group_concat(day), group_concat(pos), min(id)
          FROM (SELECT company_id, id, t, CASE WHEN t >= @since THEN CAST((t - @since) / 86400 AS INTEGER) END AS day,
                  ${categoryPositionSql("category")} AS pos
                FROM (SELECT company_id, category, id, ${instantSql("created_at")} AS t FROM reports WHERE company_id IS NOT NULL LIMIT -1)
                WHERE t IS NOT NULL LIMIT -1)
          GROUP BY company_id ORDER BY company_id`,
  },
  {
    name: "people",
    params: {},
    sql: `SELECT person_id, count(*), min(id) FROM reports WHERE person_id IS NOT NULL AND ${instantSql("created_at")} IS NOT NULL
          GROUP BY person_id ORDER BY person_id`,
  },
  {
    name: "badConfidences",
    params: {},
    sql: "SELECT count(*), min(id) FROM reports WHERE typeof(confidence) <> 'integer'",
  },
  {
    name: "oddities",
    params: {},
    sql: `SELECT id, CAST(created_at AS TEXT), CAST(category AS TEXT), t IS NOT NULL, pos FROM (
            SELECT id, created_at, category, ${instantSql("created_at")} AS t, ${categoryPositionSql("category")} AS pos
            FROM reports WHERE username IS NULL ORDER BY id LIMIT -1)
          WHERE t IS NULL OR pos = 0 ORDER BY id`,
  },
];

/**
 * Complaint aggregates per company and per person, and the odd reports without a username,
 * computed on another thread with its own read-only connection while this one runs the
 * username pass: sorting every report by company is a tenth of the build's SQLite time, and
 * nothing in the pass needs its answer. Call `take()` when the pass is over; it waits if needed.
 * Unknown ids come back too, so the build can report them.
 */
export function startSideAggregates(db: Snapshot, since: number): { take(): SideAggregates } {
  const control = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const script = fileURLToPath(new URL("./query-worker.cjs", import.meta.url));
  // Plain CommonJS from source text, like the writer's worker (build/writer.ts says why).
  const worker = new Worker(`require(${JSON.stringify(script)})`, {
    eval: true,
    execArgv: [],
    workerData: { path: db.name, queries: sideAggregateQueries(since), port: port2, control: control.buffer },
    transferList: [port2],
  });
  // A build that fails half-way must not wait for these queries to exit.
  worker.unref();
  return {
    take() {
      while (Atomics.load(control, 0) === 0) Atomics.wait(control, 0, 0, 1000);
      const message = receiveMessageOnPort(port1)?.message as { results?: SideAggregates; error?: string } | undefined;
      port1.close();
      if (!message?.results) throw new BuildError(`reading company and person aggregates: ${message?.error ?? "the query thread stopped"}`);
      return message.results;
    },
  };
}

export function countReports(db: Snapshot): number {
  return db.prepare("SELECT count(*) FROM reports").pluck().get() as number;
}

export interface FingerprintProfileRow {
  id: number;
  label: string;
  kind: string;
  name: string;
  os_family: string | null;
  trust_level: string;
  observations: number;
  confirmations: number;
  signals: { key: string; value: string }[];
}

/**
 * Every fingerprint profile with its signals, by id; signals in snapshot order (rowid). The
 * library is small (hundreds to a few thousand profiles), so it is read whole. Signals whose
 * profile does not exist have nothing to attach to and are left out by the join.
 */
export function readFingerprintProfiles(db: Snapshot): FingerprintProfileRow[] {
  const profiles = db
    .prepare("SELECT id, label, kind, name, os_family, trust_level, observations, confirmations FROM fp_profiles ORDER BY id")
    .all() as Omit<FingerprintProfileRow, "signals">[];
  const byId = new Map<number, FingerprintProfileRow>();
  const rows = profiles.map((profile) => {
    const row = { ...profile, signals: [] as FingerprintProfileRow["signals"] };
    byId.set(row.id, row);
    return row;
  });
  const signals = db.prepare(
    "SELECT s.profile_id, s.key, s.value FROM fp_signals s JOIN fp_profiles p ON p.id = s.profile_id ORDER BY s.profile_id, s.rowid",
  );
  for (const [profileId, key, value] of signals.raw().iterate() as Iterable<[number, string, string]>) {
    byId.get(profileId)?.signals.push({ key, value });
  }
  return rows;
}
