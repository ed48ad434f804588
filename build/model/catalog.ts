/**
 * Companies and people, validated: a slug becomes a file and URL path, compared ignoring case,
 * so a slug that cannot be one path segment, or repeats one already taken, is refused with its
 * row id; a company category outside the enum is listed under `other`. Their complaint counts
 * are filled in by the report pass.
 */
import { CATEGORIES, isCategory, type Category } from "../../core/categories.ts";
import { isPathSlug } from "../../core/lookup.ts";
import { readAliases, readCompanies, readPeople } from "../snapshot/catalog.ts";
import type { Snapshot } from "../snapshot/open.ts";
import { toSampleText, type Rejections } from "./rejections.ts";
import { TREND_DAYS, type Company, type Person } from "./types.ts";

export interface Catalog {
  /** In id order. */
  companies: Company[];
  people: Person[];
  companyById: Map<number, Company>;
  personById: Map<number, Person>;
}

export function readCatalog(db: Snapshot, rejections: Rejections): Catalog {
  const companies = readCompanyList(db, rejections);
  const people = readPersonList(db, rejections);
  return {
    companies,
    people,
    companyById: new Map(companies.map((c) => [c.id, c])),
    personById: new Map(people.map((p) => [p.id, p])),
  };
}

function readCompanyList(db: Snapshot, rejections: Rejections): Company[] {
  const aliases = readAliases(db);
  const slugs = createSlugChecker("company", rejections);
  const companies: Company[] = [];
  for (const row of readCompanies(db)) {
    const lowerSlug = slugs(row.id, row.slug);
    if (lowerSlug === null) continue;
    let category: Category = "other";
    if (isCategory(row.category)) category = row.category;
    else rejections.add("company_unknown_category", { company_id: row.id, category: toSampleText(row.category) });
    const own = row.name.toLowerCase();
    const distinctAliases = [...new Set((aliases.get(row.id) ?? []).map((a) => a.trim()))].filter((a) => a && a.toLowerCase() !== own);
    companies.push({
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
    });
  }
  return companies;
}

function readPersonList(db: Snapshot, rejections: Rejections): Person[] {
  const slugs = createSlugChecker("person", rejections);
  const people: Person[] = [];
  for (const row of readPeople(db)) {
    const lowerSlug = slugs(row.id, row.slug);
    if (lowerSlug !== null) people.push({ id: row.id, name: row.name, slug: lowerSlug, avatar: row.avatar, companyId: row.company_id, reportsCount: 0 });
  }
  return people;
}

/** The lower-cased slug of a row, or null (and a rejection) when it cannot be a path or is taken. */
function createSlugChecker(kind: "company" | "person", rejections: Rejections): (id: number, slug: string) => string | null {
  const seen = new Set<string>();
  return (id, slug) => {
    const lower = slug.toLowerCase();
    const reason = !isPathSlug(slug) ? "invalid_slug" : seen.has(lower) ? "duplicate_slug" : null;
    if (reason) {
      rejections.add(`${kind}_${reason}`, { [`${kind}_id`]: id, slug: toSampleText(slug) });
      return null;
    }
    seen.add(lower);
    return lower;
  };
}
