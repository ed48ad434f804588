/**
 * The columnar spammer table: what goes in comes out, row by row, as fresh objects or through the
 * one reused view the check and dump emitters read; and the columns grow past their first size.
 */
import { describe, expect, it } from "vitest";
import { CATEGORIES } from "../../core/categories.ts";
import { SpammerTableBuilder, type SpammerRow } from "../../build/model/spammer-table.ts";
import type { Company } from "../../build/model/types.ts";

const companies = [1, 2, 3].map(
  (id): Company => ({
    id,
    name: `Company ${id}`,
    slug: `company-${id}`,
    category: "crypto",
    website: null,
    aliases: [],
    reportsCount: 0,
    firstReportMs: null,
    lastReportMs: null,
    recentDays: new Int32Array(14),
    categoryCounts: new Uint32Array(CATEGORIES.length),
  }),
);

/** Rows with every column different, some with no category or company, some with several. */
function makeRow(i: number): SpammerRow {
  return {
    username: `user_${String(i).padStart(6, "0")}`,
    reportsCount: 1 + (i % 97),
    uniqueReports: 1 + (i % 13),
    confidenceMax: i % 5 === 0 ? 2 ** 40 + i : i % 101,
    firstSeenMs: 1_700_000_000_000 + i * 1000,
    lastSeenMs: 1_700_000_000_000 + i * 2000,
    last7Days: i % 7,
    previous7Days: i % 11,
    categories: i % 3 === 0 ? [] : [i % CATEGORIES.length, (i + 5) % CATEGORIES.length],
    companies: i % 4 === 0 ? [] : i % 4 === 1 ? [2] : [1, 0],
  };
}

describe("the spammer table", () => {
  const rows = Array.from({ length: 10_000 }, (_, i) => makeRow(i));
  const builder = new SpammerTableBuilder(companies);
  for (const row of rows) builder.add(row);
  const table = builder.finish();

  const expected = (row: SpammerRow) => ({
    ...row,
    categories: row.categories.map((c) => CATEGORIES[c]),
    companies: row.companies.map((c) => companies[c]),
  });

  it("holds every row it was given, past the columns' first size, in order", () => {
    expect(table.size).toBe(rows.length);
    for (const i of [0, 1, 2, 3, 4095, 4096, 4097, 9999]) {
      expect(table.at(i)).toEqual(expected(rows[i]!));
      expect(table.username(i)).toBe(rows[i]!.username);
      expect(table.reportsCount(i)).toBe(rows[i]!.reportsCount);
      expect([...table.categoryIndexes(i)]).toEqual(rows[i]!.categories);
    }
  });

  it("gives a new object per row when iterated, and the same values through its reused view", () => {
    const fresh = [...table];
    expect(new Set(fresh).size).toBe(rows.length);
    let i = 0;
    let view: unknown = null;
    for (const spammer of table.views()) {
      if (view !== null) expect(spammer).toBe(view);
      view = spammer;
      expect(spammer).toEqual(expected(rows[i]!));
      i++;
    }
    expect(i).toBe(rows.length);
  });

  it("is empty when no row was added", () => {
    const empty = new SpammerTableBuilder(companies).finish();
    expect(empty.size).toBe(0);
    expect([...empty.views()]).toEqual([]);
  });
});
