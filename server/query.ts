/**
 * Strict query parameters: DESIGN says bad values (`limit=0`, `limit=abc`, `page=-1`, an unknown
 * category) are 422, never silently clamped. A parameter given twice is also an error: which one
 * we would use is not obvious to the caller.
 */
import type { FieldError } from "./respond.ts";

export class QueryReader {
  readonly errors: FieldError[] = [];

  constructor(private readonly params: URLSearchParams) {}

  string(name: string): string | undefined {
    const values = this.params.getAll(name);
    if (values.length > 1) {
      this.errors.push({ name, in: "query", detail: "must be given at most once" });
      return undefined;
    }
    return values[0];
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    if (!/^[0-9]{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.errors.push({ name, in: "query", detail: `must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}` });
      return fallback;
    }
    return Number(raw);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.errors.push({ name, in: "query", detail: `must be one of ${allowed.join(", ")}, got ${JSON.stringify(raw)}` });
      return undefined;
    }
    return raw as T;
  }
}
