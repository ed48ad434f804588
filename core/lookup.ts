/**
 * How a path value names a resource: one rule for every route that takes a slug, a company or a
 * username (DESIGN "Usernames", "Lookups"), so that `/api/company/SpinBit`, `/api/badge/SpinBit.svg`,
 * `/embed/badge/SpinBit` and `/company/SpinBit` all find the same company. The build writes every
 * key in its canonical form (slugs and usernames lower-cased), and the live server reads any other
 * spelling back to it with these functions.
 */
import { isValidUsername, normalizeUsername } from "./username.ts";

/** A slug that can be one file name and one URL segment as it stands: no dot first, nothing to escape. */
const PATH_SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The canonical form of a kept slug (the build lower-cases it), as a regex source without anchors. */
export const CANONICAL_SLUG = "[a-z0-9][a-z0-9._-]{0,127}";

/** Whether a snapshot's slug can be a path segment; the build refuses the others. */
export function isPathSlug(slug: string): boolean {
  return PATH_SLUG.test(slug);
}

/**
 * How a route reads its key: a messenger username (trimmed, one `@` stripped, lower-cased), a slug
 * (trimmed, lower-cased), or a company (its slug, else its exact name; trimmed, lower-cased).
 */
export type LookupKind = "username" | "slug" | "company";

/** The canonical key of a username or slug, or null when the value can name nothing. */
export function normalizeKey(kind: Exclude<LookupKind, "company">, value: string): string | null {
  if (kind === "username") {
    const username = normalizeUsername(value);
    return isValidUsername(username) ? username : null;
  }
  const slug = value.trim();
  return isPathSlug(slug) ? slug.toLowerCase() : null;
}

/** A company's lookup key: slugs and names compare trimmed and lower-cased (Unicode: Cyrillic names work). */
export function toCompanyKey(value: string): string {
  return value.trim().toLowerCase();
}

export interface CompanyIndex {
  /** Lower-cased slug → position in the ranked list. */
  bySlug: Map<string, number>;
  /** Lower-cased name → position of the best-ranked company of that name. */
  byName: Map<string, number>;
}

/** Indexes companies given in ranking order, so a name shared by two finds the better-ranked one. */
export function indexCompanies(companies: readonly { slug: string; name: string }[]): CompanyIndex {
  const bySlug = new Map<string, number>();
  const byName = new Map<string, number>();
  companies.forEach((company, i) => {
    bySlug.set(toCompanyKey(company.slug), i);
    const name = toCompanyKey(company.name);
    if (!byName.has(name)) byName.set(name, i);
  });
  return { bySlug, byName };
}

/** The position of the company a value names: its slug first, then its exact name; null for none. */
export function findCompanyPosition(index: CompanyIndex, value: string): number | null {
  const key = toCompanyKey(value);
  return index.bySlug.get(key) ?? index.byName.get(key) ?? null;
}
