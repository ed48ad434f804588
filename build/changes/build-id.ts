/**
 * A build's id is the first 16 hex digits of the SHA-256 of its manifest as it stands once every
 * file the snapshot makes is listed — before the change feed's files, which depend on the
 * publishes before it and are named by that id (a name cannot be part of what it names). So the
 * same snapshot gives the same id whatever came before, and the manifest records where its
 * sealed part ends: `"build": {"id", "sealed_bytes"}`, checkable by anyone who has the file.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { MANIFEST_PATH } from "../writer/index.ts";

export interface SealedManifest {
  /** The build id. */
  id: string;
  /** Bytes of the manifest it is the hash of. */
  sealedBytes: number;
}

/** The manifest's `build` field, from its last bytes (it is written last); null for a manifest without one. */
export function readManifestBuild(dir: string): SealedManifest | null {
  let fd: number;
  try {
    fd = openSync(join(dir, MANIFEST_PATH), "r");
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const tail = Buffer.alloc(Math.min(size, TAIL_BYTES));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    const build = BUILD_FIELD.exec(tail.toString("utf8"));
    return build ? { id: build[1]!, sealedBytes: Number(build[2]) } : null;
  } finally {
    closeSync(fd);
  }
}

/** The top-level fields follow the last file of the list; they are a few hundred bytes. */
const TAIL_BYTES = 64 * 1024;
const BUILD_FIELD = /\n\],.*"build":\{"id":"([0-9a-f]{16})","sealed_bytes":([0-9]{1,15})\}/;

/** The manifest field for a sealed id, as the writer's `finish` gets it. */
export const toBuildField = ({ id, sealedBytes }: SealedManifest) => ({ id, sealed_bytes: sealedBytes });
