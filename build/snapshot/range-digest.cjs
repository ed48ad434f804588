// @ts-check
"use strict";
// The digests of the report id ranges (digest.ts says what they are for), shared by the build's
// main thread and the digest worker (digest-worker.cjs), which each take half of the ids: each
// range's rows read from the table's pages (table-pages.cjs) or, where they cannot be, as text
// SQLite makes, and hashed once per range.
const { createHash } = require("node:crypto");
const { ROW_BYTES, splitRecords, splitRows } = require("./row-keys.cjs");
const { PagesUnreadable, TablePages } = require("./table-pages.cjs");

/** Report ids per range: 2^7. Small enough that a few thousand scattered edits leave most ranges alone. */
const REPORT_RANGE_BITS = 7;
/** Bytes kept of each range's SHA-256. */
const RANGE_DIGEST_BYTES = 16;

/**
 * A value as SQLite's quote() writes it, its type included (5 is not '5'), but whole: quote()
 * cuts a text at its first NUL, so a change after one would change no digest. A text is quoted
 * here by replace() and ||, which keep every byte, and comes out as quote() writes it otherwise.
 * @param {string} column
 */
function quoteExactly(column) {
  return `CASE typeof(${column}) WHEN 'text' THEN '''' || replace(${column}, '''', '''''') || '''' ELSE quote(${column}) END`;
}

/**
 * Which ranges' rows to split (row-keys.cjs) besides digesting them: none, every range (a build
 * with no kept rows to start from), or the ranges whose digest is not the one `before` holds
 * (an incremental build: the rows of the others are the kept ones).
 * @typedef {import("./thread-protocol.ts").RowRequest} RowRequest
 */

/**
 * The SQL of a range's text, how many of its rows hold a BLOB, and its number of rows. The
 * text: its rows in id order, each as SQLite's json_array() writes it, one a line (JSON escapes a
 * newline inside a value), as a BLOB: its UTF-8 bytes as SQLite holds them, hashed without being
 * made a string first. JSON keeps every value whole with its type (5 is not "5", a real is
 * written so that it reads back the same, a NUL is \u0000) except a BLOB, which it reads as JSONB
 * (X'00' is null) or refuses; a range that holds one is written by `exactRangeSql` instead.
 * `x >= X''` is true of a BLOB only: BLOBs sort after every other value. json_array() makes a
 * row's text in one call, where quoting each value and joining them with || took 2.3 times as
 * long at a million usernames.
 * @param {readonly string[]} columns the contract's columns but id
 */
function jsonRangeSql(columns) {
  const blob = columns.map((c) => `${c} >= X''`).join(" OR ");
  return `SELECT CAST(group_concat(json_array(id, ${columns.join(", ")}), char(10)) AS BLOB), count(CASE WHEN ${blob} THEN 1 END), count(*)
    FROM reports WHERE id >= ? AND id < ?`;
}

/**
 * The SQL of the text of a range that holds a BLOB: each value quoted (quoteExactly), joined by
 * commas. Its rows begin with a digit or a minus sign, never "[", so no such text is a JSON one.
 * @param {readonly string[]} columns
 */
function exactRangeSql(columns) {
  const row = ["quote(id)", ...columns.map(quoteExactly)].join(" || ',' || ");
  return `SELECT CAST(group_concat(r, char(10)) AS BLOB) FROM (SELECT ${row} AS r FROM reports WHERE id >= ? AND id < ? ORDER BY id)`;
}

/**
 * How the digests read the reports table's pages straight from the file (table-pages.cjs)
 * instead of asking SQLite for each range's text, decided where the snapshot was opened
 * (digest.ts, planReportPages): `seed` (the table's CREATE TABLE statement: what its records'
 * bytes mean) begins every range's digest, and the username is value `usernameColumn` of each
 * record.
 * @typedef {{ path: string; rootPage: number; seed: string; usernameColumn: number }} PagePlan
 */

/**
 * The ranges of reports whose id is in [from, to) (BigInts, so ids past 2^53 stay exact), each
 * range's digest made of its rows in id order: their cells' bytes when `pages` says how to read
 * them (digestRangePages; an id past 2^53 or a page the reader does not expect, and the rows are
 * read through SQLite instead), else their text as `jsonRangeSql` writes it (digestRangeTexts).
 * The rows of the ranges `request` asks for are split too (row-keys.cjs): `split` lists those
 * ranges, `rows` holds ROW_BYTES per row, `counts` the rows of each, and `odd` says a username
 * was neither text nor NULL (then the rows are not usable: the model reads every report).
 * @param {import("better-sqlite3").Database} db
 * @param {readonly string[]} columns
 * @param {bigint} from
 * @param {bigint} to
 * @param {RowRequest} request
 * @param {PagePlan | null} pages
 * @returns {{ ranges: Float64Array; digests: Buffer; split: Float64Array; counts: Uint8Array; rows: Uint8Array; odd: boolean }}
 */
function digestReportRanges(db, columns, from, to, request = { mode: "none" }, pages = null) {
  // Every row split: the buffer is made to size once (a buffer grown by doubling held twice the rows at its last step).
  const every = request.mode === "all" ? /** @type {number} */ (db.prepare("SELECT count(*) FROM reports WHERE id >= ? AND id < ?").pluck().get(from, to)) : 0;
  if (pages && from >= 0n && to <= 2n ** 53n) {
    const ranges = new RangeCollector(request, every);
    try {
      digestRangePages(pages, Number(from), Number(to), ranges);
      return ranges.finish();
    } catch (error) {
      if (!(error instanceof PagesUnreadable)) throw error;
    }
  }
  const ranges = new RangeCollector(request, every);
  digestRangeTexts(db, columns, from, to, ranges);
  return ranges.finish();
}

/**
 * The digests of the ranges from their cells' bytes (table-pages.cjs), each range's row after
 * row, the table's declaration first: a third of the time SQLite takes to write their text.
 * @param {PagePlan} plan @param {number} from @param {number} to @param {RangeCollector} collector
 */
function digestRangePages(plan, from, to, collector) {
  const table = new TablePages(plan.path);
  const seed = Buffer.from(`table pages\n${plan.seed}\n`, "utf8");
  const size = 2 ** REPORT_RANGE_BITS;
  let bytes = Buffer.allocUnsafeSlow(1 << 16);
  let used = 0;
  /** Where each row of the range in the making starts in `bytes` (one more: where the last ends), and its id. */
  const starts = new Int32Array(size + 1);
  const ids = new Float64Array(size);
  let rows = 0;
  let range = -1;
  const finishRange = () => {
    starts[rows] = used;
    const digest = createHash("sha256").update(seed).update(bytes.subarray(0, used)).digest().subarray(0, RANGE_DIGEST_BYTES);
    collector.add(range, digest, rows, (out, at) => splitRecords(bytes, starts, ids, rows, range * size, plan.usernameColumn, out, at));
    used = 0;
    rows = 0;
  };
  try {
    table.forEachRow(plan.rootPage, from, to, (cell, start, end, rowid) => {
      const own = Math.floor(rowid / size);
      if (own !== range) {
        if (rows > 0) finishRange();
        range = own;
      }
      const length = end - start;
      if (used + length > bytes.length) {
        const grown = Buffer.allocUnsafeSlow(Math.max(bytes.length * 2, used + length));
        bytes.copy(grown, 0, 0, used);
        bytes = grown;
      }
      starts[rows] = used;
      ids[rows++] = rowid;
      used += cell.copy(bytes, used, start, end);
    });
    if (rows > 0) finishRange();
  } finally {
    table.close();
  }
}

/**
 * The digests of the ranges from their text, as SQLite writes it (jsonRangeSql, exactRangeSql):
 * range by range, each a seek and a scan of at most 2^REPORT_RANGE_BITS rows in rowid order (one
 * GROUP BY over every report sorted all their text in a temporary B-tree first, a third of the
 * time). The rows come to group_concat in the scan's order, the rowid's (an ORDER BY id subquery
 * cost a tenth more for the same order); an order SQLite changed would change a digest (a range
 * built again), never hide a change: each row's text carries its id, and the split rows are
 * matched by id, not by place. A range that holds a BLOB is digested but not split (`odd`).
 * @param {import("better-sqlite3").Database} db
 * @param {readonly string[]} columns
 * @param {bigint} from
 * @param {bigint} to
 * @param {RangeCollector} collector
 */
function digestRangeTexts(db, columns, from, to, collector) {
  const bits = BigInt(REPORT_RANGE_BITS);
  const nextRange = db.prepare("SELECT id >> ? FROM reports WHERE id >= ? AND id < ? ORDER BY id LIMIT 1").safeIntegers(true).pluck();
  const jsonText = db.prepare(jsonRangeSql(columns)).raw();
  /** @type {import("better-sqlite3").Statement | null} */
  let exactText = null;
  for (let range = /** @type {bigint | undefined} */ (nextRange.get(bits, from, to)); range !== undefined; ) {
    const start = range << bits;
    const end = (range + 1n) << bits;
    const bounds = [start > from ? start : from, end < to ? end : to];
    /** @type {Buffer | undefined} */
    let text;
    // Rows holding a BLOB: one, unless the JSON text says otherwise.
    let blobs = 1;
    let count = 0;
    try {
      [text, blobs, count] = /** @type {[Buffer, number, number]} */ (jsonText.get(...bounds));
    } catch {
      // json_array() refuses a BLOB it cannot read as JSONB; whatever else failed fails again below.
    }
    if (blobs > 0 || text === undefined) text = /** @type {Buffer} */ ((exactText ??= db.prepare(exactRangeSql(columns)).pluck()).get(...bounds));
    const rows = /** @type {Buffer} */ (text);
    const digest = createHash("sha256").update(rows).digest().subarray(0, RANGE_DIGEST_BYTES);
    collector.add(Number(range), digest, count, (out, at) => (blobs > 0 ? -1 : splitRows(rows.toString("utf8"), Number(start), out, at)));
    range = end < to ? /** @type {bigint | undefined} */ (nextRange.get(bits, end, to)) : undefined;
  }
}

/** The ranges' digests as they are made, and the rows of those `request` asks for, split. */
class RangeCollector {
  /** @param {RowRequest} request @param {number} every rows in all, when every range is split */
  constructor(request, every) {
    this.request = request;
    this.known = request.mode === "changed" ? indexDigests(request.ranges) : null;
    /** @type {number[]} */
    this.ranges = [];
    /** @type {Buffer[]} */
    this.digests = [];
    /** @type {number[]} */
    this.split = [];
    /** @type {number[]} */
    this.counts = [];
    this.rows = new Uint8Array(request.mode === "none" ? 0 : Math.max(every * ROW_BYTES, 1 << 16));
    this.used = 0;
    this.odd = false;
  }

  /**
   * A range's digest; when its rows are asked for, `split` appends them to `out` from `at` and
   * returns where it stopped, or -1 (an odd row: no row is usable).
   * @param {number} range @param {Buffer} digest @param {number} count its rows
   * @param {(out: Uint8Array, at: number) => number} split
   */
  add(range, digest, count, split) {
    this.ranges.push(range);
    this.digests.push(digest);
    const { request } = this;
    if (request.mode === "none" || (request.mode === "changed" && sameDigest(request, this.known, range, digest))) return;
    if (this.rows.length - this.used < count * ROW_BYTES) {
      const grown = new Uint8Array(Math.max(this.rows.length * 2, this.used + count * ROW_BYTES));
      grown.set(this.rows.subarray(0, this.used));
      this.rows = grown;
    }
    const before = this.used;
    const after = this.odd ? -1 : split(this.rows, this.used);
    if (after < 0) this.odd = true;
    else this.used = after;
    this.split.push(range);
    this.counts.push(this.odd ? 0 : (this.used - before) / ROW_BYTES);
  }

  finish() {
    const { rows, used } = this;
    return {
      ranges: Float64Array.from(this.ranges),
      digests: Buffer.concat(this.digests),
      split: Float64Array.from(this.split),
      counts: Uint8Array.from(this.counts),
      rows: used === rows.length ? rows : rows.slice(0, used),
      odd: this.odd,
    };
  }
}

/** @param {Float64Array} ranges */
function indexDigests(ranges) {
  /** @type {Map<number, number>} */
  const index = new Map();
  ranges.forEach((range, i) => index.set(range, i));
  return index;
}

/**
 * @param {{ digests: Uint8Array }} before
 * @param {Map<number, number> | null} known
 * @param {number} range
 * @param {Buffer} digest
 */
function sameDigest(before, known, range, digest) {
  const i = known?.get(range);
  if (i === undefined) return false;
  return digest.compare(before.digests, i * RANGE_DIGEST_BYTES, (i + 1) * RANGE_DIGEST_BYTES) === 0;
}

module.exports = { digestReportRanges, jsonRangeSql, quoteExactly, REPORT_RANGE_BITS, RANGE_DIGEST_BYTES };
