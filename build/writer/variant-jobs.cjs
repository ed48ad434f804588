// @ts-check
"use strict";
// Making the variants of a batch's files (file-sink.cjs, writeBatch): in the thread that writes
// them (SerialVariants: the memory writer, and a batch too small to share), or shared with the
// helper thread compress-worker.cjs (SharedVariants: the disk writer's worker).
const crypto = require("node:crypto");
const { join } = require("node:path");
const { receiveMessageOnPort, MessageChannel, Worker } = require("node:worker_threads");
const { makeVariants } = require("./variants.cjs");

/** Slots of the shared counters: the next job to take, and 1 once the helper has answered. */
const CLAIM = 0;
const DONE = 1;
/** Fewer jobs than this are not worth a message to the helper. */
const MIN_SHARED_JOBS = 4;
/** How long the write worker waits for the helper's answer, once no job is left to take, before it calls it stuck. */
const STUCK_MS = 60_000;

/**
 * @typedef {import("../../core/routes/variants.ts").Encoding} Encoding
 * @typedef {{ path: string; data: Uint8Array; sha256: string }} VariantEntry
 * @typedef {{ path: string; bytes: Uint8Array; encodings: readonly Encoding[] }} VariantJob
 * @typedef {{ paths: string[]; datas: Uint8Array[]; encodings: (readonly Encoding[])[] }} JobsMessage
 * @typedef {{ results: [number, VariantEntry[]][]; error: string | null }} ResultsMessage
 */

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

/** Every job's variants, made here, in order. */
class SerialVariants {
  constructor() {
    /** @type {VariantJob[]} */
    this.jobs = [];
  }

  /** @param {VariantJob[]} jobs */
  start(jobs) {
    this.jobs = jobs;
  }

  /** @returns {VariantEntry[][]} */
  finish() {
    const made = this.jobs.map((job) => makeVariantEntries(job.path, job.bytes, job.encodings));
    this.jobs = [];
    return made;
  }
}

/**
 * The jobs shared with the helper thread: `start` hands them over and returns at once (the caller
 * writes the batch's files meanwhile); `finish` takes jobs from the same counter until none is
 * left, then waits for the helper's answer and returns every job's variants in order.
 */
class SharedVariants {
  constructor() {
    this.state = new Int32Array(new SharedArrayBuffer(8));
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.helper = new Worker(join(__dirname, "compress-worker.cjs"), { execArgv: [], workerData: { port: port2, control: this.state.buffer }, transferList: [port2] });
    // The helper never keeps the write worker alive: it ends with it.
    this.helper.unref();
    /** Set when the helper failed outside a batch (it then answers nothing more). */
    /** @type {string | null} */
    this.broken = null;
    this.helper.on("error", (error) => (this.broken = error.message));
    this.helper.on("exit", (code) => (this.broken ??= `it exited with code ${code}`));
    /** Jobs the helper did so far (the tests' check that it takes part). */
    this.helped = 0;
    this.serial = new SerialVariants();
    /** @type {VariantJob[] | null} the jobs the helper has, while it has them */
    this.shared = null;
  }

  /** @param {VariantJob[]} jobs */
  start(jobs) {
    if (jobs.length < MIN_SHARED_JOBS || this.broken !== null) return this.serial.start(jobs);
    Atomics.store(this.state, CLAIM, 0);
    Atomics.store(this.state, DONE, 0);
    // Each file copied on its own and the copies moved, not cloned: a view posted as it is would
    // clone the whole batch buffer it is a part of.
    const datas = jobs.map((j) => new Uint8Array(j.bytes));
    /** @type {JobsMessage} */
    const message = { paths: jobs.map((j) => j.path), datas, encodings: jobs.map((j) => j.encodings) };
    this.port.postMessage(message, datas.map((d) => d.buffer));
    this.shared = jobs;
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
    while (Atomics.load(this.state, DONE) === 0) {
      if (Atomics.wait(this.state, DONE, 0, STUCK_MS) === "timed-out" && Atomics.load(this.state, DONE) === 0) {
        throw new Error(`the compression thread stopped answering${this.broken ? ` (${this.broken})` : ""}`);
      }
    }
    const received = receiveMessageOnPort(this.port);
    if (!received) throw new Error("the compression thread answered nothing");
    const answer = /** @type {ResultsMessage} */ (received.message);
    if (answer.error !== null) throw new Error(`compressing: ${answer.error}`);
    for (const [i, entries] of answer.results) made[i] = entries;
    this.helped += answer.results.length;
    for (let i = 0; i < made.length; i++) if (made[i] === undefined) throw new Error(`the compression thread left ${jobs[i]?.path} undone`);
    return made;
  }
}

module.exports = { hashContent, makeVariantEntries, SerialVariants, SharedVariants, CLAIM, DONE };
