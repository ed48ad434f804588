/**
 * Load for the serving benchmark: wrk for request rates and latency percentiles (a C load
 * generator: a Node one would be slower than the servers it measures), curl for downloads, and
 * the kernel's RSS figures of a server process. Loopback only, bounded in time and count.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { readRssBytes } from "../test/helpers/serve-process.ts";

export interface WrkFigures {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers that were not 2xx/3xx, and socket errors. */
  failures: number;
}

/** `script`: a wrk Lua script (see writePathsScript) that picks each request's path. */
export async function runWrk(url: string, options: { seconds: number; connections?: number; pin: number | null; script?: string }): Promise<WrkFigures> {
  const script = options.script ? ["-s", options.script] : [];
  const args = ["-t1", `-c${options.connections ?? 64}`, `-d${options.seconds}s`, "--latency", ...script, url];
  // A second of warm-up (connections open, JIT warm, the file store filled), not counted.
  await runPinned("wrk", ["-t1", `-c${options.connections ?? 64}`, "-d1s", ...script, url], options.pin);
  const out = await runPinned("wrk", args, options.pin);
  const number = (pattern: RegExp) => Number(pattern.exec(out)?.[1] ?? Number.NaN);
  const non2xx = number(/Non-2xx or 3xx responses: (\d+)/);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    perSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p50Ms: readLatency(out, "50%"),
    p99Ms: readLatency(out, "99%"),
    failures: (Number.isNaN(non2xx) ? 0 : non2xx) + (errors ? errors.slice(1).reduce((n, v) => n + Number(v), 0) : 0),
  };
}

/** A latency line of wrk's distribution (`99%   1.52ms`), in milliseconds. */
function readLatency(out: string, percentile: string): number {
  const match = new RegExp(`^\\s*${percentile}\\s+([\\d.]+)(us|ms|s)\\s*$`, "m").exec(out);
  if (!match) return Number.NaN;
  const scale = { us: 0.001, ms: 1, s: 1000 }[match[2] as "us" | "ms" | "s"];
  return Number(match[1]) * scale;
}

export interface DownloadTarget {
  name: string;
  url: string;
  /** The processes whose memory is the server's (nginx's master and worker). */
  pids: number[];
}

export interface DownloadFigures {
  /** Downloads a second, each round (`concurrency` clients at once, timed together). */
  rounds: number[];
  /** Growth of the server's RSS from before its first download to its peak over the rounds. */
  rssGrowthBytes: number;
}

/** Bytes each client downloads in a round: a round of a few hundred milliseconds, not a few process starts. */
const ROUND_BYTES_PER_CLIENT = 512 * 2 ** 20;

/**
 * `concurrency` curl clients at once, each downloading each target's file (no compression asked
 * for) again and again over one keep-alive connection, `rounds` times, the targets taking turns
 * round by round, so that whatever else the machine does falls on all of them alike; each
 * target's RSS sampled every 20 ms. A client downloads ~512 MiB a round (the file as many times
 * as that takes): with one download per client a round lasted ~40 ms, most of it starting curl,
 * and its rate said more about the machine's moment than about the server. Before the rounds,
 * the file is read once (the page cache warm for every target alike) and each target serves it
 * once, not counted but within its RSS growth (the stream path compiled, the file's ETag known,
 * or the file read into memory).
 */
export async function runDownloadRounds(file: string, targets: DownloadTarget[], options: { concurrency: number; rounds: number; pin: number | null }): Promise<DownloadFigures[]> {
  const times = Math.max(1, Math.round(ROUND_BYTES_PER_CLIENT / statSync(file).size));
  const download = (url: string, count: number) => runPinned("curl", ["-sSf", "--max-time", "120", ...Array.from({ length: count }, () => ["-o", "/dev/null", url]).flat()], options.pin);
  const rss = (target: DownloadTarget) => target.pids.reduce((n, p) => n + readRssBytes(p), 0);
  readFileSync(file);
  const before = targets.map(rss);
  for (const target of targets) await download(target.url, 1);
  const figures = targets.map(() => ({ rounds: [] as number[], rssGrowthBytes: 0 }));
  for (let round = 0; round < options.rounds; round++) {
    for (const [i, target] of targets.entries()) {
      let peak = rss(target);
      const sampler = setInterval(() => (peak = Math.max(peak, rss(target))), 20);
      const started = performance.now();
      try {
        await Promise.all(Array.from({ length: options.concurrency }, () => download(target.url, times)));
      } finally {
        clearInterval(sampler);
      }
      figures[i]!.rounds.push((options.concurrency * times) / ((performance.now() - started) / 1000));
      figures[i]!.rssGrowthBytes = Math.max(figures[i]!.rssGrowthBytes, peak - before[i]!);
    }
  }
  return figures;
}

/**
 * A wrk script whose requests go to `paths` in a random order (the same seed each run): many
 * different URLs, each met for the first time or again, as a bot checking usernames makes them.
 */
export function writePathsScript(file: string, paths: readonly string[]): string {
  writeFileSync(`${file}.paths`, `${paths.join("\n")}\n`);
  writeFileSync(
    file,
    `local paths = {}
for line in io.lines(${JSON.stringify(`${file}.paths`)}) do paths[#paths + 1] = line end
math.randomseed(42)
request = function() return wrk.format("GET", paths[math.random(#paths)]) end
`,
  );
  return file;
}

/** Every thread of a running process on `core` (the load generator keeps the other). */
export function pinProcess(pid: number, core: number): void {
  spawnSync("taskset", ["-a", "-pc", String(core), String(pid)], { stdio: "ignore" });
}

export function listChildren(pid: number): number[] {
  const out = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).stdout.trim();
  return out ? out.split("\n").map(Number) : [];
}

function runPinned(command: string, args: string[], pin: number | null): Promise<string> {
  const [file, argv] = pin === null ? [command, args] : ["taskset", ["-c", String(pin), command, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += String(d)));
    child.stderr.on("data", (d) => (out += String(d)));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}: ${out.slice(0, 500)}`))));
  });
}
