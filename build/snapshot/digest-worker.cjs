// @ts-check
"use strict";
// Digests report id ranges on its own read-only connection: the upper half while the main thread
// digests the lower one (the digests are the first thing most builds read, and the whole of what
// a build that finds nothing changed does), or all of them, at the lowest CPU priority, while the
// build reads its model (a build whose plan does not wait for them: digest.ts). Plain CommonJS for the reason
// build/threads.ts gives; typed by thread-protocol.ts.
const { setPriority } = require("node:os");
const { workerData } = require("node:worker_threads");
const Database = require("better-sqlite3");
const { digestReportRanges } = require("./range-digest.cjs");

/** @type {import("./thread-protocol.ts").DigestWorkerData} */
const { path, columns, from, to, request, pages, nice, port, control } = workerData;
const done = new Int32Array(control);
if (nice) {
  try {
    // This thread only: Linux keeps a nice value per thread, and pid 0 is the calling one.
    setPriority(19);
  } catch {
    // Left at the build's priority: slower for the build, never wrong.
  }
}
/** @type {import("better-sqlite3").Database | null} */
let db = null;
try {
  db = new Database(path, { readonly: true, fileMustExist: true });
  const { ranges, digests, split, counts, rows, odd } = digestReportRanges(db, columns, from, to, request, pages);
  const bytes = new Uint8Array(digests);
  // A copy with a buffer of its own: a pooled Buffer's memory must not be moved away.
  const moved = [ranges.buffer, bytes.buffer, split.buffer, counts.buffer, rows.buffer].map((b) => /** @type {ArrayBuffer} */ (b));
  port.postMessage({ ranges, digests: bytes, split, counts, rows, odd }, moved);
} catch (error) {
  port.postMessage({ error: error instanceof Error ? error.message : String(error) });
} finally {
  if (db) db.close();
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
}
