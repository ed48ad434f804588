// @ts-check
"use strict";
// Writes files and streams the manifest that lists them (path, size, SHA-256), in the order the
// files arrive, so the manifest of a million files never sits in memory. CommonJS, because the
// disk writer's worker thread runs it (build/threads.ts says why); the memory writer uses it too.
const crypto = require("node:crypto");
const { VARIANT_SUFFIX } = require("./variants.cjs");
const { SerialVariants, hashContent } = require("./variant-jobs.cjs");

const MANIFEST_PATH = "manifest.json";
const NO_BYTES = new Uint8Array(0);
const FLUSH_AT = 1 << 20;

class FileSink {
  /**
   * @param {(path: string, data: Uint8Array) => void} store puts one file's bytes in place
   * @param {(text: string) => void} append appends text to the manifest
   * @param {import("./tree-reuse.cjs").TreeReuse | null} [reuse]
   */
  constructor(store, append, reuse = null) {
    this.store = store;
    /** The manifest's text so far, hashed as it goes: the build id is the hash of its sealed part (seal). */
    this.manifestHash = crypto.createHash("sha256");
    this.manifestBytes = 0;
    this.append = (/** @type {string} */ text) => {
      this.manifestHash.update(text);
      this.manifestBytes += Buffer.byteLength(text);
      append(text);
    };
    /** An older build folder being brought up to date in place (tree-reuse.cjs), or null for an empty folder. */
    this.reuse = reuse;
    this.fileCount = 0;
    this.byteCount = 0;
    /** @type {string[]} */
    this.pending = [];
    this.pendingLength = 0;
    /** The file writeBatch is storing (for an error message). */
    this.current = "";
    this.serial = new SerialVariants();
    this.append('{"files":[\n');
  }

  /**
   * Stores and lists a file, then its precompressed variants right after it (variants.cjs). Into a
   * folder that holds an older build (`reuse`), a file whose bytes are already there (or in the
   * current build) is neither written nor compressed again, and its variants come along.
   * @param {string} path
   * @param {string | Uint8Array} data
   * @param {readonly import("../../core/routes/variants.ts").Encoding[]} encodings the variants to make (core/routes/variants.ts decides)
   */
  write(path, data, encodings = []) {
    this.writeBatch([{ path, data, encodings }], this.serial);
  }

  /**
   * `write` for each of `files`, with the same manifest, but the variants of the batch made
   * through `variants` (variant-jobs.cjs): handed over once every file is placed, made while the
   * files are stored (by another thread too, with SharedVariants, which also stores some of the
   * files once it has compressed what it could), then stored and listed in order.
   * `current` names the file being stored, for an error. Once `stopped()` says so (the build
   * failed elsewhere), nothing more is stored, not even the rest of the batch.
   * A file whose `data` is null is the current build's (output.ts UNCHANGED): it is kept or linked
   * with whichever of `encodings` that build has, as a file of the same bytes would be.
   * @param {{ path: string; data: string | Uint8Array | null; encodings: readonly import("../../core/routes/variants.ts").Encoding[] }[]} files
   * @param {Pick<import("./variant-jobs.cjs").SerialVariants, "start" | "storeAll" | "finish" | "abandon">} variants
   * @param {() => boolean} [stopped]
   */
  writeBatch(files, variants, stopped = () => false) {
    const reuse = this.reuse;
    /** @type {{ path: string; bytes: Uint8Array; size: number; encodings: readonly import("../../core/routes/variants.ts").Encoding[]; sha256: string; how: "kept" | "linked" | "write"; replace?: boolean; replaces?: string[] }[]} */
    const placed = files.map(({ path, data, encodings }) => {
      this.current = path;
      if (data === null) {
        if (!reuse) throw new Error("a file unchanged since the current build, but no current build to take it from");
        return { path, bytes: NO_BYTES, encodings, ...reuse.placeCurrent(path) };
      }
      const bytes = typeof data === "string" ? Buffer.from(data) : data;
      if (!reuse) return { path, bytes, size: bytes.byteLength, encodings, sha256: hashContent(bytes), how: /** @type {const} */ ("write") };
      const digest = crypto.hash("sha256", bytes, "buffer");
      return { path, bytes, size: bytes.byteLength, encodings, sha256: digest.toString("hex"), how: reuse.place(path, digest) };
    });
    const toStore = placed.filter((file) => file.how === "write");
    const jobs = toStore.filter((file) => file.encodings.length > 0);
    if (reuse) {
      // The names where the base holds an older file, which the thread that stores the new one clears first.
      for (const file of toStore) file.replace = reuse.inBase(file.path);
      for (const job of jobs) job.replaces = job.encodings.map((encoding) => job.path + VARIANT_SUFFIX[encoding]).filter((variant) => reuse.inBase(variant));
    }
    variants.start(jobs, toStore);
    /** @type {boolean} */
    let whole;
    try {
      whole = variants.storeAll((file) => {
        this.current = file.path;
        if (file.replace) reuse?.clear(file.path, true);
        this.store(file.path, file.bytes);
      }, stopped);
    } catch (error) {
      abandonQuietly(variants);
      throw error;
    }
    if (!whole) return abandonQuietly(variants);
    /** @type {import("./variant-jobs.cjs").VariantEntry[][]} */
    let made;
    try {
      made = variants.finish();
    } catch (error) {
      // A file the helper thread could not store: named as the writer's own would be. (By its
      // field, not instanceof: a second copy of variant-jobs.cjs, as a test runner may load, has
      // a StoreError class of its own.)
      const file = /** @type {{ file?: unknown }} */ (error)?.file;
      if (typeof file === "string") this.current = file;
      throw error;
    }
    let next = 0;
    for (const { path, size, encodings, sha256, how, replaces } of placed) {
      this.list(path, size, sha256);
      if (encodings.length === 0) continue;
      if (how !== "write") {
        for (const encoding of encodings) {
          const variant = /** @type {import("./tree-reuse.cjs").TreeReuse} */ (reuse).placeVariant(path + VARIANT_SUFFIX[encoding], how);
          if (variant) this.list(path + VARIANT_SUFFIX[encoding], variant.size, variant.sha256);
        }
        continue;
      }
      for (const variant of /** @type {import("./variant-jobs.cjs").VariantEntry[]} */ (made[next++])) {
        if (stopped()) return;
        this.current = variant.path;
        // Stored already by the helper thread that made it (variant-jobs.cjs), or here.
        if (!variant.stored) {
          if (replaces?.includes(variant.path)) reuse?.clear(variant.path, true);
          this.store(variant.path, variant.data);
        }
        reuse?.wroteVariant(variant.path);
        this.list(variant.path, variant.data.byteLength, variant.sha256);
      }
    }
    this.current = "";
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

  /**
   * The SHA-256 of the manifest so far and its length: what the build id is made of once every
   * file of the snapshot is listed (build/changes/build-id.ts).
   * @returns {{ sha256: string, bytes: number }}
   */
  seal() {
    this.flush();
    return { sha256: this.manifestHash.copy().digest("hex"), bytes: this.manifestBytes };
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

/**
 * Drops a batch that will not be finished (stopped, or a file failed), waiting until no other
 * thread stores any of it; the error that ended it is the one to report, not a second one here.
 * @param {{ abandon(): void }} variants
 */
function abandonQuietly(variants) {
  try {
    variants.abandon();
  } catch {
    // The helper did not answer: the build fails with the first error anyway.
  }
}

module.exports = { FileSink, hashContent, MANIFEST_PATH };
