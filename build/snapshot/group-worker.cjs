// @ts-check
"use strict";
// Runs the username pass's grouped queries (username-groups.ts holds the SQL) on its own
// read-only connection and hands their rows to the main thread in batches, on request: SQLite's
// work on the report pass, about half of it, runs on the second core while the main thread
// aggregates the rows before. Plain CommonJS for the reason build/threads.ts gives; typed by
// thread-protocol.ts.
//
// Protocol: the main thread posts { stream } to ask for the next batch of query `stream`; each
// answer is { stream, count, texts, numbers, done } (or { error }), and [0] of the shared counter
// counts answers, so the main thread can wait for one without an event loop. A batch is packed
// by column kind rather than posted as one array per row (a tenth of the pass's cloning work):
// `texts` holds the text columns (`textColumns`, in order) of every row, string or null, and
// `numbers` (a transferred Float64Array) the other columns, with NaN for anything not a number.
const { workerData } = require("node:worker_threads");
const Database = require("better-sqlite3");

/** @typedef {import("./thread-protocol.ts").GroupAnswer} GroupAnswer */
/** @type {import("./thread-protocol.ts").GroupWorkerData} */
const { path, setup, insert, spellings, queries, params, textColumns, batchRows, port, control } = workerData;
const answers = new Int32Array(control);
/** @type {import("better-sqlite3").Database | null} */
let db = null;
/** @type {IterableIterator<unknown[]>[]} */
let iterators = [];
let failed = false;

/**
 * @param {GroupAnswer} message
 * @param {ArrayBuffer[]} [transfer]
 */
function answer(message, transfer) {
  port.postMessage(message, transfer);
  Atomics.add(answers, 0, 1);
  Atomics.notify(answers, 0);
}

/** @param {unknown} error */
function fail(error) {
  failed = true;
  answer({ error: error instanceof Error ? error.message : String(error) });
  close();
}

function close() {
  for (const iterator of iterators) iterator.return?.();
  iterators = [];
  if (db) db.close();
  db = null;
  port.close();
}

try {
  db = new Database(path, { readonly: true, fileMustExist: true });
  // Sorts spill to temporary files rather than grow the heap; the page cache is the build's
  // largest (see open.ts), as this connection does the heavy reading.
  db.pragma("temp_store = FILE");
  db.pragma("cache_size = -65536");
  db.exec(setup);
  const add = db.prepare(insert);
  db.transaction(() => {
    // A blob spelling arrives as a Uint8Array (structured clone), which binds as a blob again.
    for (const [raw, normal] of spellings) add.run(raw, normal);
  })();
  const connection = db;
  iterators = queries.map((sql) => /** @type {IterableIterator<unknown[]>} */ (connection.prepare(sql).raw().iterate(params)));
} catch (error) {
  fail(error);
}

const finished = queries.map(() => false);
port.on("message", (/** @type {import("./thread-protocol.ts").GroupRequest} */ { stream }) => {
  if (failed) return;
  try {
    // Asks run ahead of the rows, so some arrive after their query has ended.
    if (finished[stream]) return answer({ stream, count: 0, texts: [], numbers: new Float64Array(0), done: true });
    const iterator = /** @type {IterableIterator<unknown[]>} */ (iterators[stream]);
    /** @type {(string | null)[]} */
    const texts = [];
    /** @type {Float64Array | null} */
    let numbers = null;
    let numberColumns = 0;
    let count = 0;
    let done = false;
    while (count < batchRows) {
      const next = iterator.next();
      if (next.done) {
        done = true;
        break;
      }
      const row = next.value;
      if (numbers === null) {
        numberColumns = row.length - textColumns.length;
        numbers = new Float64Array(batchRows * numberColumns);
      }
      let n = count * numberColumns;
      for (let c = 0, t = 0; c < row.length; c++) {
        const value = row[c];
        if (c === textColumns[t]) {
          texts.push(typeof value === "string" ? value : null);
          t++;
        } else numbers[n++] = typeof value === "number" ? value : NaN;
      }
      count++;
    }
    numbers ??= new Float64Array(0);
    answer({ stream, count, texts, numbers, done }, [/** @type {ArrayBuffer} */ (numbers.buffer)]);
    if (done) finished[stream] = true;
  } catch (error) {
    fail(error);
  }
});
