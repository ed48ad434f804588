/**
 * `npm run serve` as an operator runs it: the compiled server (cli/launch.mjs) in its own process on a free loopback
 * port, resolved once it prints the URL it listens at. For the tests and benchmarks that need the
 * real process (its RSS, its signals), not an app in this one.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { ROOT } from "./run-command.ts";

export interface ServeProcess {
  child: ChildProcess;
  /** The URL it printed, without a trailing slash. */
  url: string;
  stop(): void;
}

/** `wrap` puts a command in front (e.g. `taskset -c 0`), which must exec the server itself. */
export async function startServeProcess(dist: string, options: { wrap?: string[]; args?: string[] } = {}): Promise<ServeProcess> {
  const argv = [process.execPath, "cli/launch.mjs", "serve", "--dist", dist, "--port", "0", "--host", "127.0.0.1", ...(options.args ?? [])];
  const [command, ...args] = [...(options.wrap ?? []), ...argv];
  const child = spawn(command!, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const stop = () => void child.kill("SIGTERM");
  try {
    return { child, url: await waitForUrl(child, "npm run serve"), stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/**
 * The URL a server process prints once it listens (`… at http://…`), without a trailing slash;
 * an error, with what it printed, if it exits first. `what` names it in that error.
 */
export function waitForUrl(child: ChildProcess, what: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk) => {
      output += String(chunk);
      const found = /at (http:\/\/\S+)/.exec(output);
      if (found) resolve(found[1]!.replace(/\/$/, ""));
    });
    child.once("exit", (code) => reject(new Error(`${what} exited (${code}) before listening: ${output}`)));
  });
}

/** Resident set of a process, from /proc (Linux); 0 where that is not available. */
export function readRssBytes(pid: number): number {
  try {
    const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return Number(kib ?? 0) * 1024;
  } catch {
    return 0;
  }
}
