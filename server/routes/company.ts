/**
 * GET /api/company/{slug} — the company card — and GET /api/widget/{slug} — the widget data.
 * Both accept a slug or an exact company name, case-insensitively (Unicode, so Cyrillic names
 * work); aliases are not lookup keys (DESIGN "Lookups").
 */
import type { BuildState, CompanyItem } from "../dist-source.ts";
import { findCompanyPosition } from "../../core/lookup.ts";
import { getRoute } from "../../core/routes/table.ts";
import { fillTemplate } from "../../core/routes/templates.ts";
import type { Route } from "../../core/routes/types.ts";
import { readBuildFile, sendRouteFile } from "../files.ts";
import { FIVE_MINUTES, sendJson } from "../respond.ts";
import type { RouteContext } from "./context.ts";

/** The company a path value names, by the one rule of core/lookup.ts (slug, else exact name). */
export function findCompany(state: BuildState, query: string): CompanyItem | null {
  const index = findCompanyPosition({ bySlug: state.companyBySlug, byName: state.companyByName }, query);
  return index === null ? null : state.companies[index]!;
}

/** The company's file of `route`, or null. */
async function readCompanyFile(state: BuildState, route: Route, company: CompanyItem | null): Promise<Buffer | null> {
  return company && readBuildFile(state.root, fillTemplate(route.file!, { slug: company.slug }));
}

export async function getCompanyCard({ request, params, state }: RouteContext): Promise<Response> {
  const query = params.slug ?? "";
  const route = getRoute("getCompany");
  const body = await readCompanyFile(state, route, findCompany(state, query));
  if (body) return sendRouteFile(request, route, body);
  return sendJson(request, { found: false, query }, { status: 404, cacheControl: FIVE_MINUTES });
}

export async function getWidget({ request, params, state }: RouteContext): Promise<Response> {
  const slug = params.slug ?? "";
  const route = getRoute("getWidget");
  const body = await readCompanyFile(state, route, findCompany(state, slug));
  if (body) return sendRouteFile(request, route, body);
  // An unknown company has no page of its own; the list is the page that does exist.
  return sendJson(request, { found: false, slug, reports_count: 0, page_url: state.urls.companyList() }, { status: 404, cacheControl: FIVE_MINUTES });
}
