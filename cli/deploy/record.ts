/**
 * What a deploy keeps in the served folder, under `_static-host/deploy/`: the folder a static
 * host never serves (nginx's generated block makes `/_static-host/` internal; the live server
 * does not serve it either).
 *
 * - `deployed.json`: the manifest of the last finished deploy, byte for byte the build's
 *   `manifest.json`, renamed into place as the very last step: the record never claims a file
 *   the folder does not hold.
 * - `pending-<hash>.json`: the manifest of a deploy under way, written before its first copy
 *   and kept until the record replaces it, so that a deploy that dies leaves the list of what
 *   it may have touched (core/deploy/plan.ts says how the next deploy uses it).
 * - `lock`: the process id of the deploy under way; a second deploy is refused while it lives.
 */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HOST_CONFIG_PREFIX } from "../../core/routes/table.ts";
import { readManifestFile, type ManifestCopy } from "./manifest-file.ts";
import { DeployError } from "./places.ts";
import { syncPaths } from "./put-file.ts";

export const RECORD_FOLDER = `${HOST_CONFIG_PREFIX}deploy`;
const DEPLOYED = "deployed.json";

export interface DeployRecord {
  deployed: ManifestCopy | null;
  /** Targets of deploys that started and did not finish, by file name. */
  interrupted: Map<string, ManifestCopy>;
}

export const getRecordDir = (target: string): string => join(target, RECORD_FOLDER);
export const getPendingName = (manifest: ManifestCopy): string => `pending-${manifest.sha256.slice(0, 16)}.json`;

/** Reads the record and the unfinished deploys' lists of a folder (empty for a folder never deployed into). */
export function readRecord(target: string): DeployRecord {
  const dir = getRecordDir(target);
  const deployedPath = join(dir, DEPLOYED);
  const interrupted = new Map<string, ManifestCopy>();
  if (!existsSync(dir)) return { deployed: null, interrupted };
  for (const name of readdirSync(dir).filter((n) => /^pending-[0-9a-f]+\.json$/.test(n)).sort()) {
    interrupted.set(name, readRecordFile(join(dir, name)));
  }
  return { deployed: existsSync(deployedPath) ? readRecordFile(deployedPath) : null, interrupted };
}

function readRecordFile(path: string): ManifestCopy {
  try {
    return readManifestFile(path);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DeployError(`${path} is not a deploy record (${reason}): delete it and deploy again (every file is then compared on disk, and nothing is deleted)`);
  }
}

/** Records the build's manifest as a deploy under way, before its first copy (written whole, then renamed). */
export function writePending(target: string, manifest: ManifestCopy): void {
  const path = join(getRecordDir(target), getPendingName(manifest));
  if (existsSync(path)) return;
  const temporary = `${path}.tmp`;
  writeFileSync(temporary, manifest.bytes);
  syncPaths([temporary]);
  renameSync(temporary, path);
  syncPaths([getRecordDir(target)]);
}

/** The last step: this deploy's list becomes the record, and every unfinished deploy is finished with it. */
export function finishRecord(target: string, manifest: ManifestCopy, interrupted: Iterable<string>): void {
  const dir = getRecordDir(target);
  const own = getPendingName(manifest);
  renameSync(join(dir, own), join(dir, DEPLOYED));
  for (const name of interrupted) if (name !== own) rmSync(join(dir, name), { force: true });
  syncPaths([dir]);
}

/** Takes the folder's lock, or refuses while another deploy holds it; a lock left by a process that died is taken over. */
export function lockTarget(target: string): () => void {
  const dir = getRecordDir(target);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "lock");
  // Two tries: the second after removing a dead process's lock (another deploy may win that race).
  for (let attempt = 0; attempt < 2; attempt++) {
    // Written whole under a name of its own, then linked: a reader never sees a lock without its process id.
    const own = `${path}.${process.pid}`;
    writeFileSync(own, `${process.pid}\n`);
    try {
      linkSync(own, path);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      rmSync(own, { force: true });
    }
    const holder = Number(readFileSync(path, "utf8").trim());
    if (isAlive(holder)) throw new DeployError(`another deploy (process ${holder}) is writing to ${target}: wait until it ends`);
    rmSync(path, { force: true });
  }
  throw new DeployError(`another deploy took the lock of ${target} first: wait until it ends`);
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
