/**
 * ISO 8601 week dates (the weekly dump is named by the ISO week of `as_of`). Weeks start on
 * Monday, and week 1 is the week with the year's first Thursday, so the first days of January
 * can belong to the previous year's week 52 or 53 and the last days of December to week 1.
 * Pure day arithmetic in UTC: nothing here depends on the machine's time zone.
 */
import { getDayNumber } from "./time.ts";

export interface IsoWeek {
  /** The ISO week-numbering year, which differs from the calendar year around New Year. */
  year: number;
  /** 1..53 */
  week: number;
}

/** The ISO week that contains the UTC day of `ms`. */
export function getIsoWeek(ms: number): IsoWeek {
  const day = getDayNumber(ms);
  // 1970-01-01 was a Thursday: (day + 3) mod 7 is 0 on Mondays.
  const weekday = (((day + 3) % 7) + 7) % 7;
  const thursday = day - weekday + 3;
  const year = new Date(thursday * 86_400_000).getUTCFullYear();
  const january1 = getDayNumber(Date.UTC(year, 0, 1));
  return { year, week: Math.floor((thursday - january1) / 7) + 1 };
}

/**
 * The UTC day number (days since 1970-01-01) of the Monday that starts the ISO week of `ms`:
 * ISO weeks are the 7-day runs from a Monday, and day 0 was a Thursday.
 */
export function getIsoWeekMonday(ms: number): number {
  return Math.floor((getDayNumber(ms) + 3) / 7) * 7 - 3;
}

/** `2026-W11`: the ISO 8601 week notation (year, `W`, two-digit week). */
export function formatIsoWeek({ year, week }: IsoWeek): string {
  return `${year}-W${String(week).padStart(2, "0")}`;
}
