/**
 * Every shell command the docs show for the sample is one the suite runs, as written, from the
 * checkout: `npm …` lines and `curl localhost…` calls, found in the Markdown pages' code spans and
 * shell blocks (docs/examples/ and its commands are test/e2e/examples.test.ts's). A command that is not for the sample is left out by a rule below that says why
 * (CI's own steps, the benchmarks, an operator's own paths or deployment, a command's bare name);
 * anything else a page shows must run here and exit 0, so a renamed flag or script in a guide
 * fails the suite instead of a reader.
 *
 * The commands write what they say they write: data/sample.sqlite and dist/ of the checkout (both
 * ignored by git). What this test made that was not there before, it deletes when it is done.
 * Two substitutions, both about ports: a server's port 3000 becomes 0 (a free one), and
 * `localhost:3000` in a curl becomes the address that server printed.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listMarkdownPages } from "../helpers/markdown-pages.ts";
import { getCommandEnv, ROOT } from "../helpers/run-command.ts";

const PAGES = listMarkdownPages(ROOT);

/** Every `npm` and `curl` command a page shows: code spans, and lines of shell blocks (comments cut). */
export function listDocCommands(markdown: string): string[] {
  const found: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const opening = /^```(\w*)/.exec(line);
    if (opening) {
      fence = fence === undefined ? opening[1] : undefined;
      continue;
    }
    if (fence !== undefined) {
      const command = line.replace(/\s+#.*$/, "").trim();
      if (["sh", "bash", "shell", ""].includes(fence) && /^(npm|curl)( |$)/.test(command)) found.push(command);
      continue;
    }
    for (const span of line.matchAll(/`([^`]+)`/g)) {
      const command = span[1]!.trim();
      if (/^(npm|curl)( |$)/.test(command)) found.push(command);
    }
  }
  return found;
}

/** Why a command is not one the suite runs, or undefined when it is. */
export function whyNotRun(command: string): string | undefined {
  if (/^npm (install|ci|test)$/.test(command)) return "installs packages or runs the suite: what .ci/run does";
  if (/^npm run bench\b/.test(command)) return "a benchmark: test/bench/ runs each small";
  if (/^npm (run [\w:-]+|start)( --( [a-z]+)?)?$/.test(command) && command !== "npm start") return "a command's name in prose or in the flag table";
  if (/\/srv\/|your-snapshot|\[--|NAME\b/.test(command)) return "an operator's own paths or a placeholder: the sample's form of the command is run";
  if (/^curl\b/.test(command) && !/\blocalhost:3000\b/.test(command)) return "not for the sample: a deployment's URL, or curl named in prose";
  return undefined;
}

/** A long-running server command (`npm start`, `npm run serve`): it runs until the curls are done. */
const isServer = (command: string) => /^npm (start|run serve)\b/.test(command);
/** Build, sample and setup commands run first, in the order the README gives them; servers next; curls against each server. */
const order = (command: string) => (/^npm run sample\b/.test(command) ? 0 : /^npm run fingerprints\b/.test(command) ? 1 : /^npm run build\b/.test(command) ? 2 : isServer(command) ? 4 : /^curl\b/.test(command) ? 5 : 3);

const shown = [...new Set(PAGES.flatMap((page) => listDocCommands(readFileSync(join(ROOT, page), "utf8"))))];
const runnable = shown.filter((command) => whyNotRun(command) === undefined).sort((a, b) => order(a) - order(b));
const curls = runnable.filter((command) => command.startsWith("curl"));

const MADE = ["dist", ".dist-builds", "data/sample.sqlite"].filter((path) => !existsSync(join(ROOT, path)));
afterAll(() => {
  for (const path of MADE) rmSync(join(ROOT, path), { recursive: true, force: true });
});

function runShell(command: string): { status: number | null; output: string } {
  const result = spawnSync("sh", ["-c", command], { cwd: ROOT, env: getCommandEnv(), encoding: "utf8", timeout: 240_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.slice(-2000) };
}

/** Starts a server command in its own process group; resolves with the address it printed. */
async function startServer(command: string): Promise<{ address: string; stop: () => Promise<void> }> {
  const child = spawn("sh", ["-c", command.replace(/--port 3000\b/, "--port 0")], { cwd: ROOT, env: getCommandEnv({ PORT: "0" }), detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    await exited;
  };
  let output = "";
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command}: no address printed in 240 s:\n${output.slice(-2000)}`)), 240_000);
    const read = (chunk: Buffer) => {
      output += String(chunk);
      const at = /at http:\/\/([^/\s]+)/.exec(output);
      if (at) {
        clearTimeout(timer);
        resolve(at[1]!);
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    void exited.then(() => reject(new Error(`${command} exited before listening:\n${output.slice(-2000)}`)));
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  return { address, stop };
}

describe("the shell commands the docs show", () => {
  it("are found, and the README's quick start and table are among those run", () => {
    expect(shown.length).toBeGreaterThan(20);
    for (const command of ["npm start", "npm run build -- --db data/sample.sqlite --out dist --base-url https://api.example.org", "npm run serve -- --dist dist --port 3000"]) {
      expect(runnable).toContain(command);
    }
    expect(curls.length).toBeGreaterThan(0);
  });

  it("leave out only what a rule explains", () => {
    expect(whyNotRun("npm test")).toMatch(/suite/);
    expect(whyNotRun("npm run bench -- --only build")).toMatch(/benchmark/);
    expect(whyNotRun("npm run build --")).toMatch(/name/);
    expect(whyNotRun("npm run hosting -- nginx")).toMatch(/name/);
    expect(whyNotRun("npm run deploy -- --to /srv/www")).toMatch(/operator/);
    expect(whyNotRun("curl https://api.example.org/api/check/x")).toMatch(/deployment/);
    expect(whyNotRun("npm run build -- --full")).toBeUndefined();
    expect(whyNotRun("curl localhost:3000/api/companies")).toBeUndefined();
  });

  it.each(runnable.filter((command) => !isServer(command) && !command.startsWith("curl")))("%s", (command) => {
    const { status, output } = runShell(command);
    expect(status, output).toBe(0);
  }, 300_000);

  it.each(runnable.filter(isServer))("%s, and every curl of the docs against it", async (command) => {
    const server = await startServer(command);
    try {
      for (const curl of curls) {
        const { status, output } = runShell(`${curl.replace(/\blocalhost:3000\b/g, server.address)} --fail-with-body --silent --show-error`);
        expect(status, `${curl}\n${output}`).toBe(0);
        expect(output.length, curl).toBeGreaterThan(0);
      }
    } finally {
      await server.stop();
    }
  }, 300_000);
});
