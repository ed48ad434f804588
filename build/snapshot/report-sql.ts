/**
 * How a report's time and category travel from SQLite: the expressions every report query uses,
 * and the reading of their results. One definition, so the username pass, the company aggregates
 * and `readInstant` date a report identically.
 */
import { CATEGORIES } from "../../core/categories.ts";
import type { Snapshot } from "./open.ts";

/**
 * A report's time as Unix seconds, or NULL when it is not an ISO 8601 date-time. SQLite's own
 * parser does the work (it reads `Z` and `±HH:MM` offsets and returns UTC), but it also accepts
 * 'now' and Julian day numbers, which would make the build read the clock or invent dates, and
 * it rolls 02-30 over into March; the GLOB and the date round-trip refuse those. The parser
 * itself refuses months 00 and 13+ and days 00 and 32+, so only days 29–31 can roll over: the
 * round-trip runs for those alone (a fifth less time per report).
 */
export const instantSql = (column: string) =>
  `(CASE WHEN ${column} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' AND (substr(${column}, 9, 2) < '29' OR date(substr(${column}, 1, 10)) = substr(${column}, 1, 10)) THEN unixepoch(${column}) END)`;

/**
 * Categories travel from SQLite as their position in this list (instr), which is one cheap
 * string search per report instead of a comparison per category; 0 means "not a category".
 */
const CATEGORY_LIST = `|${CATEGORIES.join("|")}|`;
export const categoryPositionSql = (column: string) => `instr('${CATEGORY_LIST}', '|' || ${column} || '|')`;
/** Category index by position in CATEGORY_LIST; -1 for any other position (0 included). */
const CATEGORY_AT_POSITION = new Int8Array(CATEGORY_LIST.length + 1).fill(-1);
CATEGORIES.forEach((c, i) => (CATEGORY_AT_POSITION[CATEGORY_LIST.indexOf(`|${c}|`) + 1] = i));
const COMMA = 44;
const ZERO = 48;

/**
 * Adds a comma-separated list of category positions to `counts`; returns how many were unknown.
 * Read digit by digit (it runs once per username and company) rather than split into strings.
 */
export function tallyCategories(positions: string | null, counts: Uint32Array): number {
  if (!positions) return 0;
  let unknown = 0;
  let position = 0;
  for (let i = 0; i <= positions.length; i++) {
    const code = i < positions.length ? positions.charCodeAt(i) : COMMA;
    if (code !== COMMA) {
      position = position * 10 + code - ZERO;
      continue;
    }
    const index = position < CATEGORY_AT_POSITION.length ? CATEGORY_AT_POSITION[position]! : -1;
    if (index < 0) unknown++;
    else counts[index]!++;
    position = 0;
  }
  return unknown;
}

/** An ISO 8601 text as Unix seconds by the rules of `instantSql`, or null when it is not one. */
export function readInstant(db: Snapshot, text: string): number | null {
  return db.prepare(`SELECT ${instantSql("x")} FROM (SELECT ? AS x)`).pluck().get(text) as number | null;
}

export function readNewestReport(db: Snapshot): number | null {
  return db.prepare(`SELECT max(${instantSql("created_at")}) FROM reports`).pluck().get() as number | null;
}

export function countReports(db: Snapshot): number {
  return db.prepare("SELECT count(*) FROM reports").pluck().get() as number;
}
