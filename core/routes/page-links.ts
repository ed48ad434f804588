/**
 * The `Link` header (RFC 8288) of one page of a ranked list: `rel="next"` and `rel="prev"` to the
 * neighbouring pages, as absolute URLs from the base URL (DESIGN "URLs": every URL the API emits
 * is absolute), always in the list route's query form (`/api/spammers?category=crypto&page=3`),
 * whichever form was asked for. The live server and the nginx block both format it here, so their
 * headers agree byte for byte.
 *
 * A page has a next page when it is not the last, and a previous page when it is not the first
 * and not past the end (a page past the end is an empty answer, not a page of the list).
 */
import { getRoute, LIST_LIMIT, type RouteId } from "./table.ts";

/** A list route and the query of one answer, page aside: values already percent-encoded, in any order. */
export interface ListQuery {
  list: RouteId;
  query: Readonly<Record<string, string>>;
}

/**
 * The URL of page `page` of the list: the route's path, then its parameters in the order the
 * table declares them, `limit` left out when it is the default, `page` last. The values go in
 * as they are (the server encodes its own; the nginx block passes canonical captures).
 */
export function getListPageUrl(base: string, { list, query }: ListQuery, page: string | number): string {
  const route = getRoute(list);
  const parts: string[] = [];
  for (const param of route.params) {
    const value = query[param.name];
    if (param.in !== "query" || param.name === "page" || value === undefined) continue;
    if (param.name === "limit" && value === String(LIST_LIMIT.default)) continue;
    parts.push(`${param.name}=${value}`);
  }
  parts.push(`page=${page}`);
  return `${base}${route.path}?${parts.join("&")}`;
}

/** One link value: `<url>; rel="next"`. */
export function formatPageLink(url: string, rel: "next" | "prev"): string {
  return `<${url}>; rel="${rel}"`;
}

/** The Link header of page `page` of `pages` (pages = ceil(total / limit)), or null when it has no neighbour. */
export function getPageLinkHeader(base: string, list: ListQuery, page: number, pages: number): string | null {
  const links: string[] = [];
  if (page < pages) links.push(formatPageLink(getListPageUrl(base, list, page + 1), "next"));
  if (page > 1 && page <= pages) links.push(formatPageLink(getListPageUrl(base, list, page - 1), "prev"));
  return links.length > 0 ? links.join(", ") : null;
}
