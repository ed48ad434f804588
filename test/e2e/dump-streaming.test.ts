/**
 * Large files are streamed from disk in constant memory: four concurrent downloads of a file
 * larger than the 64 MiB bound, from `npm run serve` in its own process, must not grow its RSS
 * by as much as the file — which reading it whole (as the server once did) would, per download.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, ftruncateSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";

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

function readRss(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
}

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
  const child = spawn(process.execPath, ["--import", "tsx", "cli/serve.ts", "--dist", fixture.dist, "--port", "0", "--host", "127.0.0.1"], {
    cwd: new URL("../..", import.meta.url),
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = "";
      child.stdout.on("data", (d) => {
        output += d;
        const m = /at (http:\/\/\S+)/.exec(output);
        if (m) resolve(m[1]!.replace(/\/$/, ""));
      });
      child.once("exit", (code) => reject(new Error(`the server exited (${code}): ${output}`)));
    });
    const file = `${url}/dumps/large-test.csv`;
    // Ready: the build loaded, a file answered.
    await download(`${url}/build-report.json`);
    const before = readRss(child.pid!);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, readRss(child.pid!))), 10);
    // One download first (its ETag is computed then, streamed through SHA-256), then four at once.
    const first = await download(file);
    const sizes = await Promise.all(Array.from({ length: 4 }, () => download(file)));
    clearInterval(sampler);
    expect([first, ...sizes]).toEqual([SIZE, SIZE, SIZE, SIZE, SIZE]);
    expect(peak - before, `RSS grew by ${((peak - before) / 2 ** 20).toFixed(0)} MiB`).toBeLessThan(BOUND);
  } finally {
    child.kill("SIGTERM");
  }
});
