/**
 * Every command's flags, each declared once with its environment variable, default and meaning
 * (docs/operators.md "Commands and configuration" table is this file in prose). `npm start` declares
 * nothing of its own: it is the sample, build and serve flags together, because it runs those
 * three steps.
 */
import { DEFAULT_CHANGE_RETENTION, DELETE_GRACE_SECONDS } from "../build/publish.ts";
import { DEFAULT_SPAMMER_PAGE_FILES } from "../core/routes/table.ts";
import { DEFAULT_AS_OF } from "../data/sample/defaults.ts";
import type { CommandSpec, FlagSpec } from "./flags.ts";

/** The flags that shape a generated sample; the sample command adds where to write it. */
const SAMPLE_SHAPE_FLAGS = {
  scale: { type: "string", value: "N", env: "SCALE", default: "20000", description: "reported usernames; everything else grows with it" },
  seed: { type: "string", value: "S", env: "SEED", default: "1", description: "random seed; the same seed gives the same rows" },
  "as-of": { type: "string", value: "T", default: DEFAULT_AS_OF, description: "the snapshot's 'now' (meta as_of), an ISO 8601 instant" },
} as const satisfies FlagSpec;

const BUILD_FLAGS = {
  db: { type: "string", value: "FILE", env: "DB", default: "data/sample.sqlite", description: "the snapshot to compile" },
  out: { type: "string", value: "DIR", env: "DIST", default: "dist", description: "the dist link to publish (builds live beside it)" },
  "base-url": { type: "string", value: "URL", env: "BASE_URL", default: "http://localhost:3000", description: "absolute base URL of the deployment, used in every emitted URL" },
  "list-pages": {
    type: "string",
    value: "N",
    env: "LIST_PAGES",
    default: String(DEFAULT_SPAMMER_PAGE_FILES),
    description: "page files of each ranked spammer list, for static hosts (deeper pages are the live server's; more pages, more files a deploy copies when the ranking moves)",
  },
  full: {
    type: "boolean",
    env: "FULL_BUILD",
    description: "build every file anew instead of bringing the previous build up to date (the result is the same bytes either way)",
  },
  "reader-grace": {
    type: "string",
    value: "S",
    env: "READER_GRACE",
    default: String(DELETE_GRACE_SECONDS),
    description: "seconds the previous build stays untouched after a publish, for readers still in it, before an incremental build reuses its folder",
  },
  "changes-keep": {
    type: "string",
    value: "N",
    env: "CHANGES_KEEP",
    default: String(DEFAULT_CHANGE_RETENTION.publishes),
    description: "publishes whose change files (dumps/changes/) are kept, at least; older ones are dropped unless --changes-days keeps them",
  },
  "changes-days": {
    type: "string",
    value: "D",
    env: "CHANGES_DAYS",
    default: String(DEFAULT_CHANGE_RETENTION.days),
    description: "days before as_of whose publishes' change files are kept, however many",
  },
} as const satisfies FlagSpec;

const SERVE_FLAGS = {
  dist: { type: "string", value: "DIR", env: "DIST", default: "dist", description: "the built dist (folder or link) to serve" },
  port: { type: "string", value: "N", env: "PORT", default: "3000", description: "port to listen on (0 picks a free one)" },
  host: { type: "string", value: "H", env: "HOST", default: "localhost", description: "address to listen on (0.0.0.0 for every interface)" },
  "trust-proxy": { type: "boolean", env: "TRUST_PROXY", description: "rate-limit by the last X-Forwarded-For entry (only behind your own proxy)" },
  "read-limit": { type: "string", value: "N", env: "READ_LIMIT", default: "0", description: "GET/HEAD requests per minute per client address (0: no limit)" },
  "file-memory": { type: "string", value: "MIB", env: "FILE_MEMORY", default: "64", description: "MiB of small files (1 MiB or less) each build keeps in memory (0: none)" },
  "large-file-memory": { type: "string", value: "MIB", env: "LARGE_FILE_MEMORY", default: "32", description: "MiB of larger files (the dumps) each build keeps in memory; one that does not fit is streamed from disk (0: all are)" },
  redis: { type: "string", value: "URL", env: "REDIS_URL", description: "keep the rate limits and the match cache in this Redis (redis:// or rediss://), shared by every server using it; without it, in memory" },
  // DESIGN "More than one server": Apache mod_reqtimeout's defaults; Node's own are too lenient.
  "headers-timeout": { type: "string", value: "S", env: "HEADERS_TIMEOUT", default: "20", description: "seconds a client has to send the request headers, from their first byte (else 408)" },
  "body-timeout": { type: "string", value: "S", env: "BODY_TIMEOUT", default: "20", description: "seconds a client has to send a declared body after the headers (else 408)" },
  "keep-alive-timeout": { type: "string", value: "S", env: "KEEP_ALIVE_TIMEOUT", default: "5", description: "seconds an idle keep-alive connection stays open" },
  "drain-timeout": { type: "string", value: "S", env: "DRAIN_TIMEOUT", default: "10", description: "on SIGTERM/SIGINT, seconds in-flight requests get before the server exits (1 if any is dropped)" },
} as const satisfies FlagSpec;

export const SAMPLE = {
  name: "npm run sample",
  usage: "npm run sample -- [options]",
  about: "Writes a deterministic sample snapshot.",
  flags: {
    ...SAMPLE_SHAPE_FLAGS,
    out: { type: "string", value: "FILE", env: "DB", default: "data/sample.sqlite", description: "where to write the snapshot" },
  },
} as const satisfies CommandSpec;

export const BUILD = {
  name: "npm run build",
  usage: "npm run build -- [options]",
  about: "Compiles a snapshot into a dist folder.",
  flags: BUILD_FLAGS,
} as const satisfies CommandSpec;

export const SERVE = {
  name: "npm run serve",
  usage: "npm run serve -- [options]",
  about: "Serves a built dist folder; reloads when a new build is published, drains on SIGINT/SIGTERM.",
  flags: SERVE_FLAGS,
} as const satisfies CommandSpec;

export const START = {
  name: "npm start",
  usage: "npm start -- [options]",
  about: [
    "Makes the sample snapshot if --db is missing, builds it into --out and serves that.",
    "--out and --dist name the same folder here: give either.",
  ].join("\n"),
  flags: {
    ...SAMPLE_SHAPE_FLAGS,
    ...BUILD_FLAGS,
    // The build's URLs must be where this very server answers, so the default follows --host and --port.
    "base-url": { type: "string", value: "URL", env: "BASE_URL", defaultNote: "http://HOST:PORT", description: BUILD_FLAGS["base-url"].description },
    ...SERVE_FLAGS,
  },
} as const satisfies CommandSpec;

export const HOSTING_TARGETS = ["nginx"] as const;

export const HOSTING = {
  name: "npm run hosting",
  usage: "npm run hosting -- nginx --root DIR --listen ADDR [--upstream URL] [--brotli]",
  about: [
    "Prints the nginx `server { }` block for a built dist, generated from the route table.",
    `Targets: ${HOSTING_TARGETS.join(", ")}. Netlify and Cloudflare Pages read the _headers and _redirects files every build writes.`,
  ].join("\n"),
  takesArgument: true,
  flags: {
    root: { type: "string", value: "DIR", description: "the build to serve: a dist folder, or the dist link (nginx then follows each new build); its base URL goes into the lists' Link headers" },
    listen: { type: "string", value: "ADDR", description: "nginx listen address: PORT, HOST:PORT or [IPv6]:PORT" },
    upstream: { type: "string", value: "URL", description: "the live server (http://HOST:PORT) for what the files cannot answer; without it those get a 501 problem" },
    brotli: { type: "boolean", description: "also send the build's .br files (brotli_static): only where nginx loads the brotli static module" },
  },
} as const satisfies CommandSpec;

export const FINGERPRINT_ACTIONS = ["import"] as const;

export const FINGERPRINTS = {
  name: "npm run fingerprints",
  usage: "npm run fingerprints -- import [--db FILE]",
  about: [
    "Loads the shipped fingerprint profile library (data/fingerprints/library.json) into a snapshot, so that",
    "its builds answer fingerprint matches. Idempotent: run it again after an update of the library.",
    `Actions: ${FINGERPRINT_ACTIONS.join(", ")}.`,
  ].join("\n"),
  takesArgument: true,
  flags: {
    db: { type: "string", value: "FILE", env: "DB", default: "data/sample.sqlite", description: "the snapshot to load the library into (it is written to)" },
  },
} as const satisfies CommandSpec;

export const BENCH = {
  name: "npm run bench",
  usage: "npm run bench -- [options]",
  about: "Runs the benchmarks and prints each figure beside a baseline measured in the same run.",
  flags: {
    only: { type: "string", value: "NAME", description: "run one benchmark: build, incremental, scaling, changes, fingerprint, fingerprint-http, routes, shutdown, search, deploy or serve" },
    scale: { type: "string", value: "N", default: "1000000", description: "usernames for the build, incremental and change-feed benchmarks" },
    "reuse-sample": { type: "boolean", description: "reuse the generated sample if present" },
    dir: { type: "string", value: "DIR", default: ".bench", description: "working folder (gitignored)" },
    "write-docs": { type: "boolean", description: "put each table that ran into its section of docs/benchmarks.md, with the day and the machine" },
  },
} as const satisfies CommandSpec;

export type StartFlags = typeof START.flags;

export const DEPLOY = {
  name: "npm run deploy",
  usage: "npm run deploy -- --to DIR [--dry-run] [--dist DIR]",
  about: [
    "Mirrors the current build into a folder a static host serves, by manifest difference: new and changed",
    "files first, then the files that link to them, then deletions; the deployed manifest is recorded in DIR.",
  ].join("\n"),
  flags: {
    to: { type: "string", value: "DIR", env: "DEPLOY_TO", description: "the served folder to deploy into (created if missing; never inside or above the build)" },
    "dry-run": { type: "boolean", description: "print the plan as JSON and change nothing" },
    dist: { type: "string", value: "DIR", env: "DIST", default: "dist", description: "the build to deploy (the dist link, or a build folder)" },
  },
} as const satisfies CommandSpec;

export const DOCS_API = {
  name: "npm run docs:api",
  usage: "npm run docs:api",
  about: [
    "Writes docs/api-reference.md, the API reference generated from the route table (core/routes/table.ts),",
    "with each route's answer from a small sample build it makes in a temporary folder (about two seconds).",
    "Run it after changing the table or an answer: a test fails while the committed page differs from a fresh one.",
  ].join("\n"),
  flags: {},
} as const satisfies CommandSpec;

export const DOCS_PICTURES = {
  name: "npm run docs:pictures",
  usage: "npm run docs:pictures",
  about: [
    "Writes docs/images/, the pictures of docs/site-owners.md (badges, card, chat badges, one per embed style),",
    "taken from a build of the test fixture it makes in a temporary folder (build/doc-pictures.ts lists them).",
    "Run it after changing how a badge, card or embed looks: a test fails while a committed picture differs.",
  ].join("\n"),
  flags: {},
} as const satisfies CommandSpec;
