/**
 * What a build keeps of its report pass for the next one (docs/incremental-builds.md "What it
 * keeps"): two files beside the build folders, each checked against the SHA-256 the state
 * records before it is read.
 *
 * - **The username rows** (`model-{build}.groups`): every row of the pass (snapshot/username-groups.ts
 *   GroupRow) in username order, as SQLite aggregated it, the trend windows it was aggregated
 *   for, each username spelled more than one way with its spellings, and the catalog's companies
 *   as this build showed them. The next build reads again only the usernames that changed and
 *   keeps every other row; a kept row none of whose companies it shows differently has the check
 *   file this build wrote (model/report-pass.ts).
 * - **The report rows** (`model-{build}.rows`): for each report range of the snapshot's digests,
 *   each report's place, two hashes of its text and its username's key (snapshot/row-keys.cjs).
 *   A changed range's rows are compared with these to find the reports that changed, and so the
 *   usernames to read again: the old ones of reports edited or gone, the new ones of reports
 *   edited or added.
 *
 * Both are binary, written through a buffer a mebibyte at a time, hashed as they are written.
 */
import { createHash, type Hash } from "node:crypto";
import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import type { CompanyShows, GroupRow, TrendWindows } from "../snapshot/username-groups.ts";
import type { SplitRows } from "../snapshot/digest.ts";
import { ROW_BYTES, usernameKey } from "../snapshot/row-keys.cjs";
import { fnv1aBytes } from "../fnv.cjs";

const GROUPS_MAGIC = "spamcheck-groups 2\n";
const ROWS_MAGIC = "spamcheck-rows 1\n";
const CHUNK = 1 << 20;
const EMPTY = Buffer.alloc(0);

/** A file written a chunk at a time, its SHA-256 made on the way. */
class ChunkedFile {
  /** -1 once closed: a descriptor is closed once, never by its number again (another thread may hold that number by then). */
  private fd: number;
  private readonly hash: Hash = createHash("sha256");
  private buffer = Buffer.allocUnsafe(CHUNK);
  private used = 0;
  bytes = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, "w");
  }

  /** Room for `n` more bytes in the buffer, flushing first if need be. */
  reserve(n: number): Buffer {
    if (this.used + n > this.buffer.length) {
      this.flush();
      if (n > this.buffer.length) this.buffer = Buffer.allocUnsafe(n);
    }
    return this.buffer;
  }

  get at(): number {
    return this.used;
  }

  advance(n: number): void {
    this.used += n;
  }

  write(bytes: Uint8Array): void {
    this.reserve(bytes.length).set(bytes, this.used);
    this.used += bytes.length;
  }

  flush(): void {
    if (this.used === 0) return;
    const part = this.buffer.subarray(0, this.used);
    this.hash.update(part);
    for (let done = 0; done < part.length; ) done += writeSync(this.fd, part, done);
    this.bytes += part.length;
    this.used = 0;
  }

  /** Closes the file; its SHA-256. */
  close(): string {
    this.flush();
    const fd = this.fd;
    this.fd = -1;
    closeSync(fd);
    return this.hash.digest("hex");
  }

  abandon(): void {
    if (this.fd < 0) return;
    const fd = this.fd;
    this.fd = -1;
    try {
      closeSync(fd);
    } catch {
      // The descriptor is released whatever close says.
    }
  }
}

/**
 * Records every row of a pass, then the windows and the spellings. Keeping them is for the next
 * build's sake, so a write that fails (a full disk) stops the recording, not the build: `failed`
 * says why, and `sha256` stays null.
 */
export class GroupStoreWriter {
  private readonly file: ChunkedFile;
  private rows = 0;
  /** The file's SHA-256, once finished. */
  sha256: string | null = null;
  failed: unknown = null;

  constructor(path: string) {
    this.file = new ChunkedFile(path);
    this.file.write(Buffer.from(GROUPS_MAGIC));
  }

  add(row: GroupRow): void {
    if (this.failed !== null) return;
    try {
      if (row instanceof StoredGroupRow && row.bytesFrom >= 0) this.copy(row);
      else this.encode(row);
    } catch (error) {
      this.fail(error);
    }
  }

  /** A kept row as it was read: its bytes are what `encode` would write (a million rows a day, most of them kept). */
  private copy(row: StoredGroupRow): void {
    const length = row.bytesTo - row.bytesFrom;
    row.file.copy(this.file.reserve(length), this.file.at, row.bytesFrom, row.bytesTo);
    this.file.advance(length);
    this.rows++;
  }

  private fail(error: unknown): void {
    this.failed = error;
    this.file.abandon();
  }

  private encode(row: GroupRow): void {
    const recent = row.recent;
    const texts = [row.categories, row.companyIds, recent];
    const username = row.username;
    // Worst case: 3 bytes a UTF-16 unit, a varint per length and count, 3 doubles.
    let size = 10 + username.length * 3 + 5 * 10 + 24;
    for (const text of texts) size += 10 + (text === null ? 0 : text.length * 3);
    const buffer = this.file.reserve(size);
    let at = this.file.at;
    const length = Buffer.byteLength(username);
    at = writeVarint(buffer, at, length);
    at += buffer.write(username, at, length, "utf8");
    for (const text of texts) {
      if (text === null) {
        at = writeVarint(buffer, at, 0);
        continue;
      }
      const n = Buffer.byteLength(text);
      at = writeVarint(buffer, at, n + 1);
      at += buffer.write(text, at, n, "utf8");
    }
    for (const count of [row.count, row.undated, row.reporters, row.currentWeek, row.previousWeek]) at = writeVarint(buffer, at, count);
    at = buffer.writeDoubleLE(row.confidenceMax, at);
    at = buffer.writeDoubleLE(row.first, at);
    at = buffer.writeDoubleLE(row.last, at);
    this.file.advance(at - this.file.at);
    this.rows++;
  }

  /**
   * `companies`: the catalog's, by id, as this build shows them in check files and in their
   * badges, widgets and embeds (model/company-shows.ts); the next build
   * compares its own with them (report-pass.ts).
   */
  finish(windows: TrendWindows, spellingsOf: ReadonlyMap<string, readonly unknown[]>, companies: ReadonlyMap<number, CompanyShows>): void {
    if (this.failed !== null) return;
    try {
      const spellings = [...spellingsOf].map(([normal, raws]) => [normal, raws.filter((raw) => raw !== normal)]);
      const trailer = Buffer.from(JSON.stringify({ rows: this.rows, windows, spellings, companies: [...companies] }));
      this.file.write(trailer);
      const length = Buffer.alloc(8);
      length.writeDoubleLE(trailer.length);
      this.file.write(length);
      this.sha256 = this.file.close();
    } catch (error) {
      this.fail(error);
    }
  }

  abandon(): void {
    this.file.abandon();
  }
}

/** Counts are non-negative integers: seven bits a byte, low first. */
function writeVarint(buffer: Buffer, at: number, value: number): number {
  while (value >= 0x80) {
    buffer[at++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  buffer[at++] = value;
  return at;
}

/** A place in a rows file, moved along it as values are read. */
class Cursor {
  constructor(
    private readonly file: Buffer,
    public at: number,
  ) {}

  /** writeVarint's value at the place. */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.file[this.at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }
}

/** A row read back from the file, moved along it by `next` (read what you need before moving on). */
export class StoredGroupRow implements GroupRow {
  /**
   * Where the row's bytes are in the file it was read from, which GroupStoreWriter copies instead
   * of encoding the row again; `bytesFrom` is -1 once anything changed the row (a recount of its
   * trends, model/group-source.ts), and must be set so by whatever changes one.
   */
  file: Buffer = EMPTY;
  bytesFrom = -1;
  bytesTo = -1;
  username = "";
  categories: string | null = null;
  companyIds: string | null = null;
  recent: string | null = null;
  count = 0;
  undated = 0;
  reporters = 0;
  currentWeek = 0;
  previousWeek = 0;
  confidenceMax = NaN;
  first = NaN;
  last = NaN;
  unchanged = false;
}

export interface StoredGroups {
  rows: number;
  windows: TrendWindows;
  /** Normal form → its other spellings. */
  spellings: Map<string, string[]>;
  /** The catalog's companies as the build that kept the rows showed them (id → CompanyShows). */
  companies: Map<number, CompanyShows>;
  /** Every row in order, through one reused StoredGroupRow. */
  iterate(): Generator<StoredGroupRow>;
  /**
   * The usernames of the rows `pick` chooses by their username's key (row-keys.cjs usernameKey)
   * and their `last`, in order, without reading the rest of any row: a pass over a million kept
   * rows that makes no string for the rows it passes over.
   */
  pickUsernames(pick: (key: number, last: number) => boolean): string[];
}

/**
 * The rows file, read whole and checked: null when it is not what `sha256` says or does not
 * hold together (the build then reads every report, as a full build does).
 */
export function readGroupStore(path: string, sha256: string): StoredGroups | null {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return null;
  }
  if (createHash("sha256").update(file).digest("hex") !== sha256) return null;
  if (file.length < GROUPS_MAGIC.length + 8 || file.toString("latin1", 0, GROUPS_MAGIC.length) !== GROUPS_MAGIC) return null;
  const trailerLength = file.readDoubleLE(file.length - 8);
  const end = file.length - 8 - trailerLength;
  let trailer: { rows: number; windows: TrendWindows; spellings: [string, string[]][]; companies: [number, CompanyShows][] };
  try {
    trailer = JSON.parse(file.toString("utf8", end, file.length - 8));
  } catch {
    return null;
  }
  if (!Array.isArray(trailer?.companies)) return null;
  const text = (at: number, length: number) => file.toString("utf8", at, at + length);
  return {
    rows: trailer.rows,
    windows: trailer.windows,
    spellings: new Map(trailer.spellings),
    companies: new Map(trailer.companies),
    *iterate() {
      const row = new StoredGroupRow();
      const cursor = new Cursor(file, GROUPS_MAGIC.length);
      const optional = () => {
        const n = cursor.varint();
        if (n === 0) return null;
        const value = text(cursor.at, n - 1);
        cursor.at += n - 1;
        return value;
      };
      row.file = file;
      while (cursor.at < end) {
        row.bytesFrom = cursor.at;
        const length = cursor.varint();
        row.username = text(cursor.at, length);
        cursor.at += length;
        row.categories = optional();
        row.companyIds = optional();
        row.recent = optional();
        row.unchanged = false;
        row.count = cursor.varint();
        row.undated = cursor.varint();
        row.reporters = cursor.varint();
        row.currentWeek = cursor.varint();
        row.previousWeek = cursor.varint();
        row.confidenceMax = file.readDoubleLE(cursor.at);
        row.first = file.readDoubleLE(cursor.at + 8);
        row.last = file.readDoubleLE(cursor.at + 16);
        cursor.at += 24;
        row.bytesTo = cursor.at;
        yield row;
      }
    },
    pickUsernames(pick) {
      const picked: string[] = [];
      const cursor = new Cursor(file, GROUPS_MAGIC.length);
      while (cursor.at < end) {
        const length = cursor.varint();
        const from = cursor.at;
        const to = (cursor.at += length);
        // An ASCII spelling's UTF-16 code units are its bytes: its key without making it a string.
        let ascii = true;
        for (let i = from; i < to; i++) if (file[i]! >= 0x80) ascii = false;
        const key = ascii ? fnv1aBytes(file, from, to) : usernameKey(text(from, length));
        // Its three texts, then its five counts.
        for (let n = 0; n < 3; n++) {
          const size = cursor.varint();
          if (size > 0) cursor.at += size - 1;
        }
        for (let n = 0; n < 5; n++) cursor.varint();
        const last = file.readDoubleLE(cursor.at + 16);
        cursor.at += 24;
        if (pick(key, last)) picked.push(text(from, length));
      }
      return picked;
    },
  };
}

/** The report rows file: the ranges it holds and each one's rows, read a range at a time. */
export interface StoredReportRows {
  ranges: Float64Array;
  /** Rows of each range, in the order of `ranges`. */
  counts: Uint8Array;
  /** The rows of `range` (ROW_BYTES each), empty for a range the file does not hold. */
  block(range: number): Uint8Array;
  /** Copies the blocks of ranges [from, to) of `ranges` into `file`. */
  copyBlocks(from: number, to: number, into: ReportRowsWriter): void;
  close(): void;
}

/** Ranges, their row counts, then their rows, then the count of ranges: a range's rows are found from the counts. */
export function openReportRows(path: string, sha256: string): StoredReportRows | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const hash = createHash("sha256");
    const chunk = Buffer.allocUnsafe(CHUNK);
    let size = 0;
    for (let n; (n = readSync(fd, chunk, 0, CHUNK, size)) > 0; size += n) hash.update(chunk.subarray(0, n));
    if (hash.digest("hex") !== sha256 || size < ROWS_MAGIC.length + 8) throw new Error("not the kept file");
    const head = Buffer.alloc(ROWS_MAGIC.length);
    readSync(fd, head, 0, head.length, 0);
    const tail = Buffer.alloc(8);
    readSync(fd, tail, 0, 8, size - 8);
    const count = tail.readDoubleLE(0);
    if (head.toString("latin1") !== ROWS_MAGIC || !Number.isInteger(count) || ROWS_MAGIC.length + count * 9 + 8 > size) throw new Error("not a rows file");
    const ranges = new Float64Array(count);
    readSync(fd, new Uint8Array(ranges.buffer), 0, count * 8, ROWS_MAGIC.length);
    const counts = new Uint8Array(count);
    readSync(fd, counts, 0, count, ROWS_MAGIC.length + count * 8);
    const offsets = new Float64Array(count + 1);
    offsets[0] = ROWS_MAGIC.length + count * 9;
    for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i]! + counts[i]! * ROW_BYTES;
    if (offsets[count]! + 8 !== size) throw new Error("not a rows file");
    const index = new Map<number, number>();
    ranges.forEach((range, i) => index.set(range, i));
    let closed = false;
    return {
      ranges,
      counts,
      block(range) {
        const i = index.get(range);
        if (i === undefined) return new Uint8Array(0);
        const bytes = new Uint8Array(offsets[i + 1]! - offsets[i]!);
        readSync(fd, bytes, 0, bytes.length, offsets[i]!);
        return bytes;
      },
      copyBlocks(from, to, into) {
        for (let at = offsets[from]!, end = offsets[to]!; at < end; ) {
          const n = readSync(fd, chunk, 0, Math.min(CHUNK, end - at), at);
          into.writeRows(chunk.subarray(0, n));
          at += n;
        }
      },
      close() {
        // Once only: the number may be another file's (another thread's) after the first close.
        if (closed) return;
        closed = true;
        closeSync(fd);
      },
    };
  } catch {
    closeSync(fd);
    return null;
  }
}

/** Writes a report rows file: its ranges and their counts first (they are known from the digests), then the rows in that order. */
export class ReportRowsWriter {
  private readonly file: ChunkedFile;

  constructor(path: string, ranges: Float64Array, counts: Uint8Array) {
    this.file = new ChunkedFile(path);
    this.file.write(Buffer.from(ROWS_MAGIC));
    this.file.write(new Uint8Array(ranges.buffer, ranges.byteOffset, ranges.byteLength));
    this.file.write(counts);
    this.count = ranges.length;
  }

  private readonly count: number;

  writeRows(rows: Uint8Array): void {
    this.file.write(rows);
  }

  finish(): string {
    const tail = Buffer.alloc(8);
    tail.writeDoubleLE(this.count);
    this.file.write(tail);
    return this.file.close();
  }

  abandon(): void {
    this.file.abandon();
  }
}

/**
 * The report rows of a new build: every range of `ranges`, from `split` where its rows were split
 * (a range new or changed, or every range), else from the kept file (a range whose digest did not
 * change). Null when a range is in neither (the kept file does not match the digests).
 */
export function writeReportRows(path: string, ranges: Float64Array, split: SplitRows, kept: StoredReportRows | null): string | null {
  const splitIndex = new Map<number, number>();
  const splitOffsets = new Float64Array(split.ranges.length + 1);
  split.ranges.forEach((range, i) => {
    splitIndex.set(range, i);
    splitOffsets[i + 1] = splitOffsets[i]! + split.counts[i]! * ROW_BYTES;
  });
  const keptIndex = new Map<number, number>();
  kept?.ranges.forEach((range, i) => keptIndex.set(range, i));
  const counts = new Uint8Array(ranges.length);
  const keptCounts = kept?.counts ?? null;
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i]!;
    const s = splitIndex.get(range);
    if (s !== undefined) counts[i] = split.counts[s]!;
    else {
      const k = keptIndex.get(range);
      if (k === undefined || !keptCounts) return null;
      counts[i] = keptCounts[k]!;
    }
  }
  const writer = new ReportRowsWriter(path, ranges, counts);
  try {
    // Runs of consecutive kept ranges are copied in one go.
    let runFrom = -1;
    let runTo = -1;
    const flushRun = () => {
      if (runFrom >= 0) kept!.copyBlocks(runFrom, runTo, writer);
      runFrom = runTo = -1;
    };
    for (let i = 0; i < ranges.length; i++) {
      const range = ranges[i]!;
      const s = splitIndex.get(range);
      if (s !== undefined) {
        flushRun();
        writer.writeRows(split.rows.subarray(splitOffsets[s]!, splitOffsets[s + 1]!));
        continue;
      }
      const k = keptIndex.get(range)!;
      if (runFrom >= 0 && k === runTo) runTo++;
      else {
        flushRun();
        runFrom = k;
        runTo = k + 1;
      }
    }
    flushRun();
    return writer.finish();
  } catch (error) {
    writer.abandon();
    throw error;
  }
}
