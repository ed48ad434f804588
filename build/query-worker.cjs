"use strict";
// Runs a few read-only queries on its own connection to the snapshot and posts their rows back,
// so that they overlap with the username pass on the build's main thread (build/snapshot.ts,
// startSideAggregates, holds the SQL). Plain CommonJS for the reason build/writer.ts gives.
const { workerData } = require("node:worker_threads");
const Database = require("better-sqlite3");

const { path, queries, port, control } = workerData;
const done = new Int32Array(control);
let db = null;
try {
  db = new Database(path, { readonly: true, fileMustExist: true });
  // Sorts spill to temporary files rather than grow the heap; the page cache is the build's
  // largest (see openSnapshot in build/snapshot.ts), as this connection does the heavy reading.
  db.pragma("temp_store = FILE");
  db.pragma("cache_size = -65536");
  const results = {};
  for (const { name, sql, params } of queries) results[name] = db.prepare(sql).raw().all(params);
  port.postMessage({ results });
} catch (error) {
  port.postMessage({ error: error instanceof Error ? error.message : String(error) });
} finally {
  if (db) db.close();
  Atomics.store(done, 0, 1);
  Atomics.notify(done, 0);
}
