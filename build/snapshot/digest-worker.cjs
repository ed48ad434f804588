// @ts-check
"use strict";
// Digests the upper half of the report id ranges on its own read-only connection while the main
// thread digests the lower half (digest.ts): the digests are the first thing every build reads,
// and the whole of what a build that finds nothing changed does. Plain CommonJS for the reason
// build/threads.ts gives; typed by thread-protocol.ts.
const { workerData } = require("node:worker_threads");
const Database = require("better-sqlite3");
const { digestReportRanges } = require("./range-digest.cjs");

/** @type {import("./thread-protocol.ts").DigestWorkerData} */
const { path, columns, from, to, request, port, control } = workerData;
const done = new Int32Array(control);
/** @type {import("better-sqlite3").Database | null} */
let db = null;
try {
  db = new Database(path, { readonly: true, fileMustExist: true });
  const { ranges, digests, split, counts, rows, odd } = digestReportRanges(db, columns, from, to, request);
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
