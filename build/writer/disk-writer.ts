/**
 * The disk writer hands batches to a worker thread (write-worker.cjs), so hashing and writing a
 * million small files runs on the second core while this one serialises JSON; the build stays
 * synchronous by waiting on a shared counter when too many batches are in flight.
 */
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from "node:worker_threads";
import { listVariantEncodings, MIN_VARIANT_SIZE, type Encoding } from "../../core/routes/variants.ts";
import { BuildError } from "../errors.ts";
import { startWorker } from "../threads.ts";
import { hashContent } from "./file-sink.cjs";
import { makeVariants } from "./variants.cjs";
import { checkChunkedSize, checkPath, isChunked, toBytes, UNCHANGED, type ChunkedData, type OutputFile, type Writer } from "./output.ts";
import { CONTROL_BYTES, type ReuseSpec, type ReuseStats, type WriterMessage, type WriterReply, type WriteWorkerData } from "./protocol.ts";

const BATCH_FILES = 256;
/** A batch is posted once its files can take this many bytes, however few they are. */
const BATCH_BYTES = 4 << 20;
/** Files at least this long (bytes, or UTF-16 units for text) skip the worker: see writeLarge. */
const LARGE_FILE = 1 << 20;
/**
 * What may be queued ahead of the worker, in bytes (files, paths and their lengths): the main
 * thread runs ahead by this much while the worker catches up with a step that writes many files
 * (an incremental build's check files, embeds), on the next step's work. A count of batches
 * would bound memory by the largest files: 64 batches of pages held 130 MB, of check files 12.
 */
export const MAX_BYTES_IN_FLIGHT = 64 << 20;
/** Messages queued ahead of the worker, whatever they weigh. */
const MAX_IN_FLIGHT = 8192;
/** How long abort() waits for the worker to finish the file it is writing (one file, not a batch). */
const STOP_WAIT_MS = 10_000;

/**
 * A writer into `root`: an empty folder, or with `reuse`, a folder that holds an older build to
 * bring up to date in place (docs/incremental-builds.md; tree-reuse.cjs).
 */
export function createDiskWriter(root: string, reuse?: ReuseSpec): DiskWriter {
  return new ThreadedDiskWriter(root, reuse);
}

export interface DiskWriter extends Writer {
  /** Files under the reuse's `rewrite` prefix written anew so far (0 without reuse): see ReuseSpec. */
  readonly rewritten: number;
  /** `rewritten` once every file handed over so far is done. */
  countRewritten(): number;
  /** What an incremental write did, once finished (null for a write into an empty folder without a current build). */
  readonly reused: ReuseStats | null;
  /** No message in flight: after abort(), whether the worker stopped in time (it writes nothing more). */
  readonly idle: boolean;
  /** Bytes handed over and not yet written (files, paths and lengths): at most MAX_BYTES_IN_FLIGHT once `write` returns. */
  readonly queuedBytes: number;
}

class ThreadedDiskWriter implements DiskWriter {
  fileCount = 0;
  byteCount = 0;
  writeSeconds = 0;
  reused: ReuseStats | null = null;
  /** Where large files are written before the worker gives them their name (reuse only). */
  private readonly incoming: string | null;
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /** [0]: messages in flight, [1]: set by the worker when it fails, [2]: set here to stop it, [3]: files rewritten so far, [4]: bytes in flight (protocol.ts). */
  private readonly inFlight = new Int32Array(new SharedArrayBuffer(CONTROL_BYTES));
  private paths: string[] = [];
  private data: (string | Uint8Array | typeof UNCHANGED)[] = [];
  /** Bytes the batch's data can take in UTF-8 (three per UTF-16 unit of text, at most). */
  private batchBytes = 0;
  /** Where a batch is encoded before it is copied to a buffer of its size (send). */
  private scratch = Buffer.alloc(0);
  /** Set once the worker failed or was stopped; every later call throws it again. */
  private failure: BuildError | null = null;
  /** Set once the worker writes nothing more: it finished, failed, or was stopped. */
  private stopped = false;

  /** Whether there is a current build to keep UNCHANGED files from. */
  private readonly hasCurrent: boolean;

  constructor(
    private readonly root: string,
    reuse?: ReuseSpec,
  ) {
    this.hasCurrent = reuse?.current != null;
    mkdirSync(root, { recursive: true });
    // A dot folder: no path of a build starts with a dot (output.ts), so nothing of it is ever listed.
    this.incoming = reuse ? join(root, `.incoming-${process.pid}`) : null;
    if (this.incoming) mkdirSync(this.incoming, { recursive: true });
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const data: WriteWorkerData = { root, port: port2, control: this.inFlight.buffer as SharedArrayBuffer, reuse };
    this.worker = startWorker(new URL("./write-worker.cjs", import.meta.url), data, [port2]);
  }

  get idle(): boolean {
    return Atomics.load(this.inFlight, 0) === 0;
  }

  /** Files under the reuse's `rewrite` prefix written anew so far, as of the last batch the worker finished. */
  get rewritten(): number {
    return Atomics.load(this.inFlight, 3);
  }

  /** The same, once the worker has done every file handed to it so far (it waits for the worker). */
  countRewritten(): number {
    this.send();
    this.waitUntilIdle();
    return Atomics.load(this.inFlight, 3);
  }

  write(file: OutputFile): void {
    checkPath(file.path);
    const { data } = file;
    if (data === UNCHANGED) {
      if (!this.hasCurrent) throw new BuildError(`${file.path}: a file unchanged since the current build, but this writer has no current build`);
    } else if (isChunked(data) || data.length >= LARGE_FILE) return this.writeLarge(file as OutputFile & { data: string | Uint8Array | ChunkedData });
    this.paths.push(file.path);
    this.data.push(data);
    if (data !== UNCHANGED) this.batchBytes += typeof data === "string" ? data.length * 3 : data.byteLength;
    this.fileCount++;
    if (this.paths.length >= BATCH_FILES || this.batchBytes >= BATCH_BYTES) this.send();
  }

  /**
   * A large file (a search index, a dump's gzip) is written and hashed here rather than posted:
   * posting copies it into the worker, so a 150 MB file would briefly cost 300 MB. The worker
   * only lists it in the manifest, after the batches before it, so the order stays the build's.
   * A file of gzip members (a dump's CSV) is the exception: its members are posted, and the
   * worker inflates and writes it (postInflate).
   */
  private writeLarge({ path, data }: OutputFile & { data: string | Uint8Array | ChunkedData }): void {
    this.send();
    // Into a folder being brought up to date, the file is written aside (under the same path in a
    // dot folder) and the worker, in order, gives it its name or drops it: see tree-reuse.cjs.
    const target = join(this.incoming ?? this.root, path);
    // The same buffer or chunks handed over twice (a dump under its weekly and its "latest"
    // name) is one file with two names: a hard link costs neither the write nor the hash again.
    // The worker makes it, after the first name, which it may still be writing (postInflate).
    const earlier = typeof data === "string" ? undefined : this.largeFiles.get(data);
    if (earlier) {
      this.post({ type: "duplicate", path, of: earlier.path, size: earlier.size, sha256: earlier.sha256 });
      this.fileCount++;
      this.writeLargeVariants(path, data, earlier.size);
      return;
    }
    let written: { size: number; sha256: string };
    try {
      mkdirSync(dirname(target), { recursive: true });
      if (isChunked(data) && data.gzipMembers && data.sha256 !== undefined && listVariantEncodings(path, data.byteLength).length === 0) {
        return this.postInflate(path, target, data as ChunkedData & { sha256: string; gzipMembers: NonNullable<ChunkedData["gzipMembers"]> });
      }
      written = isChunked(data) ? writeChunks(target, data) : writeWhole(target, data);
      if (typeof data !== "string") this.largeFiles.set(data, { path, ...written });
    } catch (error) {
      // The worker's own failure, heard while posting (postInflate): it names its own file.
      if (error === this.failure) throw error;
      throw new BuildError(`writing ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    this.list(path, target, written);
    this.fileCount++;
    this.writeLargeVariants(path, data, written.size);
  }

  /**
   * A file of gzip members inflated (a dump's CSV, 150 MB at a million usernames) is inflated and
   * written by the worker, which is idle when a publish changed little and this thread is the one
   * the build waits for; it also keeps or links the file when the folder it brings up to date or
   * the current build has its bytes, where this thread would write it for nothing. The members
   * go as one buffer, moved (they are a fifth of the CSV's size), and do not count against
   * MAX_BYTES_IN_FLIGHT (the dump's files hold the members anyway; this is a copy): counted, the
   * dumps' 60 MB of members held this thread back until the writer caught up, and the publish of
   * a small change at a million usernames gained nothing over this thread inflating them itself;
   * uncounted, it took about a second less.
   */
  private postInflate(path: string, target: string, data: ChunkedData & { sha256: string; gzipMembers: NonNullable<ChunkedData["gzipMembers"]> }): void {
    const { members, sizes } = data.gzipMembers;
    const lengths = Int32Array.from(members, (member) => member.byteLength);
    const buffer = Buffer.allocUnsafeSlow(lengths.reduce((sum, length) => sum + length, 0));
    let at = 0;
    for (const member of members) {
      buffer.set(member, at);
      at += member.byteLength;
    }
    const message: WriterMessage = { type: "inflate", path, target, members: buffer.buffer, lengths, sizes: Int32Array.from(sizes), size: data.byteLength, sha256: data.sha256 };
    this.post(message, [buffer.buffer, lengths.buffer, message.sizes.buffer as ArrayBuffer]);
    this.largeFiles.set(data, { path, size: data.byteLength, sha256: data.sha256 });
    this.fileCount++;
  }

  /** Lists a file written here (at `target`): as it is, or for the worker to place (reuse). */
  private list(path: string, target: string, written: { size: number; sha256: string }): void {
    const { size, sha256 } = written;
    if (this.incoming) this.post({ type: "placed", path, tmp: target, size, sha256 });
    else this.post({ type: "listed", path, size, sha256 });
  }

  /**
   * The variants of a file written here. None today: the rule stops below the size that comes
   * here, and the chunked files (the dumps) get none; kept so that this writer and the memory
   * writer write the same files whatever the rule becomes.
   */
  private writeLargeVariants(path: string, data: OutputFile["data"], size: number): void {
    const encodings = listVariantEncodings(path, size);
    if (encodings.length === 0) return;
    const bytes = toBytes(data);
    for (const variant of makeVariants(path, typeof bytes === "string" ? Buffer.from(bytes) : bytes, encodings)) {
      const target = join(this.incoming ?? this.root, variant.path);
      this.list(variant.path, target, writeWhole(target, variant.data));
      this.fileCount++;
    }
  }

  /** Large files written so far, by the buffer or chunks they were written from (see writeLarge). */
  private readonly largeFiles = new WeakMap<Uint8Array | ChunkedData, { path: string; size: number; sha256: string }>();

  seal(): { sha256: string; bytes: number } {
    this.send();
    this.post({ type: "seal" });
    this.waitUntilIdle();
    const sealed = this.takeMessage();
    if (sealed?.type !== "sealed") throw new BuildError("the file writer did not answer the manifest's hash");
    return { sha256: sealed.sha256, bytes: sealed.bytes };
  }

  finish(extra: Record<string, unknown>): void {
    this.send();
    this.post({ type: "finish", extra });
    this.waitUntilIdle();
    const done = this.takeMessage();
    if (done?.type !== "done") throw new BuildError("the file writer stopped without finishing the manifest");
    // The worker's count includes the variants it made.
    this.fileCount = done.fileCount;
    this.byteCount = done.byteCount;
    this.writeSeconds = done.busySeconds;
    this.reused = done.reused;
    if (this.incoming) rmSync(this.incoming, { recursive: true, force: true });
    this.stopped = true;
    void this.worker.terminate();
  }

  /**
   * Stops the worker and returns once it writes no more, so that the caller can delete the
   * staging folder at once: the worker skips whatever is queued, closes the manifest and counts
   * the messages down. The wait is bounded for a worker that died without counting down.
   */
  abort(): void {
    if (!this.stopped) {
      this.stopped = true;
      Atomics.store(this.inFlight, 2, 1);
      Atomics.add(this.inFlight, 0, 1);
      this.port.postMessage({ type: "stop" } satisfies WriterMessage);
      const deadline = performance.now() + STOP_WAIT_MS;
      for (let seen = Atomics.load(this.inFlight, 0); seen > 0 && performance.now() < deadline; seen = Atomics.load(this.inFlight, 0)) {
        Atomics.wait(this.inFlight, 0, seen, 100);
      }
    }
    this.failure ??= new BuildError("the file writer was stopped");
    void this.worker.terminate();
  }

  get queuedBytes(): number {
    return Atomics.load(this.inFlight, 4);
  }

  /**
   * Posts the batch as one buffer of bytes and their lengths, moved to the worker rather than
   * copied: posting the texts would copy each into the worker's heap, where it would be encoded
   * to UTF-8 a second time. The files are encoded into a scratch buffer of the upper bound (three
   * bytes a UTF-16 unit) and copied into one of their exact size: an upper-bound buffer per batch
   * held up to three times its bytes while queued (in the allocator's reused pages, all resident).
   * The paths go as one text, the lengths and variants as typed arrays: a queue of a million
   * unchanged files then holds a few dozen bytes each, not a string and two arrays each.
   */
  private send(): void {
    if (this.paths.length === 0) return;
    if (this.scratch.length < this.batchBytes) this.scratch = Buffer.allocUnsafeSlow(this.batchBytes);
    const bytes = this.scratch;
    const count = this.data.length;
    const lengths = new Int32Array(count);
    // Each file's variants as an index into the few lists the batch has (most have none, or both).
    const encodings = new Uint8Array(count);
    const sets: (readonly Encoding[])[] = [];
    // By identity: listVariantEncodings gives one of two lists.
    const indexOf = (set: readonly Encoding[]) => {
      const index = sets.indexOf(set);
      return index >= 0 ? index : sets.push(set) - 1;
    };
    let offset = 0;
    for (let i = 0; i < count; i++) {
      const data = this.data[i]!;
      if (data === UNCHANGED) {
        // No bytes: the worker takes the current build's file, and whichever of its variants it has.
        lengths[i] = -1;
        encodings[i] = indexOf(listVariantEncodings(this.paths[i]!, MIN_VARIANT_SIZE));
        continue;
      }
      let length: number;
      if (typeof data === "string") length = bytes.write(data, offset, "utf8");
      else {
        bytes.set(data, offset);
        length = data.byteLength;
      }
      lengths[i] = length;
      // Decided here, where the byte length is known; the worker compresses (beside its writes).
      encodings[i] = indexOf(listVariantEncodings(this.paths[i]!, length));
      offset += length;
    }
    // No path holds a newline (checkPath).
    const paths = this.paths.join("\n");
    const exact = Buffer.allocUnsafeSlow(offset);
    bytes.copy(exact, 0, 0, offset);
    const weight = offset + paths.length + 5 * count;
    Atomics.add(this.inFlight, 4, weight);
    this.post({ type: "batch", paths, lengths, encodings, sets, buffer: exact.buffer, weight }, [exact.buffer, lengths.buffer, encodings.buffer]);
    this.paths = [];
    this.data = [];
    this.batchBytes = 0;
    while (Atomics.load(this.inFlight, 0) > MAX_IN_FLIGHT || Atomics.load(this.inFlight, 4) > MAX_BYTES_IN_FLIGHT) this.waitForProgress();
  }

  private post(message: WriterMessage, transfer: ArrayBuffer[] = []): void {
    this.throwIfFailed();
    Atomics.add(this.inFlight, 0, 1);
    this.port.postMessage(message, transfer);
  }

  private waitUntilIdle(): void {
    while (Atomics.load(this.inFlight, 0) > 0) this.waitForProgress();
    this.throwIfFailed();
  }

  private waitForProgress(): void {
    const seen = Atomics.load(this.inFlight, 0);
    if (seen > 0 && Atomics.load(this.inFlight, 1) === 0) Atomics.wait(this.inFlight, 0, seen, 1000);
    if (Atomics.load(this.inFlight, 1) !== 0) {
      // The worker failed: its message is on the way (or already there).
      const deadline = performance.now() + 5000;
      while (!this.failure && performance.now() < deadline) this.throwIfFailed();
      this.failure ??= new BuildError("the file writer failed");
      throw this.failure;
    }
    this.throwIfFailed();
  }

  private pendingMessage: WriterReply | undefined;

  private takeMessage(): WriterReply | undefined {
    const message = this.pendingMessage ?? (receiveMessageOnPort(this.port)?.message as WriterReply | undefined);
    this.pendingMessage = undefined;
    return message;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
    if (this.pendingMessage) return this.failIfError(this.pendingMessage);
    const received = receiveMessageOnPort(this.port)?.message as WriterReply | undefined;
    if (received) {
      this.pendingMessage = received;
      this.failIfError(received);
    }
  }

  private failIfError(message: WriterReply): void {
    if (message.type === "error") {
      // The system error's code travels as text: it is what tells a full disk (kind no-space) from a bug.
      const cause = message.code ? Object.assign(new Error(message.message), { code: message.code }) : undefined;
      this.failure = new BuildError(message.message, { cause });
      // A failed worker writes nothing more (it skips every later message): abort() need not wait for it.
      this.stopped = true;
      void this.worker.terminate();
      throw this.failure;
    }
  }
}

function writeWhole(target: string, data: string | Uint8Array): { size: number; sha256: string } {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  writeFileSync(target, bytes);
  return { size: bytes.byteLength, sha256: hashContent(bytes) };
}

function writeChunks(target: string, data: ChunkedData): { size: number; sha256: string } {
  // Hashed by its maker already (the dumps: 360 MB at a million usernames, half a second of this thread).
  const hash = data.sha256 === undefined ? createHash("sha256") : null;
  const fd = openSync(target, "w");
  let size = 0;
  try {
    for (const chunk of data.chunks()) {
      for (let at = 0; at < chunk.byteLength; ) at += writeSync(fd, chunk, at);
      hash?.update(chunk);
      size += chunk.byteLength;
    }
  } finally {
    closeSync(fd);
  }
  checkChunkedSize(size, data);
  return { size, sha256: hash ? hash.digest("hex") : data.sha256! };
}

/**
 * The SHA-256 (hex) of a file, read a mebibyte at a time: a manifest is 175 MB at a million
 * usernames, and reading it whole to hash it made the end of a build its peak of memory.
 */
export function hashFile(path: string): string {
  const hash = createHash("sha256");
  const chunk = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(path, "r");
  try {
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) hash.update(chunk.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}
