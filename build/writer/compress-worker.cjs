// @ts-check
"use strict";
// The write worker's helper thread: it makes precompressed variants (variants.cjs) beside the
// write worker, so that compressing a batch's files overlaps with writing them, and then stores
// the batch's files beside it. The two threads take the batch's files from shared counters, each
// compressing (then storing) the next file nobody has taken, so neither waits while the other has
// files left; the write worker then stores and lists every variant in the batch's order
// (file-sink.cjs, writeBatch). Variants are a function of the bytes alone, and the manifest lists
// files in the batch's order whoever stored them, so which thread did what never shows in the build.
const { workerData } = require("node:worker_threads");
const { makeVariantEntries, createFileStore, CLAIM, DONE, STORE, NO_MORE } = require("./variant-jobs.cjs");

/** @type {{ port: import("node:worker_threads").MessagePort; control: SharedArrayBuffer; root: string | null }} */
const { port, control, root } = workerData;
const state = new Int32Array(control);
const store = root === null ? null : createFileStore(root);

port.on("message", (/** @type {import("./variant-jobs.cjs").JobsMessage} */ message) => {
  /** @type {import("./variant-jobs.cjs").ResultsMessage} */
  const answer = { results: [], error: null, stored: 0, storeError: null };
  try {
    for (let i = Atomics.add(state, CLAIM, 1); i < message.paths.length; i = Atomics.add(state, CLAIM, 1)) {
      const at = /** @type {number} */ (i);
      answer.results.push([at, makeVariantEntries(/** @type {string} */ (message.paths[at]), /** @type {Uint8Array} */ (message.datas[at]), /** @type {never} */ (message.encodings[at]))]);
    }
  } catch (error) {
    answer.error = error instanceof Error ? error.message : String(error);
  }
  const stores = message.stores;
  if (stores && store) {
    // Where each file starts in the one buffer.
    const starts = [0];
    for (const length of stores.lengths) starts.push(/** @type {number} */ (starts[starts.length - 1]) + length);
    const bytes = new Uint8Array(stores.buffer);
    for (let i = Atomics.add(state, STORE, 1); i < stores.paths.length; i = Atomics.add(state, STORE, 1)) {
      const path = /** @type {string} */ (stores.paths[i]);
      try {
        store(path, bytes.subarray(/** @type {number} */ (starts[i]), starts[i + 1]));
        answer.stored++;
      } catch (error) {
        const code = /** @type {{ code?: unknown }} */ (error)?.code;
        answer.storeError = { path, message: error instanceof Error ? error.message : String(error), code: typeof code === "string" ? code : undefined };
        // Neither thread takes another file: the writer fails with this one.
        Atomics.store(state, STORE, NO_MORE);
        break;
      }
    }
  }
  // The answer first: the write worker reads it as soon as DONE is set.
  port.postMessage(answer);
  Atomics.store(state, DONE, 1);
  Atomics.notify(state, DONE);
});
