/**
 * A company's JSON as the API answers it — the card and the widget data — from the model's
 * Company. The dump, the feeds, the badges, the embeds and the pages read the same functions, so
 * every view of a company shows the same numbers.
 */
import { getCategoryLabel, rankCategories } from "../../core/categories.ts";
import type { CompanyCard, Widget } from "../../core/routes/schemas.ts";
import { formatDate } from "../../core/time.ts";
import { formatTrend, getTrendDirection, getWeekTrend } from "../../core/trend.ts";
import type { Urls } from "../../core/urls.ts";
import { getCompanyWeeks } from "../model/company-shows.ts";
import type { Company } from "../model/types.ts";

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
