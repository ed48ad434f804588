/**
 * The ranked company list: api/companies.json (page 1 at the default limit of 50),
 * api/companies/page/{n}.json (every page at that limit, for static hosts), and
 * api/companies/all.json (the whole ranked list with names, which the server loads to answer any
 * limit, page, slug or name lookup).
 */
import type { Urls } from "../../core/urls.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { Company } from "../model.ts";
import type { OutputFile } from "../writer.ts";

export const DEFAULT_COMPANY_LIMIT = 50;

export function renderCompanyItem(company: Company, urls: Urls) {
  return { id: company.id, name: company.name, slug: company.slug, reports_count: company.reportsCount, url: urls.companyPage(company.slug) };
}

export function* emitCompanyList({ model, urls }: EmitContext): Generator<OutputFile> {
  const items = model.ranked.map((c) => renderCompanyItem(c, urls));
  const total = items.length;
  const pages = Math.ceil(total / DEFAULT_COMPANY_LIMIT);
  for (let page = 1; page <= Math.max(1, pages); page++) {
    const data = items.slice((page - 1) * DEFAULT_COMPANY_LIMIT, page * DEFAULT_COMPANY_LIMIT);
    const body = toJson({ data, total, page, pages });
    if (page === 1) yield { path: "api/companies.json", data: body };
    yield { path: `api/companies/page/${page}.json`, data: body };
  }
  yield { path: "api/companies/all.json", data: toJson({ data: items, total }) };
}
