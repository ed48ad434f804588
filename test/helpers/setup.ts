/**
 * Loaded before every test file (vitest.config.ts `setupFiles`).
 *
 * Byte arrays compared with toEqual: by their bytes in one call, not element by element. vitest
 * compares a typed array as any iterable, about 2.4 µs a byte here, and the suite compares whole
 * builds file by file (a 300 KB file took 0.7 s, a build's files 20 s). Only arrays of one type on
 * both sides are taken (so toStrictEqual's type check stands) and only integer ones (a float
 * array's NaNs are equal to vitest whatever their bits); any other pair is left to vitest, and a
 * difference still fails with vitest's own message.
 */
import { expect } from "vitest";

export function sameBytes(a: unknown, b: unknown): boolean | undefined {
  if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a.constructor !== b.constructor) return undefined;
  if (a instanceof Float32Array || a instanceof Float64Array || a instanceof DataView) return undefined;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

expect.addEqualityTesters([sameBytes]);
