/**
 * Atomic publishing. `dist` is a symbolic link to a finished build under `.dist-builds/`; a new
 * build is written to a staging folder there and only then swapped in with one rename(2) of a new
 * link over the old one, so a reader sees the old build or the new one, never half of either.
 * The previous build is kept (in-flight readers may still be in it); older ones are deleted by a
 * detached process after a grace period, because deleting a million files takes seconds that no
 * build should wait for in the foreground.
 */
import { spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { BuildError } from "./errors.ts";
import { isModelDir } from "./kept-model.ts";

/** Seconds a retired build stays on disk after it stops being the previous one. */
export const DELETE_GRACE_SECONDS = 30;

/** How long the change files of a publish are kept (`--changes-keep`, `--changes-days`): either rule keeps it. */
export interface ChangeRetention {
  publishes: number;
  days: number;
}

export const DEFAULT_CHANGE_RETENTION: ChangeRetention = { publishes: 30, days: 35 };

export interface BuildsLayout {
  out: string;
  buildsDir: string;
}

export function getBuildsLayout(out: string): BuildsLayout {
  const abs = resolve(out);
  return { out: abs, buildsDir: join(dirname(abs), `.${basename(abs)}-builds`) };
}

export function createStagingDir(layout: BuildsLayout, label: string): string {
  mkdirSync(layout.buildsDir, { recursive: true });
  const dir = join(layout.buildsDir, `staging-${label}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  return dir;
}

/** The build folder `out` points at now, or null. */
export function getCurrentBuild(layout: BuildsLayout): string | null {
  try {
    if (!lstatSync(layout.out).isSymbolicLink()) return null;
    return resolve(dirname(layout.out), readlinkSync(layout.out));
  } catch {
    return null;
  }
}

/**
 * Moves a finished staging folder to `.dist-builds/<id>` and points `out` at it. The id is a
 * content hash, so rebuilding an unchanged snapshot publishes the current folder again. A failure
 * (no inode left for the link, say) undoes what it did, in reverse: `out` is left as it was and
 * the new build is back in `staging`, for the caller to remove.
 */
export function publishBuild(layout: BuildsLayout, staging: string, id: string): string {
  const target = join(layout.buildsDir, id);
  const link = join(layout.buildsDir, `link-${process.pid}`);
  let moved = false;
  let legacy: string | null = null;
  try {
    // A folder of that name that is not the current build is not trusted to hold what its name
    // says (an interrupted or hand-edited leftover): the new one takes its place.
    if (existsSync(target) && getCurrentBuild(layout) !== target) retire(layout, target);
    if (!existsSync(target)) {
      renameSync(staging, target);
      moved = true;
    }
    if (existsSync(layout.out) && !lstatSync(layout.out).isSymbolicLink()) {
      // A plain folder from a copy or an older layout: keep it as a retired build, then link.
      let n = 1;
      while (existsSync(join(layout.buildsDir, `legacy-${n}`))) n++;
      legacy = join(layout.buildsDir, `legacy-${n}`);
      renameSync(layout.out, legacy);
    }
    rmSync(link, { force: true });
    symlinkSync(relative(dirname(layout.out), target), link, "dir");
    renameSync(link, layout.out);
  } catch (error) {
    undo(() => rmSync(link, { force: true }));
    const moveBack = legacy;
    if (moveBack) undo(() => renameSync(moveBack, layout.out));
    if (moved) undo(() => renameSync(target, staging));
    throw new BuildError(`publishing ${layout.out}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return target;
}

/** A step of undoing a failed publish: it goes on with the next if one fails, so the original error is the one reported. */
function undo(step: () => void): void {
  try {
    step();
  } catch {
    // Renames back within one folder; nothing better to do if even that fails.
  }
}

/**
 * After a publish: the staging folder of a rebuild that changed nothing goes (unless the caller
 * kept it under another name), and so does every build folder but those in `keep` (the current
 * and the previous build, and a spare an incremental build may bring up to date next).
 */
export function tidyAfterPublish(layout: BuildsLayout, staging: string, keep: readonly string[]): void {
  discardUnpublished(layout, staging);
  pruneBuilds(layout, new Set(keep));
}

/**
 * Takes a kept build folder out of service to be brought up to date in place (an incremental
 * build): renamed to a staging folder of this process first, so that a build killed half-way
 * leaves a staging folder that the next build discards, never a folder whose name promises
 * bytes it no longer holds.
 */
export function takeForStaging(layout: BuildsLayout, dir: string): string {
  const staging = join(layout.buildsDir, `staging-build-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  renameSync(dir, staging);
  return staging;
}

/** Keeps a finished staging folder under `name` instead of discarding it (it equals the current build). */
export function keepAs(layout: BuildsLayout, staging: string, name: string): string {
  const target = join(layout.buildsDir, name);
  if (existsSync(target)) retire(layout, target);
  renameSync(staging, target);
  return target;
}

/** Retires every build folder but `keep`. */
function pruneBuilds(layout: BuildsLayout, keep: Set<string>): void {
  for (const name of readdirSync(layout.buildsDir)) {
    const dir = join(layout.buildsDir, name);
    if (keep.has(dir) || name.startsWith("staging-") || name.startsWith("trash-") || name.startsWith("link-")) continue;
    if (name.endsWith(".json") || isModelDir(name)) continue;
    retire(layout, dir);
  }
}

/** Renames a published build out of the way at once and deletes it after the grace period: readers may still be in it. */
function retire(layout: BuildsLayout, dir: string): void {
  if (!existsSync(dir)) return;
  deleteInBackground(moveToTrash(layout, dir), DELETE_GRACE_SECONDS);
}

/**
 * A build that was never published has no readers, so it gets no grace period: it is moved out
 * of the way and deleted in the background at once or, with `now`, deleted before this returns,
 * for a build that failed on a full disk (the next try needs that space, not in 30 s but now).
 */
export function discardUnpublished(layout: BuildsLayout, dir: string, options: { now?: boolean } = {}): void {
  if (!existsSync(dir)) return;
  if (options.now) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  else deleteInBackground(moveToTrash(layout, dir), 0);
}

/**
 * Takes an unpublished folder out of the way now and deletes it later (deleteSetAside): deleting
 * a million files competes with the build for the disk, so a folder the build gave up on goes
 * once the build is published. A build that dies first leaves a trash folder that the next build
 * deletes (sweepAbandoned).
 */
export function setAside(layout: BuildsLayout, dir: string): string {
  return moveToTrash(layout, dir);
}

/** Deletes a folder setAside took out of the way: in the background, or at once (a full disk needs the space now). */
export function deleteSetAside(dir: string, options: { now?: boolean } = {}): void {
  if (options.now) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  else deleteInBackground(dir, 0);
}

function moveToTrash(layout: BuildsLayout, dir: string): string {
  const trash = join(layout.buildsDir, `trash-${basename(dir)}-${process.pid}`);
  rmSync(trash, { recursive: true, force: true });
  renameSync(dir, trash);
  return trash;
}

function deleteInBackground(dir: string, graceSeconds: number): void {
  const script = `setTimeout(() => require("node:fs").rmSync(${JSON.stringify(dir)}, { recursive: true, force: true, maxRetries: 3 }), ${graceSeconds * 1000})`;
  spawn(process.execPath, ["-e", script], { detached: true, stdio: "ignore" }).unref();
}

/**
 * Leftovers of builds that died before cleaning up: staging folders of processes that are gone
 * are discarded; trash folders whose deleter did not finish (a reboot) are deleted again, those of
 * unpublished builds at once.
 */
export function sweepAbandoned(layout: BuildsLayout): void {
  if (!existsSync(layout.buildsDir)) return;
  for (const name of readdirSync(layout.buildsDir)) {
    const dir = join(layout.buildsDir, name);
    if (isOwnedByLiveProcess(name)) continue;
    if (name.startsWith("staging-")) discardUnpublished(layout, dir);
    else if (name.startsWith("trash-")) deleteInBackground(dir, name.startsWith("trash-staging-") ? 0 : DELETE_GRACE_SECONDS);
  }
}

/** Whether a name ending in `-{pid}` belongs to this process or another that is still running. */
export function isOwnedByLiveProcess(name: string): boolean {
  const pid = Number(name.slice(name.lastIndexOf("-") + 1));
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
