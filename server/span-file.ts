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
    const buffer = Buffer.allocUnsafeSlow(length);
    for (let done = 0; done < length; ) {
      const n = readSync(fd, buffer, done, length - done, offset + done);
      if (n === 0) throw new Error(`${path}: ends at ${offset + done} of ${size} bytes`);
      done += n;
    }
    return buffer;
  };
  // Whatever reads the file holds `read`: the file closes when it goes.
  OPEN_FILES.register(read, fd);
  return { size, read };
}
