/**
 * Readers for flag values: each turns a string into what an option needs, or throws a UsageError
 * naming where the value came from (`--port` or `PORT`), so that a bad value is one line and exit
 * status 2 before the command has done anything.
 */
import { checkBaseUrl } from "../core/urls.ts";
import { UsageError } from "./flags.ts";

/** A whole number within bounds. */
export function readInteger(label: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (!value || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${label} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value ?? "")}`);
  }
  return n;
}

/** An ISO 8601 instant, kept as written: the sample stores it as the snapshot's `as_of`. */
export function readInstant(label: string, value: string): string {
  if (Number.isNaN(Date.parse(value))) throw new UsageError(`${label} must be an ISO 8601 instant, got ${JSON.stringify(value)}`);
  return value;
}

/** An absolute http(s) base for every emitted URL, by the rule the build itself applies (core/urls.ts). */
export function readBaseUrl(label: string, value: string): string {
  const problem = checkBaseUrl(value);
  if (problem) throw new UsageError(`${label} ${problem}`);
  return value;
}

/**
 * A Redis URL. The value itself is never repeated in the refusal: it may hold a password.
 * The server connects later, and starts even when Redis does not answer (server/redis-store.ts).
 */
export function readRedisUrl(label: string, value: string): string {
  const url = URL.canParse(value) ? new URL(value) : null;
  const redis = url?.protocol === "redis:" || url?.protocol === "rediss:";
  if (redis && url.hostname) return value;
  const got = !url ? "something that is not a URL" : redis ? "a URL with no host" : `a ${url.protocol} URL`;
  throw new UsageError(`${label} must be redis://[USER:PASSWORD@]HOST[:PORT][/DB] (rediss:// for TLS), got ${got}`);
}

/** One of a fixed list of words. */
export function readChoice<T extends string>(label: string, value: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(value)) throw new UsageError(`${label} must be one of ${choices.join(", ")}, got ${JSON.stringify(value)}`);
  return value as T;
}

/** A value the command cannot do without (a flag with no sensible default). */
export function requireValue(label: string, value: string | undefined, usage: string): string {
  if (value === undefined || value === "") throw new UsageError(`${label} is required: ${usage}`);
  return value;
}
