/** GET /api/spammers?limit&username&category — reported usernames, most reported first. */
import { LIST_LIMIT } from "../../core/routes/table.ts";
import { CATEGORIES } from "../../core/categories.ts";
import { getSpammerItem, type CheckResultFound } from "../../core/spammer-item.ts";
import { getUsernameRejection, normalizeUsername } from "../../core/username.ts";
import { FIVE_MINUTES, sendInvalid, sendJson } from "../respond.ts";
import { QueryReader } from "../query.ts";
import { readCheckResult } from "./check.ts";
import type { RouteContext } from "./context.ts";


export async function listSpammers({ request, url, state }: RouteContext): Promise<Response> {
  const query = new QueryReader(url.searchParams);
  const limit = query.integer("limit", LIST_LIMIT.default, LIST_LIMIT.min, LIST_LIMIT.max);
  const category = query.oneOf("category", CATEGORIES);
  const rawUsername = query.string("username");
  const username = rawUsername === undefined ? undefined : normalizeUsername(rawUsername);
  if (username !== undefined && getUsernameRejection(username)) {
    query.errors.push({ name: "username", in: "query", detail: "must be a username: letters a-z, digits and underscores, 1 to 64 (an optional leading @)" });
  }
  if (query.errors.length > 0) return sendInvalid(request, query.errors);

  if (username !== undefined) {
    // Exact match: the username's own check file, filtered by category when one is given.
    const check = (await readCheckResult(state, username)) as CheckResultFound | null;
    const data = check && (!category || check.categories.includes(category)) ? [getSpammerItem(check)] : [];
    return sendJson(request, { data, total: data.length }, { cacheControl: FIVE_MINUTES });
  }
  const list = category ? state.spammersByCategory.get(category)! : state.spammers;
  return sendJson(request, { data: list.data.slice(0, limit), total: list.total }, { cacheControl: FIVE_MINUTES });
}
