/**
 * Opening a snapshot: read-only, checked against the input contract (data/schema.sql) before any
 * work starts. Every SQL statement the build runs lives in this folder (STYLE: "SQL lives in one
 * snapshot-reading module"); the model (build/model/) validates what it reads.
 */
import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { BuildError, withContext } from "../errors.ts";

export type Snapshot = Database.Database;

const REQUIRED_TABLES = [
  "meta", "companies", "company_aliases", "people", "reports", "glossary", "video_channels", "videos",
  "chat_channels", "chats", "blog_posts", "detection_rules", "fp_profiles", "fp_signals",
];

export function openSnapshot(path: string): Snapshot {
  if (!existsSync(path)) throw new BuildError(`snapshot not found: ${path} (run \`npm run sample\` to make one)`);
  const db = withContext(`opening snapshot ${path}`, () => new Database(path, { readonly: true, fileMustExist: true }));
  try {
    const present = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").pluck().all() as string[]),
    );
    const missing = REQUIRED_TABLES.filter((t) => !present.has(t));
    if (missing.length > 0) throw new BuildError(`snapshot ${path} does not follow data/schema.sql: missing ${missing.join(", ")}`);
    // Sorts spill to temporary files instead of growing the heap. This connection reads the small
    // tables and walks the username index once, so a small page cache does; the query threads,
    // which sort and look reports up, keep 64 MiB each (group-worker.cjs, query-worker.cjs).
    db.pragma("temp_store = FILE");
    db.pragma("cache_size = -8192");
    return db;
  } catch (error) {
    db.close();
    throw error instanceof BuildError ? error : new BuildError(`reading snapshot ${path}: ${String(error)}`, { cause: error });
  }
}
