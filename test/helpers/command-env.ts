/**
 * The environment of a command a test runs as its own process: every variable a command reads
 * (declared beside its flag in cli/flag-table.ts) is cleared unless the test sets it, so that
 * neither the machine's settings nor vitest's own (it sets BASE_URL to "/") leak in.
 */
import { BENCH, BUILD, FINGERPRINTS, HOSTING, SAMPLE, SERVE, START } from "../../cli/flag-table.ts";

const COMMAND_ENV = new Set(
  [SAMPLE, BUILD, SERVE, START, HOSTING, BENCH, FINGERPRINTS].flatMap((command) => Object.values(command.flags).flatMap((flag) => ("env" in flag ? [flag.env] : []))),
);

export function getCommandEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const name of COMMAND_ENV) if (!(name in extra)) delete env[name];
  return env;
}
