/**
 * What the files an incremental build may keep show of a company, each as one string: two builds
 * whose strings are equal wrote the same bytes for those files, so a build keeps them unmade
 * (writer/output.ts UNCHANGED; the comparison is model/report-pass.ts). The kept username rows
 * hold both strings of every company (group-store.ts). test/build/unchanged-inputs.test.ts
 * changes every field of Company alone and holds the renderers to these strings.
 */
import { rankCategories } from "../../core/categories.ts";
import type { Company } from "./types.ts";

/** Complaints in the last 7 days (day-6..day-0), in the 7 before, and per day of the last 7. */
export function getCompanyWeeks(company: Company): { current: number; previous: number; days: number[] } {
  const days = Array.from(company.recentDays.subarray(7));
  const previous = company.recentDays.subarray(0, 7).reduce((a, b) => a + b, 0);
  return { current: days.reduce((a, b) => a + b, 0), previous, days };
}

/** A company as a check file that names it shows it (build/api-json/check.ts): its name and slug. */
export function showCompany(company: Pick<Company, "name" | "slug">): string {
  return JSON.stringify([company.name, company.slug]);
}

/**
 * A company as its badge, shields JSON, card, widget and embeds show it (their URLs are its
 * slug's under the build's base URL, which an incremental build keeps).
 */
export function showCompanyWidgets(company: Company): string {
  const { current, previous, days } = getCompanyWeeks(company);
  const top = rankCategories(company.categoryCounts)[0] ?? company.category;
  return JSON.stringify([company.name, company.slug, company.category, company.reportsCount, current, previous, days, top]);
}
