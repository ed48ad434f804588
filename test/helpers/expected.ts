/**
 * Expected API values computed straight from the snapshot with SQL, never with the build's own
 * functions. SQLite's date functions read ISO 8601 offsets and return UTC, which is exactly the
 * normalisation the build does by hand.
 */
import type Database from "better-sqlite3";
import { BASE_URL } from "./fixture.ts";

const ENUM = "gambling,crypto,nutra,traffic,affiliate,job,adult,forex,tools,payments,infobiz,other";
const LABELS: Record<string, string> = {
  gambling: "Gambling", crypto: "Crypto", nutra: "Nutra", traffic: "Traffic arbitrage", affiliate: "Affiliate networks",
  job: "Job offers", adult: "Adult", forex: "Forex", tools: "Tools and services", payments: "Payments",
  infobiz: "Info business", other: "Other",
};

/** Reports that can be dated, with the normalised username, UTC time and age in days. */
const REPORTS = `
  WITH asof AS (SELECT value AS v FROM meta WHERE key = 'as_of'),
  r AS (
    SELECT id,
      lower(CASE WHEN substr(trim(username), 1, 1) = '@' THEN substr(trim(username), 2) ELSE trim(username) END) AS u,
      reporter, confidence,
      CASE WHEN instr(',${ENUM},', ',' || category || ',') > 0 THEN category END AS cat,
      company_id, person_id,
      strftime('%Y-%m-%dT%H:%M:%SZ', created_at) AS ts,
      CAST(julianday(date((SELECT v FROM asof))) - julianday(date(created_at)) AS INTEGER) AS age
    FROM reports WHERE strftime('%s', created_at) IS NOT NULL
  ),
  valid AS (SELECT * FROM r WHERE u IS NOT NULL AND length(u) BETWEEN 1 AND 64 AND u NOT GLOB '*[^a-z0-9_]*')`;

const TREND = (cur: string, prev: string) =>
  `CASE WHEN ${prev} = 0 THEN (CASE WHEN ${cur} > 0 THEN 100.0 ELSE 0.0 END) ELSE round((${cur} - ${prev}) * 100.0 / ${prev}, 1) END`;

export function expectedUsernames(db: Database.Database): string[] {
  return db.prepare(`${REPORTS} SELECT DISTINCT u FROM valid ORDER BY u`).pluck().all() as string[];
}

export function expectedCheck(db: Database.Database, username: string) {
  const row = db
    .prepare(
      `${REPORTS} SELECT count(*) n, count(DISTINCT reporter) uniq, max(confidence) cmax, min(ts) first, max(ts) last,
         sum(age BETWEEN 0 AND 6) cur, sum(age BETWEEN 7 AND 13) prev FROM valid WHERE u = ?`,
    )
    .get(username) as { n: number; uniq: number; cmax: number; first: string; last: string; cur: number; prev: number };
  const trend = db.prepare(`SELECT ${TREND("@cur", "@prev")}`).pluck().get({ cur: row.cur, prev: row.prev }) as number;
  const categories = db
    .prepare(`${REPORTS} SELECT cat FROM valid WHERE u = ? AND cat IS NOT NULL GROUP BY cat ORDER BY count(*) DESC, instr(',${ENUM},', ',' || cat || ',')`)
    .pluck()
    .all(username) as string[];
  const companies = db
    .prepare(
      `${REPORTS} SELECT c.name, c.slug FROM valid JOIN companies c ON c.id = valid.company_id WHERE u = ?
       GROUP BY c.id ORDER BY count(*) DESC, lower(c.name), c.id`,
    )
    .all(username) as { name: string; slug: string }[];
  return {
    found: true,
    username,
    reports_count: row.n,
    unique_reports: row.uniq,
    confidence_max: row.cmax,
    first_seen: row.first,
    last_seen: row.last,
    week_trend: trend,
    last_7_days: row.cur,
    categories,
    companies: companies.map((c) => ({ ...c, url: `${BASE_URL}/company/${c.slug}` })),
    url: `${BASE_URL}/api/check/${username}`,
  };
}

interface CompanyRow {
  id: number;
  name: string;
  slug: string;
  category: string;
  n: number;
  first: string | null;
  last: string | null;
  cur: number;
  prev: number;
}

/** Companies with a usable slug (the fixture has one with a space), with their complaint stats. */
export function expectedCompanies(db: Database.Database): CompanyRow[] {
  return db
    .prepare(
      `${REPORTS} SELECT c.id, c.name, c.slug, c.category, count(r.id) n, date(min(r.ts)) first, date(max(r.ts)) last,
         coalesce(sum(r.age BETWEEN 0 AND 6), 0) cur, coalesce(sum(r.age BETWEEN 7 AND 13), 0) prev
       FROM companies c LEFT JOIN r ON r.company_id = c.id
       WHERE c.slug NOT GLOB '*[^A-Za-z0-9._-]*' GROUP BY c.id`,
    )
    .all() as CompanyRow[];
}

export function expectedCard(db: Database.Database, c: CompanyRow) {
  const aliases = db.prepare("SELECT DISTINCT alias FROM company_aliases WHERE company_id = ? AND lower(alias) <> lower(?) ORDER BY rowid").pluck().all(c.id, c.name);
  const category = LABELS[c.category] ? c.category : "other";
  return {
    found: true,
    name: c.name,
    slug: c.slug,
    category,
    category_label: LABELS[category],
    reports_count: c.n,
    first_report_date: c.first,
    last_report_date: c.last,
    week_trend: db.prepare(`SELECT ${TREND("@cur", "@prev")}`).pluck().get({ cur: c.cur, prev: c.prev }),
    last_7_days: c.cur,
    aliases,
    badge_url: `${BASE_URL}/api/badge/${c.slug}.svg`,
    card_url: `${BASE_URL}/api/card/${c.slug}.svg`,
    url: `${BASE_URL}/company/${c.slug}`,
  };
}

/** Per-day complaints for day-6..day-0 and the most frequent report category. */
export function expectedWidgetParts(db: Database.Database, companyId: number) {
  const days = [6, 5, 4, 3, 2, 1, 0].map(
    (age) => db.prepare(`${REPORTS} SELECT count(*) FROM r WHERE company_id = ? AND age = ?`).pluck().get(companyId, age) as number,
  );
  const top = db
    .prepare(`${REPORTS} SELECT cat FROM r WHERE company_id = ? AND cat IS NOT NULL GROUP BY cat ORDER BY count(*) DESC, instr(',${ENUM},', ',' || cat || ',') LIMIT 1`)
    .pluck()
    .get(companyId) as string | undefined;
  return { days, top };
}

/** Rejected usernames by reason, classified by SQL. */
export function expectedUsernameRejections(db: Database.Database) {
  return db
    .prepare(
      `${REPORTS} SELECT CASE WHEN length(u) = 0 THEN 'username_empty'
         WHEN u GLOB '*[^a-z0-9_]*' THEN 'username_invalid_characters' ELSE 'username_too_long' END AS reason, count(*) n
       FROM r WHERE u IS NOT NULL AND NOT (length(u) BETWEEN 1 AND 64 AND u NOT GLOB '*[^a-z0-9_]*') GROUP BY reason ORDER BY reason`,
    )
    .all() as { reason: string; n: number }[];
}

/** Valid usernames by first report, newest first, ties by username; `category` keeps those with a report in it. */
export function expectedNewestUsernames(db: Database.Database, category: string | null, limit: number) {
  return db
    .prepare(`${REPORTS} SELECT u AS username, min(ts) AS first FROM valid GROUP BY u HAVING @category IS NULL OR sum(cat = @category) > 0 ORDER BY first DESC, u LIMIT @limit`)
    .all({ category, limit }) as { username: string; first: string }[];
}
