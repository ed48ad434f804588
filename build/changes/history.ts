/**
 * The publish before this one, as the change feed needs it (docs/change-feed.md): its build id,
 * its two dumps (the change files are their difference with the new ones) and the change files
 * it retained, each checked against the SHA-256 its index gives before it is carried on. Read
 * from the build folder that is current when the build starts — whichever way it was built, by
 * whichever version: a folder without a change index simply starts the history.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { BUILD_ID_PATTERN, type ChangeIndex, type ChangePublish } from "../../core/routes/changes-schema.ts";
import { getRouteFile } from "../../core/routes/match.ts";
import { MANIFEST_PATH } from "../writer/index.ts";
import { readManifestBuild } from "./build-id.ts";

export interface PreviousPublish {
  /** The build folder. */
  dir: string;
  build: string;
  /** Its dumps' paths, null where it has none (a build too old, or damaged). */
  dumps: { spammers: string | null; companies: string | null };
  /** The retained publishes whose files were all found intact, newest first (contiguous: each one's previous is the next one's build). */
  publishes: ChangePublish[];
  /** Publishes its index lists past the first that is not intact: dropped, so gone (410) from now on. */
  lost: ChangePublish[];
  /** Publishes dropped long ago, newest first (expired.json): asked for, they are a 410, not a 404. */
  expired: string[];
  /** What was wrong with its history and was dropped, for the build's notices. */
  problems: string[];
}

/** A file of the previous publish's history: where its bytes are, to carry them on. */
export const getHistoryPath = (dir: string, name: string) => join(dir, CHANGES_FOLDER, name);

/** Where the change files and their index are in a build (the route table's folder of them). */
export const CHANGES_FOLDER = dirname(getRouteFile("getChangeIndex"));

export function readPreviousPublish(dir: string | null): PreviousPublish | null {
  if (dir === null || !existsSync(join(dir, MANIFEST_PATH))) return null;
  const build = readManifestBuild(dir)?.id ?? basename(dir);
  if (!BUILD_ID.test(build)) return null;
  const problems: string[] = [];
  const index = readIndex(dir, problems);
  const publishes = index ? keepIntact(dir, build, index, problems) : [];
  const lost = index ? index.publishes.slice(publishes.length) : [];
  const dump = (name: string) => {
    const path = join(dir, getRouteFile("getDumpCsv", { name }));
    return existsSync(path) ? path : null;
  };
  return {
    dir,
    build,
    dumps: { spammers: dump("spammers-latest"), companies: dump("companies-latest") },
    publishes,
    lost,
    expired: readExpired(dir, problems),
    problems,
  };
}

function readIndex(dir: string, problems: string[]): ChangeIndex | null {
  const path = join(dir, getRouteFile("getChangeIndex"));
  if (!existsSync(path)) return null;
  try {
    const index = JSON.parse(readFileSync(path, "utf8")) as unknown;
    if (isChangeIndex(index)) return index;
    problems.push(`the previous publish's ${getRouteFile("getChangeIndex")} is not a change index: its history starts again here`);
  } catch (error) {
    problems.push(`the previous publish's ${getRouteFile("getChangeIndex")} cannot be read (${error instanceof Error ? error.message : String(error)}): its history starts again here`);
  }
  return null;
}

const BUILD_ID = new RegExp(BUILD_ID_PATTERN);
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const isCounts = (value: unknown) => typeof value === "object" && value !== null && ["added", "updated", "removed"].every((k) => isCount((value as Record<string, unknown>)[k]));

/** What this build reads of an index (the publishes, their files), checked before it is believed. */
function isChangeIndex(value: unknown): value is ChangeIndex {
  const index = value as ChangeIndex;
  return (
    typeof index === "object" &&
    index !== null &&
    typeof index.build === "string" &&
    typeof index.as_of === "string" &&
    Array.isArray(index.publishes) &&
    index.publishes.every(
      (p) =>
        typeof p === "object" &&
        p !== null &&
        BUILD_ID.test(p.build) &&
        (p.previous === null || BUILD_ID.test(p.previous)) &&
        !Number.isNaN(Date.parse(p.as_of)) &&
        isCounts(p.spammers) &&
        isCounts(p.companies) &&
        Array.isArray(p.files) &&
        p.files.every((f) => typeof f === "object" && f !== null && /^[0-9a-f]{16}(-companies)?\.csv(\.gz)?$/.test(f.name) && isCount(f.bytes) && /^[0-9a-f]{64}$/.test(f.sha256) && isCount(f.rows)),
    )
  );
}

/**
 * The publishes from the newest as long as they chain (each relative to the next) and their
 * files are intact; from the first that is not, the history stops.
 */
function keepIntact(dir: string, build: string, index: ChangeIndex, problems: string[]): ChangePublish[] {
  if (index.build !== build) {
    problems.push(`the previous publish's change index describes build ${index.build}, not ${build}: its history starts again here`);
    return [];
  }
  const kept: ChangePublish[] = [];
  for (const publish of index.publishes) {
    const expected = kept.length === 0 ? build : kept[kept.length - 1]!.previous;
    if (publish.build !== expected) {
      problems.push(`the previous publish's change index breaks its chain at ${publish.build}: older publishes are dropped`);
      break;
    }
    const broken = publish.files.find((file) => !isIntact(getHistoryPath(dir, file.name), file.bytes, file.sha256));
    if (broken) {
      problems.push(`the change file ${broken.name} of the previous publish is missing or altered: it and older publishes are dropped`);
      break;
    }
    kept.push(publish);
    if (publish.previous === null) break;
  }
  return kept;
}

function isIntact(path: string, bytes: number, sha256: string): boolean {
  try {
    if (statSync(path).size !== bytes) return false;
    const hash = createHash("sha256");
    for (const chunk of readFileChunks(path)) hash.update(chunk);
    return hash.digest("hex") === sha256;
  } catch {
    return false;
  }
}

function readExpired(dir: string, problems: string[]): string[] {
  const path = join(dir, getRouteFile("getChangeExpired"));
  if (!existsSync(path)) return [];
  try {
    const { builds } = JSON.parse(readFileSync(path, "utf8")) as { builds: unknown };
    if (Array.isArray(builds) && builds.every((id) => typeof id === "string" && BUILD_ID.test(id))) return builds as string[];
  } catch {
    // Said below.
  }
  problems.push(`the previous publish's ${getRouteFile("getChangeExpired")} cannot be read: the publishes it listed will be unknown (404), not gone (410)`);
  return [];
}

/** A file's bytes in 1 MiB pieces, read as they are used; each piece its own buffer (a caller may keep them all). */
export function* readFileChunks(path: string): Generator<Uint8Array> {
  const fd = openSync(path, "r");
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(1 << 20);
      const read = readSync(fd, buffer);
      if (read === 0) return;
      yield buffer.subarray(0, read);
    }
  } finally {
    closeSync(fd);
  }
}
