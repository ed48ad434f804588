// @ts-check
"use strict";
// Runs a few read-only queries on its own connection to the snapshot and posts their rows back,
// so that they overlap with the username pass on the build's main thread (side-aggregates.ts
// holds the SQL). Plain CommonJS for the reason build/threads.ts gives; typed by thread-protocol.ts.
const { workerData } = require("node:worker_threads");
const Database = require("better-sqlite3");

/** @type {import("./thread-protocol.ts").SideWorkerData} */
const { path, queries, port, control } = workerData;
const done = new Int32Array(control);
/** @type {import("better-sqlite3").Database | null} */
let db = null;
/** @param {import("./thread-protocol.ts").SideAnswer} answer */
const post = (answer) => port.postMessage(answer);
try {
  db = new Database(path, { readonly: true, fileMustExist: true });
  // Sorts spill to temporary files rather than grow the heap; the page cache is the build's
  // largest (see open.ts), as this connection does the heavy reading.
  db.pragma("temp_store = FILE");
  db.pragma("cache_size = -65536");
  /** @type {Record<string, unknown[][]>} */
  const results = {};
  for (const { name, sql, params } of queries) results[name] = /** @type {unknown[][]} */ (db.prepare(sql).raw().all(params));
  post({ results });
} catch (error) {
  post({ error: error instanceof Error ? error.message : String(error) });
} finally {
  if (db) db.close();
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
}
