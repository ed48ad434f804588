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

  /**
   * The records completed by `chunk`, in order. The scan jumps from quote to quote and CR to CR
   * (Buffer.indexOf, native), each found once: a loop over every byte in JavaScript took a second
   * for the dump of a million usernames.
   */
  push(chunk: Uint8Array): CsvRecord[] {
    const records: CsvRecord[] = [];
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const length = bytes.length;
    let start = 0;
    let i = 0;
    // The next quote and the next CR at or after i (-1: none left in the chunk).
    let quote = -2;
    let cr = -2;
    while (i < length) {
      if (this.carriageReturn) {
        this.carriageReturn = false;
        if (bytes[i] === LF) {
          records.push(this.take(bytes, start, i + 1));
          start = ++i;
          continue;
        }
      }
      if (quote !== -1 && quote < i) quote = bytes.indexOf(QUOTE, i);
      if (this.quoted) {
        // Inside a quoted cell only its closing quote counts (a doubled quote closes and opens again).
        if (quote === -1) break;
        this.quoted = false;
        i = quote + 1;
        continue;
      }
      if (cr !== -1 && cr < i) cr = bytes.indexOf(CR, i);
      if (quote !== -1 && (cr === -1 || quote < cr)) {
        this.quoted = true;
        i = quote + 1;
      } else if (cr !== -1) {
        this.carriageReturn = true;
        i = cr + 1;
      } else break;
    }
    if (start < length) {
      this.pending.push(Buffer.from(bytes.subarray(start)));
      this.pendingLength += length - start;
    }
    return records;
  }

  /** Throws unless the input ended with a whole record: a dump cut short is not a dump. */
  end(): void {
    if (this.pendingLength > 0) throw new Error(`the CSV ends inside a record (${this.pendingLength} bytes without their CRLF)`);
  }

  private take(chunk: Buffer, start: number, end: number): CsvRecord {
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
