/**
 * api/badge/{slug}.svg — a shields-style badge, name | reports —, api/badge/{slug}.json — the
 * same badge as shields.io endpoint JSON — and api/card/{slug}.svg — the 340×120 card with
 * category, reports, trend and a 7-day sparkline — for every company, including those without
 * complaints; and 404.svg, the "not found" badge the badge, card and chat badge routes answer
 * for a name that names nothing. The drawing is core/svg's; this file only maps a company to
 * what those pure functions take.
 */
import { getCategoryLabel } from "../../core/categories.ts";
import { getCompanyBadge, renderCompanyBadge, renderNotFoundBadge } from "../../core/svg/badge.ts";
import { toShieldsEndpoint } from "../../core/svg/shields-endpoint.ts";
import { NOT_FOUND_BADGE_FILE } from "../../core/routes/table.ts";
import { renderCompanyCardSvg, type CardInput } from "../../core/svg/card.ts";
import { formatTrend, getTrendDirection, getWeekTrend } from "../../core/trend.ts";
import { makeUnlessUnchanged, toJson, type EmitContext } from "../context.ts";
import type { Company } from "../model/types.ts";
import type { OutputFile } from "../writer/index.ts";
import { getCompanyWeeks } from "../model/company-shows.ts";
import { getRouteFile } from "../../core/routes/match.ts";

/** The card's data, the same numbers as the company's widget (last_7_days, trend). */
function toCardInput(company: Company): CardInput {
  const { current, previous, days } = getCompanyWeeks(company);
  const weekTrend = getWeekTrend(current, previous);
  return {
    name: company.name,
    categoryLabel: getCategoryLabel(company.category),
    reportsCount: company.reportsCount,
    lastSevenDays: days,
    trend: formatTrend(weekTrend),
    trendDirection: getTrendDirection(weekTrend),
  };
}

export function* emitBadges(ctx: EmitContext): Generator<OutputFile> {
  for (const company of ctx.model.ranked) {
    // A company shown as the current build showed it: its three files are that build's (Model.unchangedCompanies).
    const same = ctx.model.unchangedCompanies.has(company.id);
    let input: CardInput | undefined;
    const card = () => (input ??= toCardInput(company));
    const { slug } = company;
    yield makeUnlessUnchanged(ctx, same, getRouteFile("getBadge", { slug }), () => renderCompanyBadge(card()));
    yield makeUnlessUnchanged(ctx, same, getRouteFile("getBadgeJson", { slug }), () => toJson(toShieldsEndpoint(getCompanyBadge(card()))));
    yield makeUnlessUnchanged(ctx, same, getRouteFile("getCard", { slug }), () => renderCompanyCardSvg(card()));
  }
  yield { path: NOT_FOUND_BADGE_FILE, data: renderNotFoundBadge() };
}
