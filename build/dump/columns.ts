/**
 * The dump's columns, declared once: each column's name and place (the CSV header row), its
 * Frictionless Table Schema field (datapackage.json) and how its cell is read from the JSON API's
 * own rendering (renderCheckResult, renderCompanyCard), so the dump carries exactly the API's
 * values and the schema cannot drift from the files.
 */
import { CATEGORIES } from "../../core/categories.ts";
import { removeControlCharacters } from "../../core/escape.ts";
import type { Urls } from "../../core/urls.ts";
import { formatInstant } from "../../core/time.ts";
import { getWeekTrend } from "../../core/trend.ts";
import { renderCompanyCard } from "../api-json/company.ts";
import type { Company, Spammer } from "../model/types.ts";
import { formatCsvRecords, type Cell } from "./csv.ts";

export interface Column<T> {
  name: string;
  /** Table Schema types; `array` cells hold a JSON array (see LIST_NOTE). */
  type: "string" | "integer" | "number" | "date" | "datetime" | "array";
  /** Table Schema format; `default` dates are `YYYY-MM-DD`, datetimes `YYYY-MM-DDThh:mm:ssZ` (UTC). */
  format?: "default" | "uri";
  description: string;
  constraints?: Record<string, unknown>;
  cell: (row: T) => Cell;
}

/**
 * List columns hold JSON arrays (`["crypto","gambling"]`, `[]` when empty) rather than joined
 * text: aliases are free text, so any separator character could occur inside one, and JSON is
 * what Table Schema's `array` type reads.
 */
const LIST_NOTE = "A JSON array of strings, [] when empty.";
/** Text cells are the API's values, with one exception that every text column shares. */
const FORMULA_NOTE = "A value that would start with =, +, -, @, tab or carriage return is prefixed with an apostrophe (') so that spreadsheets do not run it as a formula.";
const TREND_NOTE = "Week-over-week change in percent, one decimal: (last_7_days - previous 7 days) / previous 7 days * 100; 100 when the previous week had none and this week has some, 0 when both are 0.";
const WEEK_NOTE = "Reports in the 7 UTC days ending with the day that contains the snapshot time (as_of).";
const CATEGORY_ENUM = [...CATEGORIES];
/** Control characters go before JSON escaping, which would otherwise keep them as `\u001b`. */
const list = (values: string[]): string => JSON.stringify(values.map(removeControlCharacters));

/** A spammer row: the model's aggregate and its API address (the check file's `url`). */
interface SpammerRow {
  spammer: Spammer;
  url: string;
}

export const SPAMMER_COLUMNS: Column<SpammerRow>[] = [
  { name: "username", type: "string", description: "Reported username, normalised: trimmed, one leading @ removed, lower-cased.", constraints: { required: true, unique: true, pattern: "[a-z0-9_]{1,64}" }, cell: (r) => r.spammer.username },
  { name: "reports_count", type: "integer", description: "Reports (complaints) naming the username.", constraints: { required: true, minimum: 1 }, cell: (r) => r.spammer.reportsCount },
  { name: "unique_reports", type: "integer", description: "Distinct reporters among those reports.", constraints: { required: true, minimum: 1 }, cell: (r) => r.spammer.uniqueReports },
  { name: "confidence_max", type: "integer", description: "Highest confidence any reporter gave.", constraints: { required: true }, cell: (r) => r.spammer.confidenceMax },
  { name: "first_seen", type: "datetime", format: "default", description: "Time of the first report, UTC.", constraints: { required: true }, cell: (r) => formatInstant(r.spammer.firstSeenMs) },
  { name: "last_seen", type: "datetime", format: "default", description: "Time of the latest report, UTC.", constraints: { required: true }, cell: (r) => formatInstant(r.spammer.lastSeenMs) },
  { name: "last_7_days", type: "integer", description: WEEK_NOTE, constraints: { required: true, minimum: 0 }, cell: (r) => r.spammer.last7Days },
  { name: "week_trend", type: "number", description: TREND_NOTE, constraints: { required: true, minimum: -100 }, cell: (r) => getWeekTrend(r.spammer.last7Days, r.spammer.previous7Days) },
  { name: "primary_category", type: "string", description: "The category its reports name most (ties in the order of the enum); empty when no report names one.", constraints: { enum: CATEGORY_ENUM }, cell: (r) => r.spammer.categories[0] ?? null },
  { name: "categories", type: "array", description: `Categories its reports name, most frequent first. ${LIST_NOTE}`, constraints: { required: true }, cell: (r) => list(r.spammer.categories) },
  { name: "companies", type: "array", description: `Slugs of the companies named with it, most-named first (see companies.slug). ${LIST_NOTE}`, constraints: { required: true }, cell: (r) => list(r.spammer.companies.map((c) => c.slug)) },
  { name: "url", type: "string", format: "uri", description: "The username's check result in the API.", constraints: { required: true }, cell: (r) => r.url },
];

interface CompanyRow {
  company: Company;
  card: ReturnType<typeof renderCompanyCard>;
}

export const COMPANY_COLUMNS: Column<CompanyRow>[] = [
  { name: "id", type: "integer", description: "The company's id in the catalog.", constraints: { required: true, unique: true }, cell: (r) => r.company.id },
  { name: "name", type: "string", description: `Company name. ${FORMULA_NOTE}`, constraints: { required: true }, cell: (r) => r.card.name },
  { name: "slug", type: "string", description: "URL name of the company, lower-cased.", constraints: { required: true, unique: true, pattern: "[a-z0-9][a-z0-9._-]{0,127}" }, cell: (r) => r.card.slug },
  { name: "category", type: "string", description: "The company's category in the catalog (other when the catalog's value is not in the enum).", constraints: { required: true, enum: CATEGORY_ENUM }, cell: (r) => r.card.category },
  { name: "website", type: "string", description: `Website as the catalog has it, empty when unknown. ${FORMULA_NOTE}`, cell: (r) => r.company.website },
  { name: "aliases", type: "array", description: `Other names of the company, as the catalog has them. ${LIST_NOTE}`, constraints: { required: true }, cell: (r) => list(r.card.aliases) },
  { name: "reports_count", type: "integer", description: "Complaints naming the company.", constraints: { required: true, minimum: 0 }, cell: (r) => r.card.reports_count },
  { name: "first_report_date", type: "date", format: "default", description: "UTC day of the first complaint; empty when it has none.", cell: (r) => r.card.first_report_date },
  { name: "last_report_date", type: "date", format: "default", description: "UTC day of the latest complaint; empty when it has none.", cell: (r) => r.card.last_report_date },
  { name: "last_7_days", type: "integer", description: WEEK_NOTE.replace("Reports", "Complaints"), constraints: { required: true, minimum: 0 }, cell: (r) => r.card.last_7_days },
  { name: "week_trend", type: "number", description: TREND_NOTE, constraints: { required: true, minimum: -100 }, cell: (r) => r.card.week_trend },
  { name: "url", type: "string", format: "uri", description: "The company's page.", constraints: { required: true }, cell: (r) => r.card.url },
];

/**
 * One spammer's cells, from the model's aggregate with the same formatting functions as its
 * check file (core/time.ts, core/trend.ts), not by rendering the check result a second time:
 * this runs for every username during the report pass.
 */
export function toSpammerCells(spammer: Spammer, urls: Urls): Cell[] {
  const row = { spammer, url: urls.spammer(spammer.username) };
  return SPAMMER_COLUMNS.map((column) => column.cell(row));
}

export function toCompanyCells(company: Company, urls: Urls): Cell[] {
  const row = { company, card: renderCompanyCard(company, urls) };
  return COMPANY_COLUMNS.map((column) => column.cell(row));
}

/** Text that no CSV rule touches: no quoting, no formula start, no control character. */
const PLAIN_USERNAME = /^[a-z0-9_]+$/;
const PLAIN_SLUG = /^[a-z0-9][a-z0-9._-]*$/;
const hasPlainSlug = (company: Company) => PLAIN_SLUG.test(company.slug);

/**
 * One spammer's CSV record with its CRLF: the same bytes as
 * `formatCsvRecords([toSpammerCells(spammer, urls)])`, written out directly because it runs for
 * every username of the report pass, where the general path (a cell array, the formula, quote
 * and control-character checks per cell) was a fifth of the main thread's time. Valid usernames
 * are `[a-z0-9_]`, categories enum words and company slugs `[a-z0-9._-]`, so only the list cells
 * need quoting (their JSON quotes, doubled) and the URL's prefix — the operator's base URL — is
 * checked once per build. A row with anything else takes the general path; a test holds the two
 * equal.
 */
export function createSpammerRecordFormatter(urls: Urls): (spammer: Spammer) => string {
  const prefix = urls.spammer("");
  const plainUrls = formatCsvRecords([[`${prefix}a`]]) === `${prefix}a\r\n`;
  return (s) => {
    if (!plainUrls || !PLAIN_USERNAME.test(s.username) || !s.companies.every(hasPlainSlug)) return formatCsvRecords([toSpammerCells(s, urls)]);
    const categories = s.categories.length === 0 ? "[]" : `"[""${s.categories.join('"",""')}""]"`;
    let companies = "[]";
    if (s.companies.length > 0) {
      companies = `"[""${s.companies[0]!.slug}`;
      for (let i = 1; i < s.companies.length; i++) companies += `"",""${s.companies[i]!.slug}`;
      companies += `""]"`;
    }
    return (
      `${s.username},${s.reportsCount},${s.uniqueReports},${s.confidenceMax},${formatInstant(s.firstSeenMs)},${formatInstant(s.lastSeenMs)},` +
      `${s.last7Days},${getWeekTrend(s.last7Days, s.previous7Days)},${s.categories[0] ?? ""},${categories},${companies},${prefix}${s.username}\r\n`
    );
  };
}
