// @ts-check
"use strict";
// Inflating a dump's gzip member back into its batch of CSV, checked against the size the batch
// had: for the CSV's chunks (build/dump/csv.ts) and for the writer's thread, which writes the CSV
// from its members (write-worker.cjs). Plain CommonJS: that thread runs it (build/threads.ts).
const { gunzipSync } = require("node:zlib");

/**
 * Batch `index`'s member inflated (zlib checks its CRC-32 and length against its trailer), and
 * refused if it is not the `size` bytes the batch was.
 * @param {Uint8Array} member @param {number} size @param {number} index
 * @returns {Buffer}
 */
function inflateMember(member, size, index) {
  const raw = gunzipSync(member);
  if (raw.byteLength !== size) throw new Error(`dump batch ${index} inflated to ${raw.byteLength} bytes, not ${size}`);
  return raw;
}

module.exports = { inflateMember };
