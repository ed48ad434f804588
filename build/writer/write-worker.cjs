// @ts-check
"use strict";
// The disk writer's worker thread: it takes batches of files from the build's main thread,
// writes and hashes them (and makes their precompressed variants, variants.cjs, with a helper
// thread: variant-jobs.cjs), and streams the manifest, so that writing and compressing overlap
// with the JSON work on the other core. Batches are processed in arrival order, so the manifest is as
// deterministic as the build. Progress and failures go back through a shared counter and a
// message port the main thread reads synchronously (protocol.ts; plain CommonJS for the reason
// build/threads.ts gives).
//
// Every failure, from the first byte of the manifest on, must reach the main thread as an
// `error` reply plus the failed flag: the main thread waits in Atomics.wait, where a thread that
// died of an uncaught exception would leave it waiting for ever.
const { closeSync, linkSync, mkdirSync, openSync, writeSync } = require("node:fs");
const { dirname, join } = require("node:path");
const { workerData } = require("node:worker_threads");
const { FileSink, MANIFEST_PATH } = require("./file-sink.cjs");
const { inflateMember } = require("./inflate-member.cjs");
const { TreeReuse, unlinkIfThere } = require("./tree-reuse.cjs");
const { SharedVariants, createFileStore } = require("./variant-jobs.cjs");

/** @type {import("./protocol.ts").WriteWorkerData} */
const { root, port, control, reuse: reuseSpec } = workerData;
// [0]: messages in flight, [1]: 1 once this worker has failed, [2]: 1 once the main thread asks it to stop,
// [3]: files under reuse's `rewrite` prefix written anew so far, [4]: bytes of the batches in flight
const state = new Int32Array(control);
let failed = false;
// Time this thread spends writing and hashing (not waiting for batches): the writer's throughput.
let busyMs = 0;

/** @param {import("./protocol.ts").WriterReply} reply */
const reply = (reply) => port.postMessage(reply);

let manifestFd = -1;

/** Closes the manifest: a file still open keeps its blocks allocated after the folder is deleted. */
function closeManifest() {
  if (manifestFd < 0) return;
  try {
    closeSync(manifestFd);
  } catch {
    // Nothing more to write to it; the descriptor is gone either way.
  }
  manifestFd = -1;
}

/** @param {string} step @param {unknown} error */
function fail(step, error) {
  if (failed) return;
  failed = true;
  closeManifest();
  const reason = error instanceof Error ? error.message : String(error);
  const code = /** @type {{ code?: unknown }} */ (error)?.code;
  reply({ type: "error", message: step ? `${step}: ${reason}` : reason, code: typeof code === "string" ? code : undefined });
  Atomics.store(state, 1, 1);
  Atomics.notify(state, 0);
}

// Anything thrown outside the handlers below (there should be nothing) still fails the writer.
process.on("uncaughtException", (error) => fail("the file writer", error));

/** A write error of the manifest, so that it is not blamed on the file being listed. */
class ManifestError extends Error {}

/**
 * Appends to the manifest. writeSync may write less than asked (a disk filling up mid-write):
 * the rest is written again, so the manifest is never silently cut short; the next call fails.
 * @param {string} text
 */
function appendToManifest(text) {
  try {
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.byteLength; ) at += writeSync(manifestFd, bytes, at);
  } catch (error) {
    throw new ManifestError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/**
 * Writes at `target` the gzip members of an "inflate" message, inflated (protocol.ts), checking
 * each member's size (inflate-member.cjs) and the whole's.
 * @param {string} target @param {Extract<import("./protocol.ts").WriterMessage, { type: "inflate" }>} message
 */
function writeInflated(target, { members, lengths, sizes, size }) {
  const bytes = new Uint8Array(members);
  const fd = openSync(target, "w");
  let written = 0;
  try {
    for (let i = 0, at = 0; i < lengths.length; i++) {
      const length = /** @type {number} */ (lengths[i]);
      const raw = inflateMember(bytes.subarray(at, at + length), /** @type {number} */ (sizes[i]), i);
      at += length;
      for (let offset = 0; offset < raw.byteLength; ) offset += writeSync(fd, raw, offset);
      written += raw.byteLength;
    }
  } finally {
    closeSync(fd);
  }
  if (written !== size) throw new Error(`${written} bytes written, ${size} announced`);
}

/** @type {InstanceType<typeof FileSink> | null} */
let sink = null;
/** Variants are made here and on a helper thread at once (variant-jobs.cjs), while this one writes; the helper stores files too. */
/** @type {InstanceType<typeof SharedVariants>} */
let variants;
/** @type {InstanceType<typeof TreeReuse> | null} */
let reuse = null;
try {
  if (reuseSpec) {
    // The base's manifest is read before the new one takes its name (unlinked: it may be a link).
    const manifestPath = join(root, MANIFEST_PATH);
    const baseManifest = reuseSpec.hasBase ? manifestPath : null;
    reuse = new TreeReuse({ root, baseManifest, current: reuseSpec.current, watch: reuseSpec.watch, rewrite: reuseSpec.rewrite });
    unlinkIfThere(manifestPath);
  }
  variants = new SharedVariants(root);
  manifestFd = openSync(join(root, MANIFEST_PATH), "w");
  sink = new FileSink(createFileStore(root), appendToManifest, reuse);
} catch (error) {
  fail(`writing ${MANIFEST_PATH}`, error instanceof ManifestError ? error.cause : error);
}

port.on("message", (/** @type {import("./protocol.ts").WriterMessage} */ message) => {
  let current = "";
  try {
    if (message.type === "stop") return closeManifest();
    if (failed || !sink || Atomics.load(state, 2) !== 0) return;
    if (message.type === "batch") {
      const started = performance.now();
      // One buffer holds the batch's files back to back (disk-writer.ts, send).
      const bytes = new Uint8Array(message.buffer);
      let offset = 0;
      const files = message.paths.split("\n").map((path, i) => {
        const length = /** @type {number} */ (message.lengths[i]);
        const encodings = /** @type {readonly import("../../core/routes/variants.ts").Encoding[]} */ (message.sets[/** @type {number} */ (message.encodings[i])]);
        // -1: the current build's file (protocol.ts).
        if (length < 0) return { path, data: null, encodings };
        offset += length;
        return { path, data: bytes.subarray(offset - length, offset), encodings };
      });
      try {
        sink.writeBatch(files, variants, () => Atomics.load(state, 2) !== 0);
      } finally {
        current = sink.current;
      }
      busyMs += performance.now() - started;
      if (reuse) Atomics.store(state, 3, reuse.rewritten);
    } else if (message.type === "listed") {
      current = message.path;
      sink.list(message.path, message.size, message.sha256);
    } else if (message.type === "inflate") {
      current = message.path;
      const started = performance.now();
      if (reuse) reuse.placeMade(message.path, Buffer.from(message.sha256, "hex"), message.target, (target) => writeInflated(target, message));
      else writeInflated(message.target, message);
      sink.list(message.path, message.size, message.sha256);
      busyMs += performance.now() - started;
    } else if (message.type === "duplicate" && !reuse) {
      // A second name of a file placed before it: a hard link.
      current = message.path;
      mkdirSync(dirname(join(root, message.path)), { recursive: true });
      linkSync(join(root, message.of), join(root, message.path));
      sink.list(message.path, message.size, message.sha256);
    } else if (message.type === "placed" || message.type === "duplicate") {
      current = message.path;
      const reuser = /** @type {InstanceType<typeof TreeReuse>} */ (reuse);
      const digest = Buffer.from(message.sha256, "hex");
      if (message.type === "placed") reuser.placeWritten(message.path, message.tmp, digest);
      else reuser.placeDuplicate(message.path, message.of, digest);
      sink.list(message.path, message.size, message.sha256);
    } else if (message.type === "seal") {
      current = MANIFEST_PATH;
      reply({ type: "sealed", ...sink.seal() });
    } else if (message.type === "finish") {
      current = MANIFEST_PATH;
      sink.finish(message.extra);
      closeSync(manifestFd);
      manifestFd = -1;
      if (reuse) {
        current = "";
        reuse.sweep();
      }
      const reused = reuse ? { ...reuse.stats, changed: reuse.changed } : null;
      reply({ type: "done", fileCount: sink.fileCount, byteCount: sink.byteCount, busySeconds: busyMs / 1000, reused });
    }
  } catch (error) {
    if (error instanceof ManifestError) fail(`writing ${MANIFEST_PATH}`, error.cause);
    else fail(current ? `writing ${current}` : "", error);
  } finally {
    // Done or skipped, its bytes are no longer queued.
    if (message.type === "batch") Atomics.sub(state, 4, message.weight);
    Atomics.sub(state, 0, 1);
    Atomics.notify(state, 0);
  }
});
