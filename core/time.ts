/**
 * Time formatting. Everything we emit is UTC; the build reads the snapshot's timestamps with
 * SQLite's parser (see build/snapshot.ts, instantSql), so no code here depends on the machine's
 * time zone.
 */
export const DAY_MS = 86_400_000;

/** 0000-03-01 and 10000-01-01: the range the day arithmetic below covers. */
const MIN_FAST_MS = -62_162_035_200_000;
const MAX_FAST_MS = 253_402_300_800_000;

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * `2025-01-02`, the UTC calendar day. Arithmetic rather than `Date#toISOString`: the build
 * formats two instants per reported username, a million times over. Years 0000–9999 only, like
 * the snapshot's timestamps; anything else falls back to Date, which throws on invalid input.
 */
export function formatDate(ms: number): string {
  if (!(ms >= MIN_FAST_MS && ms < MAX_FAST_MS)) return new Date(ms).toISOString().slice(0, 10);
  // Howard Hinnant's civil_from_days, with days counted from 0000-03-01.
  const z = Math.floor(ms / DAY_MS) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, "0")}-${pad2(month)}-${pad2(day)}`;
}

/** `2025-01-02T03:04:05Z`: second precision (truncated), always UTC. */
export function formatInstant(ms: number): string {
  if (!(ms >= MIN_FAST_MS && ms < MAX_FAST_MS)) return new Date(ms).toISOString().slice(0, 19) + "Z";
  const seconds = Math.floor(ms / 1000) - Math.floor(ms / DAY_MS) * 86_400;
  return `${formatDate(ms)}T${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}Z`;
}


/** The UTC calendar day number (days since 1970-01-01) that contains `ms`. */
export function getDayNumber(ms: number): number {
  return Math.floor(ms / DAY_MS);
}
