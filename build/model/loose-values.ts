/**
 * SQLite stores whatever it is given, whatever a column's declared type: the model reads the
 * snapshot's flags and counters through these, so every table reads them alike.
 */

/** A flag is on when it reads as a non-zero number (1, "1", 2.5); off for 0, null, text. */
export function isOn(flag: unknown): boolean {
  const n = Number(flag);
  return Number.isFinite(n) && n !== 0;
}

/** A counter: a whole number, 0 or more, or null when the snapshot holds anything else. */
export function readCounter(value: unknown): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : null;
}
