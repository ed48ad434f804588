/**
 * What the fault tests check after each failed build command, and the table they print: the
 * previous dist as it was (the link's target, its manifest, and nothing new beside it), one
 * `error:` line and no stack trace; each row is "fault → message → exit status → dist untouched",
 * the table of build faults in docs/operators.md ("When a build fails").
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { expect } from "vitest";
import type { CommandResult } from "./run-command.ts";

export interface DistState {
  target: string;
  manifest: string;
  /** What `.dist-builds` holds: no staging, trash or link folder may be left after a failure. */
  builds: string[];
}

export function readDistState(out: string): DistState {
  const buildsDir = join(dirname(out), `.${basename(out)}-builds`);
  return {
    target: readlinkSync(out),
    manifest: readFileSync(join(out, "manifest.json"), "utf8"),
    builds: existsSync(buildsDir) ? readdirSync(buildsDir).sort() : [],
  };
}

/** The one `error:` line of a failed command; progress lines may come before it, nothing after. */
export function getErrorLine(result: CommandResult): string {
  const lines = result.stderr.trimEnd().split("\n");
  const errors = lines.filter((line) => line.startsWith("error: "));
  expect(errors, result.stderr).toHaveLength(1);
  expect(lines.at(-1), result.stderr).toBe(errors[0]);
  expect(result.stderr, "no stack trace").not.toMatch(/^\s+at |^cause: |Error: .*\n\s+at /m);
  return errors[0]!;
}

export class FaultTable {
  private readonly rows: string[] = [];

  constructor(private readonly title: string) {}

  add(fault: string, errorLine: string, status: number | null, untouched: boolean): void {
    // Temporary folders differ on every run: the table shows them as the flag that named them.
    const message = errorLine.replace(/^error: /, "").replace(/\/\S*?\/spamcheck-[a-z-]+-\w+/g, "…");
    // Double backticks: a message may quote a command in single ones.
    this.rows.push(`| ${fault} | \`\` ${message.replaceAll("|", "\\|")} \`\` | ${status} | ${untouched ? "yes" : "no"} |`);
  }

  print(): void {
    console.log([`${this.title}:`, "", "| fault | message | exit status | dist untouched |", "| --- | --- | --- | --- |", ...this.rows].join("\n"));
  }
}
