/**
 * The examples people copy (docs/examples/) cannot rot: each task — check one username, check
 * many, match a fingerprint — in each of its four forms (curl, JavaScript's fetch, Python's
 * standard library, a TypeScript client typed from /openapi.json) is run as its README says, with
 * API_BASE pointing at a real listening server of the sample build, and must print that build's
 * facts; a refused request must exit non-zero with the problem's detail. The TypeScript client's
 * types are generated from the served document and the examples compiled with `tsc --strict`
 * first. A file in the folder that this test does not run fails it, and so does a curl line of
 * docs/api.md "Examples" whose answer is not the one it shows.
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../server/listen.ts";
import { buildSampleDist, makeTempDir } from "../helpers/fixture.ts";
import { collectOutput, ROOT, TSX, type CommandResult } from "../helpers/run-command.ts";

const EXAMPLES = join(ROOT, "docs/examples");

type Task = "check-one" | "check-many" | "match-fingerprint";
type Form = "curl" | "js" | "python" | "typescript";

/** Where each form of a task is, and what runs it. */
const FORMS: Record<Form, { file: (task: Task) => string; command: string[] }> = {
  curl: { file: (task) => `curl/${task}.sh`, command: ["bash"] },
  js: { file: (task) => `js/${task}.mjs`, command: [process.execPath] },
  python: { file: (task) => `python/${task.replaceAll("-", "_")}.py`, command: ["python3"] },
  // Run from the project the types were generated into (beforeAll), as a reader runs it.
  typescript: { file: (task) => `typescript/${task}.ts`, command: [process.execPath, "--import", TSX] },
};

/** The other files of the folder: the guide, and the TypeScript client's project (its .gitignore names what it generates). */
const SUPPORT_FILES = ["README.md", "typescript/.gitignore", "typescript/package.json", "typescript/tsconfig.json"];
/** What a reader's run leaves in the folder, ignored by git. */
const GENERATED = new Set(["typescript/schema.d.ts", "typescript/package-lock.json", "typescript/node_modules"]);

interface Case {
  says: string;
  args: string[];
  /** What the JavaScript, Python and TypeScript forms print: the same lines. */
  printed?: string;
  /** The curl form prints the JSON answer: it has at least these fields. */
  answer?: Record<string, unknown>;
  /** A refused request: curl prints this problem's body and exits 22, the others print its status, title and detail on stderr and exit 1. */
  problem?: { status: number; title: string; detail: string };
}

const NOT_A_USERNAME = "username may contain only letters a-z, digits and underscores (after an optional leading @)";

/**
 * On the sample built below. Its first usernames (seed 1) have the same reports at any scale, so
 * the examples default to them; only the companies named with them vary with the scale.
 */
const CASES: Record<Task, Case[]> = {
  "check-one": [
    {
      says: "a reported username (the default)",
      args: [],
      printed: lines(
        "@free_cpa9169: reported 41 times by 5 reporters, last seen 2025-11-08T13:51:09Z",
        "categories: payments, gambling, crypto, traffic",
        "companies: SlimStream Partners, WorkFlow Ads, CashEx Network",
      ),
      answer: { found: true, username: "free_cpa9169", reports_count: 41, unique_reports: 5, categories: ["payments", "gambling", "crypto", "traffic"] },
    },
    {
      says: "a username nobody reported",
      args: ["nobody_here"],
      printed: lines("@nobody_here: not reported"),
      answer: { found: false, username: "nobody_here", reports_count: 0 },
    },
    {
      says: "an identifier that is no username (422)",
      args: ["spam-bot"],
      problem: { status: 422, title: "Unprocessable Content", detail: `identifier: ${NOT_A_USERNAME}` },
    },
  ],
  "check-many": [
    {
      says: "two reported usernames, one written as people paste it, and one nobody reported (the default)",
      args: [],
      printed: lines("free_cpa9169: reported 41 times (payments, gambling, crypto, traffic)", "@Win_Offer: reported 6 times (gambling, forex)", "nobody_here: not reported"),
      answer: {
        results: [
          { identifier: "free_cpa9169", result: { found: true, reports_count: 41 } },
          { identifier: "@Win_Offer", result: { found: true, username: "win_offer", reports_count: 6 } },
          { identifier: "nobody_here", result: { found: false, reports_count: 0 } },
        ],
      },
    },
    {
      says: "an identifier that is no username among them, answered in its place",
      args: ["bad name", "win_offer"],
      printed: lines(`bad name: ${NOT_A_USERNAME}`, "win_offer: reported 6 times (gambling, forex)"),
      answer: { results: [{ identifier: "bad name", error: { status: 422, detail: NOT_A_USERNAME } }, { identifier: "win_offer", result: { found: true } }] },
    },
    {
      says: "more usernames than one request may hold (413)",
      args: Array.from({ length: 101 }, (_, i) => `user_${i}`),
      problem: { status: 413, title: "Content Too Large", detail: "usernames: holds 101 usernames; at most 100 are checked per request" },
    },
  ],
  "match-fingerprint": [
    {
      says: "curl 8's TLS and HTTP/2 fingerprints (the default)",
      args: [],
      printed: lines("verdict: high, confidence 0.93", "profile: curl 8 (OpenSSL 3), kind http_client", "matched: ja4, ja3, akamai_h2"),
      answer: { match: { verdict: "high", confidence: 0.93, profile: { label: "curl 8 (OpenSSL 3)", kind: "http_client" }, matched_signals: ["ja4", "ja3", "akamai_h2"] } },
    },
    {
      says: "a JA4 no public profile has",
      args: ["ja4=t13d0000h2_000000000000_000000000000"],
      printed: lines("verdict: unknown, confidence 0", "profile: none (no signal matches a public profile)", "matched: nothing"),
      answer: { match: { verdict: "unknown", confidence: 0, profile: null } },
    },
    {
      says: "a signal with an empty value (422)",
      args: ["ja4="],
      problem: { status: 422, title: "Unprocessable Content", detail: "signals.ja4: must not be empty" },
    },
  ],
};

/** What docs/api.md "Examples" shows each curl line answering, in order. */
const API_GUIDE_ANSWERS = [
  { found: true, username: "free_cpa9169", reports_count: 41 },
  { results: [{ result: { found: true, username: "free_cpa9169" } }, { result: { found: true, username: "win_offer" } }, { result: { found: false } }] },
  { match: { verdict: "medium", profile: { label: "curl 8 (OpenSSL 3)" } } },
];

function lines(...text: string[]): string {
  return text.map((line) => `${line}\n`).join("");
}

/** The runners a machine may lack (Node runs the JavaScript and TypeScript forms). */
const MISSING = ["curl", "python3"].filter((tool) => spawnSync(tool, ["--version"], { stdio: "ignore" }).status !== 0);
if (MISSING.length > 0 && process.env.CI === "true") {
  throw new Error(`not installed: ${MISSING.join(", ")}; scripts/install-test-servers.sh installs them, and under CI their examples must not be skipped`);
}
const installed: Record<Form, boolean> = { curl: !MISSING.includes("curl"), js: true, python: !MISSING.includes("python3"), typescript: true };

let dir: string;
let server: RunningServer;
/** The TypeScript client's project: the examples, their tsconfig and package.json, and the generated schema.d.ts. */
let project: string;

beforeAll(async () => {
  dir = makeTempDir("examples");
  const dist = buildSampleDist(dir, 600, { publishes: 1 });
  server = await startServer({ dist, port: 0, host: "127.0.0.1", fingerprintRateLimit: 0 });
  project = join(dir, "typescript");
  mkdirSync(project);
  for (const file of readdirSync(join(EXAMPLES, "typescript"))) if (!GENERATED.has(`typescript/${file}`)) copyFileSync(join(EXAMPLES, "typescript", file), join(project, file));
  // The packages a reader installs with the project's package.json: this checkout's.
  symlinkSync(join(ROOT, "node_modules"), join(project, "node_modules"), "dir");
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs one example to its end with API_BASE set to the server (its URL ends in `/`, which the examples must take). */
function runExample(form: Form, task: Task, args: string[]): Promise<CommandResult> {
  const file = form === "typescript" ? join(project, basename(FORMS[form].file(task))) : join(EXAMPLES, FORMS[form].file(task));
  const [command, ...options] = FORMS[form].command;
  return run(command!, [...options, file, ...args], { cwd: form === "typescript" ? project : EXAMPLES, env: { API_BASE: server.url } });
}

/**
 * Runs a command to its end without blocking this process, which is the server's: a spawnSync
 * here would hold the event loop while the command waits for the server's answer.
 */
async function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<CommandResult> {
  // A proxy set on the machine must not stand between the command and the loopback server.
  const env = { ...process.env, NO_PROXY: "127.0.0.1", no_proxy: "127.0.0.1", ...options.env };
  return collectOutput(spawn(command, args, { cwd: options.cwd, env, stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 }));
}

function listFolder(folder: string, prefix = ""): string[] {
  return readdirSync(join(folder, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (GENERATED.has(path)) return [];
    return entry.isDirectory() ? listFolder(folder, path) : [path];
  });
}

const TASKS = Object.keys(CASES) as Task[];
const EXAMPLE_FILES = (Object.keys(FORMS) as Form[]).flatMap((form) => TASKS.map((task) => FORMS[form].file(task)));

describe("docs/examples", () => {
  it("holds nothing this test does not run: every file is a task's example in one of the four forms, or the guide and the TypeScript project", () => {
    expect(listFolder(EXAMPLES).sort()).toEqual([...EXAMPLE_FILES, ...SUPPORT_FILES].sort());
  });

  it("names every example in its README, whose relative links all reach a file", () => {
    const readme = readFileSync(join(EXAMPLES, "README.md"), "utf8");
    expect(EXAMPLE_FILES.filter((file) => !readme.includes(`](${file})`))).toEqual([]);
    // test/architecture/docs-links.test.ts reads the pages at the top of docs/ only; anchors, which
    // only it checks, are kept out of this page.
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link));
    expect(links.filter((link) => link.includes("#") || !existsSync(join(EXAMPLES, link)))).toEqual([]);
  });

  it("asks the TypeScript reader to install the versions this project tests the client with", () => {
    const ours = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const theirs = JSON.parse(readFileSync(join(EXAMPLES, "typescript/package.json"), "utf8"));
    const wanted = { ...theirs.dependencies, ...theirs.devDependencies } as Record<string, string>;
    const tested = { ...ours.dependencies, ...ours.devDependencies } as Record<string, string>;
    expect(Object.entries(wanted).filter(([name, range]) => tested[name] !== range)).toEqual([]);
  });

  it("TypeScript: the types generate from the served /openapi.json and the examples compile under tsc --strict", async () => {
    const generate = await run(process.execPath, [join(ROOT, "node_modules/openapi-typescript/bin/cli.js"), new URL("openapi.json", server.url).href, "-o", "schema.d.ts"], { cwd: project });
    expect(generate.status, generate.stderr).toBe(0);
    const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", project, "--strict"], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  }, 60_000);

  describe.each(Object.keys(FORMS) as Form[])("%s", (form) => {
    describe.each(TASKS)("%s", (task) => {
      it.skipIf(!installed[form]).each(CASES[task].map((c) => [c.says, c] as const))("%s", async (_, { args, printed, answer, problem }) => {
        const result = await runExample(form, task, args);
        if (form === "curl") {
          // --show-error: curl names the status it failed on.
          expect(result.stderr).toBe(problem ? `curl: (22) The requested URL returned error: ${problem.status}\n` : "");
          expect(result.status).toBe(problem ? 22 : 0);
          expect(JSON.parse(result.stdout)).toMatchObject(problem ?? answer!);
        } else if (problem) {
          expect(result.stdout).toBe("");
          expect(result.stderr).toBe(`${problem.status} ${problem.title}: ${problem.detail}\n`);
          expect(result.status).toBe(1);
        } else {
          expect(result.stderr).toBe("");
          expect(result.stdout).toBe(printed);
          expect(result.status).toBe(0);
        }
      });
    });
  });
});

describe("docs/api.md, Examples", () => {
  it.skipIf(!installed.curl)("has one curl line per task, each answered as the guide shows on the sample", async () => {
    const guide = readFileSync(join(ROOT, "docs/api.md"), "utf8");
    const section = guide.slice(guide.indexOf("\n## Examples\n")).split(/\n## /)[1] ?? "";
    const curlLines = section.split("\n").filter((line) => line.startsWith("curl "));
    expect(curlLines).toHaveLength(API_GUIDE_ANSWERS.length);
    const origin = server.url.replace(/\/$/, "");
    for (const [i, line] of curlLines.entries()) {
      const curl = await run("bash", ["-c", `${line.replaceAll("https://api.example.org", origin)} --silent --show-error --fail-with-body`], { cwd: dir });
      expect(curl.status, `${line}\n${curl.stdout}${curl.stderr}`).toBe(0);
      expect(JSON.parse(curl.stdout)).toMatchObject(API_GUIDE_ANSWERS[i]!);
    }
  });
});
