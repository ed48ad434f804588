/**
 * What an incremental build keeps between builds, and how it decides whether it may build
 * incrementally at all (docs/incremental-builds.md). The state is one small file beside the
 * build folders, `.dist-builds/state.json`, never published: for each build folder kept, the
 * build id it holds, the code fingerprint that made it (code-fingerprint.ts) and the options
 * that shaped it. Nothing in it is trusted unchecked: a folder's manifest must hash to its id
 * before a single file of it is reused, and anything missing, unreadable, foreign or made by
 * other code means a full build, said in one line.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { hashFile, MANIFEST_PATH } from "./writer/index.ts";
import { readManifestBuild } from "./changes/build-id.ts";
import { getCurrentBuild, type BuildsLayout } from "./publish.ts";
import { compareDigests, type SnapshotDigest } from "./snapshot/digest.ts";
import type { KeptModel } from "./kept-model.ts";

const STATE_FILE = "state.json";
/** Bumped whenever what the state says, or what a build folder holds, changes meaning. */
const STATE_FORMAT = 2;
/**
 * Past this share of the report id ranges changed (a snapshot of another data set, say), a build
 * is full: bringing a folder up to date would delete nearly every old file besides writing every
 * new one, which costs more than writing a new folder. Below that, an incremental build writes
 * at most what a full one does. Not for a snapshot of fewer ranges than MIN_RANGES: there a few
 * scattered edits touch most ranges, and a full build costs a second or two anyway.
 */
const MAX_CHANGED_SHARE = 0.9;
const MIN_RANGES = 256;

/** The options that shape a build's bytes (a change of either means a full build). */
export interface ShapingOptions {
  baseUrl: string;
  listPages: number;
}

export interface KeptTree {
  /** The build id the folder holds (build/changes/build-id.ts). */
  id: string;
  /** The SHA-256 of its whole manifest, checked before a file of the folder is reused (empty: unknown). */
  manifest: string;
  code: string;
  options: ShapingOptions;
  /** The current build's: the digests of the snapshot it was built from (snapshot/digest.ts), base64 where binary. */
  snapshot?: StoredDigest;
  /** The current build's: what its build said of the snapshot, for a build that finds nothing changed. */
  summary?: StoredSummary;
  /** The current build's: the SHA-256 of the report pass it kept for the next build (kept-model.ts). */
  model?: KeptModel;
  /** The current build's: the members of its dump files, for the next build's dump (checked there: dump/member-cache.cjs). */
  dumps?: KeptDumpFile[];
}

/** A .gz file of a build as the state keeps it (dump/member-cache.cjs recordMembers). */
export interface KeptDumpFile {
  /** Its path in the build, `dumps/….gz`. */
  path: string;
  sha256: string;
  /** Base64: for each member in file order, the first 16 bytes of its batch's SHA-256, then its length (u32 LE). */
  members: string;
}

export interface StoredDigest {
  tables: Record<string, string>;
  reportRanges: string;
  reportDigests: string;
}

/** The parts of a build's summary that depend on the snapshot only (build.ts BuildSummary). */
export interface StoredSummary {
  counts: Record<string, number>;
  rejected: number;
  rejections: unknown[];
  files: number;
  bytes: number;
  notices: string[];
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
  /** The snapshot holds the same rows as the current build's: nothing to build. */
  | { mode: "unchanged"; current: TreeRef; tree: KeptTree; state: BuildStateFile }
  | {
      mode: "incremental";
      current: TreeRef;
      /** The folder brought up to date in place; null when none can be trusted (the new build then links the current one's files into a new folder). */
      base: TreeRef | null;
      state: BuildStateFile;
    };

/**
 * Whether this build can be incremental onto what `out` holds now, and onto which folder: a full
 * build's plan when that is settled before the snapshot's digests are read (they can then be made
 * while the build runs), else the plan the digests decide (nothing changed, too much changed, or
 * incremental).
 */
export function planBuild(layout: BuildsLayout, options: ShapingOptions & { full?: boolean }, code: string): BuildPlan | ((digest: SnapshotDigest) => BuildPlan) {
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
  if (!hasManifestOf(currentDir, current)) return { mode: "full", reason: `its state is unreadable (the manifest of ${basename(currentDir)} does not match its id)` };
  const before = current.snapshot ? decodeDigest(current.snapshot) : null;
  return (digest) => {
    if (before) {
      const { tables, changedRanges, ranges } = compareDigests(before, digest);
      if (tables.length === 0 && changedRanges === 0 && current.summary) return { mode: "unchanged", current: { dir: currentDir, id: current.id }, tree: current, state };
      // Every old file deleted and every new one written: more than a full build's writes alone.
      if (ranges >= MIN_RANGES && changedRanges / ranges > MAX_CHANGED_SHARE) {
        return { mode: "full", reason: `the change is larger than a full build costs (${Math.round((changedRanges / ranges) * 100)} % of the report ranges changed)` };
      }
    }
    return { mode: "incremental", current: { dir: currentDir, id: current.id }, base: findBase(layout, state, currentDir, code), state };
  };
}

/**
 * A kept folder other than the current build, made by this code, whose manifest is its own:
 * normally the previous build. Its options do not matter (only its bytes are compared).
 */
function findBase(layout: BuildsLayout, state: BuildStateFile, currentDir: string, code: string): TreeRef | null {
  for (const [name, tree] of Object.entries(state.trees)) {
    const dir = join(layout.buildsDir, name);
    if (dir === currentDir || tree.code !== code) continue;
    if (hasManifestOf(dir, tree)) return { dir, id: tree.id };
  }
  return null;
}

/** Whether `dir` holds the manifest the state recorded for it, whole, and of the build id it says. */
function hasManifestOf(dir: string, { id, manifest }: KeptTree): boolean {
  try {
    return manifest !== "" && hashFile(join(dir, MANIFEST_PATH)) === manifest && readManifestBuild(dir)?.id === id;
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
      if (typeof tree?.id !== "string" || typeof tree.manifest !== "string" || typeof tree.code !== "string" || typeof tree.options?.baseUrl !== "string" || typeof tree.options.listPages !== "number") {
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
  try {
    writeFileSync(tmp, JSON.stringify(state, null, 2) + "\n");
    renameSync(tmp, path);
  } catch (error) {
    // A full disk, say: the old state stays (it does not describe the new build, so the next build is full), no half-written copy beside it.
    rmSync(tmp, { force: true });
    throw error;
  }
}

export function encodeDigest(digest: SnapshotDigest): StoredDigest {
  return {
    tables: digest.tables,
    reportRanges: Buffer.from(digest.reportRanges.buffer, digest.reportRanges.byteOffset, digest.reportRanges.byteLength).toString("base64"),
    reportDigests: digest.reportDigests.toString("base64"),
  };
}

/** A stored digest, or null when it does not hold together (then nothing is concluded from it). */
export function decodeDigest(stored: StoredDigest): SnapshotDigest | null {
  try {
    const ranges = Buffer.from(stored.reportRanges, "base64");
    const digests = Buffer.from(stored.reportDigests, "base64");
    if (ranges.byteLength % 8 !== 0 || digests.byteLength !== (ranges.byteLength / 8) * 16 || typeof stored.tables !== "object") return null;
    const copy = new Float64Array(ranges.byteLength / 8);
    Buffer.from(copy.buffer).set(ranges);
    return { tables: stored.tables, reportRanges: copy, reportDigests: digests };
  } catch {
    return null;
  }
}
