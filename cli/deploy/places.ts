/**
 * Where a deploy reads and writes: the build it deploys (the `dist` link resolved once, so a
 * build published meanwhile does not change the source half-way) and the served folder, which
 * may be neither inside the build nor above it, nor among the builds, nor a file — each refused
 * as a usage error before anything is written.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { getBuildsLayout } from "../../build/publish.ts";
import { MANIFEST_FILE } from "../../core/deploy/tiers.ts";
import { UsageError } from "../flags.ts";

export interface DeployPlaces {
  /** The build folder (the link's target), whose files are copied. */
  build: string;
  /** Its `manifest.json`. */
  manifest: string;
  /** The served folder, absolute. */
  target: string;
}

/** A deploy that cannot start for what it found on disk (no build yet, a record it cannot read, a deploy under way): exit 1. */
export class DeployError extends Error {}

export function resolveDeployPlaces(dist: string, to: string): DeployPlaces {
  const build = findBuild(dist);
  const target = resolve(to);
  if (existsSync(target) && !statSync(target).isDirectory()) throw new UsageError(`--to ${to} is a file, not a folder`);
  const real = resolveThroughLinks(target);
  const builds = resolveThroughLinks(getBuildsLayout(dist).buildsDir);
  if (isWithin(real, build)) throw new UsageError(`--to ${to} is inside the build it would deploy (${build})`);
  if (isWithin(real, builds)) throw new UsageError(`--to ${to} is inside ${builds}, where the builds live`);
  if (isWithin(build, real) || isWithin(resolveThroughLinks(dirname(resolve(dist))), real)) {
    throw new UsageError(`--to ${to} holds the build itself (${build}); give a folder of its own`);
  }
  return { build, manifest: join(build, MANIFEST_FILE), target };
}

function findBuild(dist: string): string {
  const manifest = join(resolve(dist), MANIFEST_FILE);
  if (!existsSync(manifest)) throw new DeployError(`no build at ${dist} (no ${MANIFEST_FILE}): run npm run build first`);
  return realpathSync(resolve(dist));
}

/** The real path of a folder that may not exist yet: its nearest existing ancestor's real path, then the rest. */
function resolveThroughLinks(path: string): string {
  const rest: string[] = [];
  let at = resolve(path);
  while (!existsSync(at) && dirname(at) !== at) {
    rest.unshift(basename(at));
    at = dirname(at);
  }
  return join(realpathSync(at), ...rest);
}

function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}
