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
 * A cursor over the records of chunks: `next()` moves to the next record, whose bytes are then
 * `bytes[start, end)`, CRLF included. Nothing is decoded or copied unless asked for (`key()`,
 * `text()`), and a record within one chunk is a place in it: comparing two dumps of a million
 * records each made an object and decoded a string per record, where most records are the same
 * bytes on both sides (`sameBytes`). Text is decoded per record, never per chunk, so a UTF-8
 * sequence split between two chunks is whole when it is read.
 */
export class CsvRecordCursor {
  bytes: Buffer = EMPTY;
  start = 0;
  end = 0;
  private readonly chunks: Iterator<Uint8Array>;
  private chunk: Buffer = EMPTY;
  /** Where the scan goes on in `chunk`. */
  private at = 0;
  /** The next quote and the next CR at or after the scan in `chunk` (-1: none left; -2: not looked for). */
  private quote = -2;
  private cr = -2;
  /** The bytes of a record begun in earlier chunks. */
  private pending: Buffer[] = [];
  private pendingLength = 0;
  /** Whether the scan is inside a quoted cell. */
  private quoted = false;
  /** A CR ended the last chunk outside quotes: the record ends if the next byte is LF. */
  private carriageReturn = false;
  private done = false;

  constructor(chunks: Iterable<Uint8Array>) {
    this.chunks = chunks[Symbol.iterator]();
  }

  /**
   * Moves to the next record; false at the end. Throws when the input ends inside a record: a
   * dump cut short is not a dump. The scan jumps from quote to quote and CR to CR
   * (Buffer.indexOf, native), each found once: a loop over every byte in JavaScript took a second
   * for the dump of a million usernames.
   */
  next(): boolean {
    if (this.done) return false;
    let start = this.at;
    for (;;) {
      const bytes = this.chunk;
      const length = bytes.length;
      let i = this.at;
      while (i < length) {
        if (this.carriageReturn) {
          this.carriageReturn = false;
          if (bytes[i] === LF) {
            this.at = i + 1;
            this.found(start, i + 1);
            return true;
          }
        }
        if (this.quote !== -1 && this.quote < i) this.quote = bytes.indexOf(QUOTE, i);
        if (this.quoted) {
          // Inside a quoted cell only its closing quote counts (a doubled quote closes and opens again).
          if (this.quote === -1) break;
          this.quoted = false;
          i = this.quote + 1;
          continue;
        }
        if (this.cr !== -1 && this.cr < i) this.cr = bytes.indexOf(CR, i);
        if (this.quote !== -1 && (this.cr === -1 || this.quote < this.cr)) {
          this.quoted = true;
          i = this.quote + 1;
        } else if (this.cr !== -1) {
          this.carriageReturn = true;
          i = this.cr + 1;
        } else break;
      }
      // The chunk ends inside the record: its bytes so far wait for the rest.
      if (start < length) {
        this.pending.push(Buffer.from(bytes.subarray(start)));
        this.pendingLength += length - start;
      }
      const step = this.chunks.next();
      if (step.done) {
        this.done = true;
        this.bytes = EMPTY;
        this.start = this.end = 0;
        if (this.pendingLength > 0) throw new Error(`the CSV ends inside a record (${this.pendingLength} bytes without their CRLF)`);
        return false;
      }
      const chunk = step.value;
      this.chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      this.at = start = 0;
      this.quote = this.cr = -2;
    }
  }

  /** The record's first cell, which is never quoted (a username, an id, a change kind). */
  key(): string {
    const comma = this.bytes.indexOf(COMMA, this.start);
    return this.bytes.toString("utf8", this.start, comma === -1 || comma >= this.end ? this.end - 2 : comma);
  }

  /** The record as text, CRLF included. */
  text(): string {
    return this.bytes.toString("utf8", this.start, this.end);
  }

  /** Stops reading (the chunks' source is closed: a file is). */
  close(): void {
    if (!this.done) this.chunks.return?.();
    this.done = true;
  }

  /** Whether this record and `other`'s are the same bytes. */
  sameBytes(other: CsvRecordCursor): boolean {
    return this.end - this.start === other.end - other.start && this.bytes.compare(other.bytes, other.start, other.end, this.start, this.end) === 0;
  }

  private found(start: number, end: number): void {
    if (this.pendingLength === 0) {
      this.bytes = this.chunk;
      this.start = start;
      this.end = end;
      return;
    }
    this.bytes = Buffer.concat([...this.pending, this.chunk.subarray(start, end)]);
    this.start = 0;
    this.end = this.bytes.length;
    this.pending = [];
    this.pendingLength = 0;
  }
}

const EMPTY = Buffer.alloc(0);
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const COMMA = 0x2c;

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
  const cursor = new CsvRecordCursor(chunks);
  try {
    while (cursor.next()) yield { key: cursor.key(), text: cursor.text() };
  } finally {
    cursor.close();
  }
}
