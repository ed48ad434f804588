/**
 * The check result of a found username (the reference's "Check result (username found)") and the
 * spammer list item projected from it: the JSON the check files, the spammer lists, the dump and
 * the feeds all show, rendered from the model's Spammer.
 */
import { formatInstant } from "../../core/time.ts";
import { getWeekTrend } from "../../core/trend.ts";
import type { CheckFound } from "../../core/routes/schemas.ts";
import { getSpammerItem, type SpammerItem } from "../../core/spammer-item.ts";
import type { Urls } from "../../core/urls.ts";
import { toJson } from "../context.ts";
import type { Company, Spammer } from "../model/types.ts";

export function renderCheckResult(spammer: Spammer, urls: Urls): CheckFound {
  return {
    found: true as const,
    username: spammer.username,
    reports_count: spammer.reportsCount,
    unique_reports: spammer.uniqueReports,
    confidence_max: spammer.confidenceMax,
    first_seen: formatInstant(spammer.firstSeenMs),
    last_seen: formatInstant(spammer.lastSeenMs),
    week_trend: getWeekTrend(spammer.last7Days, spammer.previous7Days),
    last_7_days: spammer.last7Days,
    categories: spammer.categories,
    companies: spammer.companies.map((c) => ({ name: c.name, slug: c.slug, url: urls.companyPage(c.slug) })),
    url: urls.spammer(spammer.username),
  };
}

/**
 * The same bytes as `toJson(renderCheckResult(spammer, urls))`, written out by hand because this
 * runs once per reported username (a million times at scale) and building then stringifying an
 * object per file was a fifth of the main thread's time. Valid usernames are `[a-z0-9_]` and
 * categories are enum words, so neither needs escaping; each company's `{name, slug, url}`
 * fragment is serialised once per build. A test holds the two forms equal.
 */
export function createCheckSerializer(urls: Urls): (spammer: Spammer) => string {
  const companyJson = new Map<Company, string>();
  const fragment = (c: Company) => {
    let json = companyJson.get(c);
    if (json === undefined) companyJson.set(c, (json = toJson({ name: c.name, slug: c.slug, url: urls.companyPage(c.slug) })));
    return json;
  };
  // The base URL is the operator's text: escape it once, as JSON.stringify would.
  const urlPrefix = JSON.stringify(urls.spammer("")).slice(0, -1);
  return (s) => {
    if (!SAFE_USERNAME.test(s.username)) return toJson(renderCheckResult(s, urls));
    const categories = s.categories.length === 0 ? "[]" : `["${s.categories.join('","')}"]`;
    const companies = s.companies.length === 0 ? "[]" : `[${s.companies.map(fragment).join(",")}]`;
    return (
      `{"found":true,"username":"${s.username}","reports_count":${s.reportsCount},"unique_reports":${s.uniqueReports},` +
      `"confidence_max":${s.confidenceMax},"first_seen":"${formatInstant(s.firstSeenMs)}","last_seen":"${formatInstant(s.lastSeenMs)}",` +
      `"week_trend":${JSON.stringify(getWeekTrend(s.last7Days, s.previous7Days))},"last_7_days":${s.last7Days},` +
      `"categories":${categories},"companies":${companies},"url":${urlPrefix}${s.username}"}`
    );
  };
}

const SAFE_USERNAME = /^[a-z0-9_]+$/;

export function renderSpammerItem(spammer: Spammer, urls: Urls): SpammerItem {
  return getSpammerItem(renderCheckResult(spammer, urls));
}

/**
 * The same bytes as `toJson(renderSpammerItem(spammer, urls))`, by hand like the check files: the
 * list pages render every username once, and most of them in a category list or two as well.
 */
export function createSpammerItemSerializer(urls: Urls): (spammer: Spammer) => string {
  const urlPrefix = JSON.stringify(urls.spammer("")).slice(0, -1);
  return (s) => {
    if (!SAFE_USERNAME.test(s.username)) return toJson(renderSpammerItem(s, urls));
    const primary = s.categories.length === 0 ? "null" : `"${s.categories[0]}"`;
    const categories = s.categories.length === 0 ? "[]" : `["${s.categories.join('","')}"]`;
    return (
      `{"username":"${s.username}","reports_count":${s.reportsCount},"last_seen":"${formatInstant(s.lastSeenMs)}",` +
      `"category":${primary},"primary_category":${primary},"categories":${categories},"url":${urlPrefix}${s.username}"}`
    );
  };
}
