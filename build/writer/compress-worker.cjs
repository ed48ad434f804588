// @ts-check
"use strict";
// The write worker's helper thread: it makes precompressed variants (variants.cjs) beside the
// write worker, so that compressing a batch's files overlaps with writing them. The two threads
// take the batch's files from one shared counter, each compressing the next file nobody has
// taken, so neither waits while the other has files left; the write worker then stores and lists
// every variant in the batch's order (file-sink.cjs, writeBatch). Variants are a function of the
// bytes alone, so which thread made one never shows in the build.
const { workerData } = require("node:worker_threads");
const { makeVariantEntries, CLAIM, DONE } = require("./variant-jobs.cjs");

/** @type {{ port: import("node:worker_threads").MessagePort; control: SharedArrayBuffer }} */
const { port, control } = workerData;
const state = new Int32Array(control);

port.on("message", (/** @type {import("./variant-jobs.cjs").JobsMessage} */ message) => {
  /** @type {import("./variant-jobs.cjs").ResultsMessage} */
  const answer = { results: [], error: null };
  try {
    for (let i = Atomics.add(state, CLAIM, 1); i < message.paths.length; i = Atomics.add(state, CLAIM, 1)) {
      const at = /** @type {number} */ (i);
      answer.results.push([at, makeVariantEntries(/** @type {string} */ (message.paths[at]), /** @type {Uint8Array} */ (message.datas[at]), /** @type {never} */ (message.encodings[at]))]);
    }
  } catch (error) {
    answer.error = error instanceof Error ? error.message : String(error);
  }
  // The answer first: the write worker reads it as soon as DONE is set.
  port.postMessage(answer);
  Atomics.store(state, DONE, 1);
  Atomics.notify(state, DONE);
});
