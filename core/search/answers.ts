/**
 * The bodies of the two search routes, from a build's loaded indexes: the server answers with
 * them, and the build's docs step shows them as the routes' real examples.
 */
import { formatRelativeTime } from "../relative-time.ts";
import type { Urls } from "../urls.ts";
import { getDefaultGroupLimits, getGlobalSearchGroup } from "./global-groups.ts";
import type { GlobalSearcher, GlobalSearchOptions } from "./global-searcher.ts";
import { DEFAULT_LIVE_LIMITS, searchLive, type LiveIndex } from "./live-index.ts";

const DEFAULT_GROUP_LIMITS = getDefaultGroupLimits();

/** GET /api/search for a trimmed `q`; under 2 characters (`short`) answers empty groups. */
export function answerLiveSearch(live: LiveIndex, asOfMs: number, urls: Urls, q: string, short: boolean) {
  const found = short ? { people: [], companies: [], spammers: [] } : searchLive(live, q, DEFAULT_LIVE_LIMITS);
  return {
    people: found.people.map((p) => ({ name: p.name, url: urls.person(p.slug), avatar: p.avatar ?? urls.personAvatar(p.slug), reports_count: p.reportsCount })),
    companies: found.companies.map((c) => ({
      name: c.name,
      url: urls.companyPage(c.slug),
      count: c.reportsCount,
      cat: c.category,
      last: formatRelativeTime(c.lastReportMs, asOfMs),
    })),
    spammers: found.spammers.map((s) => ({ username: s.username, url: urls.spammer(s.username), count: s.reportsCount })),
  };
}

/**
 * GET /api/search/global for a trimmed `q`; `limit` 0 keeps every group's default cap. The index
 * holds paths below the base URL (the same bytes whatever the base); each `url` answered is
 * site-relative with the base URL's own path in front, so it stays on a deployment under a prefix.
 */
export function answerGlobalSearch(global: GlobalSearcher, urls: Urls, q: string, short: boolean, limit: number) {
  if (short) return { query: q, total: 0, results: [] };
  // `limit` replaces every group's default cap (reference: "overriding group defaults").
  const options: GlobalSearchOptions = limit > 0 ? { defaultLimit: limit } : { limitPerType: DEFAULT_GROUP_LIMITS, defaultLimit: 0 };
  const results = global.search(q, options).map((group) => ({
    type: group.type,
    label: getGlobalSearchGroup(group.type)?.label ?? group.type,
    count: group.count,
    items: group.items.map((item) => ({ type: item.type, title: item.title, url: urls.path + item.url, subtitle: item.subtitle })),
  }));
  return { query: q, total: results.reduce((sum, group) => sum + group.count, 0), results };
}
