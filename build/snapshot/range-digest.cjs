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
 * range's rows in id order inside the aggregate (GROUP BY's own order is no promise), with every
 * contract column quoted (`columns`, its type included: 5 is not '5').
 * @param {import("better-sqlite3").Database} db
 * @param {readonly string[]} columns
 * @param {bigint} from
 * @param {bigint} to
 * @returns {{ ranges: Float64Array; digests: Buffer }}
 */
function digestReportRanges(db, columns, from, to) {
  const row = ["quote(id)", ...columns.map((c) => `quote(${c})`)].join(" || ',' || ");
  const rows = /** @type {Iterable<[number, string]>} */ (
    db
      .prepare(`SELECT id >> ${REPORT_RANGE_BITS}, group_concat(${row}, char(10) ORDER BY id) FROM reports WHERE id >= ? AND id < ? GROUP BY 1 ORDER BY 1`)
      .raw()
      .iterate(from, to)
  );
  /** @type {number[]} */
  const ranges = [];
  /** @type {Buffer[]} */
  const digests = [];
  for (const [range, text] of rows) {
    ranges.push(range);
    digests.push(createHash("sha256").update(text).digest().subarray(0, RANGE_DIGEST_BYTES));
  }
  return { ranges: Float64Array.from(ranges), digests: Buffer.concat(digests) };
}

module.exports = { digestReportRanges, REPORT_RANGE_BITS, RANGE_DIGEST_BYTES };
