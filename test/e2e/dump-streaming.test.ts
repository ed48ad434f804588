/**
 * Large files in bounded memory, from `npm run serve` in its own process: four concurrent
 * downloads of a file larger than --large-file-memory (streamed from disk) must not grow its RSS
 * by as much as the file — which reading it whole per download (as the server once did) would;
 * four of a file within it (held) grow it by one copy of the file, not one a download.
 */
import { closeSync, ftruncateSync, openSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";
import { readRssBytes, startServeProcess } from "../helpers/serve-process.ts";

const SIZE = 160 << 20;
const BOUND = 64 << 20;
/** Within the default --large-file-memory (32 MiB). */
const HELD_SIZE = 24 << 20;

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("dump-streaming");
  // Sparse files: 160 and 24 MiB to read, nothing written to disk.
  for (const [name, size] of [["large-test.csv", SIZE], ["held-test.csv", HELD_SIZE]] as const) {
    const fd = openSync(join(fixture.dist, "dumps", name), "w");
    ftruncateSync(fd, size);
    closeSync(fd);
  }
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

/** The server's RSS growth over one download of `path` and then four at once: every size downloaded, and the growth. */
async function measureDownloads(path: string): Promise<{ sizes: number[]; grewBytes: number }> {
  const { child, url, stop } = await startServeProcess(fixture.dist);
  try {
    // Ready: the build loaded, a file answered.
    await download(`${url}/build-report.json`);
    const before = readRssBytes(child.pid!);
    expect(before, "the server's RSS is readable (/proc)").toBeGreaterThan(0);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, readRssBytes(child.pid!))), 10);
    // One download first (its ETag is computed then, and a file within the budget read), then four at once.
    const first = await download(`${url}${path}`);
    const sizes = await Promise.all(Array.from({ length: 4 }, () => download(`${url}${path}`)));
    clearInterval(sampler);
    return { sizes: [first, ...sizes], grewBytes: peak - before };
  } finally {
    stop();
  }
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

it("serves four downloads of a file larger than its bound at once without holding it", { timeout: 120_000 }, async () => {
  const { sizes, grewBytes } = await measureDownloads("/dumps/large-test.csv");
  expect(sizes).toEqual([SIZE, SIZE, SIZE, SIZE, SIZE]);
  expect(grewBytes, `RSS grew by ${mib(grewBytes)}`).toBeLessThan(BOUND);
});

it("holds a file within --large-file-memory once, however many download it at once", { timeout: 120_000 }, async () => {
  const { sizes, grewBytes } = await measureDownloads("/dumps/held-test.csv");
  expect(sizes).toEqual([HELD_SIZE, HELD_SIZE, HELD_SIZE, HELD_SIZE, HELD_SIZE]);
  expect(grewBytes, `RSS grew by ${mib(grewBytes)}`).toBeLessThan(2 * HELD_SIZE);
});
