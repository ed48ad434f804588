/**
 * Runs a command's script as a person runs it, in its own process (through tsx, by absolute
 * address, so that any folder can be its working directory), with only the environment a test
 * gives it: the variables the commands read are cleared first, so the machine's own cannot leak in.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { getCommandEnv } from "./command-env.ts";

export { getCommandEnv };

export const ROOT = join(import.meta.dirname, "../..");
export const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Node's `--require` before the script (test/helpers/inject-enospc.cjs). */
  preload?: string;
  /** Run as this user and group (a root test dropping the privilege that reads every file). */
  user?: { uid: number; gid: number };
  /** Kill it (SIGKILL) after this long: a command that hangs must fail its test, not outlive it. */
  timeoutMs?: number;
}

/** Runs `script` (relative to the project) to its end. */
export async function runScript(script: string, args: string[], options: RunOptions): Promise<CommandResult> {
  const node = [...(options.preload ? ["--require", options.preload] : []), "--import", TSX, join(ROOT, script), ...args];
  const child = spawn(process.execPath, node, { cwd: options.cwd, env: getCommandEnv(options.env), stdio: ["ignore", "pipe", "pipe"], ...options.user, timeout: options.timeoutMs, killSignal: "SIGKILL" });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { status, stdout, stderr };
}
