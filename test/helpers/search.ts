/**
 * What the search endpoint tests share: the fixture with look-alike rows added (enough to fill
 * every cap), hostile queries, and complaint counts by SQL.
 */
import type { BuiltFixture } from "./fixture.ts";

export { FIXTURE_SQL } from "./fixture.ts";

/**
 * Look-alikes enough to fill every cap: companies "Capstone 1".."Capstone 9" with i complaints
 * each (the last one on 2026-03-0i), "Big Capstone" with 20 older ones, people "Cap Person
 * 1".."Cap Person 8" (the first with an absolute avatar URL), usernames capper_1..capper_9 with i
 * reports each.
 */
export const LOOK_ALIKES_SQL = `
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9)
INSERT INTO companies (id, name, slug, category, website, created_at)
  SELECT 100 + i, 'Capstone ' || i, 'capstone-' || i, 'crypto', 'https://capstone' || i || '.example/about', '2024-01-01T00:00:00Z' FROM n;
INSERT INTO companies (id, name, slug, category, website, created_at) VALUES (110, 'Big Capstone', 'big-capstone', 'crypto', NULL, '2024-01-01T00:00:00Z');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 8)
INSERT INTO people (id, name, slug, avatar, company_id)
  SELECT 100 + i, 'Cap Person ' || i, 'cap-person-' || i, CASE i WHEN 1 THEN 'https://cdn.example/cap.png' END, NULL FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9)
INSERT INTO reports (id, username, category, company_id, person_id, reporter, confidence, created_at)
  SELECT 1000 + 10 * n.i + k.i, 'capper_' || n.i, 'crypto', 100 + n.i, NULL, 'rc', 50, '2026-03-0' || k.i || 'T12:00:00Z'
  FROM n JOIN n AS k ON k.i <= n.i;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
INSERT INTO reports (id, username, category, company_id, person_id, reporter, confidence, created_at)
  SELECT 2000 + i, NULL, 'crypto', 110, NULL, 'rb', 50, '2026-02-01T00:00:00Z' FROM n;
`;

/** A company's complaints, counted with SQL: dated reports naming it ('now' is refused by the build). */
export function countComplaints(fixture: BuiltFixture, slug: string): number {
  return fixture.sql
    .prepare("SELECT count(*) FROM reports r JOIN companies c ON c.id = r.company_id WHERE c.slug = ? AND strftime('%s', r.created_at) IS NOT NULL AND r.created_at <> 'now'")
    .pluck()
    .get(slug) as number;
}

export const q = (text: string) => encodeURIComponent(text);

/** Query strings (already URL-encoded) that must never fail a search route. */
export const HOSTILE_QUERIES = [
  ["markup", q("<script>alert(1)</script>")],
  ["control characters", "%00%01%1Fzed%7F"],
  ["a lone surrogate (its UTF-8 bytes)", "%ED%A0%80zed"],
  ["cut-off UTF-8", "%F0%9Fzed"],
  ["regex metacharacters", q("(.*)+$[\\")],
  ["__proto__", "__proto__"],
  ["constructor", "constructor"],
  ["right-to-left text", q("\u202eשלום evil")],
  ["only punctuation", q("!!!???")],
] as const;
