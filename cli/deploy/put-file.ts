/**
 * The file operations of a deploy, each one a reader can never catch half-done: a file is copied
 * to a temporary name in its own folder and renamed over the old one (rename(2) replaces a name
 * at once: a reader opens the old bytes or the new ones), and deletions only remove names.
 */
import { spawnSync } from "node:child_process";
import { closeSync, copyFileSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmdirSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { ManifestFile } from "../../core/deploy/plan.ts";
import { hashBytes } from "./manifest-file.ts";

/** The temporary name of a file being copied: a dot-name beside it, fixed, so the next deploy can clear one left by a deploy that died. */
export const getTemporaryPath = (path: string): string => join(dirname(path), `.${basename(path)}.deploying`);

export type PutResult = "copied" | "in-place";

/**
 * Puts one file of the build in place. A file already there with the same size and SHA-256 is
 * left as it is: after a deploy that died, most of what it copied is there already.
 */
export function putFile(from: string, to: string, file: ManifestFile, folders: Set<string>): PutResult {
  const temporary = getTemporaryPath(to);
  if (isInPlace(to, file)) {
    rmSync(temporary, { force: true });
    return "in-place";
  }
  const folder = dirname(to);
  if (!folders.has(folder)) {
    mkdirSync(folder, { recursive: true });
    folders.add(folder);
  }
  copyFileSync(from, temporary);
  renameSync(temporary, to);
  return "copied";
}

function isInPlace(path: string, file: ManifestFile): boolean {
  // No exception for the usual answer (not there): a first deploy asks it of every file.
  const found = statSync(path, { throwIfNoEntry: false });
  return found !== undefined && found.isFile() && found.size === file.size && hashBytes(readFileSync(path)) === file.sha256;
}

/**
 * Deletes files (and a temporary copy a dead deploy may have left beside each), then every folder
 * this emptied, deepest first, up to but not including `root`.
 */
export function removeFiles(root: string, paths: readonly string[]): void {
  const folders = new Set<string>();
  for (const path of paths) {
    const full = join(root, path);
    rmSync(full, { force: true });
    rmSync(getTemporaryPath(full), { force: true });
    for (let dir = dirname(path); dir !== "."; dir = dirname(dir)) folders.add(dir);
  }
  for (const dir of [...folders].sort((a, b) => b.split("/").length - a.split("/").length)) {
    try {
      rmdirSync(join(root, dir));
    } catch {
      // Not empty (another file lives there) or already gone: either way it stays as it is.
    }
  }
}

/**
 * Flushes what a deploy wrote to the disk, once for all its copies, before the record claims
 * them: a power cut before then leaves no record (the next deploy compares those files instead).
 * One syncfs(2) of the folder's file system (`sync --file-system`, GNU coreutils) rather than
 * an fsync per file: every fsync waits for its own journal commit, and here 2 630 of them took
 * 12 s where one syncfs took 0.1 s. Without GNU `sync` (macOS), each file is fsynced.
 */
export function flushWrites(root: string, paths: readonly string[]): void {
  if (paths.length === 0) return;
  if (spawnSync("sync", ["--file-system", root], { stdio: "ignore" }).status === 0) return;
  syncPaths(paths);
}

/** fsync(2) of each file or folder: for the few small files of the record, and where syncfs is not to be had. */
export function syncPaths(paths: Iterable<string>): void {
  for (const path of paths) {
    const fd = openSync(path, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
