/** GET /api/companies?limit&page&slug — the ranked company list, paginated. */
import { LIST_LIMIT, MAX_PAGE } from "../../core/routes/table.ts";
import { sendInvalid } from "../respond.ts";
import { QueryReader } from "../query.ts";
import type { RouteContext } from "./context.ts";
import { sendCachedListPage } from "./list-pages.ts";

export function listCompanies({ request, url, state }: RouteContext): Response | Promise<Response> {
  const query = new QueryReader(url.searchParams);
  const limit = query.integer("limit", LIST_LIMIT.default, LIST_LIMIT.min, LIST_LIMIT.max);
  const page = query.integer("page", 1, 1, MAX_PAGE);
  const slug = query.string("slug");
  if (query.errors.length > 0) return sendInvalid(request, query.errors);
  return sendCachedListPage(request, state, { list: "listCompanies", query: { limit: String(limit), slug }, page }, () => {
    let items = state.companies;
    if (slug !== undefined) {
      const index = state.companyBySlug.get(slug.toLowerCase());
      items = index === undefined ? [] : [state.companies[index]!];
    }
    return { data: items.slice((page - 1) * limit, page * limit), total: items.length, page, limit };
  });
}
