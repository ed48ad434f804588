/**
 * The server as real processes, started the way operators and process managers start it: through
 * npm. npm runs a script with `sh -c`, and forwards SIGTERM only to that child; the scripts exec
 * node, so the child is the server itself, which drains (answers what is in flight with
 * `Connection: close`) and exits 0 — or 1 when its drain timed out. When npm dies without a word
 * (SIGKILL), the server notices and drains too, rather than serve on as an orphan.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCommandEnv } from "../helpers/command-env.ts";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";
import { openRawConnection } from "../helpers/raw-http.ts";

const ROOT = join(import.meta.dirname, "../..");
const BODY = JSON.stringify({ signals: { ja4: "t13d1516h2_8daaf6152771_02713d6af862" } });
const POST_HEAD = `POST /api/fingerprint/match HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`;

let fixture: BuiltFixture;
const started: ChildProcess[] = [];
beforeAll(() => {
  fixture = buildFixture("run-server");
});
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  fixture.cleanup();
});

interface Started {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  output: () => string;
}

/** Spawns a command and waits for the URL it serves at. */
async function startCommand(command: string, args: string[]): Promise<Started> {
  const child = spawn(command, args, { cwd: ROOT, env: getCommandEnv(), stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  let output = "";
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const found = /serving .* at (http:\/\/\S+)/.exec(output);
      if (found) resolve(found[1]!);
    });
    void exited.then(() => reject(new Error(`${command} exited: ${output}`)));
  });
  return { child, url, exited, output: () => output };
}

const npmServe = (...flags: string[]) => startCommand("npm", ["run", "serve", "--", "--dist", fixture.dist, "--port", "0", "--host", "127.0.0.1", ...flags]);

/** The processes a process started, from the kernel's own list. */
function listChildren(pid: number): { pid: number; argv: string[] }[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map((p) => ({
    pid: Number(p),
    argv: readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").filter(Boolean),
  }));
}

/** Resolves when the process is gone (the test's timeout bounds the wait). */
async function waitUntilGone(pid: number): Promise<void> {
  while (existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ")) await new Promise((r) => setTimeout(r, 50));
}

describe.skipIf(process.platform !== "linux")("npm run serve", () => {
  it("is npm and the server: npm's one child is node running the compiled server, with no shell or TypeScript loader between", async () => {
    const { child } = await npmServe();
    const children = listChildren(child.pid!);
    expect(children).toHaveLength(1);
    expect(children[0]!.argv[0]).toMatch(/(^|\/)node$/);
    expect(children[0]!.argv.slice(1, 3)).toEqual(["cli/launch.mjs", "serve"]);
    expect(children[0]!.argv).not.toContain("tsx");
    // Nor the compiler's service process, when the server was compiled at this start.
    expect(listChildren(children[0]!.pid)).toEqual([]);
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  });

  it("on SIGTERM to npm, answers the request in flight with Connection: close, refuses new connections, and exits 0", async () => {
    const { child, url, exited, output } = await npmServe();
    const [server] = listChildren(child.pid!);
    const uploading = await openRawConnection(url);
    uploading.write(POST_HEAD + BODY.slice(0, 5));
    child.kill("SIGTERM");
    await expect.poll(() => output(), { timeout: 20_000 }).toContain("SIGTERM: no new connections");
    await expect(fetch(url)).rejects.toMatchObject({ cause: { code: "ECONNREFUSED" } });
    uploading.write(BODY.slice(5));
    const answer = await uploading.readResponse();
    expect([answer.status, answer.headers.connection]).toEqual([200, "close"]);
    expect(await exited).toBe(0);
    expect(output()).toContain("drained: 1 answered");
    await waitUntilGone(server!.pid);
  });

  it("drains by itself when npm is killed outright, instead of serving on as an orphan", async () => {
    const { child, url, exited } = await npmServe();
    const [server] = listChildren(child.pid!);
    child.kill("SIGKILL");
    await exited;
    await waitUntilGone(server!.pid);
    await expect(fetch(url)).rejects.toMatchObject({ cause: { code: "ECONNREFUSED" } });
  });

  it("exits 1 when its drain times out with a request unanswered", async () => {
    const { child, url, exited, output } = await npmServe("--drain-timeout", "1");
    const stalled = await openRawConnection(url);
    stalled.write(POST_HEAD + BODY.slice(0, 5));
    await expect.poll(() => listChildren(child.pid!).length, { timeout: 20_000 }).toBe(1);
    child.kill("SIGTERM");
    expect(await exited).toBe(1);
    expect(output()).toContain("drain timed out: 0 answered, 1 dropped");
    expect(await stalled.ended).toMatch(/end|reset/);
  });
});

describe.skipIf(process.platform !== "linux")("npm start", () => {
  it("is npm and the server too, and exits 0 on SIGTERM to npm", async () => {
    const out = join(fixture.dir, "start-dist");
    const { child, exited } = await startCommand("npm", ["start", "--", "--db", fixture.db, "--out", out, "--port", "0", "--host", "127.0.0.1"]);
    const children = listChildren(child.pid!);
    expect(children.map((c) => c.argv.slice(0, 4))).toEqual([[expect.stringMatching(/(^|\/)node$/), "--import", "tsx", "cli/start.ts"]]);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
