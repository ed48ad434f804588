/**
 * What the feeds say, independent of the feed format: the newest reported usernames (first
 * reported most recently) and the companies whose complaints rose week over week. Entries carry
 * plain-text titles and HTML bodies built here with the one markup escaper; the renderer puts
 * them into RSS, Atom and JSON Feed.
 */
import { CATEGORIES, getCategoryIndex, getCategoryLabel, type Category } from "../../core/categories.ts";
import { escapeMarkup as e } from "../../core/escape.ts";
import { countNoun } from "../../core/format.ts";
import { compareCodePoints } from "../../core/order.ts";
import { compareCompanies } from "../../core/ranking.ts";
import { TopList } from "../../core/top-list.ts";
import { formatTrend, getTrendDirection, getWeekTrend } from "../../core/trend.ts";
import type { Urls } from "../../core/urls.ts";
import { renderCheckResult } from "../api-json/check.ts";
import { renderCompanyCard } from "../api-json/company.ts";
import { getCompanyWeeks } from "../model/company-shows.ts";
import type { SpammerTable } from "../model/spammer-table.ts";
import type { Company, Spammer } from "../model/types.ts";
import type { Credit } from "../dump/credit.ts";

/** Newest usernames per feed: enough for a reader polling a few times a day. */
const USERNAME_ENTRIES = 50;
/** Rising companies per feed, kept apart so a busy day of new usernames cannot crowd them out. */
const COMPANY_ENTRIES = 20;

export interface FeedEntry {
  /** Stable and unique: RSS guid, Atom id, JSON Feed id. An absolute URL (Atom ids are IRIs). */
  id: string;
  link: string;
  dateMs: number;
  /** Plain text; the renderer escapes it where the format wants HTML. */
  title: string;
  /** Escaped HTML. */
  html: string;
  categories: Category[];
}

/**
 * The newest usernames (first reported most recently, then by username), overall and per
 * category, read off the spammer table by row: only the USERNAME_ENTRIES kept per list become
 * Spammer objects.
 */
export function selectNewestSpammers(table: SpammerTable): (category: Category | null) => Spammer[] {
  const compareNewest = (a: number, b: number) => table.firstSeenMs(b) - table.firstSeenMs(a) || compareCodePoints(table.username(a), table.username(b));
  const overall = new TopList<number>(USERNAME_ENTRIES, compareNewest);
  const byCategory = CATEGORIES.map(() => new TopList<number>(USERNAME_ENTRIES, compareNewest));
  for (let row = 0; row < table.size; row++) {
    overall.offer(row);
    for (const category of table.categoryIndexes(row)) byCategory[category]!.offer(row);
  }
  return (category) => (category === null ? overall : byCategory[getCategoryIndex(category)]!).items.map((row) => table.at(row));
}

export function toUsernameEntry(spammer: Spammer, urls: Urls, credit: Credit): FeedEntry {
  const check = renderCheckResult(spammer, urls);
  const companies = check.companies.map((c) => `<a href="${e(c.url)}">${e(c.name)}</a>`).join(", ");
  const html = [
    `<p><a href="${e(check.url)}">@${e(check.username)}</a> was first reported at ${check.first_seen}.</p>`,
    `<p>${countNoun(check.reports_count, "report")} from ${countNoun(check.unique_reports, "reporter")}, the latest at ${check.last_seen}; ` +
      `${check.last_7_days} in the last 7 days (week trend ${check.week_trend}%).</p>`,
    check.categories.length ? `<p>Categories: ${check.categories.map(getCategoryLabel).map(e).join(", ")}.</p>` : "",
    companies ? `<p>Named with: ${companies}.</p>` : "",
    `<p><small>${e(credit.line)}</small></p>`,
  ].join("");
  return { id: check.url, link: check.url, dateMs: spammer.firstSeenMs, title: `Newly reported: @${check.username}`, html, categories: check.categories };
}

/**
 * Companies whose displayed trend is up (DESIGN: `+0%` is not up), most added complaints first,
 * then in ranking order; `category` null = all.
 */
export function selectRisingCompanies(companies: readonly Company[], category: Category | null): Company[] {
  const rising: { company: Company; added: number }[] = [];
  for (const company of companies) {
    if (category !== null && company.category !== category) continue;
    const { current, previous } = getCompanyWeeks(company);
    if (getTrendDirection(getWeekTrend(current, previous)) === "up") rising.push({ company, added: current - previous });
  }
  rising.sort((a, b) => b.added - a.added || compareCompanies(a.company, b.company));
  return rising.slice(0, COMPANY_ENTRIES).map((r) => r.company);
}

/**
 * A rising company is news of the day: its entry is dated at the start of day-0 (the UTC day of
 * `as_of`), and its id names that day, so each day it keeps rising is a new entry while
 * rebuilds within one day update the same one.
 */
export function toCompanyEntry(company: Company, day0Ms: number, urls: Urls, credit: Credit): FeedEntry {
  const card = renderCompanyCard(company, urls);
  const { previous } = getCompanyWeeks(company);
  const trend = formatTrend(card.week_trend);
  const day = new Date(day0Ms).toISOString().slice(0, 10);
  const html = [
    `<p><a href="${e(card.url)}">${e(card.name)}</a> (${e(card.category_label)}): ${countNoun(card.last_7_days, "complaint")} in the last 7 days, ` +
      `${previous} in the 7 days before (${trend}, week trend ${card.week_trend}%); ${card.reports_count} in all.</p>`,
    `<p><small>${e(credit.line)}</small></p>`,
  ].join("");
  return { id: `${card.url}#rising-${day}`, link: card.url, dateMs: day0Ms, title: `Rising complaints: ${card.name} (${trend})`, html, categories: [card.category] };
}

/**
 * Newest first. The sort is stable, so equal dates keep the order they came in: rising companies
 * (most added complaints first) before usernames (already newest first, then by username).
 */
export function sortEntries(entries: FeedEntry[]): FeedEntry[] {
  return entries.sort((a, b) => b.dateMs - a.dateMs);
}
