/**
 * Pages of the ranked lists on the live server: the answer `{data, total, page, pages}` with its
 * `Link` header (core/routes/page-links.ts, shared with the nginx block), spammer pages beyond
 * the top the server holds, read from the build's page files, and the file routes that are pages
 * of a list (`/api/spammers/page/{page}`, the top files), which get the same header.
 */
import type { Category } from "../../core/categories.ts";
import { formatPageLink, getListPageUrl, getPageLinkHeader } from "../../core/routes/page-links.ts";
import { getRoute, LIST_LIMIT, type RouteId } from "../../core/routes/table.ts";
import { fillTemplate } from "../../core/routes/templates.ts";
import type { SpammerItem } from "../../core/spammer-item.ts";
import type { BuildState, SpammerList } from "../dist-source.ts";
import { getRouteAnswer, readBuildFile, readStoredBytes } from "../files.ts";
import { sendKeptAnswer } from "../known-answers.ts";
import { FIVE_MINUTES, prepareJson, sendPrepared, type PreparedAnswer } from "../respond.ts";
import { sendStoredFile } from "../send-file.ts";
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

const SPAMMER_PAGES = getRoute("getSpammerListPage").file!;
const CATEGORY_PAGES = getRoute("getSpammerCategoryPage").file!;

/**
 * Items [start, end) of a ranked spammer list: from the top the server holds when they are in
 * it, else from the build's page files of LIST_LIMIT.default — at most LIST_TOP / 50 + 1 = 5 of
 * them for the largest limit, read at once; past the end, none.
 */
export async function readRankedSpammers(state: BuildState, ranked: SpammerList, category: Category | undefined, start: number, end: number): Promise<SpammerItem[]> {
  const last = Math.min(end, ranked.total);
  if (start >= last) return [];
  if (last <= ranked.data.length) return ranked.data.slice(start, last);
  const size = LIST_LIMIT.default;
  const first = Math.floor(start / size) + 1;
  const numbers = Array.from({ length: Math.ceil(last / size) - first + 1 }, (_, i) => first + i);
  const files = numbers.map((page) => (category ? fillTemplate(CATEGORY_PAGES, { category, page }) : fillTemplate(SPAMMER_PAGES, { page })));
  const stored = await Promise.all(files.map((file) => readBuildFile(state, file)));
  const items: SpammerItem[] = [];
  for (const [i, file] of stored.entries()) {
    // The build writes every page of `total`: a missing one is a broken build, not an empty page.
    if (file === null) throw new Error(`the build has no ${files[i]} although its list has ${ranked.total} usernames`);
    items.push(...(JSON.parse((await readStoredBytes(state, file)).toString("utf8")) as { data: SpammerItem[] }).data);
  }
  const offset = (first - 1) * size;
  return items.slice(start - offset, last - offset);
}

/**
 * A file route that is a page of a list: its file, with the Link header of that page. The next
 * page exists when the build wrote its file — the rule the nginx block applies too, so the two
 * agree; the previous one when this is not the first.
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
  if (await readBuildFile(state, nextFile)) links.push(formatPageLink(getListPageUrl(state.urls.base, list, page + 1), "next"));
  if (page > 1) links.push(formatPageLink(getListPageUrl(state.urls.base, list, page - 1), "prev"));
  const answer = getRouteAnswer(state, route);
  return sendStoredFile(ctx.request, state.files, file, links.length > 0 ? { ...answer, key: undefined, extra: { ...answer.extra, link: links.join(", ") } } : answer);
}
