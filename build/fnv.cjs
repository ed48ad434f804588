// @ts-check
"use strict";
// FNV-1a over a text's UTF-16 code units: the row keys of the digests (snapshot/row-keys.cjs),
// the writer's index of paths (writer/tree-reuse.cjs) and the initials avatars' colours
// (html/avatar.ts). Plain CommonJS, for the worker threads that load the first two
// (build/threads.ts says why).

const FNV_SEED = 0x811c9dc5;
/** FNV-1a's 32-bit prime: what callers that inline the loop on a hot path multiply by. */
const FNV_PRIME = 16777619;

/**
 * FNV-1a of text[from, to), as an unsigned 32-bit number.
 * @param {string} text @param {number} [from] @param {number} [to]
 */
function fnv1a(text, from = 0, to = text.length) {
  let h = FNV_SEED;
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/**
 * The same over bytes[from, to), one byte a code unit: equal to fnv1a of the bytes read as Latin-1
 * (the writer's index hashes a manifest's paths without making strings of them).
 * @param {Uint8Array} bytes @param {number} from @param {number} to
 */
function fnv1aBytes(bytes, from, to) {
  let h = FNV_SEED;
  for (let i = from; i < to; i++) h = Math.imul(h ^ /** @type {number} */ (bytes[i]), FNV_PRIME);
  return h >>> 0;
}

module.exports = { FNV_PRIME, FNV_SEED, fnv1a, fnv1aBytes };
