// @ts-check
"use strict";
// The dump's compression thread: gzips each batch of CSV the build's main thread posts
// (member-compressor.ts), in the order posted, and posts the member back, so that compressing
// the dumps overlaps with formatting their rows. Plain CommonJS for the reason build/threads.ts
// gives; typed by member-compressor.ts.
const { workerData } = require("node:worker_threads");
/** @type {((data: Uint8Array) => Buffer) | null} */
let gzipMember = null;
/** Why the compressor could not be loaded: every job is answered with it, so the main thread never waits in vain. */
let loadError = "";
try {
  gzipMember = require("./gzip-member.cjs").gzipMember;
} catch (error) {
  loadError = error instanceof Error ? error.message : String(error);
}

/** @type {import("./member-compressor.ts").GzipWorkerData} */
const { port, control } = workerData;
const answers = new Int32Array(control);

port.on("message", (/** @type {import("./member-compressor.ts").GzipJob} */ job) => {
  /** @type {import("./member-compressor.ts").GzipAnswer} */
  let answer;
  try {
    if (!gzipMember) throw new Error(loadError);
    const gz = gzipMember(job.data);
    // A member of its own buffer, so that it can be moved, not copied, to the main thread.
    const member = new Uint8Array(gz.byteLength);
    member.set(gz);
    answer = { id: job.id, member };
    port.postMessage(answer, [member.buffer]);
  } catch (error) {
    answer = { id: job.id, error: error instanceof Error ? error.message : String(error) };
    port.postMessage(answer);
  }
  // Counted after the answer is posted: the main thread reads it as soon as the count moves.
  Atomics.add(answers, 0, 1);
  Atomics.notify(answers, 0);
});
