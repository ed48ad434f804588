/**
 * CSV for the open-data dump, as papaparse writes it: RFC 4180 (comma, CRLF after every record,
 * double quotes around cells with a comma, quote, CR/LF, byte-order mark or edge space, quotes
 * doubled), UTF-8 without a byte-order mark (see docs/open-data.md "Open data" for why), no control
 * characters, and no text cell that a spreadsheet would run as a formula.
 *
 * Rows are collected in compact form: every BATCH_ROWS rows are serialised at once and kept
 * compressed (see CsvCollector), not as a million row objects.
 */
import { createHash } from "node:crypto";
import Papa from "papaparse";
import { removeControlCharacters } from "../../core/escape.ts";
import { fnv1a } from "../fnv.cjs";
import type { ChunkedData } from "../writer/index.ts";
import { inflateMember } from "../writer/inflate-member.cjs";
import { gzipMember } from "./gzip-member.cjs";
import type { Member, MemberCompressor } from "./member-compressor.ts";

export type Cell = string | number | null;

/**
 * Cells starting with these can run as formulas (OWASP "CSV injection"). papaparse's own
 * `escapeFormulae: true` uses /^[=+\-@\t\r].*$/, whose `.` stops at a newline, so a cell
 * like "=1+1\nx" would slip through; testing the first character alone has no such gap.
 * Number cells are left alone (only strings get the ' prefix), so a negative week_trend stays
 * a number.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** How the dump's CSV is written (RFC 4180 with CRLF, formula guard). */
const PAPA_CONFIG: Papa.UnparseConfig = { delimiter: ",", newline: "\r\n", quotes: false, header: false, escapeFormulae: FORMULA_START };
const BATCH_ROWS = 2048;
/**
 * Batches cut by content (addRecord's `cut`, endsBatch): after a record that ends one, once the
 * batch holds MIN_CUT_ROWS, and at MAX_CUT_ROWS whatever comes. About 1 300 rows a batch: a row
 * added or removed changes its own batch only, where fixed-size batches would all shift after it,
 * so an incremental build compresses again only the batches whose rows changed (member-cache.cjs).
 * The .gz is about 1 % larger than with 2 048-row batches.
 */
const CUT_EVERY = 1024;
const MIN_CUT_ROWS = 256;
const MAX_CUT_ROWS = 4096;

/** Whether the record of `key` (a row's primary key) ends a content-defined batch; see CUT_EVERY. */
export function endsBatch(key: string): boolean {
  const h = fnv1a(key);
  return ((h ^ (h >>> 16)) & (CUT_EVERY - 1)) === 0;
}
/** A batch's bytes are held in a buffer grown by this much at a time. */
const GROWTH = 64 * 1024;

/**
 * Records as CSV text, each ending with CRLF, by papaparse. Control characters are removed from
 * each text cell first, so that the formula guard sees the cell as it will be published. (The
 * spammer rows, a million at scale, mostly take a direct path held byte-equal to this one:
 * build/dump/columns.ts, createSpammerRecordFormatter.)
 */
export function formatCsvRecords(rows: Cell[][]): string {
  if (rows.length === 0) return "";
  const clean = rows.map((row) => row.map((cell) => (typeof cell === "string" ? removeControlCharacters(cell) : cell)));
  return Papa.unparse(clean, PAPA_CONFIG) + "\r\n";
}

/** A CSV (inflated as it is read) and its gzip, each with its SHA-256. */
export interface CsvFiles {
  csv: ChunkedData & { sha256: string };
  gz: ChunkedData & { sha256: string };
  /** The gzip's members in order, by key and length; null unless the compression thread made them all (it keys them). */
  members: { key: string; length: number }[] | null;
}

/**
 * One CSV file being collected: the header row, then records added one at a time. Each batch is
 * kept gzip-compressed, as one gzip member (RFC 1952 §2.2: a gzip file is a series of members,
 * which gzip, zcat, Python, R, pandas and Node read as one stream), so a million usernames hold
 * about 30 MiB instead of 144 MiB of CSV text. At the end the members in order are the .gz file,
 * and the CSV is inflated member by member while it is written: it is never whole in memory.
 * With a MemberCompressor, the batches are gzipped on its thread while more rows come.
 */
export class CsvCollector {
  /** Members (keyed when the compressor made them), or the ids of those it has not handed back yet. */
  private members: (Member | { member: Buffer; key: null } | number)[] = [];
  private sizes: number[] = [];
  private batch: Cell[][] = [];
  /**
   * The bytes of the records formatted but not yet compressed (the header row first), up to
   * `batchLength`. Each record is encoded as it comes, not joined into one string first: a string
   * made of a batch's records is flattened by V8 whole and each record again in it, which took the
   * dump's main thread three times as long as encoding them one by one.
   */
  private batchBytes = Buffer.allocUnsafeSlow(GROWTH);
  private batchLength = 0;
  /** Records since the last member, formatted or not. */
  private batched = 0;
  private length = 0;
  /** Of the CSV bytes, batch by batch (the data package lists it). */
  private readonly hash = createHash("sha256");
  rows = 0;

  constructor(
    header: readonly string[],
    private readonly compressor: MemberCompressor | null = null,
  ) {
    this.append(formatCsvRecords([[...header]]));
  }

  add(row: Cell[]): void {
    this.batch.push(row);
    this.counted(undefined);
  }

  /**
   * A record already formatted as formatCsvRecords formats it, CRLF included. `cut` (endsBatch of
   * the row's key) makes the batches content-defined (CUT_EVERY): a collector takes it for every
   * record or for none.
   */
  addRecord(record: string, cut?: boolean): void {
    if (this.batch.length > 0) this.formatBatch();
    this.append(record);
    this.counted(cut);
  }

  /**
   * The CSV (inflated as it is read) and its gzip, each with its SHA-256 (the data package and the
   * dumps' index list them); the collector lets go of its batches, and the files can be read as
   * often as they are written.
   */
  finish(): CsvFiles {
    this.flush();
    this.batchBytes = Buffer.alloc(0);
    const { sizes, compressor } = this;
    const made = this.members.map((member) => (typeof member === "number" ? compressor!.take(member) : member));
    const members = made.map(({ member }) => member);
    const keys = made.every((member): member is Member => member.key !== null) ? made.map(({ key, member }) => ({ key, length: member.byteLength })) : null;
    this.members = [];
    this.sizes = [];
    const csv = {
      byteLength: this.length,
      sha256: this.hash.digest("hex"),
      gzipMembers: { members, sizes },
      *chunks(): Generator<Uint8Array> {
        for (let i = 0; i < members.length; i++) yield inflateMember(members[i]!, sizes[i]!, i);
      },
    };
    const gzHash = createHash("sha256");
    for (const member of members) gzHash.update(member);
    const gz = { byteLength: members.reduce((sum, member) => sum + member.byteLength, 0), sha256: gzHash.digest("hex"), chunks: () => members };
    return { csv, gz, members: keys };
  }

  private counted(cut: boolean | undefined): void {
    this.rows++;
    this.batched++;
    if (cut === undefined ? this.batched >= BATCH_ROWS : (cut && this.batched >= MIN_CUT_ROWS) || this.batched >= MAX_CUT_ROWS) this.flush();
  }

  private formatBatch(): void {
    if (this.batch.length > 0) this.append(formatCsvRecords(this.batch));
    this.batch = [];
  }

  private append(text: string): void {
    // UTF-8 takes at most three bytes for each UTF-16 unit. Grown in steps of 64 KiB, not doubled:
    // a hundred weekly dumps each hold a batch in the making at once (spammer-dumps.ts).
    const room = this.batchLength + text.length * 3;
    if (room > this.batchBytes.byteLength) {
      const grown = Buffer.allocUnsafeSlow(Math.ceil(room / GROWTH) * GROWTH);
      this.batchBytes.copy(grown, 0, 0, this.batchLength);
      this.batchBytes = grown;
    }
    this.batchLength += this.batchBytes.write(text, this.batchLength, "utf8");
  }

  private flush(): void {
    this.formatBatch();
    if (this.batchLength === 0) return;
    // A buffer of its own, which the compressor may move to its thread.
    const raw = Buffer.allocUnsafeSlow(this.batchLength);
    this.batchBytes.copy(raw, 0, 0, this.batchLength);
    this.batchLength = 0;
    // The next batch starts small again: most collectors fill theirs slowly.
    if (this.batchBytes.byteLength > GROWTH) this.batchBytes = Buffer.allocUnsafeSlow(GROWTH);
    this.hash.update(raw);
    this.batched = 0;
    this.sizes.push(raw.byteLength);
    this.length += raw.byteLength;
    // Last: the compressor may move the batch's buffer to its thread.
    this.members.push(this.compressor ? this.compressor.submit(raw) : { member: gzipMember(raw), key: null });
  }
}
