/**
 * GET /api/company/{slug} — the company card — and GET /api/widget/{slug} — the widget data.
 * Both accept a slug or an exact company name, case-insensitively (Unicode, so Cyrillic names
 * work); aliases are not lookup keys (DESIGN "Lookups").
 */
import type { BuildState, CompanyItem } from "../dist-source.ts";
import { readBuildFile, sendFile } from "../files.ts";
import { FIVE_MINUTES, sendJson } from "../respond.ts";
import type { RouteContext } from "./context.ts";

export function findCompany(state: BuildState, query: string): CompanyItem | null {
  const key = query.trim().toLowerCase();
  const index = state.companyBySlug.get(key) ?? state.companyByName.get(key);
  return index === undefined ? null : state.companies[index]!;
}

export async function getCompanyCard({ request, params, state }: RouteContext): Promise<Response> {
  const query = params.slug ?? "";
  const company = findCompany(state, query);
  const path = company && `api/company/${company.slug}.json`;
  const body = path && (await readBuildFile(state.root, path));
  if (path && body) return sendFile(request, path, body);
  return sendJson(request, { found: false, query }, { status: 404, cacheControl: FIVE_MINUTES });
}

export async function getWidget({ request, params, state }: RouteContext): Promise<Response> {
  const slug = params.slug ?? "";
  const company = findCompany(state, slug);
  const path = company && `api/widget/${company.slug}.json`;
  const body = path && (await readBuildFile(state.root, path));
  if (path && body) return sendFile(request, path, body);
  // An unknown company has no page of its own; the list is the page that does exist.
  return sendJson(request, { found: false, slug, reports_count: 0, page_url: state.urls.companyList() }, { status: 404, cacheControl: FIVE_MINUTES });
}
