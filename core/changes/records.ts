/**
 * The dump's CSV read record by record from its bytes in pieces (a file read in chunks, a dump's
 * gzip members inflated one by one), so that neither the previous nor the new dump is ever whole
 * in memory. Records are RFC 4180 as build/dump/csv.ts writes them: CRLF after each, a quoted
 * cell may hold anything (its quotes doubled), so a record ends at a CRLF outside quotes only.
 */

/** One record: its first cell (the dump's primary key) and its bytes as text, CRLF included. */
export interface CsvRecord {
  key: string;
  text: string;
}

/**
 * Splits chunks into records. Text is decoded per record, never per chunk, so a UTF-8 sequence
 * split between two chunks is whole when it is read.
 */
export class CsvRecordSplitter {
  private pending: Buffer[] = [];
  private pendingLength = 0;
  /** Whether the scan, at the end of the pending bytes, is inside a quoted cell. */
  private quoted = false;
  /** A CR ended the last chunk outside quotes: the record ends if the next byte is LF. */
  private carriageReturn = false;

  /** The records completed by `chunk`, in order. */
  push(chunk: Uint8Array): CsvRecord[] {
    const records: CsvRecord[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (this.carriageReturn) {
        this.carriageReturn = false;
        if (byte === LF) {
          records.push(this.take(chunk, start, i + 1));
          start = i + 1;
          continue;
        }
      }
      if (byte === QUOTE) this.quoted = !this.quoted;
      else if (byte === CR && !this.quoted) this.carriageReturn = true;
    }
    if (start < chunk.length) {
      this.pending.push(Buffer.from(chunk.subarray(start)));
      this.pendingLength += chunk.length - start;
    }
    return records;
  }

  /** Throws unless the input ended with a whole record: a dump cut short is not a dump. */
  end(): void {
    if (this.pendingLength > 0) throw new Error(`the CSV ends inside a record (${this.pendingLength} bytes without their CRLF)`);
  }

  private take(chunk: Uint8Array, start: number, end: number): CsvRecord {
    let bytes: Buffer;
    if (this.pendingLength === 0) bytes = Buffer.from(chunk.buffer, chunk.byteOffset + start, end - start);
    else {
      bytes = Buffer.concat([...this.pending, chunk.subarray(start, end)]);
      this.pending = [];
      this.pendingLength = 0;
    }
    const text = bytes.toString("utf8");
    return { key: getFirstCell(text), text };
  }
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** The first cell of a record whose first cell is never quoted (a username, an id, a change kind). */
export function getFirstCell(record: string): string {
  const comma = record.indexOf(",");
  return comma === -1 ? record.slice(0, -2) : record.slice(0, comma);
}

/**
 * The first record (a header row) of a CSV given in chunks, reading no further; the chunks'
 * source is closed after it (a for-of left early returns its iterator: a file is closed).
 */
export function readFirstRecord(chunks: Iterable<Uint8Array>): CsvRecord | undefined {
  for (const record of readCsvRecords(chunks)) return record;
  return undefined;
}

/** Every record of a CSV given in chunks, lazily. */
export function* readCsvRecords(chunks: Iterable<Uint8Array>): Generator<CsvRecord> {
  const splitter = new CsvRecordSplitter();
  for (const chunk of chunks) yield* splitter.push(chunk);
  splitter.end();
}
