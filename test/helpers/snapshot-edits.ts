/**
 * Kinds of change between two exports of a snapshot, each as SQL on a copy of the sample: what an
 * incremental build must carry through to the same bytes as a full build (issue: every kind of
 * change the reference data can see). Each edit is deterministic; `pick` draws a sequence of them.
 */
import Database from "better-sqlite3";
import { copyFileSync, rmSync } from "node:fs";

export interface SnapshotEdit {
  name: string;
  sql: string;
}

/** Every kind of change, by name. The SQL runs on a copy of the previous snapshot. */
export const SNAPSHOT_EDITS: readonly SnapshotEdit[] = [
  { name: "nothing changed", sql: "" },
  {
    name: "reports added for existing usernames",
    sql: `INSERT INTO reports (username, category, company_id, person_id, reporter, confidence, created_at)
          SELECT username, category, company_id, person_id, 'r-added-' || id, 70, (SELECT value FROM meta WHERE key = 'as_of')
          FROM reports WHERE id % 37 = 0`,
  },
  { name: "reports deleted", sql: "DELETE FROM reports WHERE id % 41 = 3" },
  { name: "report categories edited", sql: "UPDATE reports SET category = CASE WHEN category = 'crypto' THEN 'forex' ELSE 'crypto' END WHERE id % 29 = 1" },
  { name: "report usernames edited", sql: "UPDATE reports SET username = username || '_x' WHERE id % 53 = 2 AND username IS NOT NULL" },
  { name: "report usernames respelled", sql: "UPDATE reports SET username = '@' || upper(username) WHERE id % 61 = 5 AND username IS NOT NULL" },
  { name: "report companies edited", sql: "UPDATE reports SET company_id = (SELECT min(id) FROM companies) WHERE id % 31 = 4 AND company_id IS NOT NULL" },
  { name: "report confidences edited", sql: "UPDATE reports SET confidence = (confidence + 17) % 101 WHERE id % 23 = 6" },
  { name: "report dates edited", sql: "UPDATE reports SET created_at = (SELECT value FROM meta WHERE key = 'as_of') WHERE id % 43 = 7" },
  { name: "report dates made unreadable", sql: "UPDATE reports SET created_at = 'not a date' WHERE id % 97 = 8" },
  // Later than as_of: in no trend window until as_of moves past them.
  {
    name: "reports dated after as_of",
    sql: `INSERT INTO reports (username, category, company_id, reporter, confidence, created_at)
          SELECT username, category, company_id, 'r-later-' || id, 40, strftime('%Y-%m-%dT%H:%M:%SZ', (SELECT value FROM meta WHERE key = 'as_of'), '+' || (id % 5 + 2) || ' days')
          FROM reports WHERE id % 37 = 9 AND username IS NOT NULL`,
  },
  // Spellings whose quoted text holds quotes and newlines (the row keys quote usernames as SQLite does).
  {
    name: "spellings with quotes and newlines",
    sql: `INSERT INTO reports (username, category, reporter, confidence, created_at) VALUES
            ('O''Brien', 'crypto', 'r-q1', 20, '2026-03-01T00:00:00Z'), ('line' || char(10) || 'break', 'crypto', 'r-q2', 20, '2026-03-01T00:00:00Z'),
            (' @Quoted_One ', 'crypto', 'r-q3', 20, '2026-03-02T00:00:00Z'), ('quoted_one', 'forex', 'r-q4', 30, '2026-03-03T00:00:00Z');
          UPDATE reports SET username = username || '''' WHERE id % 89 = 11 AND username IS NOT NULL`,
  },
  {
    name: "usernames appearing",
    sql: `INSERT INTO reports (username, category, company_id, person_id, reporter, confidence, created_at)
          SELECT 'newcomer_' || id, 'gambling', company_id, NULL, 'r-new', 55, created_at FROM reports WHERE id % 101 = 0`,
  },
  { name: "usernames vanishing", sql: "DELETE FROM reports WHERE username IN (SELECT DISTINCT username FROM reports WHERE username IS NOT NULL ORDER BY username LIMIT 5)" },
  { name: "invalid usernames appearing", sql: "INSERT INTO reports (username, category, reporter, confidence, created_at) VALUES ('bad name!', 'crypto', 'r-bad', 10, '2026-01-01T00:00:00Z')" },
  {
    name: "company added with reports",
    sql: `INSERT INTO companies (id, name, slug, category, website, created_at) VALUES (9001, 'Fresh Affiliates <b>', 'fresh-affiliates', 'affiliate', 'https://fresh.example', '2026-01-01T00:00:00Z');
          INSERT INTO reports (username, category, company_id, reporter, confidence, created_at)
          SELECT username, 'affiliate', 9001, 'r-fresh', 80, created_at FROM reports WHERE id % 47 = 0`,
  },
  { name: "company renamed", sql: "UPDATE companies SET name = name || ' Group' WHERE id = (SELECT min(id) FROM companies)" },
  { name: "company slug changed", sql: "UPDATE companies SET slug = slug || '-new' WHERE id = (SELECT max(id) FROM companies WHERE id < 9000)" },
  { name: "company moved to another category", sql: "UPDATE companies SET category = CASE WHEN category = 'gambling' THEN 'crypto' ELSE 'gambling' END WHERE id = (SELECT min(id) + 1 FROM companies)" },
  { name: "company removed", sql: "DELETE FROM companies WHERE id = (SELECT min(id) + 2 FROM companies)" },
  { name: "aliases added and removed", sql: "DELETE FROM company_aliases WHERE rowid % 3 = 0; INSERT INTO company_aliases (company_id, alias) SELECT id, name || ' Alias' FROM companies WHERE id % 4 = 1" },
  { name: "people added, edited and removed", sql: "INSERT INTO people (id, name, slug, avatar, company_id) VALUES (9101, 'Nova Person', 'nova-person', NULL, NULL); UPDATE people SET name = name || ' Jr' WHERE id = (SELECT min(id) FROM people); DELETE FROM people WHERE id = (SELECT max(id) FROM people WHERE id < 9000)" },
  { name: "glossary and blog edited", sql: "UPDATE glossary SET definition = definition || ' (revised)' WHERE id % 2 = 0; DELETE FROM blog_posts WHERE id = (SELECT min(id) FROM blog_posts); INSERT INTO blog_posts (title, slug, excerpt, published_at) VALUES ('New post', 'new-post', 'Hello', '2026-02-02T00:00:00Z')" },
  { name: "videos and channels edited", sql: "UPDATE videos SET title = title || ' [HD]' WHERE id % 3 = 0; DELETE FROM video_channels WHERE id = (SELECT max(id) FROM video_channels); UPDATE chat_channels SET subscribers = coalesce(subscribers, 0) + 1" },
  { name: "chats added, edited and removed", sql: "UPDATE chats SET spam_blocked = spam_blocked + 5, bot_active = 1 - bot_active WHERE id % 2 = 1; DELETE FROM chats WHERE id = (SELECT min(id) FROM chats); INSERT INTO chats (username, title, members, bot_active, protected_since, messages_checked, spam_blocked) VALUES ('fresh_chat', 'Fresh chat', 12, 1, '2026-01-05T00:00:00Z', 100, 3)" },
  { name: "detection rule changed", sql: "UPDATE detection_rules SET weight = weight + 0.5, updated_at = '2026-03-01T00:00:00Z' WHERE id = (SELECT min(id) FROM detection_rules); DELETE FROM detection_rules WHERE id = (SELECT max(id) FROM detection_rules)" },
  { name: "fingerprint profiles edited", sql: "UPDATE fp_profiles SET observations = observations + 1 WHERE id % 5 = 0; DELETE FROM fp_signals WHERE rowid % 11 = 0; DELETE FROM fp_profiles WHERE id = (SELECT max(id) FROM fp_profiles)" },
  { name: "as_of a day later", sql: "UPDATE meta SET value = strftime('%Y-%m-%dT%H:%M:%SZ', value, '+1 day') WHERE key = 'as_of'" },
  { name: "as_of a day earlier", sql: "UPDATE meta SET value = strftime('%Y-%m-%dT%H:%M:%SZ', value, '-1 day') WHERE key = 'as_of'" },
  { name: "as_of a week later", sql: "UPDATE meta SET value = strftime('%Y-%m-%dT%H:%M:%SZ', value, '+7 days') WHERE key = 'as_of'" },
  { name: "meta source changed", sql: "UPDATE meta SET value = value || ' (re-exported)' WHERE key = 'source'" },
  // A fresh export: the same rows, new page layout and new rowids for the tables without ids.
  { name: "fresh export of the same data", sql: "CREATE TABLE a2 AS SELECT * FROM company_aliases ORDER BY alias DESC; DELETE FROM company_aliases; INSERT INTO company_aliases SELECT * FROM a2; DROP TABLE a2;" },
];

/**
 * Writes `to`: a copy of `from` with `edit` applied, then vacuumed (a new export's layout).
 */
export function applyEdit(from: string, to: string, edit: SnapshotEdit): void {
  rmSync(to, { force: true });
  copyFileSync(from, to);
  const db = new Database(to);
  try {
    if (edit.sql) db.exec(edit.sql);
    db.exec("VACUUM");
  } finally {
    db.close();
  }
}

export function findEdit(name: string): SnapshotEdit {
  const edit = SNAPSHOT_EDITS.find((e) => e.name === name);
  if (!edit) throw new Error(`no snapshot edit named ${name}`);
  return edit;
}
