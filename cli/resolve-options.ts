/**
 * Flags into options: one small resolver per step (sample, build, serve, hosting), and `npm start`
 * as the ordered list of the steps it runs. Every value is checked here, before the command does
 * anything, so a bad one is one line and exit status 2 with no file written and no port opened.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BuildOptions } from "../build/build.ts";
import type { SampleOptions } from "../data/sample/generate.ts";
import { MAX_PAGE } from "../core/routes/table.ts";
import { DEFAULT_FILE_STORE } from "../server/file-store.ts";
import type { ServerOptions, ServerTimeouts } from "../server/listen.ts";
import { HOSTING, HOSTING_TARGETS, type BUILD, type SAMPLE, type SERVE, type StartFlags } from "./flag-table.ts";
import { UsageError, type ReadFlags } from "./flags.ts";
import { readBaseUrl, readInstant, readInteger, readRedisUrl, requireValue } from "./values.ts";

export type SampleStep = Omit<SampleOptions, "onProgress">;
export type BuildStep = Pick<BuildOptions, "db" | "out" | "baseUrl" | "listPages" | "full" | "readerGraceSeconds" | "changeRetention">;

/** The sample's shape; `out` is the sample command's --out, or the snapshot `npm start` builds. */
export function resolveSampleOptions(flags: ReadFlags<Pick<typeof SAMPLE.flags, "scale" | "seed" | "as-of">>, out: string): SampleStep {
  return {
    scale: readInteger(flags.label("scale"), flags.values.scale, 1, 10_000_000),
    seed: flags.values.seed,
    asOf: readInstant(flags.label("as-of"), flags.values["as-of"]),
    out,
  };
}

export function resolveBuildOptions(flags: ReadFlags<typeof BUILD.flags>): BuildStep {
  return {
    db: flags.values.db,
    out: flags.values.out,
    baseUrl: readBaseUrl(flags.label("base-url"), flags.values["base-url"]),
    ...readBuildMode(flags),
    listPages: readListPages(flags),
    changeRetention: {
      publishes: readInteger(flags.label("changes-keep"), flags.values["changes-keep"], 1, 1_000_000),
      days: readInteger(flags.label("changes-days"), flags.values["changes-days"], 0, 36_500),
    },
  };
}

/** Incremental unless --full; how long the previous build's readers get before its folder is reused. */
function readBuildMode(flags: ReadFlags<Pick<typeof BUILD.flags, "full" | "reader-grace">>): Pick<BuildStep, "full" | "readerGraceSeconds"> {
  return { full: flags.values.full, readerGraceSeconds: readInteger(flags.label("reader-grace"), flags.values["reader-grace"], 0, 3600) };
}

/** Page 1 is also each list's default answer: always a file. */
function readListPages(flags: ReadFlags<Pick<typeof BUILD.flags, "list-pages">>): number {
  return readInteger(flags.label("list-pages"), flags.values["list-pages"], 1, MAX_PAGE);
}

const MIB = 1 << 20;

export function resolveServeOptions(flags: ReadFlags<typeof SERVE.flags>): ServerOptions {
  return {
    dist: flags.values.dist,
    port: readInteger(flags.label("port"), flags.values.port, 0, 65535),
    host: flags.values.host,
    trustProxy: flags.values["trust-proxy"],
    readRateLimit: readInteger(flags.label("read-limit"), flags.values["read-limit"], 0, 1_000_000),
    fileStore: {
      ...DEFAULT_FILE_STORE,
      memoryBytes: readInteger(flags.label("file-memory"), flags.values["file-memory"], 0, 65_536) * MIB,
      largeMemoryBytes: readInteger(flags.label("large-file-memory"), flags.values["large-file-memory"], 0, 65_536) * MIB,
    },
    redisUrl: flags.values.redis === undefined ? undefined : readRedisUrl(flags.label("redis"), flags.values.redis),
    timeouts: resolveTimeouts(flags),
  };
}

/** Whole seconds on the command line, an hour at most; milliseconds in the server's options. */
function resolveTimeouts(flags: ReadFlags<typeof SERVE.flags>): ServerTimeouts {
  const seconds = (name: "headers-timeout" | "body-timeout" | "keep-alive-timeout" | "drain-timeout") =>
    readInteger(flags.label(name), flags.values[name], 1, 3600) * 1000;
  return {
    headersMs: seconds("headers-timeout"),
    bodyMs: seconds("body-timeout"),
    keepAliveMs: seconds("keep-alive-timeout"),
    drainMs: seconds("drain-timeout"),
  };
}

export interface StartOptions {
  sample: SampleStep;
  build: BuildStep;
  serve: ServerOptions;
}

/** `npm start`: serve first (the base URL follows its address), then what to build, then what to sample. */
export function resolveStartOptions(flags: ReadFlags<StartFlags>): StartOptions {
  const serve = { ...resolveServeOptions(flags), dist: resolveStartDist(flags) };
  const baseUrl = flags.values["base-url"] === undefined ? getServerBaseUrl(serve) : readBaseUrl(flags.label("base-url"), flags.values["base-url"]);
  const build = { db: flags.values.db, out: serve.dist, baseUrl, listPages: readListPages(flags), ...readBuildMode(flags) };
  return { serve, build, sample: resolveSampleOptions(flags, build.db) };
}

/** Start builds and serves one folder: the build's --out or the server's --dist, whichever is given. */
function resolveStartDist(flags: ReadFlags<StartFlags>): string {
  const { out, dist } = flags.values;
  if (flags.given("out") && flags.given("dist") && out !== dist) {
    throw new UsageError(`--out ${out} and --dist ${dist} disagree: npm start serves the folder it builds, so give one`);
  }
  return flags.given("dist") && !flags.given("out") ? dist : out;
}

/** Where the server will answer: the wildcard addresses are reachable as localhost, IPv6 in brackets. */
function getServerBaseUrl(serve: Pick<ServerOptions, "host" | "port">): string {
  const host = serve.host === "0.0.0.0" || serve.host === "::" ? "localhost" : serve.host.includes(":") ? `[${serve.host}]` : serve.host;
  return `http://${host}:${serve.port}`;
}

export interface HostingOptions {
  target: (typeof HOSTING_TARGETS)[number];
  root: string;
  listen: string;
  upstream: string | undefined;
  /** The build's base URL (its build-report.json), for the absolute URLs of the `Link` headers. */
  baseUrl: string;
}

export function resolveHostingOptions(flags: ReadFlags<typeof HOSTING.flags>): HostingOptions {
  const usage = HOSTING.usage.replace(/^.* -- /, "");
  if (flags.argument === undefined) throw new UsageError(`name a target first (${HOSTING_TARGETS.join(", ")}): ${usage}`);
  const target = HOSTING_TARGETS.find((name) => name === flags.argument);
  if (!target) throw new UsageError(`unknown target ${JSON.stringify(flags.argument)}: the targets are ${HOSTING_TARGETS.join(", ")}`);
  const given = requireValue("--root", flags.values.root, usage);
  const listen = requireValue("--listen", flags.values.listen, usage);
  const { upstream } = flags.values;
  // The path as given (made absolute), not the build it points at: nginx follows the `dist` link
  // per request, so a newly published build is served without regenerating the block.
  const root = resolve(given);
  for (const file of ["manifest.json", "build-report.json"]) {
    if (!existsSync(join(root, file))) throw new UsageError(`--root ${given} is not a build: it has no ${file} (run npm run build first)`);
  }
  if (!/^(\d{1,5}|[A-Za-z0-9.-]+:\d{1,5}|\[[0-9A-Fa-f:.]+\]:\d{1,5})$/.test(listen) || Number(listen.split(":").pop()) > 65535) {
    throw new UsageError(`--listen must be PORT, HOST:PORT or [IPv6]:PORT, got ${JSON.stringify(listen)}`);
  }
  if (upstream !== undefined && !/^https?:\/\/[A-Za-z0-9.[\]:-]+(:\d{1,5})?\/?$/.test(upstream)) {
    throw new UsageError(`--upstream must be http(s)://HOST[:PORT] with no path, got ${JSON.stringify(upstream)}`);
  }
  if (/[\s;{}"'$\\]/.test(root)) throw new UsageError(`--root ${JSON.stringify(root)} has a character nginx would misread (space, quote, ; { } $ or \\)`);
  const baseUrl = readReportBaseUrl(join(root, "build-report.json"), given);
  if (typeof baseUrl !== "string" || /[\s"'$\\]/.test(baseUrl)) throw new UsageError(`--root ${given}: its build-report.json has no base URL nginx can write (${JSON.stringify(baseUrl)})`);
  return { target, root, listen, upstream, baseUrl };
}

/** The base URL a build was made for; a report that is no JSON is a usage error too, in one line. */
function readReportBaseUrl(path: string, given: string): unknown {
  try {
    return (JSON.parse(readFileSync(path, "utf8")) as { base_url?: unknown } | null)?.base_url;
  } catch (error) {
    throw new UsageError(`--root ${given}: its build-report.json cannot be read (${(error as Error).message})`);
  }
}
