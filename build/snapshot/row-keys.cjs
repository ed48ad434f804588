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
 * The username key of a spelling: a hash of it as SQLite's quote() writes it (what the row text
 * holds), so the key of a row's username is made from the text without unquoting it.
 * @param {string} spelling
 */
function usernameKey(spelling) {
  const quoted = `'${spelling.replaceAll("'", "''")}'`;
  return hashPart(quoted, 0, quoted.length);
}

/** The key of a report without a username (quote(NULL)). */
const NULL_KEY = hashPart("NULL", 0, 4);

/**
 * Splits a range's text (rows joined by "\n", each `quote(id),quote(username),…`) into rows,
 * appending each row's bytes (ROW_BYTES) to `out` from `at`; returns where it stopped, or -1
 * when a row's username is a number, a blob or a text with a NUL in it (the model then reads
 * every report, as a full build does). A newline inside a quoted value does not end a row.
 * @param {string} text
 * @param {number} rangeStart the range's first id, as a Number (ids are exact below 2^53)
 * @param {Uint8Array} out
 * @param {number} at
 */
function splitRows(text, rangeStart, out, at) {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let start = 0;
  while (start < text.length) {
    // The id: digits, perhaps a minus sign.
    let i = text.indexOf(",", start);
    const id = Number(text.slice(start, i));
    // The username: 'text' (quotes doubled inside) or NULL.
    const userFrom = i + 1;
    let userTo;
    if (text.charCodeAt(userFrom) === 39) {
      let j = userFrom + 1;
      for (;;) {
        j = text.indexOf("'", j);
        if (text.charCodeAt(j + 1) === 39) j += 2;
        else break;
      }
      userTo = j + 1;
    } else if (text.startsWith("NULL", userFrom)) userTo = userFrom + 4;
    else return -1;
    // Its key; a NUL in it would have SQLite's text functions see less of it than the pass does.
    let key = FNV_SEED;
    for (let u = userFrom; u < userTo; u++) {
      const c = text.charCodeAt(u);
      if (c === 0) return -1;
      key = Math.imul(key ^ c, 16777619);
    }
    // The row, up to the first newline outside quotes (the id has none, the username's are
    // paired), hashed on the way, in one pass: FNV-1a, and a murmur-style mix of each code unit,
    // independent enough of it that a changed row keeps both.
    let end = start;
    let quoted = false;
    let fnv = FNV_SEED;
    let mix = 0x9747b28c;
    for (; end < text.length; end++) {
      const c = text.charCodeAt(end);
      if (c === 39) quoted = !quoted;
      else if (c === 10 && !quoted) break;
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
