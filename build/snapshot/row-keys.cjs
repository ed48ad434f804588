// @ts-check
"use strict";
// Each report's row as the digests see it (range-digest.cjs): its place in its range, two hashes
// of its text, and a key of its username. An incremental build compares the rows of a changed
// range with the ones the previous build kept, to find the reports that changed and the
// usernames they named (model/group-source.ts), instead of reading every report again.

/** Bytes kept per row: its id's low bits (1), two 32-bit hashes of its text (8), its username key (4). */
const ROW_BYTES = 13;
const { FNV_SEED, fnv1a: hashPart } = require("../fnv.cjs");

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
    // The row's two hashes, in one pass: FNV-1a, and a murmur-style mix of each code unit,
    // independent enough of it that a changed row keeps both.
    let fnv = FNV_SEED;
    let mix = 0x9747b28c;
    for (let u = start; u < end; u++) {
      const c = text.charCodeAt(u);
      fnv = Math.imul(fnv ^ c, 16777619);
      let k = Math.imul(c, 0xcc9e2d51);
      k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
      mix ^= k;
      mix = Math.imul((mix << 13) | (mix >>> 19), 5) + 0xe6546b64;
    }
    mix ^= end - start;
    mix = Math.imul(mix ^ (mix >>> 16), 0x85ebca6b);
    mix = Math.imul(mix ^ (mix >>> 13), 0xc2b2ae35);
    out[at] = id - rangeStart;
    view.setUint32(at + 1, fnv >>> 0);
    view.setUint32(at + 5, (mix ^ (mix >>> 16)) >>> 0);
    view.setUint32(at + 9, key >>> 0);
    at += ROW_BYTES;
    start = end + 1;
  }
  return at;
}

module.exports = { ROW_BYTES, NULL_KEY, usernameKey, splitRows };
