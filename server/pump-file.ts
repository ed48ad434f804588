/**
 * A file streamed from disk straight to Node's response, for a large file over the
 * `--large-file-memory` budget whose answer is known (server/known-answers.ts): positional reads
 * into two reused buffers, each written to the socket and read into again once the socket has
 * taken it, the next read running while the last write goes out.
 *
 * A Node stream (fs.createReadStream piped to the response, as the app's answer does) allocates
 * a new buffer per chunk: at download speeds that is gigabytes a second of memory outside the
 * heap, and V8 answers it with a full collection every few tens of milliseconds (55 in four
 * seconds of four downloads of the weekly dump); the server then spent a quarter of its time
 * collecting. Here the buffers come from a small free list and go back to it.
 *
 * The descriptor is closed once, when no read is in flight (a number closed while the thread
 * pool still reads it may be another file's by then): at the end, on a read error, and when
 * the client goes away.
 */
import { close, read } from "node:fs";
import type { ServerResponse } from "node:http";

/** Bytes per read and per write: a download of the weekly dump is some sixty of them. */
export const PUMP_CHUNK_BYTES = 256 * 1024;

/** Buffers kept for the next downloads, at most (4 MiB). */
const MAX_FREE_BUFFERS = 16;

const freeBuffers: Buffer[] = [];

function takeBuffer(): Buffer {
  return freeBuffers.pop() ?? Buffer.allocUnsafeSlow(PUMP_CHUNK_BYTES);
}

function giveBack(buffer: Buffer): void {
  if (freeBuffers.length < MAX_FREE_BUFFERS) freeBuffers.push(buffer);
}

/**
 * Writes `size` bytes of the open file `fd` from `start` as the body of `response`, whose head is
 * written, then ends it; the descriptor is the pump's from here on. A file that reads short or
 * fails to read destroys the response (the client sees a body shorter than its Content-Length).
 */
export function pumpFile(fd: number, start: number, size: number, response: ServerResponse): void {
  const end = start + size;
  /** The next position to read. */
  let position = start;
  /** A buffer read and not yet written, with its length. */
  let ready: { buffer: Buffer; length: number } | null = null;
  let reading = false;
  let writing = false;
  let stopped = false;
  let closed = false;
  const spare: Buffer[] = [takeBuffer(), takeBuffer()];

  const closeOnce = () => {
    if (closed || reading) return;
    closed = true;
    close(fd, () => {});
    while (spare.length > 0) giveBack(spare.pop()!);
    if (ready) giveBack(ready.buffer);
    ready = null;
  };
  const stop = (error?: Error) => {
    if (stopped) return;
    stopped = true;
    if (error) response.destroy(error);
    closeOnce();
  };
  response.once("close", () => stop());

  const readNext = () => {
    if (stopped || reading || position >= end || spare.length === 0) return;
    const buffer = spare.pop()!;
    const length = Math.min(PUMP_CHUNK_BYTES, end - position);
    reading = true;
    read(fd, buffer, 0, length, position, (error, bytesRead) => {
      reading = false;
      if (stopped) {
        giveBack(buffer);
        closeOnce();
        return;
      }
      if (error || bytesRead !== length) {
        giveBack(buffer);
        stop(error ?? new Error(`the file read ${bytesRead} bytes at ${position} where ${length} were due: it changed on disk`));
        return;
      }
      position += length;
      ready = { buffer, length };
      writeReady();
      readNext();
    });
  };

  const writeReady = () => {
    if (stopped || writing || ready === null) return;
    const { buffer, length } = ready;
    ready = null;
    writing = true;
    response.write(length === buffer.length ? buffer : buffer.subarray(0, length), (error) => {
      writing = false;
      // The socket has the bytes (or is gone): the buffer may be read into again.
      if (closed) giveBack(buffer);
      else spare.push(buffer);
      if (error) return stop();
      if (position >= end && ready === null && !reading) {
        stopped = true;
        closeOnce();
        response.end();
        return;
      }
      writeReady();
      readNext();
    });
  };

  if (size === 0) {
    stop();
    response.end();
    return;
  }
  readNext();
}
