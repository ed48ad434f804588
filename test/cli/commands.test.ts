/**
 * Every command as a person runs it, in its own process (DESIGN "Commands" is a contract):
 * `--help` exits 0 and touches nothing, an unknown flag or a bad value is one line and exit 2,
 * and `npm start` passes a serve flag through to the server it starts.
 */
import { spawn } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSnapshot, makeTempDir } from "../helpers/fixture.ts";
import { getCommandEnv, ROOT, runScript, TSX } from "../helpers/run-command.ts";

const TIMEOUT_FLAGS = ["--headers-timeout", "--body-timeout", "--keep-alive-timeout", "--drain-timeout"] as const;

const COMMANDS = [
  ["npm run build", "cli/build.ts", ["--db", "--out", "--base-url"]],
  ["npm run serve", "cli/serve.ts", ["--dist", "--port", "--host", "--trust-proxy", "--read-limit", ...TIMEOUT_FLAGS]],
  ["npm run sample", "cli/sample.ts", ["--scale", "--seed", "--out", "--as-of"]],
  ["npm start", "cli/start.ts", ["--scale", "--db", "--out", "--base-url", "--dist", "--port", "--host", "--trust-proxy", "--read-limit", ...TIMEOUT_FLAGS]],
  ["npm run hosting", "cli/hosting.ts", ["--root", "--listen", "--upstream"]],
  ["npm run bench", "bench/run.ts", ["--only", "--scale", "--reuse-sample", "--dir"]],
  ["npm run fingerprints", "cli/fingerprints.ts", ["--db"]],
] as const;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Runs a command to its end with an empty temporary folder as its working directory, and lists what it left there. */
async function runCommand(script: string, args: string[], env: Record<string, string> = {}) {
  const cwd = makeTempDir("cli");
  dirs.push(cwd);
  return { ...(await runScript(script, args, { cwd, env })), created: readdirSync(cwd) };
}

describe.each(COMMANDS)("%s", (name, script, flags) => {
  it("answers --help with every flag, exit 0, and no side effect", async () => {
    const result = await runCommand(script, ["--help"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`Usage: ${name}`);
    for (const flag of flags) expect(result.stdout).toContain(flag);
    expect(result.created).toEqual([]);
  });

  it("refuses an unknown flag with one line naming it and the valid ones, exit 2", async () => {
    const result = await runCommand(script, ["--bogus"]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(new RegExp(`^error: unknown flag --bogus; ${name} takes --.*, --help$`))]);
    for (const flag of flags) expect(result.stderr).toContain(flag);
    expect(result.created).toEqual([]);
  });
});

describe("a bad value", () => {
  it.for([
    ["cli/build.ts", ["--base-url", "ftp://example.org"], {}, "--base-url must use http or https"],
    ["cli/serve.ts", ["--read-limit", "-1"], {}, '--read-limit must be a whole number from 0 to 1000000, got "-1"'],
    ["cli/serve.ts", [], { PORT: "eighty" }, 'PORT must be a whole number from 0 to 65535, got "eighty"'],
    ["cli/serve.ts", [], { DRAIN_TIMEOUT: "soon" }, 'DRAIN_TIMEOUT must be a whole number from 1 to 3600, got "soon"'],
    ["cli/sample.ts", ["--scale", "0"], {}, '--scale must be a whole number from 1 to 10000000, got "0"'],
    ["cli/start.ts", ["--as-of", "yesterday"], {}, '--as-of must be an ISO 8601 instant, got "yesterday"'],
    ["bench/run.ts", ["--only", "nothing"], {}, "--only must be one of build"],
  ] as const)("%s %j is one line and exit 2, before anything is written", async ([script, args, env, message]) => {
    const result = await runCommand(script, [...args], env);
    expect(result.status).toBe(2);
    expect(result.stderr.trimEnd().split("\n")).toEqual([expect.stringContaining(message)]);
    expect(result.created).toEqual([]);
  });

  it("in the environment does not matter when the flag is given", async () => {
    const sample = await runCommand("cli/sample.ts", ["--scale", "1", "--out", "s.sqlite"], { SCALE: "zero" });
    expect(sample.status).toBe(0);
    expect(sample.created).toEqual(["s.sqlite"]);
  });
});

describe("npm start", () => {
  it("passes a serve flag (--read-limit) to the server it starts", async () => {
    const dir = makeTempDir("cli-start");
    dirs.push(dir);
    const db = createSnapshot(dir);
    const args = ["--db", db, "--out", join(dir, "dist"), "--port", "0", "--host", "127.0.0.1", "--read-limit", "1"];
    const child = spawn(process.execPath, ["--import", TSX, join(ROOT, "cli/start.ts"), ...args], { cwd: dir, env: getCommandEnv(), stdio: ["ignore", "pipe", "pipe"] });
    try {
      let output = "";
      child.stderr.on("data", (chunk) => (output += chunk));
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk) => {
          output += chunk;
          const match = /serving .* at (http:\/\/\S+)/.exec(output);
          if (match) resolve(match[1]!);
        });
        child.on("exit", () => reject(new Error(`npm start exited: ${output}`)));
      });
      expect(output).toContain("build: published");
      const statuses: number[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await fetch(new URL("/api/companies", url));
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 429]);
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  });
});
