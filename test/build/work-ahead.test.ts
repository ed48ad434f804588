/**
 * Work ahead (build/work-ahead.ts): slices run oldest work first, a result is the same whether
 * the work ran in slices, at once or partly each way, and an error reaches whoever runs the slice.
 */
import { describe, expect, it } from "vitest";
import { runNow, WorkAhead } from "../../build/work-ahead.ts";

/** Work that records each slice it runs in `log` and returns the sum of 1…n. */
function* count(name: string, n: number, log: string[]): Generator<void, number, void> {
  let sum = 0;
  for (let i = 1; i <= n; i++) {
    sum += i;
    log.push(`${name}${i}`);
    if (i < n) yield;
  }
  return sum;
}

describe("work ahead", () => {
  it("runs one slice a step, the oldest work first, and says when none is left", () => {
    const log: string[] = [];
    const ahead = new WorkAhead();
    const a = ahead.add(count("a", 2, log));
    const b = ahead.add(count("b", 2, log));
    expect([ahead.step(), ahead.step(), ahead.step()]).toEqual([true, true, true]);
    expect(log).toEqual(["a1", "a2", "b1"]);
    expect(ahead.step()).toBe(true);
    expect(ahead.step()).toBe(false);
    expect([a(), b()]).toEqual([3, 3]);
    expect(log).toEqual(["a1", "a2", "b1", "b2"]);
  });

  it("finishes work when it is taken, whatever ran of it before, with the result of running it at once", () => {
    for (const before of [0, 1, 5, 10, 20]) {
      const log: string[] = [];
      const ahead = new WorkAhead();
      const take = ahead.add(count("a", 10, log));
      for (let i = 0; i < before; i++) ahead.step();
      expect(take()).toBe(runNow(count("b", 10, [])));
      expect(take()).toBe(55);
      expect(log).toHaveLength(10);
      // Taken work is off the queue: nothing is left to step.
      expect(ahead.step()).toBe(false);
    }
  });

  it("lets a slice's error through to whoever runs it, and again to whoever takes the work", () => {
    const ahead = new WorkAhead();
    const take = ahead.add(
      (function* () {
        yield;
        throw new Error("bad row");
      })(),
    );
    expect(ahead.step()).toBe(true);
    expect(() => ahead.step()).toThrow("bad row");
    expect(() => take()).toThrow("bad row");
    expect(ahead.step()).toBe(false);
  });
});
