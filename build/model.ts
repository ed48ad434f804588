/**
 * The model: everything the emitters need, computed once from the snapshot. Companies and
 * people are small and held whole; usernames are a stream (one username's reports at a time),
 * so memory does not grow with the number of reports.
 */
import { CATEGORIES, getCategoryIndex, isCategory, rankCategories, type Category } from "../core/categories.ts";
import { compareCompanies, compareSpammers, TopList } from "../core/ranking.ts";
import { getDayNumber } from "../core/time.ts";
import { getUsernameRejection } from "../core/username.ts";
import { compareCodePoints, compareNames } from "../core/order.ts";
import { MAX_SAMPLES, Rejections } from "./rejections.ts";
import { readAliases, readCompanies, readFingerprintProfiles, readMeta, readPeople, type FingerprintProfileRow } from "./snapshot/catalog.ts";
import type { Snapshot } from "./snapshot/open.ts";
import { countReports, readInstant, readNewestReport, tallyCategories } from "./snapshot/report-sql.ts";
import { startSideAggregates, type SideAggregates } from "./snapshot/side-aggregates.ts";
import { readUsernameGroups, type UsernameGroupRow } from "./snapshot/username-groups.ts";
import { BuildError } from "./errors.ts";
import { readContent, type ContentRows } from "./snapshot/content.ts";
import { isPathSlug, selectContentPages, type ContentPages } from "./content-pages.ts";

/** Size of the spammer top lists (overall and per category): the API's maximum `limit`. */
export const TOP_LIST_SIZE = 200;
/** Days kept per company for trends: day-13..day-0. */
const TREND_DAYS = 14;

export interface Company {
  id: number;
  name: string;
  slug: string;
  category: Category;
  website: string | null;
  aliases: string[];
  reportsCount: number;
  firstReportMs: number | null;
  lastReportMs: number | null;
  /** Complaints per day, index 0 = day-13 … index 13 = day-0. */
  recentDays: Int32Array;
  categoryCounts: Uint32Array;
}

export interface Person {
  id: number;
  name: string;
  slug: string;
  avatar: string | null;
  companyId: number | null;
  reportsCount: number;
}

export interface Spammer {
  username: string;
  reportsCount: number;
  uniqueReports: number;
  confidenceMax: number;
  firstSeenMs: number;
  lastSeenMs: number;
  last7Days: number;
  previous7Days: number;
  categories: Category[];
  /** Companies named with this username, most-named first (ties by name, then id). */
  companies: Company[];
}

export interface SpammerLists {
  total: number;
  top: Spammer[];
  byCategory: Map<Category, { total: number; top: Spammer[] }>;
}

export class Model {
  readonly asOfMs: number;
  readonly day0: number;
  readonly meta: Map<string, string>;
  readonly rejections = new Rejections();
  readonly companies: Company[];
  readonly people: Person[];
  /** Every report in the snapshot, read or rejected. */
  readonly reportCount: number;
  private readonly companyById = new Map<number, Company>();
  private readonly personById = new Map<number, Person>();
  private spammerLists: SpammerLists | null = null;
  private rankedCompanies: Company[] | null = null;
  private contentRows: ContentRows | null = null;
  private contentPageRows: ContentPages | null = null;
  private readonly spammerObservers: ((spammer: Spammer) => void)[] = [];

  constructor(private readonly db: Snapshot) {
    this.meta = readMeta(db);
    this.asOfMs = this.resolveAsOf();
    this.day0 = getDayNumber(this.asOfMs);
    this.reportCount = countReports(db);
    this.companies = this.loadCompanies();
    this.people = this.loadPeople();
  }

  /**
   * Registers a listener that sees every valid spammer of the report pass, in username order,
   * as it is yielded. Emitters that need all spammers (dumps, search indexes) register one
   * before the pass (Emitter.prepare) instead of running a second pass over reports.
   */
  observeSpammers(listener: (spammer: Spammer) => void): void {
    if (this.spammerLists) throw new BuildError("spammer observers must be registered before the report pass");
    this.spammerObservers.push(listener);
  }

  /** The small tables beside reports (content, chats, detection rules), read once. */
  get content(): ContentRows {
    return (this.contentRows ??= readContent(this.db));
  }

  /**
   * The content rows that have an address (page, search entry, chat status): valid slugs and
   * usernames in their path form, validated and reported once (build/content-pages.ts).
   */
  get contentPages(): ContentPages {
    return (this.contentPageRows ??= selectContentPages(this.content, this.rejections));
  }

  /** An ISO 8601 text as Unix milliseconds by the same rules as report times, or null when it is not one. */
  parseInstant(text: string | null): number | null {
    if (text === null) return null;
    const seconds = readInstant(this.db, text);
    return seconds === null ? null : seconds * 1000;
  }

  /**
   * The pass over reports. Yields each valid username's aggregate in username order; before the
   * first one it fills company and person counts and the report-level rejections, and on the
   * way the spammer top lists and the username rejections. The lists and the company ranking
   * are available only once this stream has been consumed.
   */
  *spammers(onProgress?: (reports: number) => void): Generator<Spammer> {
    if (this.spammerLists) throw new BuildError("the report pass runs once per build");
    // Company and person aggregates run beside this pass; nothing yielded here reads them.
    const side = startSideAggregates(this.db, (this.day0 - (TREND_DAYS - 1)) * 86_400);
    const overall = new TopList<Spammer>(TOP_LIST_SIZE, compareSpammers);
    const perCategory = CATEGORIES.map(() => new TopList<Spammer>(TOP_LIST_SIZE, compareSpammers));
    const day0Start = this.day0 * 86_400;
    const windows = { previousStart: day0Start - 13 * 86_400, currentStart: day0Start - 6 * 86_400, currentEnd: day0Start + 86_400 };
    let total = 0;
    let processed = 0;
    const groups = readUsernameGroups(this.db, windows);
    const finish = (state: GroupState): Spammer | null => {
      const rejection = getUsernameRejection(state.username);
      if (rejection) {
        this.rejections.add(`username_${rejection}`, () => ({ username: state.username, reports: state.count, report_id: groups.firstReportIds(state.username).first }), state.count);
        return null;
      }
      const spammer = this.toSpammer(state);
      for (const observe of this.spammerObservers) observe(spammer);
      total++;
      overall.offer(spammer);
      for (const category of spammer.categories) perCategory[getCategoryIndex(category)]!.offer(spammer);
      return spammer;
    };
    let previous: string | null = null;
    for (const row of groups) {
      const group = readGroup(row);
      // One row per username is the snapshot module's promise; a repeat would double-count silently.
      if (previous !== null && compareCodePoints(previous, group.username) >= 0) {
        throw new BuildError(`username groups out of order: ${JSON.stringify(previous)} before ${JSON.stringify(group.username)}`);
      }
      previous = group.username;
      this.countCompanies(group, row.companyIds);
      const undated = row.undated;
      if (undated > 0) {
        const sample = () => ({ report_id: groups.firstReportIds(group.username).firstUndated, username: group.username, reports: undated });
        this.rejections.add("report_invalid_created_at", sample, undated);
      }
      const unknown = tallyCategories(row.categories, group.categoryCounts);
      if (unknown > 0) this.rejections.add("report_unknown_category", { username: group.username, reports: unknown }, unknown);
      if (group.count === 0) continue;
      processed += group.count;
      const spammer = finish(group);
      if (spammer) {
        yield spammer;
        if (total % 4096 === 0) onProgress?.(processed);
      }
    }
    onProgress?.(processed);
    this.applySideAggregates(side.take());
    this.spammerLists = {
      total,
      top: overall.items,
      byCategory: new Map(CATEGORIES.map((c, i) => [c, { total: perCategory[i]!.offered, top: perCategory[i]!.items }])),
    };
  }

  get spammerListsReady(): SpammerLists {
    if (!this.spammerLists) throw new BuildError("spammer lists read before the report pass ran");
    return this.spammerLists;
  }

  /** The fingerprint library as the snapshot holds it, by id; the fingerprint emitter validates it. */
  fingerprintProfiles(): FingerprintProfileRow[] {
    return readFingerprintProfiles(this.db);
  }

  /** Companies in the order of DESIGN: reports desc, name, id. */
  get ranked(): Company[] {
    if (!this.spammerLists) throw new BuildError("company ranking read before the report pass ran");
    return (this.rankedCompanies ??= [...this.companies].sort(compareCompanies));
  }

  private toSpammer(state: GroupState): Spammer {
    const companies = [...state.companies.entries()]
      .sort(([a, x], [b, y]) => y - x || compareNames(a.name, b.name) || a.id - b.id)
      .map(([company]) => company);
    return {
      username: state.username,
      reportsCount: state.count,
      uniqueReports: state.reporters,
      confidenceMax: state.confidenceMax,
      firstSeenMs: state.firstMs,
      lastSeenMs: state.lastMs,
      last7Days: state.last7,
      previous7Days: state.previous7,
      categories: rankCategories(state.categoryCounts),
      companies,
    };
  }

  /** Tallies the comma-separated company ids of a username's reports (unknown ids are reported elsewhere). */
  private countCompanies(group: GroupState, companyIds: string | null): void {
    if (!companyIds) return;
    for (const id of companyIds.split(",")) {
      const company = this.companyById.get(Number(id));
      if (company) group.companies.set(company, (group.companies.get(company) ?? 0) + 1);
    }
  }

  /** Company and person complaint counts, aggregated by SQLite, plus the rejections among reports without a username. */
  private applySideAggregates({ companies, people, oddities, badConfidences }: SideAggregates): void {
    const [[badConfidenceCount, firstBadConfidenceId]] = badConfidences;
    if (badConfidenceCount > 0) this.rejections.add("report_invalid_confidence", { report_id: firstBadConfidenceId }, badConfidenceCount);
    for (const [id, createdAt, category, dated, position] of oddities) {
      if (!dated) this.rejections.add("report_invalid_created_at", { report_id: id, created_at: createdAt });
      else if (position === 0) this.rejections.add("report_unknown_category", { report_id: id, category });
    }
    for (const [id, count, first, last, dayOffsets, categories, firstReportId] of companies) {
      const company = this.companyById.get(id);
      if (!company) {
        this.rejections.add("report_unknown_company", { company_id: id, reports: count, report_id: firstReportId }, count);
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
      const person = this.personById.get(id);
      if (person) person.reportsCount = count;
      else this.rejections.add("report_unknown_person", { person_id: id, reports: count, report_id: firstReportId }, count);
    }
  }


  /** DESIGN "Now": meta as_of, else the newest report. Never the clock. */
  private resolveAsOf(): number {
    const declared = this.meta.get("as_of");
    if (declared !== undefined) {
      const seconds = readInstant(this.db, declared);
      if (seconds === null) throw new BuildError(`meta as_of is not an ISO 8601 instant: ${JSON.stringify(declared)}`);
      return seconds * 1000;
    }
    const newest = readNewestReport(this.db);
    if (newest === null) throw new BuildError("the snapshot has no meta as_of and no dated report to take 'now' from");
    return newest * 1000;
  }

  private loadCompanies(): Company[] {
    const aliases = readAliases(this.db);
    const slugs = this.createSlugChecker("company");
    const companies: Company[] = [];
    for (const row of readCompanies(this.db)) {
      const lowerSlug = slugs(row.id, row.slug);
      if (lowerSlug === null) continue;
      let category: Category = "other";
      if (isCategory(row.category)) category = row.category;
      else this.rejections.add("company_unknown_category", { company_id: row.id, category: row.category });
      const own = row.name.toLowerCase();
      const distinctAliases = [...new Set((aliases.get(row.id) ?? []).map((a) => a.trim()))].filter((a) => a && a.toLowerCase() !== own);
      const company: Company = {
        id: row.id,
        name: row.name,
        slug: lowerSlug,
        category,
        website: row.website,
        aliases: distinctAliases,
        reportsCount: 0,
        firstReportMs: null,
        lastReportMs: null,
        recentDays: new Int32Array(TREND_DAYS),
        categoryCounts: new Uint32Array(CATEGORIES.length),
      };
      companies.push(company);
      this.companyById.set(row.id, company);
    }
    return companies;
  }

  /**
   * Slugs become file and URL paths, case-insensitively: a slug that cannot be a path segment, or
   * that repeats one already taken (ignoring case), is refused with its row id. Returns the
   * lower-cased slug, or null.
   */
  private createSlugChecker(kind: "company" | "person"): (id: number, slug: string) => string | null {
    const seen = new Set<string>();
    return (id, slug) => {
      const lower = slug.toLowerCase();
      const reason = !isPathSlug(slug) ? "invalid_slug" : seen.has(lower) ? "duplicate_slug" : null;
      if (reason) {
        this.rejections.add(`${kind}_${reason}`, { [`${kind}_id`]: id, slug });
        return null;
      }
      seen.add(lower);
      return lower;
    };
  }

  private loadPeople(): Person[] {
    const slugs = this.createSlugChecker("person");
    const people: Person[] = [];
    for (const row of readPeople(this.db)) {
      const lowerSlug = slugs(row.id, row.slug);
      if (lowerSlug === null) continue;
      const person = { id: row.id, name: row.name, slug: lowerSlug, avatar: row.avatar, companyId: row.company_id, reportsCount: 0 };
      people.push(person);
      this.personById.set(row.id, person);
    }
    return people;
  }
}

interface GroupState {
  username: string;
  count: number;
  /** Distinct reporters. */
  reporters: number;
  confidenceMax: number;
  firstMs: number;
  lastMs: number;
  last7: number;
  previous7: number;
  categoryCounts: Uint32Array;
  companies: Map<Company, number>;
}

function readGroup(row: UsernameGroupRow): GroupState {
  return {
    username: row.username,
    count: row.count,
    reporters: row.reporters,
    confidenceMax: Number.isNaN(row.confidenceMax) ? 0 : row.confidenceMax,
    firstMs: row.first * 1000,
    lastMs: row.last * 1000,
    last7: row.currentWeek,
    previous7: row.previousWeek,
    categoryCounts: new Uint32Array(CATEGORIES.length),
    companies: new Map(),
  };
}
