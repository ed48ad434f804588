/**
 * A file of the build read by spans, never whole: the live index's postings of usernames
 * (server/search-state.ts) and the spammer ranking (server/dist-source.ts), tens of megabytes at a
 * million usernames of which a request reads a few hundred bytes. They stay in the page cache,
 * not in the process; a read is a copy from it (microseconds), synchronous like the small files'
 * reads (server/file-store.ts).
 *
 * The file stays open for as long as something can read it: it is closed once its reader is
 * garbage (the build's state it belongs to was dropped), so an old build's folder removed by a
 * later publish is still read whole by the requests already on it.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

export interface SpanFile {
  size: number;
  /** Bytes [offset, offset + length) of the file, in a new buffer of their own (aligned for typed arrays). */
  read(offset: number, length: number): Uint8Array;
}

const OPEN_FILES = new FinalizationRegistry<number>((fd) => closeSync(fd));

export function openSpanFile(path: string): SpanFile {
  const fd = openSync(path, "r");
  const size = fstatSync(fd).size;
  const read = (offset: number, length: number): Uint8Array => {
    const bytes = readAt(fd, offset, length);
    if (bytes.byteLength < length) throw new Error(`${path}: ends at ${offset + bytes.byteLength} of ${size} bytes`);
    return bytes;
  };
  // Whatever reads the file holds `read`: the file closes when it goes.
  OPEN_FILES.register(read, fd);
  return { size, read };
}

/**
 * `length` bytes of an open file from `offset`, fewer only where the file ends first: in memory
 * of their own, not a slice of a shared pool that a kept buffer would keep alive whole (and
 * aligned for typed-array views).
 */
export function readAt(fd: number, offset: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafeSlow(length);
  for (let done = 0; done < length; ) {
    const read = readSync(fd, bytes, done, length - done, offset + done);
    if (read === 0) return bytes.subarray(0, done);
    done += read;
  }
  return bytes;
}
