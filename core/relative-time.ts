/**
 * "How long ago" as short English text, for live search's company `last` (the reference:
 * "relative-time text"). Measured in whole UTC calendar days between the instant and `now`
 * (the snapshot's as_of, never the clock), so one build always says the same thing, and a report
 * from late yesterday evening is "yesterday", not "today".
 *
 *   same day → "today"; 1 day → "yesterday"; 2–13 days → "N days ago";
 *   14–59 days → "N weeks ago"; 60 days to a year → "N months ago" (30-day months);
 *   beyond → "N years ago" (365-day years); no instant → "no complaints yet".
 *
 * An instant after `now` (a report dated past as_of) reads "today": it is the newest there is.
 */
import { getDayNumber } from "./time.ts";

const NO_COMPLAINTS_TEXT = "no complaints yet";

export function formatRelativeTime(ms: number | null, nowMs: number): string {
  if (ms === null || !Number.isFinite(ms)) return NO_COMPLAINTS_TEXT;
  const days = getDayNumber(nowMs) - getDayNumber(ms);
  if (days <= 0) return "today";
  if (days === 1) return "yesterday";
  if (days < 14) return `${days} days ago`;
  if (days < 60) return `${Math.floor(days / 7)} weeks ago`;
  if (days < 365) return `${Math.floor(days / 30)} months ago`;
  const years = Math.floor(days / 365);
  return years === 1 ? "1 year ago" : `${years} years ago`;
}
