/**
 * The HTTP benchmark measures only requests that get the right answer: its own check passes
 * against a real server over the dist it builds (the fixture plus the shipped library), and the
 * library's signal sets, each of which must match a profile that fits it perfectly, are the ones
 * it sends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBenchDist, createBenchSignals, verifyBenchAnswers } from "../../bench/fingerprint-http.ts";
import { readFingerprintLibrary } from "../../data/fingerprints/library.ts";
import { isPublicProfile } from "../../core/fingerprint/index.ts";
import { startServer, type RunningServer } from "../../server/listen.ts";

let built: ReturnType<typeof buildBenchDist>;
let server: RunningServer;
beforeAll(async () => {
  built = buildBenchDist();
  server = await startServer({ dist: built.dist, port: 0, host: "127.0.0.1", fingerprintRateLimit: 0 });
});
afterAll(async () => {
  await server.close();
  built.cleanup();
});

describe("bench/fingerprint-http.ts", () => {
  it("sends each distinct signal set of the public library once", () => {
    const sets = createBenchSignals();
    const publicProfiles = readFingerprintLibrary().profiles.filter(isPublicProfile);
    expect(sets.length).toBeGreaterThan(30);
    expect(sets.length).toBeLessThanOrEqual(publicProfiles.length);
    expect(new Set(sets.map((s) => JSON.stringify(Object.entries(s).sort()))).size).toBe(sets.length);
  });

  it("gets the answers it assumes before it times anything", async () => {
    await expect(verifyBenchAnswers(server.url)).resolves.toBeUndefined();
  });

  it("would notice a wrong answer", async () => {
    const limited = await startServer({ dist: built.dist, port: 0, host: "127.0.0.1", fingerprintRateLimit: 1 });
    try {
      await expect(verifyBenchAnswers(limited.url)).rejects.toThrow(/answered 429/);
    } finally {
      await limited.close();
    }
  });
});
