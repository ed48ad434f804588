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
