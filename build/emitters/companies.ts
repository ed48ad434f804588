/**
 * The ranked company list: api/companies.json (page 1 at the default limit of 50),
 * api/companies/page/{n}.json (every page at that limit, for static hosts), and
 * api/companies/all.json (the whole ranked list with names, which the server loads to answer any
 * limit, page, slug or name lookup).
 */
import { getRouteFile } from "../../core/routes/match.ts";
import type { CompanyListItem } from "../../core/routes/schemas.ts";
import { LIST_LIMIT } from "../../core/routes/table.ts";
import type { Urls } from "../../core/urls.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { Company } from "../model/types.ts";
import type { OutputFile } from "../writer/index.ts";

function renderCompanyItem(company: Company, urls: Urls): CompanyListItem {
  return { id: company.id, name: company.name, slug: company.slug, reports_count: company.reportsCount, url: urls.companyPage(company.slug) };
}

export function* emitCompanyList({ model, urls }: EmitContext): Generator<OutputFile> {
  const items = model.ranked.map((c) => renderCompanyItem(c, urls));
  const total = items.length;
  const limit = LIST_LIMIT.default;
  const pages = Math.ceil(total / limit);
  for (let page = 1; page <= Math.max(1, pages); page++) {
    const body = toJson({ data: items.slice((page - 1) * limit, page * limit), total, page, pages });
    if (page === 1) yield { path: getRouteFile("listCompanies"), data: body };
    yield { path: getRouteFile("getCompanyListPage", { page }), data: body };
  }
  yield { path: getRouteFile("getCompanyListAll"), data: toJson({ data: items, total }) };
}
