/**
 * The spammer ranking of DESIGN "Orders" (reports desc, then last_seen desc, then username) over
 * every row of the SpammerTable, as row indexes in a typed array: the spammer list pages need the
 * whole order, not only its top, and a million usernames must not become a million objects.
 *
 * The table is in username order (code point order: the report pass refuses anything else), so a stable sort by (reports desc, last_seen desc) of the row
 * indexes is the whole order. A comparator sort of a million indexes took 2.0–2.6 s here; two
 * stable counting sorts (least significant key first) over dense ranks of each key take a small
 * fraction of that, and hold about 30 bytes a row until they return.
 */
import { CATEGORIES, type Category } from "../../core/categories.ts";
import { LIST_TOP } from "../../core/routes/table.ts";
import type { SpammerTable } from "./spammer-table.ts";
import type { SpammerLists } from "./types.ts";

/** Every row, best first. */
export function rankSpammerRows(table: SpammerTable): Uint32Array {
  const n = table.size;
  const lastSeen = new Float64Array(n);
  const reports = new Float64Array(n);
  for (let row = 0; row < n; row++) {
    lastSeen[row] = table.lastSeenMs(row);
    reports[row] = table.reportsCount(row);
  }
  let order: Uint32Array = new Uint32Array(n);
  for (let row = 0; row < n; row++) order[row] = row;
  order = sortByRank(order, rankDescending(lastSeen));
  return sortByRank(order, rankDescending(reports));
}

/** The lists the API shows from the ranking: each set's size and its best LIST_TOP rows, overall and per category. */
export function selectSpammerLists(table: SpammerTable, ranking: Uint32Array): SpammerLists {
  const totals = new Uint32Array(CATEGORIES.length);
  const tops: number[][] = CATEGORIES.map(() => []);
  for (let i = 0; i < ranking.length; i++) {
    const row = ranking[i]!;
    for (const code of table.categoryIndexes(row)) {
      if (tops[code]!.length < LIST_TOP) tops[code]!.push(row);
      totals[code]!++;
    }
  }
  const materialise = (rows: ArrayLike<number>) => Array.from(rows, (row) => table.at(row));
  return {
    total: table.size,
    ranking,
    top: materialise(ranking.subarray(0, LIST_TOP)),
    byCategory: new Map(CATEGORIES.map((category: Category, code) => [category, { total: totals[code]!, top: materialise(tops[code]!) }])),
  };
}

/** Each value's place among the distinct values, largest first (0 for the largest). */
function rankDescending(values: Float64Array): { ranks: Uint32Array; count: number } {
  const distinct = values.slice().sort();
  let count = 0;
  for (let i = 0; i < distinct.length; i++) if (count === 0 || distinct[i] !== distinct[count - 1]) distinct[count++] = distinct[i]!;
  const ranks = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (distinct[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    ranks[i] = count - 1 - lo;
  }
  return { ranks, count };
}

/** `order` stably sorted by each row's rank (a counting sort: rows of one rank keep their order). */
function sortByRank(order: Uint32Array, { ranks, count }: { ranks: Uint32Array; count: number }): Uint32Array {
  const starts = new Uint32Array(count + 1);
  for (let i = 0; i < order.length; i++) starts[ranks[order[i]!]! + 1]!++;
  for (let rank = 1; rank <= count; rank++) starts[rank]! += starts[rank - 1]!;
  const sorted = new Uint32Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const row = order[i]!;
    sorted[starts[ranks[row]!]!++] = row;
  }
  return sorted;
}
