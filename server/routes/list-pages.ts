/**
 * Pages of the ranked lists on the live server: the answer `{data, total, page, pages}` with its
 * `Link` header (core/routes/page-links.ts, shared with the nginx block), spammer pages beyond
 * the top the server holds, read through the build's ranking and check files, and the file
 * routes that are pages of a list (`/api/spammers/page/{page}`, the top files), which get the
 * same header.
 */
import type { Category } from "../../core/categories.ts";
import { formatPageLink, getListPageUrl, getPageLinkHeader } from "../../core/routes/page-links.ts";
import { LIST_LIMIT, SPAMMER_PAGE_BEYOND_SUFFIX, SPAMMER_RANKING_FILE, type RouteId } from "../../core/routes/table.ts";
import { fillTemplate } from "../../core/routes/templates.ts";
import { getSpammerItem, type CheckResultFound, type SpammerItem } from "../../core/spammer-item.ts";
import type { BuildState, SpammerList } from "../dist-source.ts";
import { getRouteAnswer, readBuildFile } from "../files.ts";
import { sendKeptAnswer } from "../known-answers.ts";
import { FIVE_MINUTES, prepareJson, sendPrepared, type PreparedAnswer } from "../respond.ts";
import { sendStoredFile } from "../send-file.ts";
import { readCheckResult } from "./check.ts";
import type { RouteContext } from "./context.ts";
import { getRouteFilePath, serveRouteFile } from "./static.ts";

/** A list route and the query of an answer, page aside; undefined values were not given. */
export interface ListRequest {
  list: RouteId;
  query: Record<string, string | undefined>;
}

export interface PageAnswer<T> {
  data: T[];
  total: number;
  page: number;
  limit: number;
}

/** One page of a list, as the build writes its page files (same keys, same order), with its Link header. */
export function sendListPage<T>(request: Request, state: BuildState, { list, query }: ListRequest, { data, total, page, limit }: PageAnswer<T>): Response {
  return sendPrepared(request, prepareListPage(state, { list, query }, { data, total, page, limit }));
}

function prepareListPage<T>(state: BuildState, { list, query }: ListRequest, { data, total, page, limit }: PageAnswer<T>): PreparedAnswer {
  const pages = Math.ceil(total / limit);
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) if (value !== undefined) given[name] = encodeURIComponent(value);
  const link = getPageLinkHeader(state.urls.base, { list, query: given }, page, pages);
  return prepareJson(JSON.stringify({ data, total, page, pages }), { cacheControl: FIVE_MINUTES, headers: link === null ? undefined : { link } });
}

/**
 * A list page answered from the build's answer cache when the same query was answered before
 * (the same bytes until the next build), else computed by `compute` and kept.
 */
export function sendCachedListPage<T>(
  request: Request,
  state: BuildState,
  listRequest: ListRequest & { page: number },
  compute: () => PageAnswer<T> | Promise<PageAnswer<T>>,
): Promise<Response> {
  const key = JSON.stringify([listRequest.list, listRequest.page, listRequest.query]);
  return sendKeptAnswer(request, state, key, async () => prepareListPage(state, listRequest, await compute()));
}

/**
 * Items [start, end) of a ranked spammer list: from the top the server holds when they are in
 * it, else the usernames at those places of the build's ranking (core/spammer-ranking.ts) with
 * each one's item from its check file (core/spammer-item.ts, the projection the build's page
 * files are made of); past the end, none. The route answers 503 for a build without a ranking
 * (an older version's) before asking for items beyond its top.
 */
export async function readRankedSpammers(state: BuildState, ranked: SpammerList, category: Category | undefined, start: number, end: number): Promise<SpammerItem[]> {
  const last = Math.min(end, ranked.total);
  if (start >= last) return [];
  if (last <= ranked.data.length) return ranked.data.slice(start, last);
  const { ranking } = state;
  if (!ranking) throw new Error(`the build has no ${SPAMMER_RANKING_FILE}`);
  return Promise.all(
    ranking.usernames(category, start, last).map(async (username) => {
      const check = (await readCheckResult(state, username)) as CheckResultFound | null;
      // The build writes a check file for every username it ranks: a missing one is a broken build.
      if (!check?.found) throw new Error(`the build ranks ${username} but has no check file for it`);
      return getSpammerItem(check);
    }),
  );
}

/**
 * A file route that is a page of a list: its file, with the Link header of that page. The next
 * page exists when the build wrote its file, or its marker (a page past a spammer list's page
 * files, on the live server) — the rule the nginx block applies too, so the two agree; the
 * previous one when this is not the first.
 */
export async function servePagedFile(ctx: RouteContext): Promise<Response> {
  const { route, params, state } = ctx;
  const path = route?.paged && getRouteFilePath(route, params);
  const file = path ? await readBuildFile(state, path) : null;
  if (!route?.paged || !file) return serveRouteFile(ctx);
  const paged = route.paged;
  const page = Number(fillTemplate(paged.page, params));
  const query = Object.fromEntries(Object.entries(paged.query).map(([name, value]) => [name, encodeURIComponent(fillTemplate(value, params))]));
  const list = { list: paged.list as RouteId, query };
  const nextFile = fillTemplate(paged.pages, { ...params, page: (page * paged.limit) / LIST_LIMIT.default + 1 });
  const links: string[] = [];
  const hasNext = (await readBuildFile(state, nextFile)) ?? (await readBuildFile(state, `${nextFile}${SPAMMER_PAGE_BEYOND_SUFFIX}`));
  if (hasNext) links.push(formatPageLink(getListPageUrl(state.urls.base, list, page + 1), "next"));
  if (page > 1) links.push(formatPageLink(getListPageUrl(state.urls.base, list, page - 1), "prev"));
  const answer = getRouteAnswer(state, route);
  return sendStoredFile(ctx.request, state.files, file, links.length > 0 ? { ...answer, headers: undefined, extra: { ...answer.extra, link: links.join(", ") } } : answer);
}
