/**
 * What the disk writer (disk-writer.ts) and its worker thread (write-worker.cjs) say to each
 * other. Both sides use these types, the worker through JSDoc.
 *
 * `control` holds five counters: [0] the messages in flight (the worker counts each down when it
 * is done with it), [1] set to 1 once the worker has failed, so the main thread, which blocks in
 * Atomics.wait while batches are in flight, learns of a failure without an event loop, and [2]
 * set to 1 by the main thread to make the worker drop what is queued (the build failed elsewhere),
 * [3] the files under ReuseSpec's `rewrite` prefix the worker has written anew so far, [4] the
 * bytes of the batches in flight (their `weight`: the main thread adds it, the worker takes it
 * away once done with the batch, or skipping it).
 */
import type { MessagePort } from "node:worker_threads";
import type { Encoding } from "../../core/routes/variants.ts";

/** The size of `control`: five 32-bit counters. */
export const CONTROL_BYTES = 20;

export interface WriteWorkerData {
  /** The staging folder the build writes into. */
  root: string;
  port: MessagePort;
  control: SharedArrayBuffer;
  /** Set when `root` holds an older build to bring up to date in place (tree-reuse.cjs), or is empty but a current build's files may be linked. */
  reuse?: ReuseSpec | undefined;
}

export interface ReuseSpec {
  /** Whether `root` holds a build (with its manifest); false for an empty folder. */
  hasBase: boolean;
  /** The published build folder whose files may be hard-linked, or null. */
  current: string | null;
  /** Path prefixes whose files that differ from the current build's are counted, by name (e.g. usernames: `api/check/`). */
  watch: Record<string, string>;
  /** The prefix whose files written anew (not kept, not linked) are counted as they go (control[3]): the build's budget. */
  rewrite?: string;
}

/** What an incremental write did: files written anew, linked from the current build, kept in place, deleted; changes by watched name. */
export interface ReuseStats {
  written: number;
  linked: number;
  kept: number;
  deleted: number;
  changed: Record<string, number>;
}

export type WriterMessage =
  /**
   * Files back to back in one transferred buffer: file i, the i-th of the newline-separated
   * `paths`, is `lengths[i]` bytes, after those before it; `sets[encodings[i]]` are the variants
   * to make of it (core/routes/variants.ts). A length of -1 is a file with no bytes here, the
   * current build's (output.ts UNCHANGED): its variants are then those it may have. `weight`:
   * what the batch added to control[4].
   */
  | { type: "batch"; paths: string; lengths: Int32Array; encodings: Uint8Array; sets: (readonly Encoding[])[]; buffer: ArrayBuffer; weight: number }
  /** A file the main thread wrote itself (a large one): list it in the manifest, in order. */
  | { type: "listed"; path: string; size: number; sha256: string }
  /** A file the main thread wrote at `tmp` in a folder being brought up to date: it takes its name unless the old one has its bytes. */
  | { type: "placed"; path: string; tmp: string; size: number; sha256: string }
  /**
   * A file whose bytes are the gzip members in `members` (of `lengths`, back to back) inflated, of `sizes`, `size` and `sha256` in all (a
   * dump's CSV, output.ts gzipMembers): the worker writes it at `target` (its path, or into a folder
   * being brought up to date, the dot folder's) unless that folder or the current build has its
   * bytes. Not counted in control[4] (disk-writer.ts postInflate says why).
   */
  | { type: "inflate"; path: string; target: string; members: ArrayBuffer; lengths: Int32Array; sizes: Int32Array; size: number; sha256: string }
  /** The same bytes as the file `of`, under a second name (a hard link unless the old folder has them). */
  | { type: "duplicate"; path: string; of: string; size: number; sha256: string }
  /** Every file so far is listed: answer the manifest's hash and length so far ("sealed"). */
  | { type: "seal" }
  /** No more files: close the manifest with these top-level fields. */
  | { type: "finish"; extra: Record<string, unknown> }
  /** The build failed: close the manifest (after [2] made the worker skip everything queued before this). */
  | { type: "stop" };

export type WriterReply =
  | { type: "sealed"; sha256: string; bytes: number }
  | { type: "done"; fileCount: number; byteCount: number; busySeconds: number; reused: ReuseStats | null }
  /** `code`: the system error's (ENOSPC, …), so that the build can tell a full disk from a bug. */
  | { type: "error"; message: string; code?: string | undefined };
