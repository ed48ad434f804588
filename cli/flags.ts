/**
 * The flag parser every command shares. A command's flags are declared once (cli/flag-table.ts);
 * each value comes from the command line, else the environment, else the declared default
 * (DESIGN "Commands"). Anything the declaration does not name is a UsageError: one line that names
 * the valid flags, exit status 2 (cli/command.ts). Only switches are read here (they have no
 * value of their own to check later); turning the other values into options, and refusing bad
 * ones, is cli/resolve-options.ts.
 */
import { parseArgs } from "node:util";

export interface FlagDeclaration {
  type: "string" | "boolean";
  /** What the value is, for the help and the errors: FILE, DIR, N, URL. */
  value?: string;
  /** The environment variable read when the flag is not given. */
  env?: string;
  default?: string;
  /** A default computed from other flags: shown in the help, applied by the command's resolver. */
  defaultNote?: string;
  description: string;
}

export type FlagSpec = Record<string, FlagDeclaration>;

export interface CommandSpec<T extends FlagSpec = FlagSpec> {
  /** How a person runs it, as the errors name it: `npm run build`. */
  name: string;
  /** The help's first line. */
  usage: string;
  about: string;
  flags: T;
  /** Whether the command takes one word besides its flags (hosting's target). */
  takesArgument?: boolean;
}

/** A command line the command refuses (unknown flag, missing or bad value): exit status 2. */
export class UsageError extends Error {}

/** Each flag's value: booleans are booleans; a string with a declared default is always there. */
export type FlagValues<T extends FlagSpec> = {
  [K in keyof T]: T[K]["type"] extends "boolean" ? boolean : T[K] extends { default: string } ? string : string | undefined;
};

export interface ReadFlags<T extends FlagSpec> {
  values: FlagValues<T>;
  /** The word besides the flags, for a command that takes one. */
  argument: string | undefined;
  /** Whether the value came from the command line (start refuses two flags that disagree). */
  given(name: keyof T & string): boolean;
  /** What an error should call the value: the flag typed, or the environment variable it came from. */
  label(name: keyof T & string): string;
}

const HELP_FLAGS = ["--help", "-h"];
const TRUE_WORDS = ["true", "1", "yes", "on"];
const FALSE_WORDS = ["false", "0", "no", "off"];

/** `--help` wins over every other word before `--`: asking for help never runs anything. */
export function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => HELP_FLAGS.includes(arg));
}

export function readFlags<T extends FlagSpec>(command: CommandSpec<T>, argv: string[], env: NodeJS.ProcessEnv = process.env): ReadFlags<T> {
  const typed = Object.fromEntries(Object.entries(command.flags).map(([name, flag]) => [name, { type: flag.type }]));
  // Not strict: node's own errors are multi-line and do not list the valid flags, so the tokens
  // are checked below instead.
  const { tokens } = parseArgs({ args: argv, options: typed, strict: false, allowPositionals: true, tokens: true });
  const fromArgv = new Map<string, string | true>();
  const words: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") words.push(token.value);
    if (token.kind !== "option") continue;
    const flag = command.flags[token.name];
    if (!flag) throw new UsageError(`unknown flag ${token.rawName}; ${listFlags(command)}`);
    if (flag.type === "boolean") {
      if (token.inlineValue) throw new UsageError(`${token.rawName} takes no value; ${listFlags(command)}`);
      fromArgv.set(token.name, true);
    } else {
      // `--db --out x` is a forgotten value, not a snapshot named "--out" (node's strict mode
      // agrees); `--port -1` is a value, so that the refusal says what is wrong with it.
      if (token.value === undefined || (!token.inlineValue && /^-(?!\d)/.test(token.value))) {
        throw new UsageError(`${token.rawName} needs a value: --${token.name} ${flag.value ?? "VALUE"}`);
      }
      fromArgv.set(token.name, token.value);
    }
  }
  const allowed = command.takesArgument ? 1 : 0;
  if (words.length > allowed) throw new UsageError(`unexpected argument ${JSON.stringify(words[allowed])}; ${listFlags(command)}`);

  const values: Record<string, string | boolean | undefined> = {};
  const fromEnv = new Set<string>();
  for (const [name, flag] of Object.entries(command.flags)) {
    const environment = flag.env ? env[flag.env] : undefined;
    // An empty variable is an unset one: `PORT= npm start` should not mean port "".
    if (!fromArgv.has(name) && environment) fromEnv.add(name);
    const raw = fromArgv.get(name) ?? (environment || undefined) ?? flag.default;
    values[name] = flag.type === "boolean" ? readSwitch(flag, raw) : (raw as string | undefined);
  }
  return {
    values: values as FlagValues<T>,
    argument: words[0],
    given: (name) => fromArgv.has(name),
    label: (name) => (fromEnv.has(name) ? command.flags[name]!.env! : `--${name}`),
  };
}

/** A boolean from the environment or a default: the usual words, anything else refused. */
function readSwitch(flag: FlagDeclaration, raw: string | true | undefined): boolean {
  if (raw === undefined || raw === true) return raw === true;
  const word = raw.toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  throw new UsageError(`${flag.env ?? "the default"} must be one of ${[...TRUE_WORDS, ...FALSE_WORDS].join(", ")}, got ${JSON.stringify(raw)}`);
}

/** The end of every refusal: what the command does take, so one line is enough to fix it. */
function listFlags(command: CommandSpec): string {
  const flags = [...Object.keys(command.flags).map((name) => `--${name}`), "--help"];
  return `${command.name} takes ${flags.join(", ")}`;
}

export function formatHelp(command: CommandSpec): string {
  const rows = Object.entries(command.flags).map(([name, flag]) => {
    const shown = flag.default ?? flag.defaultNote;
    const notes = [flag.env ? `env ${flag.env}` : "", shown !== undefined ? `default ${shown}` : ""].filter(Boolean).join(", ");
    return [`--${name}${flag.value ? ` ${flag.value}` : ""}`, `${flag.description}${notes ? ` [${notes}]` : ""}`];
  });
  rows.push(["--help, -h", "print this help and exit"]);
  const width = Math.max(...rows.map(([left]) => left!.length)) + 2;
  return [`Usage: ${command.usage}`, "", command.about, "", "Options:", ...rows.map(([left, right]) => `  ${left!.padEnd(width)}${right}`)].join("\n");
}
