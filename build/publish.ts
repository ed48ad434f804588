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

/** Seconds a retired build stays on disk after it stops being the previous one. */
const DELETE_GRACE_SECONDS = 30;

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
function getCurrentBuild(layout: BuildsLayout): string | null {
  try {
    if (!lstatSync(layout.out).isSymbolicLink()) return null;
    return resolve(dirname(layout.out), readlinkSync(layout.out));
  } catch {
    return null;
  }
}

/**
 * Moves a finished staging folder to `.dist-builds/<id>` and points `out` at it. The id is a
 * content hash, so rebuilding an unchanged snapshot publishes the same folder again.
 */
export function publishBuild(layout: BuildsLayout, staging: string, id: string): string {
  const target = join(layout.buildsDir, id);
  const previous = getCurrentBuild(layout);
  if (existsSync(target)) retire(layout, staging);
  else renameSync(staging, target);

  if (existsSync(layout.out) && !lstatSync(layout.out).isSymbolicLink()) {
    // A plain folder from a copy or an older layout: keep it as a retired build, then link.
    let n = 1;
    while (existsSync(join(layout.buildsDir, `legacy-${n}`))) n++;
    renameSync(layout.out, join(layout.buildsDir, `legacy-${n}`));
  }
  const link = join(layout.buildsDir, `link-${process.pid}`);
  rmSync(link, { force: true });
  symlinkSync(relative(dirname(layout.out), target), link, "dir");
  try {
    renameSync(link, layout.out);
  } catch (error) {
    rmSync(link, { force: true });
    throw new BuildError(`publishing ${layout.out}: ${String(error)}`, { cause: error });
  }
  pruneBuilds(layout, new Set([target, previous ?? target]));
  return target;
}

/** Retires every build folder but `keep` (the current and the previous build). */
function pruneBuilds(layout: BuildsLayout, keep: Set<string>): void {
  for (const name of readdirSync(layout.buildsDir)) {
    const dir = join(layout.buildsDir, name);
    if (keep.has(dir) || name.startsWith("staging-") || name.startsWith("trash-") || name.startsWith("link-")) continue;
    if (name.endsWith(".json")) continue;
    retire(layout, dir);
  }
}

/** Renames a folder out of the way at once and deletes it in the background. */
export function retire(layout: BuildsLayout, dir: string): void {
  if (!existsSync(dir)) return;
  const trash = join(layout.buildsDir, `trash-${basename(dir)}-${process.pid}`);
  rmSync(trash, { recursive: true, force: true });
  renameSync(dir, trash);
  deleteInBackground(trash, DELETE_GRACE_SECONDS);
}

function deleteInBackground(dir: string, graceSeconds: number): void {
  const script = `setTimeout(() => require("node:fs").rmSync(${JSON.stringify(dir)}, { recursive: true, force: true, maxRetries: 3 }), ${graceSeconds * 1000})`;
  spawn(process.execPath, ["-e", script], { detached: true, stdio: "ignore" }).unref();
}

/**
 * Leftovers of builds that died before cleaning up: staging folders of processes that are gone
 * are retired; trash folders whose deleter did not finish (a reboot) are deleted again.
 */
export function sweepAbandoned(layout: BuildsLayout): void {
  if (!existsSync(layout.buildsDir)) return;
  for (const name of readdirSync(layout.buildsDir)) {
    const dir = join(layout.buildsDir, name);
    if (name.startsWith("staging-") && !isOwnedByLiveProcess(name)) retire(layout, dir);
    else if (name.startsWith("trash-") && !isOwnedByLiveProcess(name)) deleteInBackground(dir, DELETE_GRACE_SECONDS);
  }
}

function isOwnedByLiveProcess(name: string): boolean {
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
