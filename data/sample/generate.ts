/**
 * The deterministic sample snapshot: realistic enough to exercise every endpoint and every
 * rejection path, generated row by row so that memory stays flat at --scale 1000000.
 */
import { readFileSync, renameSync, rmSync } from "node:fs";
import Database from "better-sqlite3";
import { CATEGORIES } from "../../core/categories.ts";
import { DAY_MS, formatInstant } from "../../core/time.ts";
import { Random, WeightedPicker, getZipfWeights } from "./random.ts";
import { generateContent } from "./content.ts";
import { generateCompanies, type SampleCompany } from "./companies.ts";
import { generatePeople } from "./people.ts";
import { createHandleFactory, INVALID_USERNAMES } from "./handles.ts";

export interface SampleOptions {
  /** Number of reported usernames; every other table grows with it. */
  scale: number;
  seed: string;
  out: string;
  /** The snapshot's "now" (meta as_of). Fixed, never the clock, so samples are reproducible. */
  asOf: string;
  onProgress?: (done: number, total: number) => void;
}

export interface SampleSummary {
  usernames: number;
  reports: number;
  companies: number;
  people: number;
}

export { DEFAULT_AS_OF } from "./defaults.ts";
const HISTORY_DAYS = 730;

/** Skewed category mix: gambling and crypto dominate, infobiz and payments are rare. */
const CATEGORY_WEIGHTS = [30, 24, 9, 8, 7, 6, 5, 4, 3, 2, 1.5, 0.5];

export function generateSample(options: SampleOptions): SampleSummary {
  const tmp = `${options.out}.tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  const db = new Database(tmp);
  try {
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
    db.exec(readFileSync(new URL("../schema.sql", import.meta.url), "utf8"));
    const summary = db.transaction(() => fill(db, options))();
    db.exec("ANALYZE");
    db.close();
    renameSync(tmp, options.out);
    return summary;
  } catch (error) {
    if (db.open) db.close();
    rmSync(tmp, { force: true });
    throw error;
  }
}

function fill(db: Database.Database, options: SampleOptions): SampleSummary {
  const root = new Random(options.seed);
  const asOfMs = Date.parse(options.asOf);
  const scale = Math.max(1, Math.floor(options.scale));
  const day0 = Math.floor(asOfMs / DAY_MS);
  const firstDay = day0 - HISTORY_DAYS + 1;
  const activity = getDailyActivity(root.fork("activity"));

  const insertMeta = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
  insertMeta.run("as_of", options.asOf);
  insertMeta.run("source", "Sample snapshot (synthetic data, seed " + options.seed + ")");
  insertMeta.run("license", "CC BY 4.0");

  const companies = generateCompanies(db, root.fork("companies"), Math.max(20, Math.round(scale / 50)), asOfMs);
  const people = generatePeople(db, root.fork("people"), Math.max(10, Math.round(scale / 100)), companies.length);
  generateContent(db, root.fork("content"), scale, asOfMs);

  const companyPicker = new WeightedPicker(companies.map((c) => c.popularity));
  const personPicker = new WeightedPicker(getZipfWeights(people, 1.1));
  const categoryPicker = new WeightedPicker(CATEGORY_WEIGHTS);
  const insertReport = db.prepare(
    "INSERT INTO reports (username, category, company_id, person_id, reporter, confidence, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const random = root.fork("reports");
  const handles = createHandleFactory(root.fork("handles"));
  const reporterPool = Math.max(50, Math.round(scale / 5));
  let reports = 0;

  const formatTime = (ms: number): string => {
    const r = random.next();
    // Real exports mix formats: mostly UTC with Z, some offset-less, some in Moscow time.
    if (r < 0.85) return formatInstant(ms);
    if (r < 0.95) return formatInstant(ms).replace("T", " ").replace("Z", "");
    return formatInstant(ms + 3 * 3_600_000).replace("Z", "+03:00");
  };
  const pickDay = (from: number, to: number): number => {
    let day = from;
    for (let attempt = 0; attempt < 8; attempt++) {
      day = from + random.int(to - from + 1);
      if (random.next() < activity[day - firstDay]!) break;
    }
    return day;
  };
  const instantOn = (day: number): number => {
    const ms = day * DAY_MS + random.int(DAY_MS);
    return Math.min(ms, asOfMs);
  };

  for (let u = 0; u < scale; u++) {
    const handle = handles.next();
    const count = random.pareto(1.0, 4000);
    const mainCategory = CATEGORIES[categoryPicker.pick(random)]!;
    // Spans: busier accounts stay active longer; some are still active now, the rest
    // stopped at some point in the history (banned, abandoned).
    const spanLength = Math.min(HISTORY_DAYS, Math.ceil(Math.sqrt(count) * random.between(3, 30)));
    const activeNow = random.chance(0.15);
    const spanEnd = activeNow ? day0 : Math.min(day0, firstDay + spanLength + random.int(Math.max(1, HISTORY_DAYS - spanLength)));
    const spanStart = Math.max(firstDay, spanEnd - spanLength);
    const reporters = Array.from({ length: random.between(1, 6) }, () => `r${random.int(reporterPool).toString(36)}`);
    const linked = random.chance(0.4)
      ? Array.from({ length: random.between(1, 3) }, () => companies[companyPicker.pick(random)]!)
      : [];
    for (let i = 0; i < count; i++) {
      let username: string | null = handle;
      const spelling = random.next();
      if (spelling < 0.04) username = "@" + handle;
      else if (spelling < 0.06) username = handle.toUpperCase();
      else if (spelling < 0.07) username = ` ${handle} `;
      else if (spelling < 0.072) username = random.pick(INVALID_USERNAMES);
      const categoryRoll = random.next();
      const category =
        categoryRoll < 0.8 ? mainCategory : categoryRoll < 0.9 ? CATEGORIES[categoryPicker.pick(random)]! : null;
      const company: SampleCompany | null = linked.length > 0 && random.chance(0.6) ? random.pick(linked) : null;
      const person = random.chance(0.05) ? personPicker.pick(random) + 1 : null;
      const reporter = random.chance(0.15) ? `r${random.int(40).toString(36)}` : random.pick(reporters);
      const confidence = Math.min(100, 10 + random.int(60) + (random.chance(0.3) ? random.int(31) : 0));
      insertReport.run(username, category, company?.id ?? null, person, reporter, confidence, formatTime(instantOn(pickDay(spanStart, spanEnd))));
      reports++;
    }
    if (u % 5000 === 0) options.onProgress?.(u, scale);
  }

  // Complaints that name only a company (and sometimes a person): each company follows its own
  // curve, so that company trends go up, down and stay flat.
  for (const company of companies) {
    const n = Math.round(company.popularity * 400 * random.next());
    for (let i = 0; i < n; i++) {
      const day = company.curve(random, firstDay, day0);
      const person = random.chance(0.1) ? personPicker.pick(random) + 1 : null;
      const category = random.chance(0.7) ? company.category : CATEGORIES[categoryPicker.pick(random)]!;
      insertReport.run(null, category, company.id, person, `r${random.int(reporterPool).toString(36)}`, 50, formatTime(instantOn(day)));
      reports++;
    }
  }
  options.onProgress?.(scale, scale);
  return { usernames: scale, reports, companies: companies.length, people };
}

/**
 * Relative activity per day over the history, in (0, 1]: a random walk with bursts (spam
 * waves) and quiet weeks (holidays, platform bans), so weekly trends go both ways.
 */
function getDailyActivity(random: Random): Float64Array {
  const weeks = Math.ceil(HISTORY_DAYS / 7);
  const weekly = new Float64Array(weeks);
  let level = 0.5;
  for (let w = 0; w < weeks; w++) {
    level = Math.min(1, Math.max(0.15, level + (random.next() - 0.5) * 0.2));
    const roll = random.next();
    weekly[w] = roll < 0.08 ? 1 : roll < 0.16 ? level * 0.25 : level * 0.7;
  }
  const daily = new Float64Array(HISTORY_DAYS);
  for (let d = 0; d < HISTORY_DAYS; d++) daily[d] = Math.max(0.05, weekly[Math.floor(d / 7)]! * (0.8 + random.next() * 0.2));
  return daily;
}

