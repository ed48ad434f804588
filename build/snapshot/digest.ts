/**
 * What a snapshot holds, as digests: one per table of the contract (its rows in the order the
 * build reads them, rowid order, every value whole with its type, as quoteExactly writes it) and
 * one per range of report ids (each row's cell as the file holds it, read from the table's pages,
 * or where they cannot be, its text as SQLite's json_array() writes it: range-digest.cjs), plus
 * the schema (an index changes a query's plan, so it counts too).
 * Two snapshots with the same digests give the same build, whatever their pages look like; the
 * report ranges say how much of the largest table changed (build-state.ts), and which reports to
 * compare with the kept ones (model/group-source.ts).
 */
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import { BuildError } from "../errors.ts";
import { startWorker } from "../threads.ts";
import { SNAPSHOT_CONTRACT } from "./contract.ts";
import type { Snapshot } from "./open.ts";
import { digestReportRanges, type PagePlan, quoteExactly, RANGE_DIGEST_BYTES, REPORT_RANGE_BITS } from "./range-digest.cjs";
import type { DigestAnswer, DigestPart, DigestWorkerData, RowRequest } from "./thread-protocol.ts";


export interface SnapshotDigest {
  /** Per table of the contract but reports, and `schema`: hex SHA-256. */
  tables: Record<string, string>;
  /** Report ranges that hold rows (id >> REPORT_RANGE_BITS), ascending. */
  reportRanges: Float64Array;
  /** RANGE_DIGEST_BYTES per range, in the order of `reportRanges`. */
  reportDigests: Buffer;
}

/**
 * The rows of the report ranges a RowRequest asked for (row-keys.cjs), ascending: `counts[i]`
 * rows of range `ranges[i]`, ROW_BYTES each, one after the other in `rows`; with each row's
 * username when the request was "changed". Null when a username was not plain text (row-keys.cjs).
 */
export interface SplitRows {
  ranges: Float64Array;
  counts: Uint8Array;
  rows: Uint8Array;
}

/** The snapshot's digests, being made: `take()` waits for them (once; later calls give the same). */
export interface DigestJob {
  take(): SnapshotDigest & { split: SplitRows | null };
  /** Stops the threads still making them (a build that failed). */
  abandon(): void;
}

/** The snapshot's digests, made now on both cores. */
export function readSnapshotDigest(db: Snapshot, request: RowRequest): SnapshotDigest & { split: SplitRows | null } {
  return startSnapshotDigest(db, request, false).take();
}

/**
 * Starts the snapshot's digests. The tables are digested here and now (a tenth of a second at a
 * million usernames); the report ranges, half of the ids on a worker thread with its own
 * connection and half here when `background` is false: on two cores, half the time of the
 * largest table's pass. When `background`, all of them on one worker thread at the lowest CPU
 * priority, to use what the build leaves idle (a full build's report pass keeps one core busy,
 * not two): a build whose plan does not depend on them takes them when its pass is over.
 */
export function startSnapshotDigest(db: Snapshot, request: RowRequest, background: boolean): DigestJob {
  const tables: Record<string, string> = {};
  const schema = db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name").raw().all() as string[][];
  // The planner's statistics too: they choose the plans, and a plan is the order rows come in.
  const stats = schema.some(([, name]) => name === "sqlite_stat1") ? db.prepare("SELECT * FROM sqlite_stat1 ORDER BY 1, 2, 3").raw().all() : [];
  tables.schema = createHash("sha256").update(JSON.stringify([schema, stats])).digest("hex");
  for (const table of Object.keys(SNAPSHOT_CONTRACT)) {
    if (table === "reports") continue;
    const hash = createHash("sha256");
    for (const text of db.prepare(selectRows(db, table)).pluck().iterate() as Iterable<string>) hash.update(text).update("\n");
    tables[table] = hash.digest("hex");
  }
  const reports = startReportDigests(db, request, background);
  let taken: (SnapshotDigest & { split: SplitRows | null }) | null = null;
  return {
    take() {
      if (!taken) {
        const { reportRanges, reportDigests, split } = reports.take();
        taken = { tables, reportRanges, reportDigests, split: request.mode === "none" ? null : split };
      }
      return taken;
    },
    abandon: reports.abandon,
  };
}

type ReportDigests = { reportRanges: Float64Array; reportDigests: Buffer; split: SplitRows | null };

/** The report ranges' digests: on one thread in the background, else on two (startSnapshotDigest). */
function startReportDigests(db: Snapshot, request: RowRequest, background: boolean): { take(): ReportDigests; abandon(): void } {
  const columns = SNAPSHOT_CONTRACT.reports!.filter((c) => c !== "id");
  // Two queries: SQLite looks up a min() or a max() alone by the rowid, but scans every report for both at once.
  const [low, high] = (["min", "max"] as const).map((f) => db.prepare(`SELECT ${f}(id) FROM reports`).safeIntegers(true).pluck().get() as bigint | null) as [bigint | null, bigint | null];
  if (low === null || high === null) {
    const none = { reportRanges: new Float64Array(0), reportDigests: Buffer.alloc(0), split: { ranges: new Float64Array(0), counts: new Uint8Array(0), rows: new Uint8Array(0) } };
    return { take: () => none, abandon: () => {} };
  }
  const end = high + 1n;
  const pages = planReportPages(db);
  if (background) {
    // One thread: the build's pass leaves one core idle, and one thread's rows need not be joined (13 bytes a report).
    const all = startDigestThread(db, { columns, from: low, to: end, request, pages, nice: true });
    return {
      take() {
        try {
          const { ranges, digests, split, counts, rows, odd } = all.take();
          return { reportRanges: ranges, reportDigests: Buffer.from(digests.buffer, digests.byteOffset, digests.byteLength), split: odd ? null : { ranges: split, counts, rows } };
        } finally {
          all.stop();
        }
      },
      abandon: all.stop,
    };
  }
  const bits = BigInt(REPORT_RANGE_BITS);
  // A range boundary near the middle, so that no range is split between the two.
  const middle = (((low >> 1n) + (high >> 1n)) >> bits) << bits;
  const upper = startDigestThread(db, { columns, from: middle, to: end, request, pages, nice: false });
  return {
    take() {
      try {
        const halves = [digestReportRanges(db, columns, low, middle, request, pages), upper.take()];
        const joined = {
          reportRanges: joinArrays(Float64Array, halves.map((h) => h.ranges)),
          reportDigests: Buffer.concat(halves.map((h) => Buffer.from(h.digests.buffer, h.digests.byteOffset, h.digests.byteLength))),
        };
        if (halves.some((h) => h.odd)) return { ...joined, split: null };
        const rows: SplitRows = {
          ranges: joinArrays(Float64Array, halves.map((h) => h.split)),
          counts: joinArrays(Uint8Array, halves.map((h) => h.counts)),
          rows: joinArrays(Uint8Array, halves.map((h) => h.rows)),
        };
        return { ...joined, split: rows };
      } finally {
        upper.stop();
      }
    },
    abandon: upper.stop,
  };
}

/**
 * Whether the report ranges can be digested from the table's pages (range-digest.cjs,
 * table-pages.cjs), and how: when `reports` is a table whose rows are its b-tree's cells in id
 * order (id is its rowid: SQLite looks an id up by it), with every column stored in its records
 * (no generated one), and the file holds every page of the snapshot (in WAL mode, the log is
 * empty: a page there would be newer than the file's; a rollback journal left by a write cut
 * short, SQLite refuses to open read-only). Else null: SQLite writes each range's text, as it does for a view or a table
 * WITHOUT ROWID.
 */
export function planReportPages(db: Snapshot): PagePlan | null {
  const table = db.prepare("SELECT rootpage, sql FROM sqlite_schema WHERE type = 'table' AND name = 'reports' COLLATE NOCASE").get() as { rootpage: number; sql: string } | undefined;
  if (!table || !table.rootpage || typeof table.sql !== "string") return null;
  const plan = db.prepare("EXPLAIN QUERY PLAN SELECT * FROM reports WHERE id = 1").all() as { detail: string }[];
  if (!plan.some((step) => /USING INTEGER PRIMARY KEY \(rowid=\?\)/.test(step.detail))) return null;
  const columns = db.prepare("SELECT name, hidden FROM pragma_table_xinfo('reports')").all() as { name: string; hidden: number }[];
  if (columns.some((c) => c.hidden !== 0)) return null;
  const usernameColumn = columns.findIndex((c) => c.name.toLowerCase() === "username");
  if (usernameColumn < 0) return null;
  const logSize = (suffix: string) => statSync(db.name + suffix, { throwIfNoEntry: false })?.size ?? 0;
  if (logSize("-wal") > 0) return null;
  return { path: db.name, rootPage: table.rootpage, seed: table.sql, usernameColumn };
}

/** A digest worker (digest-worker.cjs) on the report ranges of ids in [from, to): `take()` waits for its answer. */
function startDigestThread(db: Snapshot, task: Omit<DigestWorkerData, "path" | "port" | "control">): { take(): DigestPart; stop(): void } {
  const control = new SharedArrayBuffer(4);
  const { port1, port2 } = new MessageChannel();
  const data: DigestWorkerData = { ...task, path: db.name, port: port2, control };
  const worker = startWorker(new URL("./digest-worker.cjs", import.meta.url), data, [port2]);
  worker.unref();
  return {
    take() {
      const done = new Int32Array(control);
      while (Atomics.load(done, 0) === 0) Atomics.wait(done, 0, 0, 1000);
      const answer = receiveMessageOnPort(port1)?.message as DigestAnswer | undefined;
      if (!answer || "error" in answer) throw new BuildError(`reading the snapshot's digests: ${answer?.error ?? "the digest thread stopped"}`);
      return answer;
    },
    stop() {
      port1.close();
      void worker.terminate();
    },
  };
}

function joinArrays<T extends Float64Array | Uint8Array>(Type: { new (length: number): T }, parts: T[]): T {
  const joined = new Type(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part as never, at);
    at += part.length;
  }
  return joined;
}

/**
 * Every row of `table` as text, in the order the build reads it: rowid order, with the rowid, for
 * a table that has one; a table without (WITHOUT ROWID, or a view an export put in its place) is
 * read in an order its rows decide, so they are taken in the order of their columns.
 */
function selectRows(db: Snapshot, table: string): string {
  const columns = SNAPSHOT_CONTRACT[table]!;
  const row = (key: string[]) => [...key.map((c) => `quote(${c})`), ...columns.map(quoteExactly)].join(" || ',' || ");
  return hasRowid(db, table) ? `SELECT ${row(["rowid"])} FROM ${table} ORDER BY rowid` : `SELECT ${row([])} FROM ${table} ORDER BY ${columns.join(", ")}`;
}

function hasRowid(db: Snapshot, table: string): boolean {
  try {
    db.prepare(`SELECT rowid FROM ${table} LIMIT 0`);
    return true;
  } catch {
    return false;
  }
}

/**
 * How two digests differ: the tables whose rows differ, and the report ranges that differ or
 * exist in one only, against all the ranges either has.
 */
export function compareDigests(before: SnapshotDigest, after: SnapshotDigest): { tables: string[]; changedRanges: number; ranges: number } {
  const tables = Object.keys({ ...before.tables, ...after.tables }).filter((t) => before.tables[t] !== after.tables[t]);
  let i = 0;
  let j = 0;
  let changed = 0;
  let all = 0;
  const a = before.reportRanges;
  const b = after.reportRanges;
  while (i < a.length || j < b.length) {
    all++;
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) {
      changed++;
      i++;
    } else if (i >= a.length || b[j]! < a[i]!) {
      changed++;
      j++;
    } else {
      const same = before.reportDigests.compare(after.reportDigests, j * RANGE_DIGEST_BYTES, (j + 1) * RANGE_DIGEST_BYTES, i * RANGE_DIGEST_BYTES, (i + 1) * RANGE_DIGEST_BYTES) === 0;
      if (!same) changed++;
      i++;
      j++;
    }
  }
  return { tables, changedRanges: changed, ranges: all };
}
