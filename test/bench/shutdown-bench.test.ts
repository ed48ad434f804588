/**
 * Shutdown under load, a small bounded run of bench/shutdown.ts (real npm, real server process):
 * no request in flight at SIGTERM fails, none sent after it meets a reset, and npm exits 0. The
 * docs/benchmarks.md's figure is the same bench at 32 clients (`npm run bench -- --only shutdown`).
 */
import { describe, expect, it } from "vitest";
import { runShutdownBench } from "../../bench/shutdown.ts";

describe.skipIf(process.platform !== "linux")("bench/shutdown.ts", () => {
  it("sees requests in flight at SIGTERM, and none of them fails", async () => {
    const figures = await runShutdownBench({ concurrency: 8, slowUploads: 2, loadMs: 800, maxRequests: 20_000 });
    expect(figures.inFlightAtSignal).toBeGreaterThanOrEqual(2);
    expect(figures.inFlightFailed).toBe(0);
    expect(figures.answeredWithClose).toBeGreaterThanOrEqual(2);
    expect(figures.sentAfter.reset).toBe(0);
    expect(figures.exitCode).toBe(0);
  });
});
