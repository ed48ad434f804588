// @ts-check
"use strict";
// The disk writer's worker thread: it takes batches of files from the build's main thread,
// writes and hashes them, and streams the manifest, so that writing overlaps with the JSON work
// on the other core. Batches are processed in arrival order, so the manifest is as
// deterministic as the build. Progress and failures go back through a shared counter and a
// message port the main thread reads synchronously (protocol.ts; plain CommonJS for the reason
// build/threads.ts gives).
const { closeSync, mkdirSync, openSync, writeFileSync, writeSync } = require("node:fs");
const { join } = require("node:path");
const { workerData } = require("node:worker_threads");
const { FileSink, MANIFEST_PATH } = require("./file-sink.cjs");

/** @type {import("./protocol.ts").WriteWorkerData} */
const { root, port, control } = workerData;
// [0]: batches in flight, [1]: 1 once this worker has failed (the main thread checks it while waiting)
const state = new Int32Array(control);
/** @type {Set<string>} */
const madeDirs = new Set();
let failed = false;
// Time this thread spends writing and hashing (not waiting for batches): the writer's throughput.
let busyMs = 0;

/** @param {import("./protocol.ts").WriterReply} reply */
const reply = (reply) => port.postMessage(reply);

/** @param {string} reason */
function fail(reason) {
  failed = true;
  reply({ type: "error", message: reason });
  Atomics.store(state, 1, 1);
  Atomics.notify(state, 0);
}

let manifestFd = -1;
try {
  manifestFd = openSync(join(root, MANIFEST_PATH), "w");
} catch (error) {
  fail(`opening the manifest: ${error instanceof Error ? error.message : String(error)}`);
}

const sink = new FileSink(
  (path, data) => {
    // Paths are checked `/`-separated relative paths (output.ts, checkPath), so plain concatenation is safe.
    const target = `${root}/${path}`;
    const dir = target.slice(0, target.lastIndexOf("/"));
    if (!madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      madeDirs.add(dir);
    }
    writeFileSync(target, data);
  },
  (text) => writeSync(manifestFd, text),
);

port.on("message", (/** @type {import("./protocol.ts").WriterMessage} */ message) => {
  let current = "";
  try {
    if (failed) return;
    if (message.type === "batch") {
      const started = performance.now();
      // One buffer holds the batch's files back to back (disk-writer.ts, send).
      const bytes = new Uint8Array(message.buffer);
      let offset = 0;
      for (let i = 0; i < message.paths.length; i++) {
        current = /** @type {string} */ (message.paths[i]);
        const length = /** @type {number} */ (message.lengths[i]);
        sink.write(current, bytes.subarray(offset, offset + length));
        offset += length;
      }
      busyMs += performance.now() - started;
    } else if (message.type === "listed") {
      current = message.path;
      sink.list(message.path, message.size, message.sha256);
    } else if (message.type === "finish") {
      sink.finish(message.extra);
      closeSync(manifestFd);
      reply({ type: "done", fileCount: sink.fileCount, byteCount: sink.byteCount, busySeconds: busyMs / 1000 });
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    fail(current ? `writing ${current}: ${reason}` : reason);
  } finally {
    Atomics.sub(state, 0, 1);
    Atomics.notify(state, 0);
  }
});
