/**
 * Shared command-line plumbing: flags are declared once per command with util.parseArgs, then
 * resolved into options with environment fallbacks in one place (flag > environment > default).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

export type FlagSpec = Record<string, { type: "string" | "boolean"; env?: string; default?: string; description: string }>;

export function readFlags<T extends FlagSpec>(spec: T, argv = process.argv.slice(2)): Record<keyof T, string | undefined> & { help: boolean } {
  const options: NonNullable<ParseArgsConfig["options"]> = { help: { type: "boolean", short: "h" } };
  for (const [name, flag] of Object.entries(spec)) options[name] = { type: flag.type };
  const { values } = parseArgs({ args: argv, options, allowPositionals: false, strict: true });
  const resolved: Record<string, string | undefined> = {};
  for (const [name, flag] of Object.entries(spec)) {
    const value = values[name];
    resolved[name] = typeof value === "string" ? value : value === true ? "true" : (flag.env ? process.env[flag.env] : undefined) || flag.default;
  }
  return { ...(resolved as Record<keyof T, string | undefined>), help: values.help === true };
}

export function formatHelp(usage: string, spec: FlagSpec): string {
  const lines = [`Usage: ${usage}`, "", "Options:"];
  for (const [name, flag] of Object.entries(spec)) {
    const extra = [flag.env ? `env ${flag.env}` : "", flag.default !== undefined ? `default ${flag.default}` : ""].filter(Boolean).join(", ");
    lines.push(`  --${name.padEnd(12)} ${flag.description}${extra ? ` (${extra})` : ""}`);
  }
  return lines.join("\n");
}

/** A whole number within bounds, or an error that names the flag. */
export function parseIntegerFlag(name: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (!value || !Number.isInteger(n) || n < min || n > max) {
    throw new Error(`--${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** Runs a command's main function: prints the error without a stack for expected failures. */
export function runMain(main: () => Promise<void> | void): void {
  Promise.resolve()
    .then(main)
    .catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`error: ${message}\n`);
      if (error instanceof Error && error.cause) process.stderr.write(`cause: ${String(error.cause instanceof Error ? error.cause.message : error.cause)}\n`);
      process.exitCode = 1;
    });
}
