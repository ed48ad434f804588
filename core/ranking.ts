/**
 * The orders of DESIGN ("Orders"), shared by the build (which ranks) and the server (which
 * filters already-ranked lists and must not reorder them differently).
 */
import { compareCodePoints, compareNames } from "./order.ts";

export interface RankedCompany {
  id: number;
  name: string;
  reportsCount: number;
}

/** Companies: reports_count desc, then name (lower-cased, code point), then id. */
export function compareCompanies(a: RankedCompany, b: RankedCompany): number {
  return b.reportsCount - a.reportsCount || compareNames(a.name, b.name) || a.id - b.id;
}

export interface RankedSpammer {
  username: string;
  reportsCount: number;
  lastSeenMs: number;
}

/** Spammers: reports_count desc, then last_seen desc, then username. */
export function compareSpammers(a: RankedSpammer, b: RankedSpammer): number {
  return b.reportsCount - a.reportsCount || b.lastSeenMs - a.lastSeenMs || compareCodePoints(a.username, b.username);
}

/** The best `capacity` items seen so far under `compare`, kept sorted; O(log k) per rejected offer. */
export class TopList<T> {
  readonly items: T[] = [];
  offered = 0;

  constructor(
    private readonly capacity: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  offer(item: T): void {
    this.offered++;
    const items = this.items;
    if (items.length === this.capacity && this.compare(item, items[items.length - 1]!) >= 0) return;
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(items[mid]!, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, item);
    if (items.length > this.capacity) items.pop();
  }
}
