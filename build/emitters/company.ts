/**
 * api/company/{slug}.json — the company card — and api/widget/{slug}.json — the widget data —
 * for every company, including those with no complaints (their dates are null).
 */
import { getCategoryLabel, rankCategories } from "../../core/categories.ts";
import { formatDate } from "../../core/time.ts";
import { formatTrend, getTrendDirection, getWeekTrend } from "../../core/trend.ts";
import type { CompanyCard, Widget } from "../../core/routes/schemas.ts";
import type { Urls } from "../../core/urls.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { Company } from "../model/types.ts";
import type { OutputFile } from "../writer/index.ts";
import { getRouteFile } from "../../core/routes/match.ts";

export function getCompanyWeeks(company: Company): { current: number; previous: number; days: number[] } {
  const days = Array.from(company.recentDays.subarray(7));
  const previous = company.recentDays.subarray(0, 7).reduce((a, b) => a + b, 0);
  return { current: days.reduce((a, b) => a + b, 0), previous, days };
}

export function renderCompanyCard(company: Company, urls: Urls): CompanyCard {
  const { current, previous } = getCompanyWeeks(company);
  return {
    found: true as const,
    name: company.name,
    slug: company.slug,
    category: company.category,
    category_label: getCategoryLabel(company.category),
    reports_count: company.reportsCount,
    first_report_date: company.firstReportMs === null ? null : formatDate(company.firstReportMs),
    last_report_date: company.lastReportMs === null ? null : formatDate(company.lastReportMs),
    week_trend: getWeekTrend(current, previous),
    last_7_days: current,
    aliases: company.aliases,
    badge_url: urls.badge(company.slug),
    card_url: urls.card(company.slug),
    url: urls.companyPage(company.slug),
  };
}

/**
 * Widget data. `top_category` is the category its complaints name most (ties: enum order),
 * falling back to the company's own category when no complaint names one.
 */
export function renderWidget(company: Company, urls: Urls): Widget {
  const { current, previous, days } = getCompanyWeeks(company);
  const weekTrend = getWeekTrend(current, previous);
  return {
    found: true as const,
    name: company.name,
    slug: company.slug,
    reports_count: company.reportsCount,
    trend: formatTrend(weekTrend),
    trend_direction: getTrendDirection(weekTrend),
    last_7_days: days,
    top_category: rankCategories(company.categoryCounts)[0] ?? company.category,
    badge_url: urls.badge(company.slug),
    card_url: urls.card(company.slug),
    embed_url: urls.embed(company.slug),
    page_url: urls.companyPage(company.slug),
  };
}

export function* emitCompanyCards({ model, urls }: EmitContext): Generator<OutputFile> {
  for (const company of model.ranked) {
    yield { path: getRouteFile("getCompany", { slug: company.slug }), data: toJson(renderCompanyCard(company, urls)) };
  }
}

export function* emitWidgets({ model, urls }: EmitContext): Generator<OutputFile> {
  for (const company of model.ranked) {
    yield { path: getRouteFile("getWidget", { slug: company.slug }), data: toJson(renderWidget(company, urls)) };
  }
}
