/**
 * Large files are streamed from disk in constant memory: four concurrent downloads of a file
 * larger than the 64 MiB bound, from `npm run serve` in its own process, must not grow its RSS
 * by as much as the file — which reading it whole (as the server once did) would, per download.
 */
import { closeSync, ftruncateSync, openSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";
import { readRssBytes, startServeProcess } from "../helpers/serve-process.ts";

const SIZE = 160 << 20;
const BOUND = 64 << 20;

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("dump-streaming");
  // A sparse file: 160 MiB to read, nothing written to disk.
  const fd = openSync(join(fixture.dist, "dumps/large-test.csv"), "w");
  ftruncateSync(fd, SIZE);
  closeSync(fd);
});
afterAll(() => fixture.cleanup());

function download(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "accept-encoding": "identity" } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("end", () => resolve(bytes));
      res.on("error", reject);
    }).on("error", reject);
  });
}

it("serves four downloads of a file larger than its bound at once without holding it", { timeout: 120_000 }, async () => {
  const { child, url, stop } = await startServeProcess(fixture.dist);
  try {
    const file = `${url}/dumps/large-test.csv`;
    // Ready: the build loaded, a file answered.
    await download(`${url}/build-report.json`);
    const before = readRssBytes(child.pid!);
    expect(before, "the server's RSS is readable (/proc)").toBeGreaterThan(0);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, readRssBytes(child.pid!))), 10);
    // One download first (its ETag is computed then, streamed through SHA-256), then four at once.
    const first = await download(file);
    const sizes = await Promise.all(Array.from({ length: 4 }, () => download(file)));
    clearInterval(sampler);
    expect([first, ...sizes]).toEqual([SIZE, SIZE, SIZE, SIZE, SIZE]);
    expect(peak - before, `RSS grew by ${((peak - before) / 2 ** 20).toFixed(0)} MiB`).toBeLessThan(BOUND);
  } finally {
    stop();
  }
});
