// @ts-check
"use strict";
// The digests of the report id ranges (digest.ts says what they are for), shared by the build's
// main thread and the digest worker (digest-worker.cjs), which each take half of the ids: SQLite
// makes each range's text in C, and this hashes it once per range.
const { createHash } = require("node:crypto");

/** Report ids per range: 2^7. Small enough that a few thousand scattered edits leave most ranges alone. */
const REPORT_RANGE_BITS = 7;
/** Bytes kept of each range's SHA-256. */
const RANGE_DIGEST_BYTES = 16;

/**
 * The ranges of reports whose id is in [from, to) (BigInts, so ids past 2^53 stay exact), each
 * range's rows in id order, with every contract column quoted (`columns`, its type included: 5
 * is not '5'). Range by range, each a seek and a scan of at most 2^REPORT_RANGE_BITS rows in
 * rowid order: one GROUP BY over every report sorted all their text in a temporary B-tree first
 * (a third of the time). The rows come to group_concat in the subquery's order, which is the
 * scan's; an order SQLite changed would change a digest (a range built again), never hide a
 * change: each row's text carries its id.
 * @param {import("better-sqlite3").Database} db
 * @param {readonly string[]} columns
 * @param {bigint} from
 * @param {bigint} to
 * @returns {{ ranges: Float64Array; digests: Buffer }}
 */
function digestReportRanges(db, columns, from, to) {
  const row = ["quote(id)", ...columns.map((c) => `quote(${c})`)].join(" || ',' || ");
  const bits = BigInt(REPORT_RANGE_BITS);
  const nextRange = db.prepare("SELECT id >> ? FROM reports WHERE id >= ? AND id < ? ORDER BY id LIMIT 1").safeIntegers(true).pluck();
  const rangeText = db.prepare(`SELECT group_concat(r, char(10)) FROM (SELECT ${row} AS r FROM reports WHERE id >= ? AND id < ? ORDER BY id)`).pluck();
  /** @type {number[]} */
  const ranges = [];
  /** @type {Buffer[]} */
  const digests = [];
  for (let range = /** @type {bigint | undefined} */ (nextRange.get(bits, from, to)); range !== undefined; ) {
    const start = range << bits;
    const end = (range + 1n) << bits;
    const text = /** @type {string} */ (rangeText.get(start > from ? start : from, end < to ? end : to));
    ranges.push(Number(range));
    digests.push(createHash("sha256").update(text).digest().subarray(0, RANGE_DIGEST_BYTES));
    range = end < to ? /** @type {bigint | undefined} */ (nextRange.get(bits, end, to)) : undefined;
  }
  return { ranges: Float64Array.from(ranges), digests: Buffer.concat(digests) };
}

module.exports = { digestReportRanges, REPORT_RANGE_BITS, RANGE_DIGEST_BYTES };
