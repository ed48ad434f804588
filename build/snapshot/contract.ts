/**
 * The snapshot contract (data/schema.sql, DESIGN "The snapshot contract") as the build checks it:
 * every table (or view) and every column it names must be there. Extra tables, columns, indexes
 * and views are fine. Listed here rather than read from data/schema.sql because the build may not
 * reach into data/ (ARCHITECTURE.md, the rooms); test/build/snapshot-check.test.ts keeps the two equal.
 */
import { BuildError } from "../errors.ts";
import type { Snapshot } from "./open.ts";

export const SNAPSHOT_CONTRACT: Readonly<Record<string, readonly string[]>> = {
  meta: ["key", "value"],
  companies: ["id", "name", "slug", "category", "website", "created_at"],
  company_aliases: ["company_id", "alias"],
  people: ["id", "name", "slug", "avatar", "company_id"],
  reports: ["id", "username", "category", "company_id", "person_id", "reporter", "confidence", "created_at"],
  glossary: ["id", "term", "slug", "definition"],
  video_channels: ["id", "name", "slug", "subscribers"],
  videos: ["id", "title", "slug", "channel_id", "published_at"],
  chat_channels: ["id", "username", "title", "subscribers"],
  chats: ["id", "username", "title", "members", "bot_active", "protected_since", "messages_checked", "spam_blocked"],
  blog_posts: ["id", "title", "slug", "excerpt", "published_at"],
  detection_rules: ["id", "name", "kind", "pattern", "category", "weight", "enabled", "updated_at"],
  fp_profiles: ["id", "label", "kind", "name", "os_family", "trust_level", "observations", "confirmations"],
  fp_signals: ["profile_id", "key", "value"],
};

/**
 * A table's contract columns for a SELECT whose rows are read by name: each aliased to itself,
 * because SQLite names a result column as the table declares it, and a snapshot may declare
 * `TITLE` where the contract says `title` (SQLite's names are not case-sensitive, and nor is the check).
 */
export function selectColumns(table: string): string {
  return SNAPSHOT_CONTRACT[table]!.map((column) => `${column} AS ${column}`).join(", ");
}

/**
 * Checks the snapshot against the contract and names everything missing at once, so that one
 * run tells the operator every table and column their export still lacks. Names compare as
 * SQLite compares them: without regard to case.
 */
export function checkContract(db: Snapshot, path: string): void {
  const listColumns = db.prepare("SELECT lower(name) FROM pragma_table_info(?)").pluck();
  const missingTables: string[] = [];
  const missingColumns: string[] = [];
  for (const [table, columns] of Object.entries(SNAPSHOT_CONTRACT)) {
    // A table or view with no columns does not exist (pragma_table_info returns no rows).
    const present = new Set(listColumns.all(table) as string[]);
    if (present.size === 0) missingTables.push(table);
    else for (const column of columns) if (!present.has(column)) missingColumns.push(`${table}.${column}`);
  }
  if (missingTables.length === 0 && missingColumns.length === 0) return;
  const missing = [
    missingTables.length > 0 ? `missing table${missingTables.length > 1 ? "s" : ""} ${missingTables.join(", ")}` : "",
    missingColumns.length > 0 ? `missing column${missingColumns.length > 1 ? "s" : ""} ${missingColumns.join(", ")}` : "",
  ];
  throw new BuildError(`snapshot ${path} does not follow data/schema.sql: ${missing.filter(Boolean).join("; ")}`, { kind: "input" });
}
