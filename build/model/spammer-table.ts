/**
 * Every valid reported username's aggregate, in username order, held by column: the report pass
 * appends one row per username, and every emitter that needs all of them (check files, the dump,
 * the feeds, live search) reads the finished table. A row costs about 90 bytes (its username
 * string, eight numbers, its ranked categories and companies as small integers), so a million
 * usernames take about 90 MB; a row is made into a `Spammer` object only when one is read.
 */
import { CATEGORIES } from "../../core/categories.ts";
import type { Company, Spammer } from "./types.ts";

const INITIAL_ROWS = 1 << 12;

export class SpammerTable implements Iterable<Spammer> {
  constructor(
    readonly size: number,
    private readonly usernames: readonly string[],
    /** Per row: reports, unique reports, last 7 days, the 7 days before. */
    private readonly counts: Uint32Array,
    /** Per row: confidence max, first seen, last seen (Unix ms). */
    private readonly numbers: Float64Array,
    /** Row i's categories are categoryCodes[categoryStarts[i], categoryStarts[i + 1]): CATEGORIES indexes, most frequent first. */
    private readonly categoryStarts: Uint32Array,
    private readonly categoryCodes: Uint8Array,
    /** Likewise for companies: indexes into `companies`, most named first. */
    private readonly companyStarts: Uint32Array,
    private readonly companyCodes: Uint32Array,
    private readonly companies: readonly Company[],
    /** Per row: 1 when the row is the current build's, companies shown alike (report-pass.ts): its check file has that build's bytes. */
    private readonly unchangedRows: Uint8Array,
  ) {}

  /** Whether row `row`'s check file has the current build's bytes (an incremental build's kept row, its companies shown alike). */
  unchanged(row: number): boolean {
    return this.unchangedRows[row] === 1;
  }

  username(row: number): string {
    return this.usernames[row]!;
  }

  reportsCount(row: number): number {
    return this.counts[row * 4]!;
  }

  firstSeenMs(row: number): number {
    return this.numbers[row * 3 + 1]!;
  }

  lastSeenMs(row: number): number {
    return this.numbers[row * 3 + 2]!;
  }

  /** CATEGORIES indexes of row's categories, most frequent first (a view: copy it to keep it). */
  categoryIndexes(row: number): Uint8Array {
    return this.categoryCodes.subarray(this.categoryStarts[row]!, this.categoryStarts[row + 1]!);
  }

  /** Row `row` as a Spammer (a new object each time). */
  at(row: number): Spammer {
    return this.fill(createEmptySpammer(), row);
  }

  /**
   * Every row through one reused Spammer, its arrays included: for emitters that turn each row
   * into text at once (check files, the dump), a million rows without a million objects and their
   * garbage. Read what you need from it before asking for the next row.
   */
  *views(): Generator<Spammer> {
    const view = createEmptySpammer();
    for (let row = 0; row < this.size; row++) yield this.fill(view, row);
  }

  /** The rows `rows` (a ranking, a week's rows), in that order, through one reused Spammer like `views`. */
  *viewsOf(rows: ArrayLike<number>): Generator<Spammer> {
    const view = createEmptySpammer();
    for (let i = 0; i < rows.length; i++) yield this.fill(view, rows[i]!);
  }

  /** Row `row` into `target` (a Spammer of `views`' kind, its arrays reused). */
  fill(target: Spammer, row: number): Spammer {
    const { categories, companies } = target;
    categories.length = 0;
    for (let k = this.categoryStarts[row]!, end = this.categoryStarts[row + 1]!; k < end; k++) categories.push(CATEGORIES[this.categoryCodes[k]!]!);
    companies.length = 0;
    for (let k = this.companyStarts[row]!, end = this.companyStarts[row + 1]!; k < end; k++) companies.push(this.companies[this.companyCodes[k]!]!);
    const c = row * 4;
    const n = row * 3;
    target.username = this.usernames[row]!;
    target.reportsCount = this.counts[c]!;
    target.uniqueReports = this.counts[c + 1]!;
    target.last7Days = this.counts[c + 2]!;
    target.previous7Days = this.counts[c + 3]!;
    target.confidenceMax = this.numbers[n]!;
    target.firstSeenMs = this.numbers[n + 1]!;
    target.lastSeenMs = this.numbers[n + 2]!;
    return target;
  }

  *[Symbol.iterator](): Iterator<Spammer> {
    for (let row = 0; row < this.size; row++) yield this.at(row);
  }
}

export function createEmptySpammer(): Spammer {
  return { username: "", reportsCount: 0, uniqueReports: 0, confidenceMax: 0, firstSeenMs: 0, lastSeenMs: 0, last7Days: 0, previous7Days: 0, categories: [], companies: [] };
}

/** What the report pass appends per username (companies as indexes into the table's company list). */
export interface SpammerRow {
  username: string;
  reportsCount: number;
  uniqueReports: number;
  confidenceMax: number;
  firstSeenMs: number;
  lastSeenMs: number;
  last7Days: number;
  previous7Days: number;
  /** CATEGORIES indexes, most frequent first. */
  categories: readonly number[];
  /** Indexes into the company list, most named first. */
  companies: readonly number[];
}

/** Grows the columns as rows come (doubling), then trims them once in `finish`. */
export class SpammerTableBuilder {
  private rows = 0;
  private readonly usernames: string[] = [];
  private counts = new Uint32Array(INITIAL_ROWS * 4);
  private numbers = new Float64Array(INITIAL_ROWS * 3);
  private categoryStarts = new Uint32Array(INITIAL_ROWS + 1);
  private categoryCodes = new Uint8Array(INITIAL_ROWS * 2);
  private categoryCount = 0;
  private companyStarts = new Uint32Array(INITIAL_ROWS + 1);
  private companyCodes = new Uint32Array(INITIAL_ROWS);
  private companyCount = 0;
  private unchangedRows = new Uint8Array(INITIAL_ROWS);

  constructor(private readonly companies: readonly Company[]) {}

  /** Rows so far: the index the next row gets. */
  get size(): number {
    return this.rows;
  }

  /** Appends a row (`unchanged`: see SpammerTable.unchanged); returns its index. */
  add(row: SpammerRow, unchanged = false): number {
    const index = this.rows;
    if (index + 1 >= this.categoryStarts.length) this.growRows();
    this.usernames.push(row.username);
    this.unchangedRows[index] = unchanged ? 1 : 0;
    const c = index * 4;
    this.counts[c] = row.reportsCount;
    this.counts[c + 1] = row.uniqueReports;
    this.counts[c + 2] = row.last7Days;
    this.counts[c + 3] = row.previous7Days;
    const n = index * 3;
    this.numbers[n] = row.confidenceMax;
    this.numbers[n + 1] = row.firstSeenMs;
    this.numbers[n + 2] = row.lastSeenMs;
    if (this.categoryCount + row.categories.length > this.categoryCodes.length) this.categoryCodes = grow(this.categoryCodes, this.categoryCount + row.categories.length);
    for (const code of row.categories) this.categoryCodes[this.categoryCount++] = code;
    this.categoryStarts[index + 1] = this.categoryCount;
    if (this.companyCount + row.companies.length > this.companyCodes.length) this.companyCodes = grow(this.companyCodes, this.companyCount + row.companies.length);
    for (const code of row.companies) this.companyCodes[this.companyCount++] = code;
    this.companyStarts[index + 1] = this.companyCount;
    this.rows++;
    return index;
  }

  /** The finished table; its columns are copied to their exact size, so the builder's slack is freed. */
  finish(): SpammerTable {
    const n = this.rows;
    return new SpammerTable(
      n,
      this.usernames,
      this.counts.slice(0, n * 4),
      this.numbers.slice(0, n * 3),
      this.categoryStarts.slice(0, n + 1),
      this.categoryCodes.slice(0, this.categoryCount),
      this.companyStarts.slice(0, n + 1),
      this.companyCodes.slice(0, this.companyCount),
      this.companies,
      this.unchangedRows.slice(0, n),
    );
  }

  private growRows(): void {
    const rows = this.categoryStarts.length * 2;
    this.counts = grow(this.counts, rows * 4);
    this.numbers = grow(this.numbers, rows * 3);
    this.categoryStarts = grow(this.categoryStarts, rows + 1);
    this.companyStarts = grow(this.companyStarts, rows + 1);
    this.unchangedRows = grow(this.unchangedRows, rows);
  }
}

function grow<T extends Uint8Array | Uint32Array | Float64Array>(array: T, atLeast: number): T {
  const grown = new (array.constructor as new (n: number) => T)(Math.max(atLeast, array.length * 2));
  grown.set(array);
  return grown;
}
