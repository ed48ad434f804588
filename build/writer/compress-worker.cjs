// @ts-check
"use strict";
// The write worker's helper thread: it makes precompressed variants (variants.cjs) beside the
// write worker, so that compressing a batch's files overlaps with writing them, and then stores
// the batch's files beside it. The two threads take the batch's files from shared counters, each
// compressing (then storing) the next file nobody has taken, so neither waits while the other has
// files left. Each thread stores the variants it made (the helper clearing first the older file
// at a path the write worker names), and the write worker lists every variant in the batch's
// order (file-sink.cjs, writeBatch). Variants are a function of the bytes alone, and the manifest lists
// files in the batch's order whoever stored them, so which thread did what never shows in the build.
const { workerData } = require("node:worker_threads");
const { unlinkIfThere } = require("./tree-reuse.cjs");
const { makeVariantEntries, createFileStore, CLAIM, DONE, STORE, NO_MORE } = require("./variant-jobs.cjs");

/** @type {{ port: import("node:worker_threads").MessagePort; control: SharedArrayBuffer; root: string | null }} */
const { port, control, root } = workerData;
const state = new Int32Array(control);
const store = root === null ? null : createFileStore(root);

port.on("message", (/** @type {import("./variant-jobs.cjs").JobsMessage} */ message) => {
  /** @type {import("./variant-jobs.cjs").ResultsMessage} */
  const answer = { results: [], error: null, stored: 0, storedVariants: 0, storeError: null };
  /**
   * Stores a file (after clearing an older one at its path, `replace`); false when it could not,
   * the failure in the answer and neither thread taking another file or job: the writer fails with it.
   * @param {string} path @param {Uint8Array} data @param {boolean} replace
   */
  const storeOrFail = (path, data, replace) => {
    try {
      if (replace) unlinkIfThere(`${root}/${path}`);
      /** @type {NonNullable<typeof store>} */ (store)(path, data);
      return true;
    } catch (error) {
      const code = /** @type {{ code?: unknown }} */ (error)?.code;
      answer.storeError = { path, message: error instanceof Error ? error.message : String(error), code: typeof code === "string" ? code : undefined };
      Atomics.store(state, STORE, NO_MORE);
      Atomics.store(state, CLAIM, NO_MORE);
      return false;
    }
  };
  try {
    // Each job's variants are stored by the thread that made them, here as soon as they are made:
    // the write worker then only lists them, and the files are created on both threads at once.
    jobs: for (let i = Atomics.add(state, CLAIM, 1); i < message.paths.length; i = Atomics.add(state, CLAIM, 1)) {
      const at = /** @type {number} */ (i);
      const entries = makeVariantEntries(/** @type {string} */ (message.paths[at]), /** @type {Uint8Array} */ (message.datas[at]), /** @type {never} */ (message.encodings[at]));
      answer.results.push([at, entries]);
      if (!store) continue;
      for (const entry of entries) {
        if (!storeOrFail(entry.path, entry.data, /** @type {string[]} */ (message.replaces[at]).includes(entry.path))) break jobs;
        entry.stored = true;
        answer.storedVariants++;
      }
    }
  } catch (error) {
    answer.error = error instanceof Error ? error.message : String(error);
  }
  const stores = message.stores;
  if (stores && store && answer.storeError === null) {
    // Where each file starts in the one buffer.
    const starts = [0];
    for (const length of stores.lengths) starts.push(/** @type {number} */ (starts[starts.length - 1]) + length);
    const bytes = new Uint8Array(stores.buffer);
    for (let i = Atomics.add(state, STORE, 1); i < stores.paths.length; i = Atomics.add(state, STORE, 1)) {
      if (!storeOrFail(/** @type {string} */ (stores.paths[i]), bytes.subarray(/** @type {number} */ (starts[i]), starts[i + 1]), stores.replace[i] === true)) break;
      answer.stored++;
    }
  }
  // The answer first: the write worker reads it as soon as DONE is set.
  port.postMessage(answer);
  Atomics.store(state, DONE, 1);
  Atomics.notify(state, DONE);
});
