/**
 * Gzips the dumps' batches of CSV (csv.ts) on a thread of its own (gzip-worker.cjs), so that
 * compressing overlaps with formatting the rows: at a million usernames the dump step gzips
 * about 300 MB of CSV, some 3 s of the main thread's time. Each batch is posted as it is made
 * and its member taken back when its CSV is finished; at most MAX_IN_FLIGHT batches are waiting
 * at a time (the main thread formats faster than one thread compresses), so memory holds a few
 * raw batches, not the dump. The members are gzip-member.cjs's, whichever thread made them.
 *
 * Given the current build's dump files (an incremental build), the thread answers a batch that
 * one of their members holds with that member (member-cache.cjs): a publish that changed a few
 * rows compresses the batches holding them, not the 300 MB. Each answer carries the batch's key,
 * which the state keeps for the next build (dump.ts).
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from "node:worker_threads";
import { BuildError } from "../errors.ts";
import type { KeptDumps } from "../context.ts";
import { startWorker } from "../threads.ts";

export interface GzipWorkerData {
  port: MessagePort;
  /** `[0]`: answers posted so far. */
  control: SharedArrayBuffer;
  kept: KeptDumps | null;
}

export interface GzipJob {
  id: number;
  data: Uint8Array;
}

export type GzipAnswer =
  /** `refused`: kept files the thread could not use, and why (with its first answer). */
  | { id: number; member: Uint8Array; key: string; reused: boolean; refused?: string[] }
  | { id: number; error: string };

/** A batch's member and its key (member-cache.cjs memberKey). */
export interface Member {
  member: Buffer;
  key: string;
}

/** Batches posted and not yet answered, at most (about 300 KB each). */
const MAX_IN_FLIGHT = 8;

export class MemberCompressor {
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  private answers: Int32Array | null = null;
  private posted = 0;
  private received = 0;
  private readonly done = new Map<number, Member>();
  /** Members taken from the kept files, and made anew. */
  reused = 0;
  made = 0;
  /** Kept files that could not be used, and why. */
  refused: string[] = [];

  constructor(private readonly kept: KeptDumps | null = null) {}

  /** Posts a batch (moved to the thread when it has a buffer of its own, else copied); its id is for take(). */
  submit(data: Uint8Array): number {
    if (this.posted - this.received >= MAX_IN_FLIGHT) this.receive();
    const port = this.start();
    const id = this.posted++;
    const job: GzipJob = { id, data };
    const own = data.byteOffset === 0 && data.buffer.byteLength === data.byteLength && data.buffer instanceof ArrayBuffer;
    port.postMessage(job, own ? [data.buffer as ArrayBuffer] : []);
    return id;
  }

  /** The member of batch `id`, once: waits for the thread when it is not done yet. */
  take(id: number): Member {
    while (!this.done.has(id)) {
      if (id >= this.posted) throw new BuildError(`dump batch ${id} was never posted for compression`);
      // Every answer received, and not this one among them: waiting would never end.
      if (this.received === this.posted) throw new BuildError(`dump batch ${id} was taken already`);
      this.receive();
    }
    const member = this.done.get(id)!;
    this.done.delete(id);
    return member;
  }

  /** Stops the thread (every member taken or not needed any more). */
  close(): void {
    this.port?.close();
    void this.worker?.terminate();
    this.worker = null;
    this.port = null;
  }

  private start(): MessagePort {
    if (this.port) return this.port;
    const control = new SharedArrayBuffer(4);
    const { port1, port2 } = new MessageChannel();
    const data: GzipWorkerData = { port: port2, control, kept: this.kept };
    this.worker = startWorker(new URL("./gzip-worker.cjs", import.meta.url), data, [port2]);
    // A build that fails half-way must not wait for this thread to exit.
    this.worker.unref();
    this.port = port1;
    this.answers = new Int32Array(control);
    return port1;
  }

  /** Waits for the next answer, in the order posted. */
  private receive(): void {
    const answers = this.answers!;
    // The thread answers every job, an error included (gzip-worker.cjs).
    while (Atomics.load(answers, 0) <= this.received) Atomics.wait(answers, 0, this.received, 1000);
    const answer = receiveMessageOnPort(this.port!)?.message as GzipAnswer | undefined;
    if (!answer) throw new BuildError("compressing the dump: the compression thread stopped");
    if ("error" in answer) throw new BuildError(`compressing the dump: ${answer.error}`);
    this.received++;
    if (answer.refused) this.refused.push(...answer.refused);
    if (answer.reused) this.reused++;
    else this.made++;
    this.done.set(answer.id, { member: Buffer.from(answer.member.buffer, answer.member.byteOffset, answer.member.byteLength), key: answer.key });
  }
}
