// @ts-check
"use strict";
// Writes files and streams the manifest that lists them (path, size, SHA-256), in the order the
// files arrive, so the manifest of a million files never sits in memory. CommonJS, because the
// disk writer's worker thread runs it (build/threads.ts says why); the memory writer uses it too.
const crypto = require("node:crypto");
const { makeVariants } = require("./variants.cjs");

const MANIFEST_PATH = "manifest.json";
const FLUSH_AT = 1 << 20;

/**
 * SHA-256 in hex. The one-shot `crypto.hash` (Node 20.12+) costs about half of
 * createHash/update/digest for the small files that make up most of a build.
 * @param {Uint8Array | string} data
 */
function hashContent(data) {
  return crypto.hash("sha256", data, "hex");
}

class FileSink {
  /**
   * @param {(path: string, data: Uint8Array) => void} store puts one file's bytes in place
   * @param {(text: string) => void} append appends text to the manifest
   */
  constructor(store, append) {
    this.store = store;
    this.append = append;
    this.fileCount = 0;
    this.byteCount = 0;
    /** @type {string[]} */
    this.pending = [];
    this.pendingLength = 0;
    append('{"files":[\n');
  }

  /**
   * Stores and lists a file, then its precompressed variants right after it (variants.cjs).
   * @param {string} path
   * @param {string | Uint8Array} data
   * @param {readonly import("../../core/routes/variants.ts").Encoding[]} encodings the variants to make (core/routes/variants.ts decides)
   */
  write(path, data, encodings = []) {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    this.store(path, bytes);
    this.list(path, bytes.byteLength, hashContent(bytes));
    if (encodings.length === 0) return;
    for (const variant of makeVariants(path, bytes, encodings)) {
      this.store(variant.path, variant.data);
      this.list(variant.path, variant.data.byteLength, hashContent(variant.data));
    }
  }

  /**
   * Lists a file that is already in place (written by someone else) in the manifest.
   * @param {string} path @param {number} size @param {string} sha256
   */
  list(path, size, sha256) {
    const line = `${this.fileCount === 0 ? "" : ",\n"}{"path":${JSON.stringify(path)},"size":${size},"sha256":"${sha256}"}`;
    this.pending.push(line);
    this.pendingLength += line.length;
    this.fileCount++;
    this.byteCount += size;
    if (this.pendingLength >= FLUSH_AT) this.flush();
  }

  /** Closes the file list and adds `extra` (plus the totals) as top-level manifest fields. */
  /** @param {Record<string, unknown>} extra */
  finish(extra) {
    this.flush();
    const fields = Object.entries({ ...extra, file_count: this.fileCount, byte_count: this.byteCount })
      .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
      .join(",");
    this.append(`\n],${fields}}\n`);
  }

  flush() {
    if (this.pending.length === 0) return;
    this.append(this.pending.join(""));
    this.pending = [];
    this.pendingLength = 0;
  }
}

module.exports = { FileSink, hashContent, MANIFEST_PATH };
