// @ts-check
"use strict";
// One gzip member of the dumps (csv.ts), made on the build's main thread or on the dump's
// compression thread (gzip-worker.cjs), byte for byte the same: CommonJS, because that thread
// runs it (build/threads.ts says why).
const { gzipSync } = require("node:zlib");

/**
 * One gzip member whose bytes depend only on the input: zlib writes mtime 0, and the OS byte
 * (which zlib sets from the platform it was compiled for) is set to 255, "unknown", so a build
 * on another operating system gives the same file. The level is pinned for the same reason. 4
 * compresses the spammer dump 2.9 times as fast as zlib's default 6 into a file 8 % larger (6
 * was a sixth of the build's main thread at a million usernames); 9 took 2.6 times as long as 6
 * for 1 % less.
 * @param {Uint8Array} data
 * @returns {Buffer}
 */
function gzipMember(data) {
  const gz = gzipSync(data, { level: 4 });
  gz[9] = 255;
  return gz;
}

module.exports = { gzipMember };
