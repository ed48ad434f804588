/**
 * The spammer ranking (build/model/spammer-ranking.ts) puts every row in DESIGN's order — the
 * order core's comparator gives — however many rows tie on reports or on last_seen, and the
 * lists taken from it have each set's size and its best 200 rows, per category too.
 */
import { describe, expect, it } from "vitest";
import { CATEGORIES } from "../../core/categories.ts";
import { compareSpammers } from "../../core/ranking.ts";
import { rankSpammerRows, selectSpammerLists } from "../../build/model/spammer-ranking.ts";
import { SpammerTableBuilder, type SpammerRow } from "../../build/model/spammer-table.ts";

/** Rows in username order with few distinct counts and times, so that ties of each kind abound. */
function makeRows(n: number): SpammerRow[] {
  return Array.from({ length: n }, (_, i) => ({
    username: `u${String(i).padStart(5, "0")}`,
    reportsCount: 1 + ((i * 7919) % 13),
    uniqueReports: 1,
    confidenceMax: 50,
    firstSeenMs: 1_700_000_000_000,
    lastSeenMs: 1_700_000_000_000 + ((i * 104729) % 17) * 60_000,
    last7Days: 0,
    previous7Days: 0,
    categories: i % 5 === 0 ? [] : [(i * 31) % CATEGORIES.length, (i * 17 + 3) % CATEGORIES.length].filter((c, k, all) => all.indexOf(c) === k),
    companies: [],
  }));
}

describe("the spammer ranking", () => {
  const rows = makeRows(5000);
  const builder = new SpammerTableBuilder([]);
  for (const row of rows) builder.add(row);
  const table = builder.finish();
  const expected = rows.map((row, index) => ({ ...row, index })).sort(compareSpammers);

  it("orders every row by reports desc, then last_seen desc, then username", () => {
    expect([...rankSpammerRows(table)]).toEqual(expected.map((r) => r.index));
  });

  it("takes each set's size and its best 200, overall and per category", () => {
    const lists = selectSpammerLists(table, rankSpammerRows(table));
    expect(lists.total).toBe(5000);
    expect(lists.top.map((s) => s.username)).toEqual(expected.slice(0, 200).map((r) => r.username));
    for (const [code, category] of CATEGORIES.entries()) {
      const members = expected.filter((r) => r.categories.includes(code));
      expect(lists.byCategory.get(category)!.total, category).toBe(members.length);
      expect(lists.byCategory.get(category)!.top.map((s) => s.username), category).toEqual(members.slice(0, 200).map((r) => r.username));
    }
  });

  it("ranks an empty table as nothing", () => {
    const empty = new SpammerTableBuilder([]).finish();
    expect(rankSpammerRows(empty).length).toBe(0);
    expect(selectSpammerLists(empty, rankSpammerRows(empty)).byCategory.get("crypto")).toEqual({ total: 0, top: [] });
  });
});
