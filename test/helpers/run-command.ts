/**
 * Runs a command's script as a person runs it, in its own process (through tsx, by absolute
 * address, so that any folder can be its working directory), with only the environment a test
 * gives it: the variables the commands read are cleared first, so the machine's own cannot leak in.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
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
  /**
   * Run as root without the capabilities that let root read any file (util-linux's `setpriv`
   * drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH), so that file modes apply to it as to any
   * user. Unlike running as another user, it still reads the checkout wherever it sits, even in a
   * folder only its owner may enter.
   */
  withoutReadOverride?: boolean;
  /** Kill it (SIGKILL) after this long: a command that hangs must fail its test, not outlive it. */
  timeoutMs?: number;
}

/** Runs `script` (relative to the project) to its end. */
export async function runScript(script: string, args: string[], options: RunOptions): Promise<CommandResult> {
  const node = [...(options.preload ? ["--require", options.preload] : []), "--import", TSX, join(ROOT, script), ...args];
  const [command, argv] = options.withoutReadOverride
    ? ["setpriv", ["--bounding-set", "-dac_override,-dac_read_search", process.execPath, ...node]]
    : [process.execPath, node];
  return collectOutput(spawn(command, argv, { cwd: options.cwd, env: getCommandEnv(options.env), stdio: ["ignore", "pipe", "pipe"], timeout: options.timeoutMs, killSignal: "SIGKILL" }));
}

/** A started command's output and exit status, once it has closed its streams. */
export async function collectOutput(child: ChildProcessByStdio<null, Readable, Readable>): Promise<CommandResult> {
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { status, stdout, stderr };
}
