/**
 * A build's `manifest.json` (build/writer/file-sink.cjs writes it) read for a deploy: its files,
 * plus the manifest itself as the last file of the list — it does not list itself, yet the
 * served folder needs it, and its own hash tells two builds apart without comparing their lists.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { ManifestFile } from "../../core/deploy/plan.ts";
import { MANIFEST_FILE } from "../../core/deploy/tiers.ts";

export interface ManifestCopy {
  /** Every file the manifest lists, then `manifest.json` itself. */
  files: ManifestFile[];
  /** The manifest's bytes, which the deploy records as they are. */
  bytes: Buffer;
  sha256: string;
}

/** SHA-256 in hex, as the manifest lists it. */
export const hashBytes = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** Reads and checks a manifest; a file that is not one throws with the reason. */
export function readManifestFile(path: string): ManifestCopy {
  const bytes = readFileSync(path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new Error("not JSON");
  }
  const listed = (parsed as { files?: unknown } | null)?.files;
  if (!Array.isArray(listed)) throw new Error("no list of files");
  const files = listed.map((entry: unknown, n): ManifestFile => {
    const { path: name, size, sha256 } = (entry ?? {}) as Record<string, unknown>;
    if (typeof name !== "string" || typeof size !== "number" || typeof sha256 !== "string" || !/^[0-9a-f]{64}$/.test(sha256)) {
      throw new Error(`entry ${n + 1} is not {path, size, sha256}`);
    }
    return { path: name, size, sha256 };
  });
  const sha256 = hashBytes(bytes);
  files.push({ path: MANIFEST_FILE, size: bytes.byteLength, sha256 });
  return { files, bytes, sha256 };
}
