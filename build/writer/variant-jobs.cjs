// @ts-check
"use strict";
// Making the variants of a batch's files and storing its files (file-sink.cjs, writeBatch): in the
// thread that writes them (SerialVariants: the memory writer, and a batch too small to share), or
// shared with the helper thread compress-worker.cjs (SharedVariants: the disk writer's worker).
// Creating a file costs the kernel tens of microseconds, most of a build's time, and two threads
// creating files at once get about half as far again as one on the disks measured (the check files,
// a million at a million usernames, have no variants: without shared stores the helper sat idle
// through them while the writer created every one).
const crypto = require("node:crypto");
const { mkdirSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { receiveMessageOnPort, MessageChannel, Worker } = require("node:worker_threads");
const { makeVariants } = require("./variants.cjs");

/** Slots of the shared counters: the next job to take, 1 once the helper has answered, the next file to store. */
const CLAIM = 0;
const DONE = 1;
const STORE = 2;
/** Past every batch's files: stored into the STORE slot, it makes both threads stop taking files. */
const NO_MORE = 1 << 30;
/** Fewer jobs, and fewer files to store, than these are not worth a message to the helper. */
const MIN_SHARED_JOBS = 4;
const MIN_SHARED_STORES = 16;
/** How long the write worker waits for the helper's answer, once no job is left to take, before it calls it stuck. */
const STUCK_MS = 60_000;

/**
 * @typedef {import("../../core/routes/variants.ts").Encoding} Encoding
 * @typedef {{ path: string; data: Uint8Array; sha256: string; stored?: boolean }} VariantEntry `stored`: in place already (the helper stores the variants it makes)
 * @typedef {{ path: string; bytes: Uint8Array; encodings: readonly Encoding[]; replaces?: string[] }} VariantJob `replaces`: its variants' paths that hold an older file to clear first
 * @typedef {{ path: string; bytes: Uint8Array; replace?: boolean }} StoreJob `replace`: its name holds an older file to clear first
 * @typedef {{ paths: string[]; lengths: number[]; replace: boolean[]; buffer: ArrayBuffer }} StoresMessage
 * @typedef {{ paths: string[]; datas: Uint8Array[]; encodings: (readonly Encoding[])[]; replaces: string[][]; stores: StoresMessage | null }} JobsMessage
 * @typedef {{ path: string; message: string; code: string | undefined }} StoreFailure
 * @typedef {{ results: [number, VariantEntry[]][]; error: string | null; stored: number; storedVariants: number; storeError: StoreFailure | null }} ResultsMessage
 */

/**
 * Puts files into the folder `root`, making their folders on the way (once each, as far as this
 * thread knows: another thread making the same one is harmless).
 * @param {string} root
 * @returns {(path: string, data: Uint8Array) => void}
 */
function createFileStore(root) {
  /** @type {Set<string>} */
  const madeDirs = new Set();
  return (path, data) => {
    // Paths are checked `/`-separated relative paths (output.ts, checkPath), so plain concatenation is safe.
    const target = `${root}/${path}`;
    const dir = target.slice(0, target.lastIndexOf("/"));
    if (!madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      madeDirs.add(dir);
    }
    writeFileSync(target, data);
  };
}

/**
 * The files' bytes end to end in a buffer of their own, to be moved to the helper (a Buffer made
 * by Buffer.concat may be a slice of Node's shared pool: moving that would take the pool away).
 * @param {StoreJob[]} files
 */
function joinBytes(files) {
  const joined = new Uint8Array(files.reduce((sum, f) => sum + f.bytes.byteLength, 0));
  let at = 0;
  for (const { bytes } of files) {
    joined.set(bytes, at);
    at += bytes.byteLength;
  }
  return joined.buffer;
}

/** A file the helper could not store (`file`, relative to the build folder): the writer fails with it as with its own. */
class StoreError extends Error {
  /** @param {StoreFailure} failure */
  constructor({ path, message, code }) {
    super(message);
    this.file = path;
    this.code = code;
  }
}

/**
 * SHA-256 in hex, as the manifest lists every file. The one-shot `crypto.hash` (Node 20.12+)
 * costs about half of createHash/update/digest for the small files that make up most of a build.
 * @param {Uint8Array | string} data
 */
function hashContent(data) {
  return crypto.hash("sha256", data, "hex");
}

/**
 * A file's variants (variants.cjs) with their SHA-256, as the manifest lists them.
 * @param {string} path @param {Uint8Array} data @param {readonly Encoding[]} encodings
 * @returns {VariantEntry[]}
 */
function makeVariantEntries(path, data, encodings) {
  return makeVariants(path, data, encodings).map((v) => ({ path: v.path, data: v.data, sha256: hashContent(v.data) }));
}

/** Every job's variants, made here, in order; every file stored here. */
class SerialVariants {
  constructor() {
    /** @type {VariantJob[]} */
    this.jobs = [];
    /** @type {StoreJob[]} */
    this.stores = [];
  }

  /** @param {VariantJob[]} jobs @param {StoreJob[]} [stores] */
  start(jobs, stores = []) {
    this.jobs = jobs;
    this.stores = stores;
  }

  /**
   * Stores the batch's files with `store`, in order, until `stopped()` says so: false then.
   * @param {(file: StoreJob) => void} store @param {() => boolean} stopped
   */
  storeAll(store, stopped) {
    const stores = this.stores;
    this.stores = [];
    for (const file of stores) {
      if (stopped()) return false;
      store(file);
    }
    return true;
  }

  /** Drops the batch (the build stopped, or a file could not be stored). */
  abandon() {
    this.jobs = [];
    this.stores = [];
  }

  /** @returns {VariantEntry[][]} */
  finish() {
    const made = this.jobs.map((job) => makeVariantEntries(job.path, job.bytes, job.encodings));
    this.jobs = [];
    return made;
  }
}

/**
 * The jobs shared with the helper thread: `start` hands them over and returns at once; `storeAll`
 * stores the batch's files, taking each from a counter the helper takes from too once it has
 * compressed what it could (so the two threads create files at once); `finish` takes compression
 * jobs from the same counter until none is left, then waits for the helper's answer and returns
 * every job's variants in order. `root`: the folder the helper stores into (none: the caller stores
 * every file itself).
 */
class SharedVariants {
  /** @param {string | null} [root] */
  constructor(root = null) {
    this.state = new Int32Array(new SharedArrayBuffer(12));
    this.root = root;
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.helper = new Worker(join(__dirname, "compress-worker.cjs"), { execArgv: [], workerData: { port: port2, control: this.state.buffer, root }, transferList: [port2] });
    // The helper never keeps the write worker alive: it ends with it.
    this.helper.unref();
    /** Set when the helper failed outside a batch (it then answers nothing more). */
    /** @type {string | null} */
    this.broken = null;
    this.helper.on("error", (error) => (this.broken = error.message));
    this.helper.on("exit", (code) => (this.broken ??= `it exited with code ${code}`));
    /** Jobs the helper did so far, and files and variants it stored (the tests' check that it takes part). */
    this.helped = 0;
    this.stored = 0;
    this.storedVariants = 0;
    this.serial = new SerialVariants();
    /** @type {VariantJob[] | null} the jobs the helper has, while it has them */
    this.shared = null;
    /** @type {StoreJob[]} the batch's files to store, while `shared` is set */
    this.stores = [];
    /** Whether the helper stores some of them too. */
    this.storesShared = false;
  }

  /** @param {VariantJob[]} jobs @param {StoreJob[]} [stores] */
  start(jobs, stores = []) {
    const shareStores = this.root !== null && stores.length >= MIN_SHARED_STORES;
    if ((jobs.length < MIN_SHARED_JOBS && !shareStores) || this.broken !== null) return this.serial.start(jobs, stores);
    Atomics.store(this.state, CLAIM, 0);
    Atomics.store(this.state, DONE, 0);
    // Set before the message goes: the helper takes files from the first, or none of this batch's.
    Atomics.store(this.state, STORE, shareStores ? 0 : NO_MORE);
    // Each file copied on its own and the copies moved, not cloned: a view posted as it is would
    // clone the whole batch buffer it is a part of. The files to store, many and small, go as one copy.
    const datas = jobs.map((j) => new Uint8Array(j.bytes));
    /** @type {StoresMessage | null} */
    const shared = shareStores ? { paths: stores.map((f) => f.path), lengths: stores.map((f) => f.bytes.byteLength), replace: stores.map((f) => f.replace === true), buffer: joinBytes(stores) } : null;
    /** @type {JobsMessage} */
    const message = { paths: jobs.map((j) => j.path), datas, encodings: jobs.map((j) => j.encodings), replaces: jobs.map((j) => j.replaces ?? []), stores: shared };
    this.port.postMessage(message, [...datas.map((d) => d.buffer), ...(shared ? [shared.buffer] : [])]);
    this.shared = jobs;
    this.stores = stores;
    this.storesShared = shareStores;
  }

  /**
   * Stores the batch's files with `store`: here those the helper has not taken, all of them when
   * it was not given any. False once `stopped()` says so (the caller then abandons the batch).
   * @param {(file: StoreJob) => void} store @param {() => boolean} stopped
   */
  storeAll(store, stopped) {
    if (this.shared === null) return this.serial.storeAll(store, stopped);
    const stores = this.stores;
    this.stores = [];
    // Files the helper was not given are all this thread's, in order.
    const shared = this.storesShared;
    for (let i = shared ? Atomics.add(this.state, STORE, 1) : 0; i < stores.length; i = shared ? Atomics.add(this.state, STORE, 1) : i + 1) {
      if (stopped()) return false;
      store(/** @type {StoreJob} */ (stores[i]));
    }
    return true;
  }

  /**
   * Drops the batch: the helper takes no more files to store (the one it is storing it finishes),
   * and its answer is waited for, so that nothing of the batch is written after this returns.
   */
  abandon() {
    if (this.shared === null) return this.serial.abandon();
    this.shared = null;
    this.stores = [];
    Atomics.store(this.state, STORE, NO_MORE);
    Atomics.store(this.state, CLAIM, NO_MORE);
    this.waitForAnswer();
  }

  /** @returns {VariantEntry[][]} */
  finish() {
    const jobs = this.shared;
    if (jobs === null) return this.serial.finish();
    this.shared = null;
    /** @type {VariantEntry[][]} */
    const made = new Array(jobs.length);
    for (let i = Atomics.add(this.state, CLAIM, 1); i < jobs.length; i = Atomics.add(this.state, CLAIM, 1)) {
      const job = /** @type {VariantJob} */ (jobs[i]);
      made[i] = makeVariantEntries(job.path, job.bytes, job.encodings);
    }
    // The helper may still be on the jobs it took; it answers once it has taken one past the last.
    const answer = this.waitForAnswer();
    if (answer.storeError !== null) throw new StoreError(answer.storeError);
    if (answer.error !== null) throw new Error(`compressing: ${answer.error}`);
    for (const [i, entries] of answer.results) made[i] = entries;
    this.helped += answer.results.length;
    for (let i = 0; i < made.length; i++) if (made[i] === undefined) throw new Error(`the compression thread left ${jobs[i]?.path} undone`);
    return made;
  }

  /** @returns {ResultsMessage} */
  waitForAnswer() {
    while (Atomics.load(this.state, DONE) === 0) {
      if (Atomics.wait(this.state, DONE, 0, STUCK_MS) === "timed-out" && Atomics.load(this.state, DONE) === 0) {
        throw new Error(`the compression thread stopped answering${this.broken ? ` (${this.broken})` : ""}`);
      }
    }
    const received = receiveMessageOnPort(this.port);
    if (!received) throw new Error("the compression thread answered nothing");
    const answer = /** @type {ResultsMessage} */ (received.message);
    this.stored += answer.stored;
    this.storedVariants += answer.storedVariants;
    return answer;
  }
}

module.exports = { hashContent, makeVariantEntries, createFileStore, SerialVariants, SharedVariants, StoreError, CLAIM, DONE, STORE, NO_MORE };
