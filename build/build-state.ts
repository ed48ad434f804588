/**
 * What an incremental build keeps between builds, and how it decides whether it may build
 * incrementally at all (README "Incremental builds"). The state is one small file beside the
 * build folders, `.dist-builds/state.json`, never published: for each build folder kept, the
 * build id it holds, the code fingerprint that made it (code-fingerprint.ts) and the options
 * that shaped it. Nothing in it is trusted unchecked: a folder's manifest must hash to its id
 * before a single file of it is reused, and anything missing, unreadable, foreign or made by
 * other code means a full build, said in one line.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { MANIFEST_PATH } from "./writer/index.ts";
import { getCurrentBuild, type BuildsLayout } from "./publish.ts";

const STATE_FILE = "state.json";
/** Bumped whenever what the state says, or what a build folder holds, changes meaning. */
const STATE_FORMAT = 1;

/** The options that shape a build's bytes (a change of either means a full build). */
export interface ShapingOptions {
  baseUrl: string;
  listPages: number;
}

export interface KeptTree {
  /** The build id the folder holds (the first 16 hex digits of its manifest's SHA-256). */
  id: string;
  code: string;
  options: ShapingOptions;
}

export interface BuildStateFile {
  format: number;
  /** Kept build folders by name (in `.dist-builds/`). */
  trees: Record<string, KeptTree>;
  /** When the current build was published (ms since the epoch): the previous build's readers get a grace period from then. Not part of any build's bytes. */
  publishedAt: number;
}

export interface TreeRef {
  dir: string;
  id: string;
}

export type BuildPlan =
  | { mode: "full"; reason: string }
  | {
      mode: "incremental";
      current: TreeRef;
      /** The folder brought up to date in place; null when none can be trusted (the new build then links the current one's files into a new folder). */
      base: TreeRef | null;
      state: BuildStateFile;
    };

/** Whether this build can be incremental onto what `out` holds now, and onto which folder. */
export function planBuild(layout: BuildsLayout, options: ShapingOptions & { full?: boolean }, code: string): BuildPlan {
  if (options.full) return { mode: "full", reason: "asked for (--full)" };
  const currentDir = getCurrentBuild(layout);
  if (currentDir === null || !existsSync(join(currentDir, MANIFEST_PATH))) return { mode: "full", reason: "no earlier build" };
  const state = readState(layout);
  if (state === null) return { mode: "full", reason: "its state is missing" };
  if (typeof state === "string") return { mode: "full", reason: `its state is unreadable (${state})` };
  const current = state.trees[basename(currentDir)];
  if (!current) return { mode: "full", reason: "its state is unreadable (it does not describe the current build)" };
  if (current.code !== code) return { mode: "full", reason: "the code changed" };
  if (current.options.baseUrl !== options.baseUrl) return { mode: "full", reason: "the base URL changed (--base-url)" };
  if (current.options.listPages !== options.listPages) return { mode: "full", reason: "the spammer list pages changed (--list-pages)" };
  if (!hasManifestOf(currentDir, current.id)) return { mode: "full", reason: `its state is unreadable (the manifest of ${basename(currentDir)} does not match its id)` };
  return { mode: "incremental", current: { dir: currentDir, id: current.id }, base: findBase(layout, state, currentDir, code), state };
}

/**
 * A kept folder other than the current build, made by this code, whose manifest is its own:
 * normally the previous build. Its options do not matter (only its bytes are compared).
 */
function findBase(layout: BuildsLayout, state: BuildStateFile, currentDir: string, code: string): TreeRef | null {
  for (const [name, tree] of Object.entries(state.trees)) {
    const dir = join(layout.buildsDir, name);
    if (dir === currentDir || tree.code !== code) continue;
    if (hasManifestOf(dir, tree.id)) return { dir, id: tree.id };
  }
  return null;
}

/** Whether `dir` holds a manifest whose hash is `id` (what build.ts names a build by). */
function hasManifestOf(dir: string, id: string): boolean {
  try {
    return createHash("sha256").update(readFileSync(join(dir, MANIFEST_PATH))).digest("hex").slice(0, 16) === id;
  } catch {
    return false;
  }
}

/** The state, null when there is none, or why it cannot be read. */
export function readState(layout: BuildsLayout): BuildStateFile | string | null {
  const path = join(layout.buildsDir, STATE_FILE);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? null : (error as Error).message;
  }
  try {
    const state = JSON.parse(text) as BuildStateFile;
    if (state?.format !== STATE_FORMAT) return `format ${JSON.stringify(state?.format)}, not ${STATE_FORMAT}`;
    if (typeof state.trees !== "object" || state.trees === null || typeof state.publishedAt !== "number") return "not a build state";
    for (const tree of Object.values(state.trees)) {
      if (typeof tree?.id !== "string" || typeof tree.code !== "string" || typeof tree.options?.baseUrl !== "string" || typeof tree.options.listPages !== "number") {
        return "not a build state";
      }
    }
    return state;
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
}

/** Replaces the state at once (written aside, then renamed), so a reader never sees half of it. */
export function writeState(layout: BuildsLayout, trees: Record<string, KeptTree>, publishedAt: number): void {
  const path = join(layout.buildsDir, STATE_FILE);
  const tmp = `${path}.tmp-${process.pid}`;
  const state: BuildStateFile = { format: STATE_FORMAT, trees, publishedAt };
  writeFileSync(tmp, JSON.stringify(state, null, 2) + "\n");
  renameSync(tmp, path);
}
