/**
 * The plan of a deploy by difference, from manifests alone (no file is read here): which files of
 * the build to copy into the served folder, in which order, and which files to delete after.
 *
 * `deployed` is the record of the last finished deploy: the folder holds exactly those files
 * (the record is trusted; the folder is not hashed, which would read every file each time).
 * `interrupted` are the targets of deploys that started after it and never finished: each may
 * have put any of its files in place and, if it reached its last step, deleted any file of
 * `deployed` it did not list. A file is left alone only when every one of them agrees it is
 * already the build's; every path any of them knew and the build does not list is deleted.
 */
import { DEPLOY_TIERS, getDeployTier, type DeployTier } from "./tiers.ts";

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

/** Why a file is copied: the record lacks it, holds other bytes, or an unfinished deploy may have touched it. */
export type CopyReason = "new" | "changed" | "unsettled";

export interface PlannedCopy extends ManifestFile {
  tier: DeployTier;
  reason: CopyReason;
}

export interface DeployPlan {
  /** Files to put in place, tier by tier (tiers.ts), in the build's order within a tier. */
  copy: PlannedCopy[];
  /** Paths to delete once every copy is in place, sorted. */
  remove: string[];
  /** Files of the build the folder already holds. */
  unchanged: number;
}

export interface PlanOptions {
  /** The record of the last finished deploy; null for a folder never deployed into. */
  deployed: readonly ManifestFile[] | null;
  /** Targets of deploys that started after that record and did not finish. */
  interrupted?: readonly (readonly ManifestFile[])[];
}

export function planDeploy(build: readonly ManifestFile[], options: PlanOptions): DeployPlan {
  const deployed = indexFiles(options.deployed ?? []);
  const interrupted = (options.interrupted ?? []).map(indexFiles);
  const byTier = new Map<DeployTier, PlannedCopy[]>(DEPLOY_TIERS.map((tier) => [tier, []]));
  const listed = new Set<string>();
  let unchanged = 0;
  for (const file of build) {
    checkPath(file.path);
    if (listed.has(file.path)) throw new Error(`the build lists ${file.path} twice`);
    listed.add(file.path);
    const reason = getCopyReason(file, deployed, interrupted);
    if (reason === null) unchanged++;
    else {
      const tier = getDeployTier(file.path);
      byTier.get(tier)!.push({ ...file, tier, reason });
    }
  }
  const gone = new Set<string>();
  for (const known of [deployed, ...interrupted]) for (const path of known.keys()) if (!listed.has(path)) gone.add(path);
  return { copy: DEPLOY_TIERS.flatMap((tier) => byTier.get(tier)!), remove: [...gone].sort(), unchanged };
}

function getCopyReason(file: ManifestFile, deployed: Map<string, string>, interrupted: Map<string, string>[]): CopyReason | null {
  // Two candidates for what the folder holds disagree, so at least one is not the build's.
  if (interrupted.some((target) => target.get(file.path) !== deployed.get(file.path))) return "unsettled";
  const recorded = deployed.get(file.path);
  if (recorded === undefined) return "new";
  return recorded === file.sha256 ? null : "changed";
}

function indexFiles(files: readonly ManifestFile[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const file of files) {
    checkPath(file.path);
    index.set(file.path, file.sha256);
  }
  return index;
}

/**
 * A manifest is data read from disk: a path that could leave the folder (absolute, `..`, empty
 * segments, a backslash) is refused before anything is written or deleted.
 */
export function checkPath(path: string): void {
  const segments = path.split("/");
  if (path === "" || path.includes("\\") || path.includes("\0") || segments.some((s) => s === "" || s === "." || s === "..")) {
    throw new Error(`a manifest names ${JSON.stringify(path)}, which is not a path inside the folder`);
  }
}
