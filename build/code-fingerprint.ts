/**
 * What made a build: a hash of every source file the build runs (build/, core/, the snapshot
 * contract), the locked dependency versions, and the runtime pieces whose output lands in dist
 * (Node's zlib and brotli make the precompressed variants and the dump's gzip; SQLite parses
 * every report's time). An incremental build trusts an earlier build only when this is the same:
 * a changed template or a newer zlib means a full build, never files from two versions.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Snapshot } from "./snapshot/open.ts";

const PROJECT = fileURLToPath(new URL("../", import.meta.url));
const SOURCE_FOLDERS = ["build", "core"];
const SOURCE_FILES = ["data/schema.sql", "package.json", "package-lock.json"];
const SOURCE_EXTENSIONS = /\.(?:ts|cjs|mjs|js|json|sql)$/;

export function getCodeFingerprint(db: Snapshot): string {
  const hash = createHash("sha256");
  const add = (name: string, content: string | Buffer) => hash.update(`${name}\0${content.length}\0`).update(content);
  for (const path of listSources()) add(relative(PROJECT, path).split("\\").join("/"), readFileSync(path));
  add("node", process.versions.node);
  add("zlib", process.versions.zlib ?? "");
  add("brotli", process.versions.brotli ?? "");
  add("sqlite", String(db.prepare("SELECT sqlite_version()").pluck().get()));
  return hash.digest("hex").slice(0, 32);
}

function listSources(): string[] {
  const paths: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE_EXTENSIONS.test(entry.name)) paths.push(path);
    }
  };
  for (const folder of SOURCE_FOLDERS) walk(join(PROJECT, folder));
  for (const file of SOURCE_FILES) if (existsSync(join(PROJECT, file))) paths.push(join(PROJECT, file));
  // Code-point order, so the hash does not depend on the file system's listing order.
  return paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
