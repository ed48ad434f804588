/**
 * The report pass a build keeps for the next one (build/model/group-store.ts,
 * build/snapshot/row-keys.cjs): rows come back as they went in, whatever their values; a file
 * altered by a byte is refused; a report's row keys, made from the digests' text of a range, are
 * the ones the kept spellings give, for every kind of spelling SQLite can quote; the digests
 * and split rows are the same whether made on two threads first or on one beside the pass.
 */
import { closeSync, fstatSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { GroupStoreWriter, openReportRows, readGroupStore, writeReportRows, type StoredGroupRow } from "../../build/model/group-store.ts";
import { SNAPSHOT_CONTRACT } from "../../build/snapshot/contract.ts";
import { readSnapshotDigest, startSnapshotDigest } from "../../build/snapshot/digest.ts";
import { openSnapshot } from "../../build/snapshot/open.ts";
import { digestReportRanges, jsonRangeSql, RANGE_DIGEST_BYTES } from "../../build/snapshot/range-digest.cjs";
import { NULL_KEY, ROW_BYTES, splitRows, usernameKey } from "../../build/snapshot/row-keys.cjs";
import type { RowRequest } from "../../build/snapshot/thread-protocol.ts";
import type { GroupRow } from "../../build/snapshot/username-groups.ts";
import { generateSample } from "../../data/sample/generate.ts";
import { makeTempDir } from "../helpers/fixture.ts";

const dir = makeTempDir("kept-model");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = fc.option(fc.string({ unit: "grapheme", maxLength: 40 }), { nil: null });
const count = fc.nat({ max: 2 ** 40 });
const number = fc.oneof(fc.constant(NaN), fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.double({ noNaN: true }));
const row = fc.record<GroupRow>({
  username: fc.string({ unit: "grapheme", maxLength: 70 }),
  categories: text,
  companyIds: text,
  recent: text,
  count,
  undated: count,
  reporters: count,
  currentWeek: count,
  previousWeek: count,
  confidenceMax: number,
  first: number,
  last: number,
});

/** A row as it was kept (`unchanged` is the next build's mark, not kept; the rest says where its bytes are). */
const copy = ({ unchanged: _, file: _f, bytesFrom: _b, bytesTo: _e, ...r }: StoredGroupRow): GroupRow => r;

describe("the kept username rows", () => {
  it("come back as they went in, with the windows, the spellings and the companies shown", () => {
    let n = 0;
    const companiesArb = fc.uniqueArray(fc.tuple(fc.nat(), fc.tuple(fc.string(), fc.string())), { maxLength: 4, selector: ([id]) => id });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), fc.uniqueArray(fc.tuple(fc.string(), fc.array(fc.string(), { maxLength: 3 })), { maxLength: 4, selector: ([normal]) => normal }), companiesArb, (rows, spellings, companies) => {
        const path = join(dir, `groups-${n++}`);
        const writer = new GroupStoreWriter(path);
        for (const r of rows) writer.add(r);
        const windows = { previousStart: 100, currentStart: 200, currentEnd: 300 };
        writer.finish(windows, new Map(spellings.map(([normal, raws]) => [normal, [normal, ...raws]])), new Map(companies));
        const stored = readGroupStore(path, writer.sha256!)!;
        // One row object moves along the file: copy each before the next.
        const read: GroupRow[] = [];
        for (const r of stored.iterate()) read.push(copy(r));
        expect(read).toEqual(rows.map((r) => ({ ...r })));
        // The pass that picks usernames without reading whole rows sees each row's key and last as the full read does.
        const seen: [number, number][] = [];
        const picked = stored.pickUsernames((key, last) => {
          seen.push([key, last]);
          return seen.length % 2 === 1;
        });
        expect(seen).toEqual(rows.map((r) => [usernameKey(r.username), r.last]));
        expect(picked).toEqual(rows.filter((_, i) => i % 2 === 0).map((r) => r.username));
        // Kept again, a row read back is copied as its bytes, one changed since is written anew:
        // the file is the one their values make.
        const again = new GroupStoreWriter(`${path}-again`);
        const fresh = new GroupStoreWriter(`${path}-fresh`);
        let i = 0;
        for (const r of stored.iterate()) {
          if (i++ % 3 === 1) {
            r.bytesFrom = -1;
            r.count++;
          }
          again.add(r);
          fresh.add(copy(r));
        }
        for (const kept of [again, fresh]) kept.finish(windows, new Map(), new Map());
        expect(readFileSync(`${path}-again`).equals(readFileSync(`${path}-fresh`))).toBe(true);
        expect(stored.windows).toEqual(windows);
        expect(stored.rows).toBe(rows.length);
        expect([...stored.spellings]).toEqual(spellings.map(([normal, raws]) => [normal, raws.filter((raw) => raw !== normal)]));
        expect([...stored.companies]).toEqual(companies);
      }),
      { numRuns: 50 },
    );
  });

  it("are refused when a byte differs from what the state recorded, or the file is gone", () => {
    const path = join(dir, "groups-damaged");
    const writer = new GroupStoreWriter(path);
    writer.add({ username: "alice", categories: "1", companyIds: null, recent: null, count: 1, undated: 0, reporters: 1, currentWeek: 0, previousWeek: 0, confidenceMax: 50, first: 1, last: 1 });
    writer.finish({ previousStart: 0, currentStart: 0, currentEnd: 0 }, new Map(), new Map());
    expect(readGroupStore(path, writer.sha256!)).not.toBeNull();
    const bytes = readFileSync(path);
    bytes[20]! ^= 1;
    writeFileSync(path, bytes);
    expect(readGroupStore(path, writer.sha256!)).toBeNull();
    expect(readGroupStore(join(dir, "no-such-file"), writer.sha256!)).toBeNull();
  });

  it("are given up on a failed write (a full disk) without closing another file's descriptor after", () => {
    // /dev/full takes the open and refuses every write with ENOSPC, as a full disk does.
    const writer = new GroupStoreWriter("/dev/full");
    writer.finish({ previousStart: 0, currentStart: 0, currentEnd: 0 }, new Map(), new Map());
    expect((writer.failed as NodeJS.ErrnoException | null)?.code).toBe("ENOSPC");
    expect(writer.sha256).toBeNull();
    // The failure closed its descriptor; the next file opened gets that number, and the build abandons the pass after.
    const other = openSync(join(dir, "opened-after"), "w");
    try {
      writer.abandon();
      writer.abandon();
      expect(() => fstatSync(other)).not.toThrow();
    } finally {
      closeSync(other);
    }
  });
});

describe("the kept report rows", () => {
  /** A table of reports with these usernames, ids 128, 131, 134…, and a reporter with a newline and quotes. */
  function reportsOf(usernames: unknown[]): Database.Database {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE reports (id INTEGER PRIMARY KEY, username, reporter)");
    const insert = db.prepare("INSERT INTO reports (id, username, reporter) VALUES (?, ?, ?)");
    usernames.forEach((u, i) => insert.run(128 + i * 3, u, `r${i}\n"x'\\`));
    return db;
  }

  /** A range's rows as the digests' text has them (range-digest.cjs), from real SQLite. */
  function rangeText(usernames: unknown[]): string {
    const db = reportsOf(usernames);
    try {
      const [text] = db.prepare(jsonRangeSql(["username", "reporter"])).raw().get(128, 256) as [Buffer];
      return text.toString("utf8");
    } finally {
      db.close();
    }
  }

  it("key each report's username as the kept spellings do, whatever it holds (quotes, newlines, @, spaces)", () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.string({ unit: "grapheme", maxLength: 20 }).filter((s) => !s.includes("\0")), { nil: null }), { minLength: 1, maxLength: 40 }), (usernames) => {
        const out = new Uint8Array(usernames.length * ROW_BYTES);
        expect(splitRows(rangeText(usernames), 128, out, 0)).toBe(out.length);
        const view = new DataView(out.buffer);
        usernames.forEach((u, i) => {
          expect(out[i * ROW_BYTES]).toBe(i * 3);
          expect(view.getUint32(i * ROW_BYTES + 9)).toBe(u === null ? NULL_KEY : usernameKey(u));
        });
      }),
      // What JSON escapes, what it leaves, and a text that is not ASCII.
      { numRuns: 100, examples: [[['a"b', "c\\d", "e\nf", "g\u0001h", "\u007f", "ünï 😀", "\u2028", "it's", null]]] },
    );
  });

  it("refuse a username that is a number or a text with a NUL (the pass then reads every report)", () => {
    for (const odd of [12345, 1.5, "nul\0after"]) {
      const out = new Uint8Array(4 * ROW_BYTES);
      expect(splitRows(rangeText(["alice", odd]), 128, out, 0)).toBe(-1);
    }
  });

  it("do not split a changed range that holds a BLOB, which json_array() cannot hold, and digest it whole", () => {
    const digest = (values: unknown[]) => {
      const db = reportsOf(values);
      try {
        return digestReportRanges(db, ["username", "reporter"], 128n, 256n, { mode: "all" });
      } finally {
        db.close();
      }
    };
    // X'00' is JSONB's null, which json_array() would take for NULL.
    const digests = [Buffer.from("ab"), Buffer.alloc(0), Buffer.from([0]), null].map((username) => digest(["alice", username]));
    expect(digests.map((d) => d.odd)).toEqual([true, true, true, false]);
    expect(new Set(digests.map((d) => d.digests.toString("hex"))).size).toBe(4);
  });

  it("tell a changed report from an unchanged one, by its text's two hashes", () => {
    const hashes = (usernames: string[]) => {
      const out = new Uint8Array(usernames.length * ROW_BYTES);
      splitRows(rangeText(usernames), 128, out, 0);
      return Array.from({ length: usernames.length }, (_, i) => Buffer.from(out.subarray(i * ROW_BYTES + 1, i * ROW_BYTES + 9)).toString("hex"));
    };
    const [a, b] = [hashes(["alice", "bob", "carol"]), hashes(["alice", "bobb", "carol"])];
    expect([a[0] === b[0], a[1] === b[1], a[2] === b[2]]).toEqual([true, false, true]);
  });

  it("are written for every range, from the split rows where a range changed and from the kept file elsewhere", () => {
    const block = (range: number, n: number) => Uint8Array.from({ length: n * ROW_BYTES }, (_, i) => (range * 31 + i) & 0xff);
    const ranges = Float64Array.from([1, 2, 3, 5]);
    const all = { ranges, counts: Uint8Array.from([2, 1, 3, 1]), rows: Buffer.concat([block(1, 2), block(2, 1), block(3, 3), block(5, 1)]) };
    const first = join(dir, "rows-1");
    const sha = writeReportRows(first, ranges, all, null)!;
    const kept = openReportRows(first, sha)!;
    expect(Buffer.from(kept.block(3))).toEqual(Buffer.from(block(3, 3)));
    // Range 2 changed, 4 is new, 5 is gone; 1 and 3 come from the kept file.
    const next = Float64Array.from([1, 2, 3, 4]);
    const changed = { ranges: Float64Array.from([2, 4]), counts: Uint8Array.from([2, 1]), rows: Buffer.concat([block(20, 2), block(4, 1)]) };
    const second = join(dir, "rows-2");
    const sha2 = writeReportRows(second, next, changed, kept)!;
    kept.close();
    const read = openReportRows(second, sha2)!;
    expect([...read.ranges]).toEqual([1, 2, 3, 4]);
    expect([1, 2, 3, 4].map((r) => Buffer.from(read.block(r)).toString("hex"))).toEqual(
      [block(1, 2), block(20, 2), block(3, 3), block(4, 1)].map((b) => Buffer.from(b).toString("hex")),
    );
    expect(read.block(5).length).toBe(0);
    read.close();
    // A range neither split nor kept: the digests and the kept file do not match, nothing is written.
    expect(writeReportRows(join(dir, "rows-3"), Float64Array.from([9]), changed, null)).toBeNull();
    expect(openReportRows(second, "0".repeat(64))).toBeNull();
  });
});

describe("the snapshot's digests", () => {
  it("are the same made on one thread in the background as on two in the foreground, split rows included, for every request", () => {
    const db = join(dir, "digests.sqlite");
    generateSample({ scale: 3000, seed: "1", out: db, asOf: "2026-11-15T18:00:00Z" });
    const snapshot = openSnapshot(db);
    try {
      const all = readSnapshotDigest(snapshot, { mode: "all" });
      // Some ranges as the current build had them, some not: the changed ones are split.
      const digests = Uint8Array.from(all.reportDigests).map((b, i) => (Math.floor(i / RANGE_DIGEST_BYTES) % 3 === 0 ? b ^ 1 : b));
      const requests: RowRequest[] = [{ mode: "none" }, { mode: "all" }, { mode: "changed", ranges: all.reportRanges, digests }];
      for (const request of requests) {
        const foreground = readSnapshotDigest(snapshot, request);
        const background = startSnapshotDigest(snapshot, request, true).take();
        expect(background).toEqual(foreground);
        expect(foreground.reportRanges.length).toBeGreaterThan(100);
        if (request.mode !== "none") expect(foreground.split!.ranges.length).toBe(request.mode === "all" ? all.reportRanges.length : Math.ceil(all.reportRanges.length / 3));
      }
    } finally {
      snapshot.close();
    }
  });
});

describe("a report range's digest", () => {
  const columns = SNAPSHOT_CONTRACT.reports!.filter((c) => c !== "id");
  // Integers as BigInt: better-sqlite3 binds a Number as a REAL (7 is stored as 7.0).
  const base: Record<string, unknown> = { username: "alice", category: "crypto", company_id: 7n, person_id: 3n, reporter: "r-1", confidence: 50n, created_at: "2026-01-02T03:04:05Z" };
  /** Each column's other values: another value, the same text as another type, and what a loose export holds. */
  const others: Record<string, unknown[]> = {
    username: ["alicf", null, 5n, "al\0ice"],
    category: ["forex", null],
    company_id: [8n, "7", 7, 7.5, null],
    person_id: [4n, "3", null],
    reporter: ["r-2", "r-1 ", null],
    confidence: [51n, "50", 50, 50.5, 50.50000000000001, null],
    created_at: ["2026-01-02T03:04:06Z", 1767323045n, null],
  };
  const digestOf = (row: Record<string, unknown>) => {
    const db = new Database(":memory:");
    try {
      db.exec(`CREATE TABLE reports (id INTEGER PRIMARY KEY, ${columns.join(", ")})`);
      const insert = db.prepare(`INSERT INTO reports (id, ${columns.join(", ")}) VALUES (?, ${columns.map(() => "?").join(", ")})`);
      insert.run(128, ...columns.map((c) => base[c]));
      insert.run(129, ...columns.map((c) => row[c]));
      return digestReportRanges(db, columns, 128n, 256n, { mode: "none" }).digests.toString("hex");
    } finally {
      db.close();
    }
  };

  it("changes when any one column of the contract changes, in value or only in type", () => {
    expect(Object.keys(others).sort()).toEqual([...columns].sort());
    const seen = new Set([digestOf(base)]);
    let count = 1;
    for (const column of columns) {
      for (const value of others[column]!) {
        seen.add(digestOf({ ...base, [column]: value }));
        expect(seen.size, `${column} = ${typeof value} ${String(value)}`).toBe(++count);
      }
    }
  });
});
