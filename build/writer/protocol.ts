/**
 * What the disk writer (disk-writer.ts) and its worker thread (write-worker.cjs) say to each
 * other. Both sides use these types, the worker through JSDoc.
 *
 * `control` holds three counters: [0] the messages in flight (the worker counts each down when it
 * is done with it), [1] set to 1 once the worker has failed, so the main thread, which blocks in
 * Atomics.wait while batches are in flight, learns of a failure without an event loop, and [2]
 * set to 1 by the main thread to make the worker drop what is queued (the build failed elsewhere).
 */
import type { MessagePort } from "node:worker_threads";
import type { Encoding } from "../../core/routes/variants.ts";

export interface WriteWorkerData {
  /** The staging folder the build writes into. */
  root: string;
  port: MessagePort;
  control: SharedArrayBuffer;
}

export type WriterMessage =
  /**
   * Files back to back in one transferred buffer: file i is `lengths[i]` bytes, after those
   * before it; `encodings[i]` are the variants to make of it (core/routes/variants.ts).
   */
  | { type: "batch"; paths: string[]; lengths: number[]; encodings: (readonly Encoding[])[]; buffer: ArrayBuffer }
  /** A file the main thread wrote itself (a large one): list it in the manifest, in order. */
  | { type: "listed"; path: string; size: number; sha256: string }
  /** No more files: close the manifest with these top-level fields. */
  | { type: "finish"; extra: Record<string, unknown> }
  /** The build failed: close the manifest (after [2] made the worker skip everything queued before this). */
  | { type: "stop" };

export type WriterReply =
  | { type: "done"; fileCount: number; byteCount: number; busySeconds: number }
  /** `code`: the system error's (ENOSPC, …), so that the build can tell a full disk from a bug. */
  | { type: "error"; message: string; code?: string | undefined };
