// @ts-check
"use strict";
// The dump's compression thread: gzips each batch of CSV the build's main thread posts
// (member-compressor.ts), in the order posted, and posts the member back with the batch's key,
// so that compressing the dumps overlaps with formatting their rows. An incremental build hands
// it the current build's dump files: a batch found among their members (member-cache.cjs) is
// answered with that member instead of being compressed again. Plain CommonJS for the reason
// build/threads.ts gives; typed by member-compressor.ts.
const { workerData } = require("node:worker_threads");
/** @type {((data: Uint8Array) => Buffer) | null} */
let gzipMember = null;
/** @type {typeof import("./member-cache.cjs") | null} */
let cache = null;
/** Why the compressor could not be loaded: every job is answered with it, so the main thread never waits in vain. */
let loadError = "";
try {
  gzipMember = require("./gzip-member.cjs").gzipMember;
  cache = require("./member-cache.cjs");
} catch (error) {
  loadError = error instanceof Error ? error.message : String(error);
}

/** @type {import("./member-compressor.ts").GzipWorkerData} */
const { port, control, kept } = workerData;
const answers = new Int32Array(control);
/** The kept members by key, read when the first batch comes (null: not read yet). */
/** @type {Map<string, Uint8Array> | null} */
let members = null;

port.on("message", (/** @type {import("./member-compressor.ts").GzipJob} */ job) => {
  /** @type {import("./member-compressor.ts").GzipAnswer} */
  let answer;
  try {
    if (!gzipMember || !cache) throw new Error(loadError);
    /** @type {string[] | undefined} */
    let refused;
    if (members === null) {
      const loaded = kept ? cache.loadMemberCache(kept.dir, kept.files) : { members: new Map(), refused: [] };
      members = loaded.members;
      // Said with the first answer: the main thread reads one message an answer.
      if (loaded.refused.length > 0) refused = loaded.refused;
    }
    const key = cache.memberKey(job.data);
    const found = members.get(key);
    const reused = found !== undefined && cache.holdsBatch(found, job.data);
    const gz = reused ? found : gzipMember(job.data);
    // A member of its own buffer, so that it can be moved, not copied, to the main thread.
    const member = new Uint8Array(gz.byteLength);
    member.set(gz);
    answer = { id: job.id, member, key, reused, refused };
    port.postMessage(answer, [member.buffer]);
  } catch (error) {
    answer = { id: job.id, error: error instanceof Error ? error.message : String(error) };
    port.postMessage(answer);
  }
  // Counted after the answer is posted: the main thread reads it as soon as the count moves.
  Atomics.add(answers, 0, 1);
  Atomics.notify(answers, 0);
});
