/**
 * A large file streamed straight to Node's response once its URL's answer is known
 * (server/pump-file.ts), over a real listening server: the bytes of several chunks in order for
 * downloads at once, the descriptor closed when a client goes away mid-file, and a file that
 * reads short on disk never sent as if whole.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, truncateSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import * as pump from "../../server/pump-file.ts";
import { startServer, type RunningServer } from "../../server/listen.ts";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";

/** Several chunks and a part of one, so that order and the last short read both show. */
const SIZE = 5 * pump.PUMP_CHUNK_BYTES + 12_345;
const PATH = "/dumps/pumped-test.csv";

let fixture: BuiltFixture;
let server: RunningServer;
let bytes: Buffer;
beforeAll(async () => {
  fixture = buildFixture("pump-file");
  bytes = randomBytes(SIZE);
  writeFileSync(join(fixture.dist, PATH), bytes);
  // Every large file streamed: nothing over 16 bytes held.
  server = await startServer({ dist: fixture.dist, port: 0, host: "127.0.0.1", fileStore: { memoryBytes: 64 << 20, maxMemoryFileBytes: 16, largeMemoryBytes: 0 } });
});
afterAll(async () => {
  await server.close();
  fixture.cleanup();
});

const url = (path: string) => new URL(path, server.url).href;

/** The process's open descriptors (the server runs in this process). */
const countDescriptors = () => readdirSync("/proc/self/fd").length;

/**
 * Downloads `path` until an answer is pumped: the first is the app's (a Node stream), and the URL
 * is known once that answer is done, a moment after its last byte reached the client.
 */
async function downloadUntilPumped(path: string, pumped: { mock: { calls: unknown[] } }): Promise<void> {
  const before = pumped.mock.calls.length;
  for (let i = 0; i < 50 && pumped.mock.calls.length === before; i++) {
    const res = await fetch(url(path));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  }
  expect(pumped.mock.calls.length).toBeGreaterThan(before);
}

it("sends every byte in order, to several downloads at once, once the file's answer is known", async () => {
  const pumped = vi.spyOn(pump, "pumpFile");
  try {
    await downloadUntilPumped(PATH, pumped);
    const before = pumped.mock.calls.length;
    const answers = await Promise.all(Array.from({ length: 4 }, () => fetch(url(PATH))));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-length")).toBe(String(SIZE));
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    }
    expect(pumped.mock.calls.length - before).toBe(4);
  } finally {
    pumped.mockRestore();
  }
});

it("closes the file when a client goes away in the middle of it, and goes on serving", async () => {
  await (await fetch(url(PATH))).arrayBuffer();
  const before = countDescriptors();
  await new Promise<void>((resolve, reject) => {
    get(url(PATH), (res) => {
      res.once("data", () => {
        // One chunk in: the client goes.
        res.destroy();
        resolve();
      });
    }).on("error", reject);
  });
  // The server sees the connection close, and its read in flight, if any, finish.
  for (let i = 0; i < 100 && countDescriptors() > before; i++) await new Promise((r) => setTimeout(r, 20));
  expect(countDescriptors()).toBeLessThanOrEqual(before);
  const again = await fetch(url(PATH));
  expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
});

it("cuts the answer off, never sending it as whole, when the file on disk reads short", async () => {
  const path = "/dumps/shrinking-test.csv";
  writeFileSync(join(fixture.dist, path), bytes);
  const pumped = vi.spyOn(pump, "pumpFile");
  try {
    await downloadUntilPumped(path, pumped);
    // A published build never changes; someone truncating a file by hand is what this stands for.
    truncateSync(join(fixture.dist, path), 2 * pump.PUMP_CHUNK_BYTES);
    const before = pumped.mock.calls.length;
    const res = await fetch(url(path));
    expect(res.headers.get("content-length")).toBe(String(SIZE));
    await expect(res.arrayBuffer()).rejects.toThrow();
    expect(pumped.mock.calls.length - before).toBe(1);
  } finally {
    pumped.mockRestore();
  }
});
