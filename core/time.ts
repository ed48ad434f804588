/**
 * Time formatting. Everything we emit is UTC; the build reads the snapshot's timestamps with
 * SQLite's parser (see build/snapshot.ts, instantSql), so no code here depends on the machine's
 * time zone.
 */
export const DAY_MS = 86_400_000;

/** `2025-01-02T03:04:05Z`: second precision, always UTC. */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19) + "Z";
}

/** `2025-01-02`, the UTC calendar day. */
export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The UTC calendar day number (days since 1970-01-01) that contains `ms`. */
export function getDayNumber(ms: number): number {
  return Math.floor(ms / DAY_MS);
}
