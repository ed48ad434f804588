/**
 * The serving benchmark (issue 13): the live server and nginx with the generated rules on the
 * same dist, in the same run, one after the other on the same core (the load generator on the
 * other, when there are two): req/s and p50/p99 on four file routes and on checks of every
 * username at random, weekly-dump downloads with the server's RSS, and the live server's ready
 * time and RSS (started on every core, as an operator starts it, then pinned). wrk makes the
 * load (Debian's `wrk`), curl the downloads; both only on loopback, bounded in time.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { buildDist } from "../build/build.ts";
import { renderNginxServer } from "../core/hosting/nginx.ts";
import { generateSample } from "../data/sample/generate.ts";
import { findNginx, getFreePort, startNginx } from "../test/helpers/nginx.ts";
import { readRssBytes, startServeProcess } from "../test/helpers/serve-process.ts";
import type { BenchRow } from "./build.ts";
import { measureDeploys, toDeployRows } from "./deploy.ts";
import { listChildren, pinProcess, runDownloads, runWrk, writePathsScript, type WrkFigures } from "./serve-load.ts";

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
  downloads: { bytes: number; live: DownloadFigures; nginx: DownloadFigures };
  ready: ReadyFigures;
  liveRssAfterBytes: number;
}

interface DownloadFigures {
  perSecond: number;
  /** Growth of the server's RSS while the four downloads ran (peak minus before). */
  rssGrowthBytes: number;
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
 * Ready time and RSS at a larger build (1M usernames by default): the server started on it, one
 * minute's worth of a file route and a list route, RSS after. The dist (a million files) is
 * deleted afterwards in the background; the sample is the build benchmark's when it is there.
 */
async function measureReadyAt(scale: number, options: ServeBenchOptions & { sampleDir: string }) {
  const dir = join(options.workDir, String(scale));
  mkdirSync(dir, { recursive: true });
  const shared = join(options.sampleDir, `sample-${scale}.sqlite`);
  const sample = existsSync(shared) ? shared : join(dir, "sample.sqlite");
  if (!existsSync(sample)) generateSample({ scale, seed: "1", out: sample, asOf: "2026-11-15T18:00:00Z" });
  const dist = join(dir, "dist");
  if (!options.reuseSample || !existsSync(dist)) buildDist({ db: sample, out: dist, baseUrl: "http://localhost:3000", progress: null });
  const keys = findKeys(dist);
  const checks = writePathsScript(join(dir, "checks.lua"), listCheckPaths(dist));
  const live = await startLive(dist);
  try {
    for (const path of [`/api/check/${keys.username}`, `/api/companies?page=${keys.page}`, `/api/badge/${keys.slug}.svg`]) {
      await runWrk(`${live.url}${path}`, { seconds: options.seconds ?? 5, pin: PIN ? 1 : null });
    }
    // Then checks of every username, at random: the file store and the known answers fill up.
    await runWrk(live.url, { seconds: 3 * (options.seconds ?? 5), pin: PIN ? 1 : null, script: checks });
    return { ready: live.ready, afterBytes: readRssBytes(live.pid) };
  } finally {
    live.stop();
    if (!options.reuseSample) spawn("rm", ["-rf", dir], { detached: true, stdio: "ignore" }).unref();
  }
}

function toReadyRows(scale: number, f: { ready: ReadyFigures; afterBytes: number }): BenchRow[] {
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  return [
    {
      metric: `live server ready (${scale.toLocaleString("en")} usernames)`,
      value: `${f.ready.seconds.toFixed(2)} s, RSS ${mib(f.ready.rssBytes)}; after load ${mib(f.afterBytes)}`,
      baseline: "",
      ratio: "",
      target: "≤ 1 s, ≤ 256 MiB at ready, ≤ 400 MiB after",
    },
  ];
}

export async function measureServing(options: ServeBenchOptions): Promise<ServeFigures> {
  const nginxBinary = findNginx();
  if (!nginxBinary) throw new Error("the serve benchmark needs nginx (Debian: apt-get install nginx-light)");
  if (spawnSync("wrk", ["-v"]).error) throw new Error("the serve benchmark needs wrk (Debian: apt-get install wrk)");
  const dir = join(options.workDir, String(options.scale));
  mkdirSync(dir, { recursive: true });
  const dist = prepareDist(dir, options.scale, options.reuseSample ?? false);
  const seconds = options.seconds ?? 5;
  const keys = findKeys(dist);
  const live = await startLive(dist);
  const nginxPort = await getFreePort();
  const nginxDir = join(dir, "nginx");
  rmSync(nginxDir, { recursive: true, force: true });
  const block = renderNginxServer({ root: realpathSync(dist), listen: `127.0.0.1:${nginxPort}`, baseUrl: "http://localhost:3000" });
  const nginx = await startNginx(nginxBinary, nginxDir, block, nginxPort, { connections: 1024 });
  try {
    if (PIN) for (const pid of [nginx.pid, ...listChildren(nginx.pid)]) pinProcess(pid, 0);
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
    const dump = "/dumps/spammers-latest.csv";
    const bytes = readFileSync(join(dist, dump)).byteLength;
    const downloads = {
      bytes,
      live: await runDownloads(`${live.url}${dump}`, live.pid, { concurrency: 4, rounds: 3, pin: PIN ? 1 : null }),
      nginx: await runDownloads(`${nginx.url}${dump}`, nginx.pid, { concurrency: 4, rounds: 3, pin: PIN ? 1 : null, children: true }),
    };
    const liveRssAfterBytes = readRssBytes(live.pid);
    return { scale: options.scale, routes: measured, downloads, ready: live.ready, liveRssAfterBytes };
  } finally {
    live.stop();
    nginx.stop();
  }
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
  rows.push({
    metric: `weekly dump download, 4 at once, best of 3 rounds (${mib(d.bytes)} CSV)`,
    value: `${d.live.perSecond.toFixed(1)} downloads/s, RSS +${mib(d.live.rssGrowthBytes)}`,
    baseline: `nginx ${d.nginx.perSecond.toFixed(1)} downloads/s`,
    ratio: `${((100 * d.live.perSecond) / d.nginx.perSecond).toFixed(0)}% of nginx`,
    target: "≥ 50% of nginx, RSS +64 MiB at most",
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
