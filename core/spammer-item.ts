/**
 * The spammer list item is a projection of the check result: the build ranks lists with it and
 * the server answers `/api/spammers?username=` from a check file with it, so the two agree.
 */
import type { Category } from "./categories.ts";

export interface CheckResultFound {
  found: true;
  username: string;
  reports_count: number;
  last_seen: string;
  categories: Category[];
  url: string;
}

export interface SpammerItem {
  username: string;
  reports_count: number;
  last_seen: string;
  category: Category | null;
  primary_category: Category | null;
  categories: Category[];
  url: string;
}

export function getSpammerItem(check: CheckResultFound): SpammerItem {
  const primary = check.categories[0] ?? null;
  return {
    username: check.username,
    reports_count: check.reports_count,
    last_seen: check.last_seen,
    category: primary,
    primary_category: primary,
    categories: check.categories,
    url: check.url,
  };
}
