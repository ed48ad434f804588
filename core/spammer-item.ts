/**
 * The spammer list item is a projection of the check result: the build ranks lists with it and
 * the server answers `/api/spammers?username=` from a check file with it, so the two agree.
 */
import type { Category } from "./categories.ts";
import type { SpammerItem } from "./routes/schemas.ts";

export interface CheckResultFound {
  found: true;
  username: string;
  reports_count: number;
  last_seen: string;
  categories: Category[];
  url: string;
}

/** The list item's shape is the route table's schema (core/routes/schemas.ts), so the document says what this returns. */
export type { SpammerItem };

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
