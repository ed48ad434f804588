// @ts-check
"use strict";
// The dump's gzip members an incremental build takes from the current build instead of
// compressing their batches again (docs/incremental-builds.md, "The dumps' gzip"). A batch of CSV is
// known by its key, the first 16 bytes of its SHA-256; the state lists, for each .gz file of the
// current build, its SHA-256 and every member's key and length (build-state.ts KeptTree.dumps).
// Nothing of that is trusted as it stands: a file is read only when its bytes hash to what the
// state says and its members' lengths add up to its size, and a member is used for a batch only
// when its gzip trailer holds the batch's CRC-32 and length (so a state listing the wrong key
// costs a compression, never a wrong file). Plain CommonJS: the compression thread runs it
// (build/threads.ts says why).
const { createHash } = require("node:crypto");
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const { crc32 } = require("node:zlib");

const KEY_BYTES = 16;
/** A member in the state: its key, then its length (u32, little-endian). */
const ENTRY_BYTES = KEY_BYTES + 4;
/** The folder and names a kept dump may have: the state names no other file to read. */
const DUMP_PATH = /^dumps\/[A-Za-z0-9][A-Za-z0-9._-]*\.gz$/;

/**
 * The key of a batch of CSV (hex).
 * @param {Uint8Array} raw
 */
function memberKey(raw) {
  return createHash("sha256").update(raw).digest("hex").slice(0, KEY_BYTES * 2);
}

/**
 * Whether `member` is a gzip member whose trailer names `raw`: its CRC-32 and its length.
 * @param {Uint8Array} member @param {Uint8Array} raw
 */
function holdsBatch(member, raw) {
  if (member.byteLength < 18 || member[0] !== 0x1f || member[1] !== 0x8b || member[2] !== 8) return false;
  const view = new DataView(member.buffer, member.byteOffset, member.byteLength);
  const end = member.byteLength;
  return view.getUint32(end - 8, true) === crc32(raw) && view.getUint32(end - 4, true) === raw.byteLength % 2 ** 32;
}

/**
 * The state's record of a .gz file's members (keys hex, in file order).
 * @param {string} path @param {string} sha256 @param {readonly {key: string, length: number}[]} members
 * @returns {import("../build-state.ts").KeptDumpFile}
 */
function recordMembers(path, sha256, members) {
  const entries = Buffer.alloc(members.length * ENTRY_BYTES);
  members.forEach(({ key, length }, i) => {
    entries.write(key, i * ENTRY_BYTES, KEY_BYTES, "hex");
    entries.writeUInt32LE(length, i * ENTRY_BYTES + KEY_BYTES);
  });
  return { path, sha256, members: entries.toString("base64") };
}

/**
 * The members of the kept files in `dir` by key, with the files that could not be used and why.
 * @param {string} dir @param {unknown} files
 * @returns {{ members: Map<string, Uint8Array>, refused: string[] }}
 */
function loadMemberCache(dir, files) {
  /** @type {Map<string, Uint8Array>} */
  const members = new Map();
  /** @type {string[]} */
  const refused = [];
  if (!Array.isArray(files)) return { members, refused: files === undefined ? [] : ["the state's list of dump files is not a list"] };
  for (const file of files) {
    const path = typeof file?.path === "string" && DUMP_PATH.test(file.path) ? file.path : null;
    if (!path || typeof file.sha256 !== "string" || typeof file.members !== "string") {
      refused.push(`${JSON.stringify(file?.path ?? null)}: not a dump file's record`);
      continue;
    }
    let bytes;
    try {
      bytes = readFileSync(join(dir, path));
    } catch (error) {
      refused.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const entries = Buffer.from(file.members, "base64");
    // Whole entries only: a list cut short must not be read past its end.
    let total = -1;
    if (entries.byteLength % ENTRY_BYTES === 0) {
      total = 0;
      for (let at = KEY_BYTES; at < entries.byteLength; at += ENTRY_BYTES) total += entries.readUInt32LE(at);
    }
    if (total !== bytes.byteLength || createHash("sha256").update(bytes).digest("hex") !== file.sha256) {
      refused.push(`${path}: not the file the state describes`);
      continue;
    }
    for (let at = 0, offset = 0; at < entries.byteLength; at += ENTRY_BYTES) {
      const length = entries.readUInt32LE(at + KEY_BYTES);
      members.set(entries.toString("hex", at, at + KEY_BYTES), bytes.subarray(offset, offset + length));
      offset += length;
    }
  }
  return { members, refused };
}

module.exports = { memberKey, holdsBatch, recordMembers, loadMemberCache };
