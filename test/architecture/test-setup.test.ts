/** The suite's own setup (test/helpers/setup.ts): byte arrays compared by their bytes, with toEqual's meaning kept. */
import { describe, expect, it } from "vitest";
import { sameBytes } from "../helpers/setup.ts";

describe("byte arrays in toEqual", () => {
  it("are equal with the same bytes, whatever buffer they view, and unequal otherwise", () => {
    const big = Buffer.alloc(1 << 20, 7);
    const copy = Buffer.from(big);
    expect(sameBytes(big, copy)).toBe(true);
    expect(big).toEqual(copy);
    const pooled = Buffer.from([0, 1, 2, 3]).subarray(1);
    expect(sameBytes(pooled, Buffer.from([1, 2, 3]))).toBe(true);
    copy[copy.length - 1] = 8;
    expect(sameBytes(big, copy)).toBe(false);
    expect(big).not.toEqual(copy);
    expect(new Uint32Array([1, 2])).toEqual(new Uint32Array([1, 2]));
    expect(new Uint32Array([1, 2])).not.toEqual(new Uint32Array([1, 3]));
  });

  it("leave pairs of other kinds to vitest: a Buffer is no Uint8Array to toStrictEqual, a float array's NaNs are equal", () => {
    expect(sameBytes(Buffer.from([1]), new Uint8Array([1]))).toBeUndefined();
    expect(Buffer.from([1])).not.toStrictEqual(new Uint8Array([1]));
    expect(sameBytes(new Float64Array([NaN]), new Float64Array([NaN]))).toBeUndefined();
    expect(sameBytes(new Uint8Array([1]), [1])).toBeUndefined();
  });
});
