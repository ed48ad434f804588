/**
 * Trend arithmetic from DESIGN ("Days"): day-0 is the UTC day containing `as_of`; the current
 * week is day-6..day-0 and the previous week day-13..day-7.
 */

/**
 * Percent change week over week with one decimal, rounded half away from zero. Computed in
 * integers so that 0.05-style halves are not lost to binary floating point.
 * prev = 0 gives 100 when cur > 0, else 0.
 */
export function getWeekTrend(current: number, previous: number): number {
  if (previous === 0) return current > 0 ? 100 : 0;
  const tenths = roundHalfAwayFromZero((current - previous) * 1000, previous);
  return tenths / 10;
}

/** The widget's whole-percent trend: week_trend rounded half away from zero. */
function getWholeTrend(weekTrend: number): number {
  const tenths = Math.round(Math.abs(weekTrend) * 10);
  const whole = Math.floor((tenths + 5) / 10);
  return weekTrend < 0 ? -whole : whole;
}

/** `+12%`, `-5%`, `+0%`. */
export function formatTrend(weekTrend: number): string {
  const whole = getWholeTrend(weekTrend);
  return `${whole < 0 ? "-" : "+"}${Math.abs(whole)}%`;
}

export type TrendDirection = "up" | "down" | "flat";

/** The direction of the trend as displayed, so `+0%` is never called `up`. */
export function getTrendDirection(weekTrend: number): TrendDirection {
  const whole = getWholeTrend(weekTrend);
  return whole > 0 ? "up" : whole < 0 ? "down" : "flat";
}

/** round(n / d) for integers, halves away from zero; d > 0. */
function roundHalfAwayFromZero(n: number, d: number): number {
  const q = Math.floor((2 * Math.abs(n) + d) / (2 * d));
  return n < 0 ? -q : q;
}
