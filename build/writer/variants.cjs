// @ts-check
"use strict";
// Makes the precompressed variants of one file (core/routes/variants.ts decides which files get
// them). CommonJS, because the disk writer's worker thread runs it beside the file sink
// (build/threads.ts says why). The bytes depend only on the input and on the zlib and brotli
// that Node bundles: the parameters are pinned, gzip's header carries no time or name.
const zlib = require("node:zlib");

/**
 * Levels, measured on the compressible files of 1 KiB to 1 MiB of a 200 000-username build
 * (docs/operators.md "Compression"): gzip 9 is as fast as 6 on files this small and never larger. Brotli
 * 5 gives 35.0 % of the original in 0.26 ms a file; 11 gives 30.4 % in 10 ms, forty times the
 * time for 5 points, and a million usernames make about 170 000 such files.
 */
const GZIP_LEVEL = 9;
const BROTLI_QUALITY = 5;

/** @type {Record<import("../../core/routes/variants.ts").Encoding, string>} */
const SUFFIX = { gzip: ".gz", br: ".br" };

/**
 * One gzip member with mtime 0 (zlib's default without a header) and the OS byte set to 255,
 * "unknown": zlib sets it from the platform it was compiled for (as the dump's gzip does).
 * @param {Uint8Array} data
 */
function gzip(data) {
  const gz = zlib.gzipSync(data, { level: GZIP_LEVEL });
  gz[9] = 255;
  return gz;
}

/** @param {Uint8Array} data */
function brotli(data) {
  return zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.byteLength,
    },
  });
}

/**
 * The variants of a file, in the order of `encodings`; a variant no smaller than the file is
 * dropped (a client gains nothing from it, and a host then sends the file itself).
 * @param {string} path
 * @param {Uint8Array} data
 * @param {readonly import("../../core/routes/variants.ts").Encoding[]} encodings
 * @returns {{ path: string; data: Uint8Array }[]}
 */
function makeVariants(path, data, encodings) {
  /** @type {{ path: string; data: Uint8Array }[]} */
  const variants = [];
  for (const encoding of encodings) {
    const compressed = encoding === "gzip" ? gzip(data) : brotli(data);
    if (compressed.byteLength < data.byteLength) variants.push({ path: path + SUFFIX[encoding], data: compressed });
  }
  return variants;
}

module.exports = { makeVariants, VARIANT_SUFFIX: SUFFIX };
