/**
 * api/company/{slug}.json — the company card — and api/widget/{slug}.json — the widget data —
 * for every company, including those with no complaints (their dates are null). The bodies:
 * build/api-json/company.ts.
 */
import { getRouteFile } from "../../core/routes/match.ts";
import { renderCompanyCard, renderWidget } from "../api-json/company.ts";
import { makeUnlessUnchanged, toJson, type EmitContext } from "../context.ts";
import type { OutputFile } from "../writer/index.ts";

export function* emitCompanyCards({ model, urls }: EmitContext): Generator<OutputFile> {
  for (const company of model.ranked) {
    yield { path: getRouteFile("getCompany", { slug: company.slug }), data: toJson(renderCompanyCard(company, urls)) };
  }
}

export function* emitWidgets(ctx: EmitContext): Generator<OutputFile> {
  for (const company of ctx.model.ranked) {
    const path = getRouteFile("getWidget", { slug: company.slug });
    yield makeUnlessUnchanged(ctx, ctx.model.unchangedCompanies.has(company.id), path, () => toJson(renderWidget(company, ctx.urls)));
  }
}
