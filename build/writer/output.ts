/**
 * What an emitter hands the writer, and what every writer is (STYLE: emitters return files, one
 * writer writes them). Every file goes into the manifest with its size and SHA-256
 * (file-sink.cjs). The disk writer (disk-writer.ts) writes through a worker thread; the memory
 * writer (memory-writer.ts) lets tests build without touching the disk.
 */
import { BuildError } from "../errors.ts";
import { MANIFEST_PATH } from "./file-sink.cjs";

export interface OutputFile {
  /** Path inside dist, `/`-separated, e.g. `api/check/foo.json`. */
  path: string;
  data: string | Uint8Array | ChunkedData | typeof UNCHANGED;
}

/**
 * The data of a file an incremental build knows to have the current build's bytes without
 * making them (EmitContext.unchanged says when an emitter may hand it over): the writer keeps
 * or links the current build's file, its variants and its manifest line, as it would for the
 * same bytes. A writer with no current build refuses it.
 */
export const UNCHANGED: unique symbol = Symbol("the current build's bytes");

/**
 * A large file handed over as its bytes in order, made while it is written, so that it is never
 * whole in memory (the spammer dump inflates its compressed batches one at a time). The same
 * object handed over twice is one file with two names, as with a buffer (see the disk writer).
 */
export interface ChunkedData {
  readonly byteLength: number;
  chunks(): Iterable<Uint8Array>;
  /**
   * The SHA-256 (hex) of the bytes `chunks()` yields, where their maker has it already: the disk
   * writer lists it rather than hash the file a second time as it writes it. The dumps have it
   * (build/dump/csv.ts: each batch is hashed as it is made, and the CSV is inflated from members
   * whose CRC-32 and length zlib checks, so the bytes written are the bytes hashed).
   */
  readonly sha256?: string;
  /**
   * Where the bytes are these gzip members inflated, of these sizes (the dumps' CSVs): the disk
   * writer's thread then inflates and writes them itself (with `sha256` known), or keeps or links
   * the file when the folder it brings up to date or the current build has those bytes already.
   */
  readonly gzipMembers?: { members: readonly Uint8Array[]; sizes: readonly number[] };
}

export interface Writer {
  write(file: OutputFile): void;
  /**
   * The SHA-256 of the manifest as it stands (every file written so far listed) and its length
   * in bytes: the build id is made of it once the snapshot's files are written (build/changes/build-id.ts).
   */
  seal(): { sha256: string; bytes: number };
  /** Writes the manifest (every file so far, plus `extra` fields) and closes the writer. */
  finish(extra: Record<string, unknown>): void;
  /** Stops without finishing, after a failure elsewhere in the build. */
  abort(): void;
  readonly fileCount: number;
  readonly byteCount: number;
  /** Seconds spent hashing and writing (the disk writer's worker thread), once finished. */
  readonly writeSeconds: number;
}

export const isChunked = (data: OutputFile["data"]): data is ChunkedData => typeof data === "object" && !ArrayBuffer.isView(data);

/** The bytes of a file in one buffer (for writers that keep files whole, and so have no current build to keep a file from). */
export function toBytes(data: OutputFile["data"]): string | Uint8Array {
  if (data === UNCHANGED) throw new BuildError("a file unchanged since the current build reached a writer that has no current build");
  if (!isChunked(data)) return data;
  const bytes = Buffer.concat([...data.chunks()]);
  checkChunkedSize(bytes.byteLength, data);
  return bytes;
}

export function checkChunkedSize(written: number, data: ChunkedData): void {
  if (written !== data.byteLength) throw new BuildError(`${written} bytes written, ${data.byteLength} announced`);
}

/** Paths we emit are ASCII words separated by `/`; anything else is a bug or hostile data. */
const SAFE_PATH = /^(?:[A-Za-z0-9_][A-Za-z0-9._-]*\/)*[A-Za-z0-9_][A-Za-z0-9._-]*$/;

export function checkPath(path: string): void {
  if (!SAFE_PATH.test(path) || path.includes("..") || path === MANIFEST_PATH) {
    throw new BuildError(`refusing to write unsafe path ${JSON.stringify(path)}`);
  }
}
