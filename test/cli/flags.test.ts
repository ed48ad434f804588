/**
 * The flag parser and the option resolvers, in-process: where a value comes from (flag, then
 * environment, then default), how a refused command line reads (one line naming the valid flags,
 * exit status 2), and what `npm start` makes of the sample, build and serve flags it takes.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { printFailure } from "../../cli/command.ts";
import { BUILD, SAMPLE, SERVE, START } from "../../cli/flag-table.ts";
import { formatHelp, readFlags, UsageError, wantsHelp } from "../../cli/flags.ts";
import { resolveBuildOptions, resolveServeOptions, resolveStartOptions } from "../../cli/resolve-options.ts";
import { DEFAULT_TIMEOUTS } from "../../server/timeouts.ts";

/** The first line a refusal prints, and the exit status it gets. */
function refuse(run: () => unknown): { status: number; lines: string[] } {
  const stream = new PassThrough();
  let status = 0;
  try {
    run();
  } catch (error) {
    status = printFailure(error, stream);
  }
  return { status, lines: String(stream.read() ?? "").trimEnd().split("\n") };
}

describe("where a value comes from", () => {
  it("takes the flag over the environment, and the environment over the default", () => {
    const env = { PORT: "4000", HOST: "0.0.0.0" };
    const flags = readFlags(SERVE, ["--port", "5000"], env);
    expect(flags.values).toMatchObject({ port: "5000", host: "0.0.0.0", dist: "dist", "read-limit": "0", "trust-proxy": false });
    expect([flags.label("port"), flags.label("host"), flags.label("dist")]).toEqual(["--port", "HOST", "--dist"]);
  });

  it("treats an empty environment variable as unset", () => {
    expect(readFlags(SERVE, [], { PORT: "" }).values.port).toBe("3000");
  });

  it("reads a switch from the flag or from the usual words in the environment", () => {
    expect(readFlags(SERVE, ["--trust-proxy"], { TRUST_PROXY: "no" }).values["trust-proxy"]).toBe(true);
    expect(readFlags(SERVE, [], { TRUST_PROXY: "yes" }).values["trust-proxy"]).toBe(true);
    expect(readFlags(SERVE, [], { TRUST_PROXY: "0" }).values["trust-proxy"]).toBe(false);
    expect(refuse(() => readFlags(SERVE, [], { TRUST_PROXY: "maybe" })).lines).toEqual([
      'error: TRUST_PROXY must be one of true, 1, yes, on, false, 0, no, off, got "maybe"',
    ]);
  });

  it("names the environment variable when a bad value came from there", () => {
    const fromEnv = readFlags(SERVE, [], { PORT: "eighty" });
    expect(refuse(() => resolveServeOptions(fromEnv))).toEqual({ status: 2, lines: ['error: PORT must be a whole number from 0 to 65535, got "eighty"'] });
  });
});

describe("--redis", () => {
  it("hands the server a Redis URL from the flag or from REDIS_URL, and none by default", () => {
    const serve = (argv: string[], env = {}) => resolveServeOptions(readFlags(SERVE, argv, env)).redisUrl;
    expect(serve([])).toBeUndefined();
    expect(serve([], { REDIS_URL: "redis://cache.internal:6380/2" })).toBe("redis://cache.internal:6380/2");
    expect(serve(["--redis", "rediss://user:secret@cache:6380"], { REDIS_URL: "redis://other" })).toBe("rediss://user:secret@cache:6380");
    expect(resolveStartOptions(readFlags(START, ["--redis", "redis://127.0.0.1:6379"], {})).serve.redisUrl).toBe("redis://127.0.0.1:6379");
    expect(formatHelp(SERVE)).toMatch(/--redis URL +keep the rate limits and the match cache in this Redis .* \[env REDIS_URL\]/);
  });

  it.each([
    ["http://user:secret@cache:6379", "a http: URL"],
    ["redis://", "a URL with no host"],
    ["user:secret@cache", "a user: URL"],
    ["secret cache", "something that is not a URL"],
  ])("refuses %j without repeating it (it may hold a password)", (value, got) => {
    expect(refuse(() => resolveServeOptions(readFlags(SERVE, [], { REDIS_URL: value })))).toEqual({
      status: 2,
      lines: [`error: REDIS_URL must be redis://[USER:PASSWORD@]HOST[:PORT][/DB] (rediss:// for TLS), got ${got}`],
    });
  });
});

describe("a refused command line", () => {
  it.each([
    [["--bogus"], "error: unknown flag --bogus; npm run build takes --db, --out, --base-url, --list-pages, --full, --reader-grace, --changes-keep, --changes-days, --help"],
    [["-x"], "error: unknown flag -x; npm run build takes --db, --out, --base-url, --list-pages, --full, --reader-grace, --changes-keep, --changes-days, --help"],
    [["--db"], "error: --db needs a value: --db FILE"],
    [["--db", "--out", "x"], "error: --db needs a value: --db FILE"],
    [["stray"], 'error: unexpected argument "stray"; npm run build takes --db, --out, --base-url, --list-pages, --full, --reader-grace, --changes-keep, --changes-days, --help'],
  ])("%j is one line and exit status 2", (argv, line) => {
    expect(refuse(() => readFlags(BUILD, argv, {}))).toEqual({ status: 2, lines: [line] });
  });

  it("takes a value that starts with a dash when it is written inline", () => {
    expect(readFlags(SAMPLE, ["--seed=-7"], {}).values.seed).toBe("-7");
  });

  it("is exit status 1 when the command failed while working, not at its flags", () => {
    expect(refuse(() => { throw new Error("snapshot not found", { cause: new Error("ENOENT") }); })).toEqual({
      status: 1,
      lines: ["error: snapshot not found", "cause: ENOENT"],
    });
  });

  it("is a UsageError, which is how a command knows not to start", () => {
    expect(() => readFlags(BUILD, ["--bogus"], {})).toThrow(UsageError);
  });
});

describe("--list-pages", () => {
  it("hands the build how many page files each spammer list gets: the flag, LIST_PAGES, or 20", () => {
    const pages = (argv: string[], env: Record<string, string> = {}) => resolveBuildOptions(readFlags(BUILD, argv, env)).listPages;
    expect(pages([])).toBe(20);
    expect(pages([], { LIST_PAGES: "5" })).toBe(5);
    expect(pages(["--list-pages", "300"], { LIST_PAGES: "5" })).toBe(300);
    expect(resolveStartOptions(readFlags(START, ["--list-pages", "2"], {})).build.listPages).toBe(2);
  });

  it.each(["0", "-1", "abc", "1.5"])("refuses %s with one line, exit 2 (page 1 is always a file: it is each list's default answer)", (value) => {
    const { status, lines } = refuse(() => resolveBuildOptions(readFlags(BUILD, ["--list-pages", value], {})));
    expect([status, lines.length]).toEqual([2, 1]);
    expect(lines[0]).toMatch(/^error: --list-pages/);
  });
});

describe("--full and --reader-grace", () => {
  it("build incrementally by default; --full or FULL_BUILD asks for a full build", () => {
    const full = (argv: string[], env: Record<string, string> = {}) => resolveBuildOptions(readFlags(BUILD, argv, env)).full;
    expect(full([])).toBe(false);
    expect(full(["--full"])).toBe(true);
    expect(full([], { FULL_BUILD: "1" })).toBe(true);
    expect(resolveStartOptions(readFlags(START, ["--full"], {})).build.full).toBe(true);
  });

  it("give the previous build's readers 30 s by default, or what the flag or READER_GRACE says", () => {
    const grace = (argv: string[], env: Record<string, string> = {}) => resolveBuildOptions(readFlags(BUILD, argv, env)).readerGraceSeconds;
    expect(grace([])).toBe(30);
    expect(grace([], { READER_GRACE: "0" })).toBe(0);
    expect(grace(["--reader-grace", "5"], { READER_GRACE: "0" })).toBe(5);
    const { status, lines } = refuse(() => resolveBuildOptions(readFlags(BUILD, ["--reader-grace", "-1"], {})));
    expect([status, lines[0]]).toEqual([2, 'error: --reader-grace must be a whole number from 0 to 3600, got "-1"']);
  });
});

describe("--help", () => {
  it("wins over every other word before --", () => {
    expect(wantsHelp(["--bogus", "--help"])).toBe(true);
    expect(wantsHelp(["-h"])).toBe(true);
    expect(wantsHelp(["--", "--help"])).toBe(false);
  });

  it("lists each flag with its environment variable and default", () => {
    const help = formatHelp(SERVE);
    expect(help.split("\n")[0]).toBe("Usage: npm run serve -- [options]");
    expect(help).toMatch(/--port N +port to listen on \(0 picks a free one\) \[env PORT, default 3000\]/);
    expect(help).toMatch(/--trust-proxy +rate-limit .* \[env TRUST_PROXY\]/);
    expect(help).toMatch(/--help, -h +print this help and exit/);
  });
});

describe("the server's timeouts", () => {
  it("default to DESIGN's: headers and body 20 s each, idle keep-alive 5 s, drain 10 s", () => {
    expect(resolveServeOptions(readFlags(SERVE, [], {})).timeouts).toEqual(DEFAULT_TIMEOUTS);
    expect(DEFAULT_TIMEOUTS).toEqual({ headersMs: 20_000, bodyMs: 20_000, keepAliveMs: 5_000, drainMs: 10_000 });
  });

  it("are whole seconds from a flag or the environment, in milliseconds for the server", () => {
    const env = { HEADERS_TIMEOUT: "7", BODY_TIMEOUT: "8", KEEP_ALIVE_TIMEOUT: "2", DRAIN_TIMEOUT: "30" };
    expect(resolveServeOptions(readFlags(SERVE, ["--body-timeout", "9"], env)).timeouts).toEqual({ headersMs: 7_000, bodyMs: 9_000, keepAliveMs: 2_000, drainMs: 30_000 });
  });

  it.each([
    [["--headers-timeout", "0"], '--headers-timeout must be a whole number from 1 to 3600, got "0"'],
    [["--drain-timeout", "1.5"], '--drain-timeout must be a whole number from 1 to 3600, got "1.5"'],
    [["--keep-alive-timeout", "3601"], '--keep-alive-timeout must be a whole number from 1 to 3600, got "3601"'],
  ])("refuse %j with one line, exit 2", (argv, line) => {
    expect(refuse(() => resolveServeOptions(readFlags(SERVE, argv, {})))).toEqual({ status: 2, lines: [`error: ${line}`] });
  });
});

describe("npm start", () => {
  it("takes every build and serve flag, and the sample's except where to write it (that is --db)", () => {
    const names = Object.keys(START.flags);
    for (const name of [...Object.keys(BUILD.flags), ...Object.keys(SERVE.flags)]) expect(names).toContain(name);
    expect(names).toEqual(expect.arrayContaining(["scale", "seed", "as-of"]));
  });

  it("hands the serve flags to the server", () => {
    const argv = ["--read-limit", "7", "--trust-proxy", "--host", "127.0.0.1", "--port", "3917", "--drain-timeout", "3", "--file-memory", "16", "--large-file-memory", "0"];
    const options = resolveStartOptions(readFlags(START, argv, {}));
    expect(options.serve).toEqual({
      dist: "dist",
      port: 3917,
      host: "127.0.0.1",
      trustProxy: true,
      readRateLimit: 7,
      fileStore: { memoryBytes: 16 << 20, maxMemoryFileBytes: 1 << 20, largeMemoryBytes: 0 },
      timeouts: { headersMs: 20_000, bodyMs: 20_000, keepAliveMs: 5_000, drainMs: 3_000 },
    });
  });

  it("builds for the address it serves unless told otherwise", () => {
    const at = (argv: string[], env = {}) => resolveStartOptions(readFlags(START, argv, env)).build.baseUrl;
    expect(at([])).toBe("http://localhost:3000");
    expect(at([], { PORT: "8080" })).toBe("http://localhost:8080");
    expect(at(["--host", "0.0.0.0", "--port", "80"])).toBe("http://localhost:80");
    expect(at(["--host", "::1"])).toBe("http://[::1]:3000");
    expect(at(["--base-url", "https://api.example.org"], { PORT: "8080" })).toBe("https://api.example.org");
  });

  it("builds and serves one folder, named by --out or --dist", () => {
    const start = (argv: string[], env = {}) => resolveStartOptions(readFlags(START, argv, env));
    expect(start(["--dist", "public"])).toMatchObject({ build: { out: "public" }, serve: { dist: "public" } });
    expect(start(["--out", "public"], { DIST: "other" })).toMatchObject({ build: { out: "public" }, serve: { dist: "public" } });
    expect(start([], { DIST: "other" })).toMatchObject({ build: { out: "other" }, serve: { dist: "other" } });
    expect(refuse(() => start(["--out", "a", "--dist", "b"])).lines).toEqual(["error: --out a and --dist b disagree: npm start serves the folder it builds, so give one"]);
  });

  it("samples into the snapshot it then builds", () => {
    const options = resolveStartOptions(readFlags(START, ["--db", "x.sqlite"], { SCALE: "500" }));
    expect(options.sample).toEqual({ scale: 500, seed: "1", asOf: "2026-11-15T18:00:00Z", out: "x.sqlite" });
    expect(options.build.db).toBe("x.sqlite");
  });
});
