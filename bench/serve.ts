/**
 * The serving benchmark (issue 13): the live server and nginx with the generated rules on the
 * same dist, in the same run, one after the other on the same core (the load generator on the
 * other, when there are two): req/s and p50/p99 on four file routes and on checks of every
 * username at random, weekly-dump downloads with the server's RSS, and the live server's ready
 * time and RSS (started on every core, as an operator starts it, then pinned). wrk makes the
 * load (Debian's `wrk`), curl the downloads; both only on loopback, bounded in time.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { buildDist } from "../build/build.ts";
import { renderNginxServer } from "../core/hosting/nginx.ts";
import { generateSample } from "../data/sample/generate.ts";
import { findNginx, getFreePort, startNginx } from "../test/helpers/nginx.ts";
import { ROOT } from "../test/helpers/run-command.ts";
import { readRssBytes, startServeProcess, waitForUrl } from "../test/helpers/serve-process.ts";
import type { BenchRow } from "./build.ts";
import { measureDeploys, toDeployRows } from "./deploy.ts";
import { listChildren, pinProcess, runDownloadRounds, runWrk, writePathsScript, type DownloadFigures, type WrkFigures } from "./serve-load.ts";

export interface ServeBenchOptions {
  /** Usernames of the dist the routes and downloads are measured on. */
  scale: number;
  workDir: string;
  /** Seconds of load per route and server. */
  seconds?: number;
  reuseSample?: boolean;
}

export interface ServeFigures {
  scale: number;
  /** `target`: the targets apply (the four routes it names). */
  routes: { label: string; live: WrkFigures; nginx: WrkFigures; target?: boolean }[];
  /** `plain`: a plain Node server streaming the same file (bench/plain-file-server.ts). */
  downloads: { bytes: number; rounds: number; live: DownloadFigures; nginx: DownloadFigures; plain: DownloadFigures; streamed: DownloadFigures };
  ready: ReadyFigures;
  liveRssAfterBytes: number;
}

export interface ReadyFigures {
  seconds: number;
  rssBytes: number;
}

/** Cores: the servers on the first, wrk and curl on the second (when there are two). */
const PIN = availableParallelism() >= 2 && spawnSync("taskset", ["-V"]).status === 0;

export async function runServeBench(options: ServeBenchOptions & { readyScale: number; sampleDir: string }): Promise<BenchRow[]> {
  const rows = toServeRows(await measureServing(options));
  if (options.readyScale > options.scale) rows.push(...toReadyRows(options.readyScale, await measureReadyAt(options.readyScale, options)));
  const deploys = measureDeploys(options.scale, { workDir: join(options.workDir, "deploy"), reuseSample: options.reuseSample });
  rows.push(...toDeployRows(deploys).filter((row) => !/first deploy/.test(row.metric)));
  rmSync(join(options.workDir, "deploy"), { recursive: true, force: true });
  return rows;
}

/**
 * At a larger build (1M usernames by default): the live server's ready time as an operator sees
 * it (`npm run serve`, from the command to its first answer) beside the same server from the
 * TypeScript sources and a bare Node server; checks of 20 000 usernames at random beside nginx
 * (the page cache warm, both pinned alike, rounds in turn); then a minute's worth of a file route,
 * a list route and checks of every username, and the RSS after. The dist (a million files) is
 * deleted afterwards in the background; the sample is the build benchmark's when it is there.
 */
async function measureReadyAt(scale: number, options: ServeBenchOptions & { sampleDir: string }): Promise<AtScaleFigures> {
  const dir = join(options.workDir, String(scale));
  mkdirSync(dir, { recursive: true });
  const shared = join(options.sampleDir, `sample-${scale}.sqlite`);
  const sample = existsSync(shared) ? shared : join(dir, "sample.sqlite");
  if (!existsSync(sample)) generateSample({ scale, seed: "1", out: sample, asOf: "2026-11-15T18:00:00Z" });
  const dist = join(dir, "dist");
  if (!options.reuseSample || !existsSync(dist)) buildDist({ db: sample, out: dist, baseUrl: "http://localhost:3000", progress: null });
  try {
    const ready = await measureReady(dist);
    const keys = findKeys(dist);
    const every = listCheckPaths(dist);
    const some = every.filter((_, i) => i % Math.max(1, Math.floor(every.length / MISS_USERNAMES)) === 0).slice(0, MISS_USERNAMES);
    const live = await startLive(dist);
    const nginx = await startPinnedNginx(dist, join(dir, "nginx"));
    try {
      // The page cache warm for both alike: every file of the sample read once.
      for (const path of some) readFileSync(join(dist, `${path}.json`));
      const script = writePathsScript(join(dir, "some-checks.lua"), some);
      const misses = { live: [] as WrkFigures[], nginx: [] as WrkFigures[] };
      for (let round = 0; round < MISS_ROUNDS; round++) {
        misses.live.push(await runWrk(live.url, { seconds: options.seconds ?? 5, pin: PIN ? 1 : null, script }));
        misses.nginx.push(await runWrk(nginx.url, { seconds: options.seconds ?? 5, pin: PIN ? 1 : null, script }));
      }
      for (const path of [`/api/check/${keys.username}`, `/api/companies?page=${keys.page}`, `/api/badge/${keys.slug}.svg`]) {
        await runWrk(`${live.url}${path}`, { seconds: options.seconds ?? 5, pin: PIN ? 1 : null });
      }
      // Then checks of every username, at random: the file store and the known answers fill up.
      const checks = writePathsScript(join(dir, "checks.lua"), every);
      await runWrk(live.url, { seconds: 3 * (options.seconds ?? 5), pin: PIN ? 1 : null, script: checks });
      return { ready, misses, afterBytes: readRssBytes(live.pid) };
    } finally {
      live.stop();
      nginx.stop();
    }
  } finally {
    if (!options.reuseSample) spawn("rm", ["-rf", dir], { detached: true, stdio: "ignore" }).unref();
  }
}

/** Usernames of the checks at random at scale (the "miss path"), and rounds of them per server. */
const MISS_USERNAMES = 20_000;
const MISS_ROUNDS = 3;
/** Starts of each kind timed; the median is reported. */
const READY_RUNS = 3;

interface AtScaleFigures {
  ready: { npm: ReadyFigures[]; sources: ReadyFigures[]; bare: ReadyFigures[] };
  misses: { live: WrkFigures[]; nginx: WrkFigures[] };
  afterBytes: number;
}

/** `npm run serve`, the server from its TypeScript sources, and a bare Node server, each started READY_RUNS times in turn. */
async function measureReady(dist: string): Promise<AtScaleFigures["ready"]> {
  const serve = ["--dist", dist, "--port", "0", "--host", "127.0.0.1"];
  const bare = `require("http").createServer((q, s) => s.end("{}")).listen(0, "127.0.0.1", function () { console.log("at http://127.0.0.1:" + this.address().port); })`;
  const ready: AtScaleFigures["ready"] = { npm: [], sources: [], bare: [] };
  for (let run = 0; run < READY_RUNS; run++) {
    ready.npm.push(await timeFirstAnswer("npm", ["run", "serve", "--", ...serve], { serverIsChild: true }));
    ready.sources.push(await timeFirstAnswer(process.execPath, ["--import", "tsx", "cli/serve.ts", ...serve]));
    ready.bare.push(await timeFirstAnswer(process.execPath, ["-e", bare]));
  }
  return ready;
}

/** From the command to the first answer (the build report), and the server's RSS then. */
async function timeFirstAnswer(command: string, args: string[], options: { serverIsChild?: boolean } = {}): Promise<ReadyFigures> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const url = await waitForUrl(child, `${command} ${args.join(" ")}`);
    const res = await fetch(`${url}/build-report.json`);
    await res.arrayBuffer();
    const seconds = (performance.now() - started) / 1000;
    if (res.status !== 200) throw new Error(`${command} ${args.join(" ")} answered ${res.status} at start`);
    const pid = options.serverIsChild ? listChildren(child.pid!)[0]! : child.pid!;
    return { seconds, rssBytes: readRssBytes(pid) };
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

/** nginx with the generated block on `dist`, pinned to the first core as the live server is. */
async function startPinnedNginx(dist: string, dir: string) {
  const nginxBinary = findNginx();
  if (!nginxBinary) throw new Error("the serve benchmark needs nginx (Debian: apt-get install nginx-light)");
  const port = await getFreePort();
  rmSync(dir, { recursive: true, force: true });
  const block = renderNginxServer({ root: realpathSync(dist), listen: `127.0.0.1:${port}`, baseUrl: "http://localhost:3000" });
  const nginx = await startNginx(nginxBinary, dir, block, port, { connections: 1024 });
  if (PIN) for (const pid of [nginx.pid, ...listChildren(nginx.pid)]) pinProcess(pid, 0);
  return nginx;
}

function toReadyRows(scale: number, f: AtScaleFigures): BenchRow[] {
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  const seconds = (runs: ReadyFigures[]) => median(runs.map((r) => r.seconds));
  const range = (runs: ReadyFigures[]) => `${Math.min(...runs.map((r) => r.seconds)).toFixed(2)}–${Math.max(...runs.map((r) => r.seconds)).toFixed(2)}`;
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  const m = f.misses;
  const rate = (runs: WrkFigures[]) => median(runs.map((r) => r.perSecond));
  const p99 = (runs: WrkFigures[]) => median(runs.map((r) => r.p99Ms));
  const p50 = (runs: WrkFigures[]) => median(runs.map((r) => r.p50Ms));
  const ratios = m.live.map((r, i) => r.perSecond / m.nginx[i]!.perSecond);
  const at = scale.toLocaleString("en");
  return [
    {
      metric: `live server ready (${at} usernames): \`npm run serve\` to its first answer, median of ${READY_RUNS}`,
      value: `${seconds(f.ready.npm).toFixed(2)} s (${range(f.ready.npm)}), RSS ${mib(median(f.ready.npm.map((r) => r.rssBytes)))}; after load ${mib(f.afterBytes)}`,
      baseline: `from the TypeScript sources ${seconds(f.ready.sources).toFixed(2)} s; a bare Node server ${seconds(f.ready.bare).toFixed(2)} s`,
      ratio: `${(seconds(f.ready.npm) / seconds(f.ready.sources)).toFixed(2)}× the sources'`,
      target: "≤ 1 s, ≤ 256 MiB at ready, ≤ 400 MiB after",
    },
    {
      metric: `GET /api/check/{any of ${MISS_USERNAMES.toLocaleString("en")}}, at random (${at} usernames, 64 connections, page cache warm), median of ${MISS_ROUNDS} rounds in turn`,
      value: `${Math.round(rate(m.live)).toLocaleString("en")} req/s, p50 ${ms(p50(m.live))}, p99 ${ms(p99(m.live))}`,
      baseline: `nginx ${Math.round(rate(m.nginx)).toLocaleString("en")} req/s, p50 ${ms(p50(m.nginx))}, p99 ${ms(p99(m.nginx))}`,
      ratio: `${median(ratios).toFixed(2)}× nginx (worst round ${Math.min(...ratios).toFixed(2)}×), p99 ${(p99(m.live) / p99(m.nginx)).toFixed(2)}× nginx's`,
      target: "≥ 0.9× nginx, p99 ≤ 1.25× nginx's",
    },
  ];
}

export async function measureServing(options: ServeBenchOptions): Promise<ServeFigures> {
  if (!findNginx()) throw new Error("the serve benchmark needs nginx (Debian: apt-get install nginx-light)");
  if (spawnSync("wrk", ["-v"]).error) throw new Error("the serve benchmark needs wrk (Debian: apt-get install wrk)");
  const dir = join(options.workDir, String(options.scale));
  mkdirSync(dir, { recursive: true });
  const dist = prepareDist(dir, options.scale, options.reuseSample ?? false);
  const seconds = options.seconds ?? 5;
  const keys = findKeys(dist);
  const live = await startLive(dist);
  const nginx = await startPinnedNginx(dist, join(dir, "nginx"));
  try {
    const routes = [
      { label: "GET /api/check/{known}", path: `/api/check/${keys.username}` },
      { label: "GET /api/companies?page=N", path: `/api/companies?page=${keys.page}` },
      { label: "GET /api/widget/{slug}", path: `/api/widget/${keys.slug}` },
      { label: "GET /api/badge/{slug}.svg", path: `/api/badge/${keys.slug}.svg` },
    ];
    const measured: ServeFigures["routes"] = [];
    for (const route of routes) {
      // Alternate, so that whatever else the machine does falls on both alike.
      const liveFigures = await runWrk(`${live.url}${route.path}`, { seconds, pin: PIN ? 1 : null });
      const nginxFigures = await runWrk(`${nginx.url}${route.path}`, { seconds, pin: PIN ? 1 : null });
      measured.push({ label: route.label, live: liveFigures, nginx: nginxFigures, target: true });
    }
    // Many different URLs, as bots checking usernames make them: most are met for the first time
    // (or again after their bytes left the file store), the live server's slower path.
    const checks = writePathsScript(join(dir, "checks.lua"), listCheckPaths(dist));
    measured.push({
      label: `GET /api/check/{any of ${keys.usernames.toLocaleString("en")}}, at random`,
      live: await runWrk(live.url, { seconds, pin: PIN ? 1 : null, script: checks }),
      nginx: await runWrk(nginx.url, { seconds, pin: PIN ? 1 : null, script: checks }),
    });
    const downloads = await measureDownloads(dist, live, nginx);
    const liveRssAfterBytes = readRssBytes(live.pid);
    return { scale: options.scale, routes: measured, downloads, ready: live.ready, liveRssAfterBytes };
  } finally {
    live.stop();
    nginx.stop();
  }
}

/** Rounds of four downloads at once, per server: the ratio must hold in every one. */
const DOWNLOAD_ROUNDS = 6;

/**
 * The weekly dump downloaded from the live server (which holds it: it fits the default
 * --large-file-memory), nginx, a plain Node server streaming it, and the live server streaming it
 * too (--large-file-memory 0: what a dump larger than the budget gets), round by round in turn.
 */
async function measureDownloads(dist: string, live: { url: string; pid: number }, nginx: { url: string; pid: number }): Promise<ServeFigures["downloads"]> {
  const dump = "/dumps/spammers-latest.csv";
  const file = join(realpathSync(dist), dump);
  const plain = await startPlainServer(file);
  const streaming = await startServeProcess(dist, { args: ["--large-file-memory", "0"] });
  try {
    if (PIN) pinProcess(streaming.child.pid!, 0);
    const targets = [
      { name: "live", url: `${live.url}${dump}`, pids: [live.pid] },
      { name: "nginx", url: `${nginx.url}${dump}`, pids: [nginx.pid, ...listChildren(nginx.pid)] },
      { name: "plain Node", url: `${plain.url}${dump}`, pids: [plain.pid] },
      { name: "live, streamed", url: `${streaming.url}${dump}`, pids: [streaming.child.pid!] },
    ];
    const [liveFigures, nginxFigures, plainFigures, streamedFigures] = await runDownloadRounds(file, targets, { concurrency: 4, rounds: DOWNLOAD_ROUNDS, pin: PIN ? 1 : null });
    return { bytes: statSync(file).size, rounds: DOWNLOAD_ROUNDS, live: liveFigures!, nginx: nginxFigures!, plain: plainFigures!, streamed: streamedFigures! };
  } finally {
    plain.stop();
    streaming.stop();
  }
}

/** bench/plain-file-server.ts on the file, pinned as the other servers are. */
async function startPlainServer(file: string): Promise<{ url: string; pid: number; stop(): void }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "bench/plain-file-server.ts"), file], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const url = await waitForUrl(child, "the plain Node server");
  if (PIN) pinProcess(child.pid!, 0);
  return { url, pid: child.pid!, stop: () => void child.kill("SIGTERM") };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function prepareDist(dir: string, scale: number, reuse: boolean): string {
  const sample = join(dir, "sample.sqlite");
  if (!reuse || !existsSync(sample)) generateSample({ scale, seed: "1", out: sample, asOf: "2026-11-15T18:00:00Z" });
  const dist = join(dir, "dist");
  if (!reuse || !existsSync(dist)) buildDist({ db: sample, out: dist, baseUrl: "http://localhost:3000", progress: null });
  return dist;
}

/** A reported username, a company on the first page, a page of the company list past the first, and how many usernames there are. */
function findKeys(dist: string): { username: string; slug: string; page: number; usernames: number } {
  const first = (folder: string) => readdirSync(join(dist, folder)).find((f) => f.endsWith(".json"))!.replace(/\.json$/, "");
  const pages = readdirSync(join(dist, "api/companies/page")).length;
  return { username: first("api/check"), slug: first("api/company"), page: Math.max(1, Math.min(2, pages)), usernames: listCheckPaths(dist).length };
}

/** `/api/check/{username}` of every reported username of the build (its check files, without their siblings). */
function listCheckPaths(dist: string): string[] {
  return readdirSync(join(dist, "api/check"))
    .filter((f) => f.endsWith(".json"))
    .map((f) => `/api/check/${f.slice(0, -".json".length)}`);
}

interface LiveServer {
  url: string;
  pid: number;
  ready: ReadyFigures;
  stop(): void;
}

/**
 * `npm run serve` as an operator runs it (one process, every core), timed from spawn to its
 * first answer; then pinned to the first core, as nginx is, for the load.
 */
export async function startLive(dist: string): Promise<LiveServer> {
  const started = performance.now();
  const server = await startServeProcess(dist);
  try {
    // Ready: the build is loaded and a request answered (the server listens before it has loaded).
    const res = await fetch(`${server.url}/build-report.json`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`the live server answered ${res.status} at start`);
    const ready = { seconds: (performance.now() - started) / 1000, rssBytes: readRssBytes(server.child.pid!) };
    const pid = server.child.pid!;
    if (PIN) pinProcess(pid, 0);
    return { url: server.url, pid, ready, stop: server.stop };
  } catch (error) {
    server.stop();
    throw error;
  }
}

export function toServeRows(f: ServeFigures): BenchRow[] {
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  const rows: BenchRow[] = f.routes.map((r) => ({
    metric: `${r.label} (${f.scale.toLocaleString("en")} usernames, 64 connections)`,
    value: `${Math.round(r.live.perSecond).toLocaleString("en")} req/s, p50 ${ms(r.live.p50Ms)}, p99 ${ms(r.live.p99Ms)}`,
    baseline: `nginx ${Math.round(r.nginx.perSecond).toLocaleString("en")} req/s, p50 ${ms(r.nginx.p50Ms)}, p99 ${ms(r.nginx.p99Ms)}`,
    ratio: `${((100 * r.live.perSecond) / r.nginx.perSecond).toFixed(0)}% of nginx`,
    target: r.target ? "≥ 50% of nginx, p99 ≤ 5 ms" : "",
  }));
  const d = f.downloads;
  const spread = (rounds: number[]) => `median ${median(rounds).toFixed(1)} downloads/s (rounds ${Math.min(...rounds).toFixed(1)}–${Math.max(...rounds).toFixed(1)})`;
  const ratios = d.live.rounds.map((rate, i) => rate / d.nginx.rounds[i]!);
  rows.push({
    metric: `weekly dump download, 4 clients at once, ${d.rounds} rounds each, the servers in turn (${mib(d.bytes)} CSV held in memory, page cache warm)`,
    value: `${spread(d.live.rounds)}, RSS +${mib(d.live.rssGrowthBytes)}`,
    baseline: `nginx ${spread(d.nginx.rounds)}; plain Node stream ${spread(d.plain.rounds)}, RSS +${mib(d.plain.rssGrowthBytes)}`,
    ratio: `${Math.min(...ratios).toFixed(2)}× nginx in the worst round, ${median(ratios).toFixed(2)}× median`,
    target: "≥ 0.8× nginx in every round, RSS +64 MiB at most",
  });
  const streamedRatios = d.streamed.rounds.map((rate, i) => rate / d.nginx.rounds[i]!);
  rows.push({
    metric: "  the same dump streamed from disk (`--large-file-memory 0`, as a dump over the budget is)",
    value: `${spread(d.streamed.rounds)}, RSS +${mib(d.streamed.rssGrowthBytes)}`,
    baseline: "nginx, as above",
    ratio: `${Math.min(...streamedRatios).toFixed(2)}× nginx in the worst round, ${median(streamedRatios).toFixed(2)}× median`,
    target: "",
  });
  rows.push({
    metric: `live server ready (${f.scale.toLocaleString("en")} usernames)`,
    value: `${f.ready.seconds.toFixed(2)} s, RSS ${mib(f.ready.rssBytes)}; after the benchmark ${mib(f.liveRssAfterBytes)}`,
    baseline: "",
    ratio: "",
    target: f.scale >= 1_000_000 ? "≤ 1 s, ≤ 256 MiB at ready, ≤ 400 MiB after" : "",
  });
  return rows;
}
