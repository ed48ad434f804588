/**
 * The one pass over reports. SQLite aggregates every username's reports (snapshot/
 * username-groups.ts) while the company and person aggregates run beside it on another thread
 * (snapshot/side-aggregates.ts); this turns their rows into the SpammerTable, the spammer
 * rankings and the complaint counts of the catalog, and records every rejection among reports.
 */
import { CATEGORIES, rankCategoryIndexes } from "../../core/categories.ts";
import { compareCodePoints, compareNames } from "../../core/order.ts";
import { getUsernameRejection } from "../../core/username.ts";
import { BuildError } from "../errors.ts";
import type { Snapshot } from "../snapshot/open.ts";
import { tallyCategories } from "../snapshot/report-sql.ts";
import { startSideAggregates, type SideAggregates } from "../snapshot/side-aggregates.ts";
import { readUsernameGroups, type CompanyShows, type GroupRow, type TrendWindows, type UsernameGroups } from "../snapshot/username-groups.ts";
import type { Catalog } from "./catalog.ts";
import { showCompany, showCompanyWidgets } from "./company-shows.ts";
import type { GroupStoreWriter } from "./group-store.ts";
import { toSampleText, type Rejections } from "./rejections.ts";
import { rankSpammerRows, selectSpammerLists } from "./spammer-ranking.ts";
import { SpammerTableBuilder, type SpammerRow, type SpammerTable } from "./spammer-table.ts";
import { TREND_DAYS, type SpammerLists } from "./types.ts";

export interface ReportPass {
  spammers: SpammerTable;
  lists: SpammerLists;
  /** Ids of the companies whose badges, widget and embeds have the current build's bytes (an incremental build's: Model.unchangedCompanies). */
  unchangedCompanies: ReadonlySet<number>;
}

/** Where the username rows come from (default: SQLite aggregates every report), and where they are kept for the next build. */
export interface PassRows {
  read?: (windows: TrendWindows) => UsernameGroups;
  keep?: GroupStoreWriter;
  /** Called once the pass is over (kept-model.ts keeps the report rows then). */
  settle?: () => void;
}

/**
 * Reads every report once. `day0` is DESIGN's day-0 (UTC days since the epoch); `onProgress`
 * hears the reports aggregated so far. Fills the catalog's complaint counts in place.
 */
export function runReportPass(db: Snapshot, catalog: Catalog, day0: number, rejections: Rejections, onProgress?: (reports: number) => void, rows: PassRows = {}): ReportPass {
  const side = startSideAggregates(db, (day0 - (TREND_DAYS - 1)) * 86_400);
  const companyIndex = new Map(catalog.companies.map((c, i) => [c.id, i]));
  const table = new SpammerTableBuilder(catalog.companies);
  const day0Start = day0 * 86_400;
  const windows = { previousStart: day0Start - 13 * 86_400, currentStart: day0Start - 6 * 86_400, currentEnd: day0Start + 86_400 };
  const groups = rows.read ? rows.read(windows) : readUsernameGroups(db, windows);
  const keep = rows.keep;
  // The companies a kept row may not name for its check file to be the current build's (null: no row was kept).
  const shownOtherwise = groups.currentCompanies ? findCompaniesShownOtherwise(groups.currentCompanies, catalog) : null;
  const categoryCounts = new Uint32Array(CATEGORIES.length);
  let processed = 0;
  let previous: string | null = null;
  for (const group of groups) {
    const username = group.username;
    // One row per username is the snapshot module's promise; a repeat would double-count silently.
    if (previous !== null && compareCodePoints(previous, username) >= 0) {
      throw new BuildError(`username groups out of order: ${JSON.stringify(previous)} before ${JSON.stringify(username)}`);
    }
    previous = username;
    keep?.add(group);
    const undated = group.undated;
    if (undated > 0) {
      const sample = () => {
        const id = groups.firstReportIds(username).firstUndated;
        return { report_id: id, username, reports: undated, created_at: toSampleText(groups.readReport(id).created_at) };
      };
      rejections.add("report_invalid_created_at", sample, undated);
    }
    categoryCounts.fill(0);
    const unknown = tallyCategories(group.categories, categoryCounts);
    if (unknown > 0) {
      const sample = () => {
        const id = groups.firstReportIds(username).firstUnknownCategory;
        return { username, reports: unknown, report_id: id, category: toSampleText(groups.readReport(id).category) };
      };
      rejections.add("report_unknown_category", sample, unknown);
    }
    const count = group.count;
    if (count === 0) continue;
    processed += count;
    const rejection = getUsernameRejection(username);
    if (rejection) {
      const sample = () => {
        const id = groups.firstReportIds(username).first;
        // The username as normalised, and as the first report spelled it.
        return { username: toSampleText(username), reports: count, report_id: id, spelling: toSampleText(groups.readReport(id).username) };
      };
      rejections.add(`username_${rejection}`, sample, count);
      continue;
    }
    const unchanged = group.unchanged === true && shownOtherwise !== null && !namesAny(group.companyIds, shownOtherwise);
    table.add(toRow(group, categoryCounts, rankCompanies(group.companyIds, companyIndex, catalog)), unchanged);
    if (table.size % 4096 === 0) onProgress?.(processed);
  }
  onProgress?.(processed);
  applySideAggregates(side.take(), catalog, rejections);
  const spammers = table.finish();
  const shows = new Map<number, CompanyShows>(catalog.companies.map((c) => [c.id, [showCompany(c), showCompanyWidgets(c)]]));
  const unchangedCompanies = new Set<number>();
  for (const [id, [, widgets]] of shows) if (groups.currentCompanies?.get(id)?.[1] === widgets) unchangedCompanies.add(id);
  keep?.finish(windows, groups.spellingsOf, shows);
  rows.settle?.();
  return { spammers, lists: selectSpammerLists(spammers, rankSpammerRows(spammers)), unchangedCompanies };
}

function toRow(group: GroupRow, categoryCounts: Uint32Array, companies: number[]): SpammerRow {
  return {
    username: group.username,
    reportsCount: group.count,
    uniqueReports: group.reporters,
    confidenceMax: Number.isNaN(group.confidenceMax) ? 0 : group.confidenceMax,
    firstSeenMs: group.first * 1000,
    lastSeenMs: group.last * 1000,
    last7Days: group.currentWeek,
    previous7Days: group.previousWeek,
    categories: rankCategoryIndexes(categoryCounts),
    companies,
  };
}

/**
 * The ids of the companies this build shows otherwise than the current build did (`current`: id
 * → showCompany): renamed, given another slug, added or gone. A check file shows each company its
 * username's reports name, and ranks them by name among equals, so a kept row that names one of
 * these has a check file of other bytes, however unchanged the row.
 */
function findCompaniesShownOtherwise(current: ReadonlyMap<number, CompanyShows>, catalog: Catalog): Set<number> {
  const ids = new Set<number>();
  for (const company of catalog.companies) if (current.get(company.id)?.[0] !== showCompany(company)) ids.add(company.id);
  for (const id of current.keys()) if (!catalog.companyById.has(id)) ids.add(id);
  return ids;
}

/** Whether the comma-separated company ids name any of `ids`. */
function namesAny(companyIds: string | null, ids: ReadonlySet<number>): boolean {
  if (!companyIds || ids.size === 0) return false;
  for (const id of companyIds.split(",")) if (ids.has(Number(id))) return true;
  return false;
}

/**
 * The companies a username's reports name (comma-separated ids, one per report), as indexes into
 * the catalog, most-named first, ties by name, then id. Unknown ids are reported by the company
 * aggregates, not here. Runs for every username of every build: the ids are read digit by digit
 * and counted in two short arrays (a username's reports name a few companies), where splitting
 * the text and counting in a Map was half a second at a million usernames; text that is not plain
 * decimal ids takes the general path.
 */
export function rankCompanies(companyIds: string | null, companyIndex: Map<number, number>, catalog: Catalog): number[] {
  if (!companyIds) return [];
  const indexes: number[] = [];
  const counts: number[] = [];
  let id = 0;
  let digits = 0;
  for (let i = 0; i <= companyIds.length; i++) {
    const code = i < companyIds.length ? companyIds.charCodeAt(i) : 44;
    if (code >= 48 && code <= 57) {
      id = id * 10 + (code - 48);
      digits++;
      continue;
    }
    // Anything but a comma after a plain id of at most 15 digits (exact as a double): the general path.
    if (code !== 44 || digits === 0 || digits > 15) return rankCompanyText(companyIds, companyIndex, catalog);
    const index = companyIndex.get(id);
    if (index !== undefined) {
      const at = indexes.indexOf(index);
      if (at >= 0) counts[at]!++;
      else if (indexes.length === MAX_LISTED) return rankCompanyText(companyIds, companyIndex, catalog);
      else {
        indexes.push(index);
        counts.push(1);
      }
    }
    id = 0;
    digits = 0;
  }
  if (indexes.length < 2) return indexes;
  return sortByMentions(indexes.map((index, i) => [index, counts[i]!] as [number, number]), catalog);
}

/** Distinct companies rankCompanies counts in its arrays; a username whose reports name more takes the general path. */
const MAX_LISTED = 16;

/** rankCompanies for any text (Number's reading of each comma-separated part). */
export function rankCompanyText(companyIds: string, companyIndex: Map<number, number>, catalog: Catalog): number[] {
  const counts = new Map<number, number>();
  for (const id of companyIds.split(",")) {
    const index = companyIndex.get(Number(id));
    if (index !== undefined) counts.set(index, (counts.get(index) ?? 0) + 1);
  }
  return sortByMentions([...counts.entries()], catalog);
}

/** [catalog index, mentions] most-mentioned first, ties by name, then id: the indexes. */
function sortByMentions(counted: [number, number][], catalog: Catalog): number[] {
  const companies = catalog.companies;
  return counted
    .sort(([a, x], [b, y]) => y - x || compareNames(companies[a]!.name, companies[b]!.name) || companies[a]!.id - companies[b]!.id)
    .map(([index]) => index);
}

/** Company and person complaint counts, aggregated by SQLite, plus the rejections among reports without a username. */
function applySideAggregates({ companies, people, oddities, badConfidences }: SideAggregates, catalog: Catalog, rejections: Rejections): void {
  const [[badConfidenceCount, firstBadConfidenceId, firstBadConfidence]] = badConfidences;
  if (badConfidenceCount > 0) rejections.add("report_invalid_confidence", { report_id: firstBadConfidenceId, confidence: toSampleText(firstBadConfidence) }, badConfidenceCount);
  for (const [id, createdAt, category, dated, position] of oddities) {
    if (!dated) rejections.add("report_invalid_created_at", { report_id: id, created_at: toSampleText(createdAt) });
    else if (position === 0) rejections.add("report_unknown_category", { report_id: id, category: toSampleText(category) });
  }
  for (const [id, count, first, last, dayOffsets, categories, firstReportId] of companies) {
    const company = catalog.companyById.get(id);
    if (!company) {
      rejections.add("report_unknown_company", { company_id: id, reports: count, report_id: firstReportId }, count);
      continue;
    }
    company.reportsCount = count;
    company.firstReportMs = first * 1000;
    company.lastReportMs = last * 1000;
    if (dayOffsets) {
      for (const offset of dayOffsets.split(",")) {
        const day = Number(offset);
        if (day < TREND_DAYS) company.recentDays[day]!++;
      }
    }
    tallyCategories(categories, company.categoryCounts);
  }
  for (const [id, count, firstReportId] of people) {
    const person = catalog.personById.get(id);
    if (person) person.reportsCount = count;
    else rejections.add("report_unknown_person", { person_id: id, reports: count, report_id: firstReportId }, count);
  }
}

