// @ts-check
"use strict";
// Each report's row as the digests see it (range-digest.cjs): its place in its range, two hashes
// of its text, and a key of its username. An incremental build compares the rows of a changed
// range with the ones the previous build kept, to find the reports that changed and the
// usernames they named (model/group-source.ts), instead of reading every report again.

/** Bytes kept per row: its id's low bits (1), two 32-bit hashes of its text or cell (8), its username key (4). */
const ROW_BYTES = 13;
const { FNV_PRIME, FNV_SEED, fnv1a: hashPart, fnv1aBytes } = require("../fnv.cjs");
const { readVarint, varint } = require("./table-pages.cjs");

/**
 * The username key of a spelling: FNV-1a of its UTF-16 code units, the same whether the spelling
 * comes from the model's rows or from a range's text (splitRows).
 * @param {string} spelling
 */
function usernameKey(spelling) {
  return hashPart(spelling, 0, spelling.length);
}

/** The key of a report without a username: a NUL's, which no spelling a key is made of holds. */
const NULL_KEY = hashPart("\0", 0, 1);

/**
 * Splits a range's text (range-digest.cjs: rows joined by "\n", each its json_array, its
 * username second) into rows, appending each row's bytes (ROW_BYTES) to `out` from `at`; returns
 * where it stopped, or -1 when a row's username is a number or a text with a NUL in it (the model
 * then reads every report, as a full build does). JSON escapes newlines, so each line is a row.
 * @param {string} text
 * @param {number} rangeStart the range's first id, as a Number (ids are exact below 2^53)
 * @param {Uint8Array} out
 * @param {number} at
 */
function splitRows(text, rangeStart, out, at) {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    // The id, after "[": digits, perhaps a minus sign.
    const i = text.indexOf(",", start);
    const id = Number(text.slice(start + 1, i));
    // The username: a JSON string, or null.
    const userFrom = i + 1;
    let key;
    if (text.charCodeAt(userFrom) === 34) {
      let j = userFrom + 1;
      let escaped = false;
      for (;;) {
        const c = text.charCodeAt(j);
        if (c === 34) break;
        if (c === 92) {
          escaped = true;
          j += 2;
        } else j++;
      }
      const spelling = escaped ? /** @type {string} */ (JSON.parse(text.slice(userFrom, j + 1))) : text.slice(userFrom + 1, j);
      // A NUL in it would have SQLite's text functions see less of it than the pass does.
      if (escaped && spelling.includes("\0")) return -1;
      key = usernameKey(spelling);
    } else if (text.startsWith("null", userFrom)) key = NULL_KEY;
    else return -1;
    writeRow(out, view, at, id - rangeStart, textRowHashes(text, start, end), key);
    at += ROW_BYTES;
    start = end + 1;
  }
  return at;
}

/**
 * Splits a range's rows read from the table's pages (range-digest.cjs, digestRangePages): row
 * `i` is `bytes[starts[i], starts[i + 1])`, its cell (the payload's size and the rowid as
 * varints, then the record: sqlite.org/fileformat.html §2.1), of id `ids[i]`. Appends each row's
 * bytes (ROW_BYTES) to `out` from `at`; returns where it stopped, or -1 when a row's username
 * (value `usernameColumn` of its record) is not a text or NULL, holds a NUL, or is not in the
 * record (a column added since the row was written, whose value is the declaration's default).
 * @param {Uint8Array} bytes @param {Int32Array} starts @param {Float64Array} ids @param {number} count
 * @param {number} rangeStart @param {number} usernameColumn @param {Uint8Array} out @param {number} at
 */
function splitRecords(bytes, starts, ids, count, rangeStart, usernameColumn, out, at) {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i < count; i++) {
    const start = /** @type {number} */ (starts[i]);
    const end = /** @type {number} */ (starts[i + 1]);
    const key = recordUsernameKey(bytes, start, end, usernameColumn);
    if (key < 0) return -1;
    writeRow(out, view, at, /** @type {number} */ (ids[i]) - rangeStart, byteRowHashes(bytes, start, end), key);
    at += ROW_BYTES;
  }
  return at;
}

/**
 * The username key of a record's value `column`, or -1 (splitRecords says when).
 * @param {Uint8Array} bytes @param {number} start @param {number} end @param {number} column
 */
function recordUsernameKey(bytes, start, end, column) {
  // The cell's two varints (the payload's size, the rowid), then the record's header.
  if (readVarint(bytes, start, end) < 0 || readVarint(bytes, varint.end, end) < 0) return -1;
  const payload = varint.end;
  const headerEnd = payload + readVarint(bytes, payload, end);
  // A header past the row's end is a damaged record: unusable, as an odd username is.
  if (headerEnd < payload || headerEnd > end) return -1;
  let at = varint.end;
  let body = headerEnd;
  for (let i = 0; at < headerEnd; i++) {
    const type = readVarint(bytes, at, headerEnd);
    at = varint.end;
    // 10 and 11 are kept for SQLite's own use (§2.1): no record holds them, and their size is unknown.
    if (type < 0 || type === 10 || type === 11) return -1;
    if (i === column) {
      if (type === 0) return NULL_KEY;
      // A text: an odd serial type from 13 on (§2.1), of (type - 13) / 2 bytes.
      if (type < 13 || type % 2 === 0) return -1;
      const length = (type - 13) / 2;
      if (body + length > end) return -1;
      let ascii = true;
      for (let j = body; j < body + length; j++) {
        const byte = /** @type {number} */ (bytes[j]);
        if (byte === 0) return -1;
        if (byte >= 0x80) ascii = false;
      }
      // An ASCII text's bytes are its UTF-16 code units: the key of its spelling, without making it a string.
      return ascii ? fnv1aBytes(bytes, body, body + length) : usernameKey(Buffer.from(bytes.buffer, bytes.byteOffset + body, length).toString("utf8"));
    }
    body += type < 12 ? /** @type {number} */ (SERIAL_SIZES[type]) : Math.floor((type - 12) / 2);
  }
  return -1;
}

/** Bytes of the values of serial types 0 to 9 (§2.1). */
const SERIAL_SIZES = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0];

/**
 * A row's two hashes, in one pass over its code units (its text, textRowHashes) or its bytes
 * (its cell, byteRowHashes): FNV-1a, and a murmur-style mix of each unit, independent enough of
 * it that a changed row keeps both. Each returns the first and leaves the second in `secondHash`.
 * @param {string} text @param {number} start @param {number} end
 */
function textRowHashes(text, start, end) {
  let fnv = FNV_SEED;
  let mix = 0x9747b28c;
  for (let u = start; u < end; u++) {
    const c = text.charCodeAt(u);
    fnv = Math.imul(fnv ^ c, FNV_PRIME);
    mix = mixIn(mix, c);
  }
  secondHash = finishMix(mix, end - start);
  return fnv >>> 0;
}

/** @param {Uint8Array} bytes @param {number} start @param {number} end */
function byteRowHashes(bytes, start, end) {
  let fnv = FNV_SEED;
  let mix = 0x9747b28c;
  for (let u = start; u < end; u++) {
    const c = /** @type {number} */ (bytes[u]);
    fnv = Math.imul(fnv ^ c, FNV_PRIME);
    mix = mixIn(mix, c);
  }
  secondHash = finishMix(mix, end - start);
  return fnv >>> 0;
}

/** @param {number} mix @param {number} c */
function mixIn(mix, c) {
  let k = Math.imul(c, 0xcc9e2d51);
  k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  mix ^= k;
  return Math.imul((mix << 13) | (mix >>> 19), 5) + 0xe6546b64;
}

/** @param {number} mix @param {number} length */
function finishMix(mix, length) {
  mix ^= length;
  mix = Math.imul(mix ^ (mix >>> 16), 0x85ebca6b);
  mix = Math.imul(mix ^ (mix >>> 13), 0xc2b2ae35);
  return (mix ^ (mix >>> 16)) >>> 0;
}

let secondHash = 0;

/**
 * @param {Uint8Array} out @param {DataView} view @param {number} at @param {number} idOffset
 * @param {number} fnv the row's first hash (textRowHashes, byteRowHashes; its second is `secondHash`) @param {number} key
 */
function writeRow(out, view, at, idOffset, fnv, key) {
  out[at] = idOffset;
  view.setUint32(at + 1, fnv);
  view.setUint32(at + 5, secondHash);
  view.setUint32(at + 9, key >>> 0);
}

module.exports = { ROW_BYTES, NULL_KEY, usernameKey, splitRows, splitRecords };
