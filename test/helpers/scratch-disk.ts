/**
 * A small real disk for the disk-fault tests: a tmpfs mounted on a temporary folder (root only),
 * whose free space and free inodes a test sets exactly by remounting it. tmpfs charges a page
 * (4 KiB) per started page of each file's data (a short symbolic link, kept in its inode, none)
 * and one inode per name, a hard link included; `countBuild` counts a build folder the same way,
 * so a test can leave room for all of a build but its last page or its last name.
 */
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, statfsSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { makeTempDir } from "./fixture.ts";

const PAGE = 4096;

export interface Usage {
  pages: number;
  inodes: number;
}

export interface ScratchDisk {
  dir: string;
  getUsage(): Usage;
  /** Leaves exactly this much free beyond what is used now. */
  setFree(free: Usage): void;
  unmount(): void;
}

/** Mounts a scratch tmpfs, or says why it cannot (not root, no mount(8), a container without the capability). */
export function mountScratchDisk(label: string): ScratchDisk | { unavailable: string } {
  const dir = makeTempDir(label);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=256m,nr_inodes=65536,mode=0755", "tmpfs", dir], { stdio: "pipe" });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { unavailable: stderr || (error instanceof Error ? error.message : String(error)) };
  }
  const getUsage = (): Usage => {
    const stat = statfsSync(dir);
    return { pages: (stat.blocks - stat.bfree) * (stat.bsize / PAGE), inodes: stat.files - stat.ffree };
  };
  return {
    dir,
    getUsage,
    setFree(free) {
      const used = getUsage();
      const size = (used.pages + free.pages) * (PAGE / 1024);
      execFileSync("mount", ["-o", `remount,size=${size}k,nr_inodes=${used.inodes + free.inodes}`, dir], { stdio: "pipe" });
    },
    unmount() {
      try {
        execFileSync("umount", [dir], { stdio: "pipe" });
      } catch {
        // Something still holds a file open in it: detach it now, the kernel frees it when that ends.
        execFileSync("umount", ["-l", dir], { stdio: "pipe" });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface BuildCounts extends Usage {
  /** Pages of the manifest, and of its file list alone: the manifest's last write, its closing fields, starts after those. */
  manifestPages: number;
  manifestListPages: number;
}

/** What a finished build folder takes on a tmpfs: pages of its files' data and a name for each entry, itself included. */
export function countBuild(buildDir: string): BuildCounts {
  const seen = new Set<number>();
  let pages = 0;
  let inodes = 1;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      inodes++;
      if (stat.isDirectory()) walk(path);
      else if (!seen.has(stat.ino)) {
        seen.add(stat.ino);
        pages += Math.ceil(stat.size / PAGE);
      }
    }
  };
  walk(buildDir);
  // The report pass it kept for the next build (build/kept-model.ts), written beside the folder.
  for (const kind of ["groups", "rows"]) {
    const kept = join(dirname(buildDir), "model", `${basename(buildDir)}.${kind}`);
    if (!existsSync(kept)) continue;
    inodes++;
    pages += Math.ceil(statSync(kept).size / PAGE);
  }
  const manifest = readFileSync(join(buildDir, "manifest.json"));
  const listEnd = manifest.lastIndexOf("\n],");
  return { pages, inodes, manifestPages: Math.ceil(manifest.byteLength / PAGE), manifestListPages: Math.ceil(listEnd / PAGE) };
}
