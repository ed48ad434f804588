import { describe, expect, it } from "vitest";
import { GenerationCache } from "../../server/generation-cache.ts";

describe("GenerationCache", () => {
  it("keeps what is used and drops what went unused for a generation, within its budget", () => {
    const cache = new GenerationCache<number>({ maxSize: 4 });
    for (const key of ["a", "b"]) cache.set(key, 1);
    cache.set("c", 1); // a and b age
    expect(cache.get("a")).toBe(1); // and a comes back
    for (const key of ["d", "e"]) cache.set(key, 1);
    expect([..."abcde"].map((key) => cache.get(key) !== undefined)).toEqual([true, false, false, true, true]);
    for (let i = 0; i < 100; i++) {
      cache.set(`k${i}`, 1);
      expect(cache.calculatedSize).toBeLessThanOrEqual(4);
      expect(cache.size).toBe(cache.calculatedSize);
    }
  });

  it("counts by size, replaces an entry in place, and never holds one larger than the budget", () => {
    const cache = new GenerationCache<string>({ maxSize: 10, sizeOf: (value) => value.length });
    cache.set("a", "xxxx");
    cache.set("a", "xx");
    expect(cache.calculatedSize).toBe(2);
    cache.set("big", "x".repeat(11));
    expect(cache.get("big")).toBeUndefined();
    // Larger than half: the other generation goes when both would not fit.
    cache.set("b", "x".repeat(9));
    expect([cache.get("a"), cache.calculatedSize]).toEqual([undefined, 9]);
    cache.delete("b");
    expect([cache.size, cache.calculatedSize]).toEqual([0, 0]);
  });
});
