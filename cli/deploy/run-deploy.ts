/**
 * One deploy, in the order that keeps the served folder whole for its readers at every moment
 * (docs/operators.md "Deploy"): lock the folder, note the build as a deploy under way, put the new and
 * changed files in place tier by tier (core/deploy/tiers.ts), flush them, delete what the build no
 * longer has, and only then record the build as deployed.
 */
import { join } from "node:path";
import { planDeploy, type DeployPlan } from "../../core/deploy/plan.ts";
import { DEPLOY_TIERS, type DeployTier } from "../../core/deploy/tiers.ts";
import { readManifestFile, type ManifestCopy } from "./manifest-file.ts";
import { DeployError, resolveDeployPlaces } from "./places.ts";
import { flushWrites, putFile, removeFiles, type PutResult } from "./put-file.ts";
import { finishRecord, lockTarget, RECORD_FOLDER, readRecord, writePending } from "./record.ts";

export interface DeployOptions {
  /** Print the plan and change nothing. */
  dryRun?: boolean;
  /** Called after each file is put in place (progress; the tests stop a deploy half-way through it). */
  onFile?: (path: string, result: PutResult) => void;
}

export interface DeploySummary {
  build: string;
  target: string;
  plan: DeployPlan;
  /** Files written, by tier. */
  copied: Record<DeployTier, number>;
  /** Files the plan named that were already there (after a deploy that died). */
  inPlace: number;
  removed: number;
}

/** Deploys the build behind `dist` into `to`, or with `dryRun` only plans it. */
export function deployBuild(dist: string, to: string, options: DeployOptions = {}): DeploySummary {
  const places = resolveDeployPlaces(dist, to);
  const build = readBuildManifest(places.manifest);
  const summary = (plan: DeployPlan): DeploySummary => ({
    build: places.build,
    target: places.target,
    plan,
    copied: Object.fromEntries(DEPLOY_TIERS.map((tier) => [tier, 0])) as Record<DeployTier, number>,
    inPlace: 0,
    removed: 0,
  });
  if (options.dryRun) return summary(planFor(build, readRecord(places.target)));
  const unlock = lockTarget(places.target);
  try {
    const record = readRecord(places.target);
    const result = summary(planFor(build, record));
    const { copy, remove } = result.plan;
    if (copy.length === 0 && remove.length === 0 && record.interrupted.size === 0) return result;
    writePending(places.target, build);
    const written: string[] = [];
    const folders = new Set<string>();
    for (const file of copy) {
      const to = join(places.target, file.path);
      const put = putFile(join(places.build, file.path), to, file, folders);
      if (put === "copied") {
        result.copied[file.tier]++;
        written.push(to);
      } else result.inPlace++;
      options.onFile?.(file.path, put);
    }
    flushWrites(places.target, [...written, ...folders]);
    removeFiles(places.target, remove);
    result.removed = remove.length;
    finishRecord(places.target, build, record.interrupted.keys());
    return result;
  } finally {
    unlock();
  }
}

function readBuildManifest(path: string): ManifestCopy {
  let manifest: ManifestCopy;
  try {
    manifest = readManifestFile(path);
  } catch (error) {
    throw new DeployError(`${path} is not a build's manifest (${error instanceof Error ? error.message : String(error)}): build again`);
  }
  const own = manifest.files.find((file) => file.path.startsWith(`${RECORD_FOLDER}/`));
  if (own) throw new DeployError(`the build lists ${own.path}, where a deploy keeps its record: it cannot be deployed`);
  return manifest;
}

function planFor(build: ManifestCopy, record: ReturnType<typeof readRecord>): DeployPlan {
  try {
    return planDeploy(build.files, { deployed: record.deployed?.files ?? null, interrupted: [...record.interrupted.values()].map((m) => m.files) });
  } catch (error) {
    throw new DeployError(error instanceof Error ? error.message : String(error));
  }
}
