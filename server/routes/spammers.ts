/** GET /api/spammers?limit&page&username&category — reported usernames, most reported first, paginated. */
import { CATEGORIES } from "../../core/categories.ts";
import { LIST_LIMIT, LIST_TOP, MAX_PAGE, SPAMMER_RANKING_FILE } from "../../core/routes/table.ts";
import { getSpammerItem, type CheckResultFound } from "../../core/spammer-item.ts";
import { getUsernameRejection, normalizeUsername } from "../../core/username.ts";
import { sendInvalid, sendProblem } from "../respond.ts";
import { QueryReader } from "../query.ts";
import { readCheckResult } from "./check.ts";
import type { RouteContext } from "./context.ts";
import { readRankedSpammers, sendCachedListPage, sendListPage } from "./list-pages.ts";

export async function listSpammers({ request, url, state }: RouteContext): Promise<Response> {
  const query = new QueryReader(url.searchParams);
  const limit = query.integer("limit", LIST_LIMIT.default, LIST_LIMIT.min, LIST_LIMIT.max);
  const page = query.integer("page", 1, 1, MAX_PAGE);
  const category = query.oneOf("category", CATEGORIES);
  const rawUsername = query.string("username");
  const username = rawUsername === undefined ? undefined : normalizeUsername(rawUsername);
  if (username !== undefined && getUsernameRejection(username)) {
    query.errors.push({ name: "username", in: "query", detail: "must be a username: letters a-z, digits and underscores, 1 to 64 (an optional leading @)" });
  }
  if (query.errors.length > 0) return sendInvalid(request, query.errors);

  const start = (page - 1) * limit;
  const list = { list: "listSpammers" as const, query: { limit: String(limit), username, category } };
  if (username !== undefined) {
    // Exact match: the username's own check file, filtered by category when one is given.
    const check = (await readCheckResult(state, username)) as CheckResultFound | null;
    const found = check && (!category || check.categories.includes(category)) ? [getSpammerItem(check)] : [];
    return sendListPage(request, state, list, { data: found.slice(start, start + limit), total: found.length, page, limit });
  }
  const ranked = category ? state.spammersByCategory.get(category)! : state.spammers;
  if (!state.ranking && Math.min(start + limit, ranked.total) > ranked.data.length) {
    return sendProblem(request, 503, `This build has no spammer ranking (${SPAMMER_RANKING_FILE}) for pages beyond the top ${LIST_TOP}; rebuild dist with the current version.`);
  }
  return sendCachedListPage(request, state, { ...list, page }, async () => {
    const data = await readRankedSpammers(state, ranked, category, start, start + limit);
    return { data, total: ranked.total, page, limit };
  });
}
