/**
 * The report ranges' digests made from the table's pages (build/snapshot/table-pages.cjs,
 * range-digest.cjs digestRangePages): the same rows give the same digests and split rows however
 * SQLite laid out their pages (another page size, another insertion order, free pages left by
 * deletes, rows that overflow to pages of their own), any changed value or type changes its
 * range's digest, the username keys are the ones the kept spellings give, and whatever the
 * reader cannot vouch for (a table it cannot walk, ids past 2^53, a username that is not a text,
 * a WAL log not yet checkpointed) is read through SQLite instead or marked as odd.
 */
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { SNAPSHOT_CONTRACT } from "../../build/snapshot/contract.ts";
import { planReportPages } from "../../build/snapshot/digest.ts";
import { digestReportRanges, type PagePlan } from "../../build/snapshot/range-digest.cjs";
import { NULL_KEY, ROW_BYTES, splitRecords, usernameKey } from "../../build/snapshot/row-keys.cjs";
import { PagesUnreadable, TablePages } from "../../build/snapshot/table-pages.cjs";
import { makeTempDir } from "../helpers/fixture.ts";

const dir = makeTempDir("report-pages");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const columns = SNAPSHOT_CONTRACT.reports!.filter((c) => c !== "id");
const TABLE = `CREATE TABLE reports (id INTEGER PRIMARY KEY, ${columns.join(", ")})`;
let files = 0;

type Row = Record<string, unknown> & { id: number };

/** A snapshot file holding `rows` (inserted in the order given), made with `pragmas` first. */
function reportsFile(rows: Row[], options: { pragmas?: string[]; table?: string; after?: string } = {}): string {
  const path = join(dir, `reports-${files++}.sqlite`);
  const db = new Database(path);
  for (const pragma of options.pragmas ?? []) db.pragma(pragma);
  db.exec(options.table ?? TABLE);
  const names = ["id", ...columns];
  const insert = db.prepare(`INSERT INTO reports (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`);
  db.transaction(() => rows.forEach((row) => insert.run(...names.map((c) => row[c] ?? null))))();
  if (options.after) db.exec(options.after);
  db.close();
  return path;
}

/** The digests of every range of `path`, from its pages (or through SQLite, with `pages: false`), split as `mode` asks. */
function digestsOf(path: string, mode: "none" | "all" = "all", pages = true) {
  const db = new Database(path, { readonly: true });
  try {
    const plan = pages ? planReportPages(db) : null;
    if (pages) expect(plan, "a plan for the table's pages").not.toBeNull();
    return digestReportRanges(db, columns, 0n, 2n ** 53n, { mode }, plan);
  } finally {
    db.close();
  }
}

const comparable = (d: ReturnType<typeof digestsOf>) => ({ ...d, digests: d.digests.toString("hex"), rows: Buffer.from(d.rows).toString("hex") });

/** Reports over a few ranges (ids up to 1 000), some with texts long enough to overflow a 512-byte page. */
const rowsArb = fc
  .uniqueArray(
    fc.record({
      id: fc.integer({ min: 1, max: 1000 }),
      username: fc.option(fc.string({ unit: "grapheme", maxLength: 12 }), { nil: null }),
      category: fc.constantFrom("crypto", "forex", null),
      company_id: fc.option(fc.integer({ min: 1, max: 5 }).map(BigInt), { nil: null }),
      reporter: fc.oneof(fc.string({ maxLength: 8 }), fc.string({ minLength: 600, maxLength: 3000 })),
      confidence: fc.integer({ min: 0, max: 100 }).map(BigInt),
      created_at: fc.constant("2026-01-02T03:04:05Z"),
    }),
    { minLength: 1, maxLength: 60, selector: (r) => r.id },
  )
  .map((rows) => rows.filter((r) => !r.username?.includes("\0")));

describe("the report ranges' digests from the table's pages", () => {
  it("are the same for the same rows however their pages are laid out, split rows included", () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const sorted = [...rows].sort((a, b) => a.id - b.id);
        const plain = comparable(digestsOf(reportsFile(sorted)));
        // Other page sizes (overflow pages at 512 bytes), another order, and free pages left by deleted rows.
        const small = reportsFile([...rows].reverse(), { pragmas: ["page_size = 512"] });
        const large = reportsFile(rows, { pragmas: ["page_size = 65536"] });
        const holes = reportsFile([...sorted, ...sorted.map((r) => ({ ...r, id: r.id + 5000 }))], { after: "DELETE FROM reports WHERE id > 5000" });
        for (const other of [small, large, holes]) expect(comparable(digestsOf(other))).toEqual(plain);
        // The same ranges and rows per range as SQLite's own reading of them.
        const text = digestsOf(small, "all", false);
        expect([...text.ranges]).toEqual([...plain.ranges]);
        expect([...text.counts]).toEqual([...plain.counts]);
      }),
      { numRuns: 25 },
    );
  });

  it("key each report's username as the kept spellings do, whatever it holds, and give its id's place in its range", () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const sorted = [...rows].sort((a, b) => a.id - b.id);
        const { rows: split, odd } = digestsOf(reportsFile(sorted, { pragmas: ["page_size = 512"] }));
        expect(odd).toBe(false);
        const view = new DataView(split.buffer, split.byteOffset, split.byteLength);
        expect(split.length).toBe(sorted.length * ROW_BYTES);
        sorted.forEach((r, i) => {
          expect(split[i * ROW_BYTES]).toBe(r.id % 128);
          expect(view.getUint32(i * ROW_BYTES + 9)).toBe(r.username === null ? NULL_KEY : usernameKey(r.username));
        });
      }),
      { numRuns: 25, examples: [[[{ id: 5, username: "ünï 😀 " + "x".repeat(3000), category: null, company_id: null, reporter: "r", confidence: 1n, created_at: "2026-01-02T03:04:05Z" }]]] },
    );
  });

  it("change when any one column changes, in value or only in type, and a split row's hashes with it", () => {
    const base: Row = { id: 129, username: "alice", category: "crypto", company_id: 7n, person_id: 3n, reporter: "r-1", confidence: 50n, created_at: "2026-01-02T03:04:05Z" };
    const others: Record<string, unknown[]> = {
      username: ["alicf", null, "al\0ice"],
      category: ["forex", null, Buffer.from("crypto")],
      company_id: [8n, "7", 7, 7.5, null],
      person_id: [4n, "3", null],
      // The last byte of a text long enough to live on an overflow page.
      reporter: ["r-2", "r-1 ", null, "x".repeat(5000), "x".repeat(4999) + "y"],
      confidence: [51n, "50", 50, 50.5, 50.50000000000001, null],
      created_at: ["2026-01-02T03:04:06Z", 1767323045n, null],
    };
    expect(Object.keys(others).sort()).toEqual([...columns].sort());
    const first = { ...base, id: 128, username: "bob" };
    const digests = new Set<string>();
    const rowHashes = new Set<string>();
    let odd = 0;
    for (const row of [base, ...columns.flatMap((c) => others[c]!.map((value) => ({ ...base, [c]: value })))]) {
      const digest = digestsOf(reportsFile([first, row], { pragmas: ["page_size = 1024"] }));
      digests.add(digest.digests.toString("hex"));
      expect(digests.size, JSON.stringify(row, (_, v) => (typeof v === "bigint" ? `${v}n` : v))).toBe(rowHashes.size + odd + 1);
      if (digest.odd) odd++;
      else rowHashes.add(Buffer.from(digest.rows.subarray(ROW_BYTES + 1, ROW_BYTES + 9)).toString("hex"));
    }
    // Only the username with a NUL in it is not split; every other row's two hashes differ too.
    expect(odd).toBe(1);
    expect(digests.size).toBe(rowHashes.size + 1);
  });

  it("change with the table's declaration, which says what the same bytes hold", () => {
    // 50 in a REAL column is stored as the integer 50 and read back as 50.0: the same record bytes as 50 in an untyped one.
    const typed = `CREATE TABLE reports (id INTEGER PRIMARY KEY, ${columns.map((c) => (c === "confidence" ? "confidence REAL" : c)).join(", ")})`;
    const row = { id: 1, username: "alice", confidence: 50n };
    const files = [reportsFile([row]), reportsFile([row], { table: typed })];
    const values = files.map((path) => {
      const db = new Database(path, { readonly: true });
      try {
        return db.prepare("SELECT typeof(confidence) FROM reports").pluck().get();
      } finally {
        db.close();
      }
    });
    expect(values).toEqual(["integer", "real"]);
    const [plain, real] = files.map((path) => digestsOf(path));
    expect(real!.digests).not.toEqual(plain!.digests);
  });

  it("mark a username that is not a text or NULL, or holds a NUL, or is not in the record, as odd", () => {
    for (const username of [12345n, 1.5, Buffer.from("ab"), "nul\0after"]) {
      expect(digestsOf(reportsFile([{ id: 1, username: "alice" }, { id: 2, username }])).odd, String(username)).toBe(true);
    }
    // A column added since the rows were written is not in their records: its value is the declaration's default.
    const table = `CREATE TABLE reports (id INTEGER PRIMARY KEY, ${columns.filter((c) => c !== "username").join(", ")})`;
    const path = join(dir, `added-${files++}.sqlite`);
    const db = new Database(path);
    db.exec(table);
    db.prepare("INSERT INTO reports (id, reporter) VALUES (1, 'r')").run();
    db.exec("ALTER TABLE reports ADD COLUMN username TEXT DEFAULT 'someone'");
    db.close();
    expect(digestsOf(path).odd).toBe(true);
    expect(digestsOf(reportsFile([{ id: 1, username: "alice" }])).odd).toBe(false);
  });

  it("mark a record whose header runs past its row as odd, rather than key a username from the bytes after it", () => {
    const split = (cell: number[]) => {
      const out = new Uint8Array(ROW_BYTES);
      return splitRecords(Uint8Array.from(cell), Int32Array.from([0, cell.length]), Float64Array.from([129]), 1, 128, 1, out, 0) < 0 ? null : new DataView(out.buffer).getUint32(9);
    };
    // Payload size 4, rowid 129; header of 3 bytes: NULL (the id, which is the rowid), a 1-byte text; then "a".
    expect(split([4, 0x81, 0x01, 3, 0, 15, 0x61])).toBe(usernameKey("a"));
    expect(split([4, 0x81, 0x01, 3, 0, 0])).toBe(NULL_KEY);
    expect(split([4, 0x81, 0x01, 0x7f, 0, 0])).toBeNull();
    expect(split([4, 0x81, 0x01, 3, 0, 0x8f])).toBeNull();
    // A header of 128 bytes, whose size takes a two-byte varint: a NULL, the 1-byte text, 124 NULLs.
    expect(split([0x81, 0x01, 0x81, 0x01, 0x81, 0x00, 0, 15, ...Array<number>(124).fill(0), 0x61])).toBe(usernameKey("a"));
    // A serial type whose varint runs past the header into the body.
    expect(split([4, 0x81, 0x01, 3, 0, 0x80, 0x0f, 0x61])).toBeNull();
  });

  it("come from SQLite's text where the pages cannot be read for them: ids past 2^53, a root page that is not the table's", () => {
    const path = reportsFile([{ id: 1, username: "a" }, { id: 2, username: "b" }, { id: 300, username: "c" }]);
    const db = new Database(path);
    db.prepare("UPDATE reports SET id = ? WHERE id = 2").run(2n ** 60n);
    db.close();
    const snapshot = new Database(path, { readonly: true });
    try {
      const plan = planReportPages(snapshot)!;
      const read = (to: bigint, pages: PagePlan | null) => comparable(digestReportRanges(snapshot, columns, 0n, to, { mode: "all" }, pages));
      // Bounds past 2^53, or a rowid past 2^53 met on the way (in the leaf that holds the last ids below): SQLite reads them.
      for (const to of [2n ** 61n, 2n ** 53n, 1000n]) expect(read(to, plan)).toEqual(read(to, null));
      expect(read(2n ** 61n, plan).ranges.length).toBe(3);
    } finally {
      snapshot.close();
    }
    // Without it, the pages are read, and make other digests than the text's; from an index's root page, SQLite does.
    const plain = reportsFile([{ id: 1, username: "a" }, { id: 300, username: "c" }], { after: "CREATE INDEX by_username ON reports (username)" });
    const other = new Database(plain, { readonly: true });
    try {
      const plan = planReportPages(other)!;
      const index = other.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'by_username'").pluck().get() as number;
      const read = (pages: PagePlan | null) => comparable(digestReportRanges(other, columns, 0n, 1000n, { mode: "all" }, pages));
      expect(read(plan).digests).not.toEqual(read(null).digests);
      expect(read({ ...plan, rootPage: index })).toEqual(read(null));
    } finally {
      other.close();
    }
  });

  it("are refused by the reader on a damaged page, and on a file that changes while it is read", () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({ id: i + 1, username: `user${i}`, reporter: "r".repeat(40) })) as Row[];
    const path = reportsFile(rows, { pragmas: ["page_size = 512"] });
    const db = new Database(path, { readonly: true });
    const plan = planReportPages(db)!;
    db.close();
    const walk = (file: string) => {
      const pages = new TablePages(file);
      try {
        let n = 0;
        pages.forEachRow(plan.rootPage, 0, 1000, () => n++);
        return n;
      } finally {
        pages.close();
      }
    };
    expect(walk(path)).toBe(400);
    // Every page after the root's, one at a time, its type byte or a cell pointer made nonsense.
    const bytes = readFileSync(path);
    const pageCount = bytes.length / 512;
    let refused = 0;
    for (let page = plan.rootPage; page <= pageCount; page++) {
      for (const [offset, value] of [[0, 0x0a], [8, 0xff], [9, 0xff]] as const) {
        const damaged = Buffer.from(bytes);
        damaged[(page - 1) * 512 + offset] = value;
        const file = join(dir, `damaged-${files++}.sqlite`);
        writeFileSync(file, damaged);
        try {
          walk(file);
        } catch (error) {
          expect(error).toBeInstanceOf(PagesUnreadable);
          refused++;
        }
        rmSync(file);
      }
    }
    expect(refused).toBeGreaterThan(pageCount);
    // Two rows of a leaf swapped: each cell is whole, their order is not.
    const leaf = Array.from({ length: pageCount }, (_, i) => i).find((i) => bytes[i * 512] === 0x0d && bytes.readUInt16BE(i * 512 + 3) >= 2)!;
    const swapped = Buffer.from(bytes);
    bytes.copy(swapped, leaf * 512 + 8, leaf * 512 + 10, leaf * 512 + 12);
    bytes.copy(swapped, leaf * 512 + 10, leaf * 512 + 8, leaf * 512 + 10);
    const file = join(dir, `swapped-${files++}.sqlite`);
    writeFileSync(file, swapped);
    expect(() => walk(file)).toThrow(PagesUnreadable);
    // A write to the file while its pages are read (SQLite's change counter moves).
    const copy = join(dir, `changing-${files++}.sqlite`);
    copyFileSync(path, copy);
    const pages = new TablePages(copy);
    try {
      let wrote = false;
      expect(() =>
        pages.forEachRow(plan.rootPage, 0, 1000, () => {
          if (wrote) return;
          wrote = true;
          const writer = new Database(copy);
          writer.prepare("INSERT INTO reports (id, reporter) VALUES (5000, 'late')").run();
          writer.close();
        }),
      ).toThrow(/changed while it was read/);
    } finally {
      pages.close();
    }
  });
});

describe("which snapshots' reports are read from their pages", () => {
  const planOf = (path: string) => {
    const db = new Database(path, { readonly: true });
    try {
      return planReportPages(db);
    } finally {
      db.close();
    }
  };
  const names = columns.join(", ");

  it("a table whose id is its rowid, every column stored", () => {
    expect(planOf(reportsFile([{ id: 1, username: "a" }]))).toMatchObject({ usernameColumn: 1 });
    // The username's place in the record follows the declaration, not the contract.
    const moved = `CREATE TABLE reports (reporter, id INTEGER PRIMARY KEY, ${columns.filter((c) => c !== "reporter").join(", ")})`;
    expect(planOf(reportsFile([{ id: 1, username: "a" }], { table: moved }))).toMatchObject({ usernameColumn: 2 });
    // Names compare without regard to case, as SQLite compares them.
    const shouted = `CREATE TABLE Reports (ID INTEGER PRIMARY KEY, ${columns.map((c) => c.toUpperCase()).join(", ")})`;
    expect(planOf(reportsFile([{ id: 1, username: "a" }], { table: shouted }))).toMatchObject({ usernameColumn: 1 });
  });

  it("not a table WITHOUT ROWID, an id that is not the rowid, a view, or a table with a generated column", () => {
    const tables = [
      `CREATE TABLE reports (id INTEGER PRIMARY KEY, ${names}) WITHOUT ROWID`,
      `CREATE TABLE reports (id INT PRIMARY KEY, ${names})`,
      // SQLite's quirk: this one is not the rowid (PRIMARY KEY (id DESC) as a table constraint would be).
      `CREATE TABLE reports (id INTEGER PRIMARY KEY DESC, ${names})`,
      `CREATE TABLE reports (id INTEGER PRIMARY KEY, ${names}, shout TEXT GENERATED ALWAYS AS (upper(username)) VIRTUAL)`,
    ];
    for (const table of tables) expect(planOf(reportsFile([{ id: 1, username: "a" }], { table })), table).toBeNull();
    const view = reportsFile([{ id: 1, username: "a" }], { after: `ALTER TABLE reports RENAME TO r; CREATE VIEW reports AS SELECT * FROM r` });
    expect(planOf(view)).toBeNull();
  });

  it("not while a WAL log holds pages the file does not have yet", () => {
    const path = reportsFile([{ id: 1, username: "a" }], { pragmas: ["journal_mode = WAL"] });
    const writer = new Database(path);
    try {
      writer.pragma("wal_autocheckpoint = 0");
      writer.prepare("SELECT count(*) FROM reports").get();
      expect(planOf(path)).not.toBeNull();
      writer.prepare("INSERT INTO reports (id, reporter) VALUES (2, 'r')").run();
      expect(planOf(path)).toBeNull();
      writer.pragma("wal_checkpoint(TRUNCATE)");
      expect(planOf(path)).not.toBeNull();
    } finally {
      writer.close();
    }
  });
});
