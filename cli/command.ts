/**
 * The one way a command runs: `--help` prints the help and does nothing else; otherwise the flags
 * are read and handed to the command's main function; whatever it throws is printed as one
 * `error:` line, and its kind decides the exit status (DESIGN "Commands").
 */
import { BuildError } from "../build/errors.ts";
import { formatHelp, readFlags, UsageError, wantsHelp, type CommandSpec, type FlagSpec, type ReadFlags } from "./flags.ts";

export function runCommand<T extends FlagSpec>(
  command: CommandSpec<T>,
  main: (flags: ReadFlags<T>) => Promise<void> | void,
  argv: string[] = process.argv.slice(2),
): void {
  Promise.resolve()
    .then(() => (wantsHelp(argv) ? void process.stdout.write(`${formatHelp(command)}\n`) : main(readFlags(command, argv))))
    .catch((error: unknown) => {
      // exitCode rather than exit(): output still buffered in a pipe is written before the process ends.
      process.exitCode = printFailure(error);
    });
}

/**
 * Prints a failure and returns the exit status. A UsageError (unknown flag, bad value) is one line
 * and status 2, the status DESIGN gives a refused command line; so is a snapshot the build cannot
 * use as it is (a BuildError of kind `input`: not SQLite, truncated, locked, missing a table or
 * column), which no retry fixes. Anything else failed while working (a missing snapshot, a port in
 * use, a full disk) and is status 1: a full disk in the one line that says what to do, the rest
 * with its cause when it has one.
 */
export function printFailure(error: unknown, stream: NodeJS.WritableStream = process.stderr): number {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UsageError || (error instanceof BuildError && error.kind === "input")) {
    stream.write(`error: ${message.split("\n")[0]}\n`);
    return 2;
  }
  stream.write(`error: ${message}\n`);
  if (error instanceof BuildError && error.kind === "no-space") return 1;
  if (error instanceof Error && error.cause) stream.write(`cause: ${error.cause instanceof Error ? error.cause.message : String(error.cause)}\n`);
  return 1;
}
