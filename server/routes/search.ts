/**
 * GET /api/search?q= — live search — and GET /api/search/global?q=&limit= — global search
 * (reference "GET /api/search", "GET /api/search/global"; DESIGN "Search").
 *
 * Both look up the build's indexes (server/search-state.ts) and do no work proportional to the
 * corpus. `q` is trimmed, then its length is counted in characters (code points): under 2
 * answers empty (DESIGN), over the bound (200 live, 120 global) is 422, as is a missing `q`.
 * Answers change only with a build: five minutes of public caching, and a strong ETag.
 */
import { LIVE_QUERY_LENGTH } from "../../core/routes/table.ts";
import { answerGlobalSearch, answerLiveSearch } from "../../core/search/answers.ts";
import { GLOBAL_QUERY_LENGTH, GLOBAL_SEARCH_LIMIT } from "../../core/search/global-groups.ts";
import { QueryReader } from "../query.ts";
import { FIVE_MINUTES, sendInvalid, sendJson, sendProblem, type FieldError } from "../respond.ts";
import type { RouteContext } from "./context.ts";


export function searchLiveRoute(context: RouteContext): Response | Promise<Response> {
  const { request, url, state } = context;
  const query = new QueryReader(url.searchParams);
  const q = readQuery(query, LIVE_QUERY_LENGTH.max, "a company name, an @username or a domain");
  if (q === undefined || query.errors.length > 0) return sendInvalid(request, query.errors);
  const search = state.search.now;
  if (search === undefined) return state.search.ready.then(() => searchLiveRoute(context));
  if (search === null) return sendNoIndex(request);
  return sendJson(request, answerLiveSearch(search.live, search.asOfMs, state.urls, q.text, q.short), { cacheControl: FIVE_MINUTES });
}

export function searchGlobalRoute(context: RouteContext): Response | Promise<Response> {
  const { request, url, state } = context;
  const query = new QueryReader(url.searchParams);
  const q = readQuery(query, GLOBAL_QUERY_LENGTH.max, "what to look for");
  const limit = query.integer("limit", 0, GLOBAL_SEARCH_LIMIT.min, GLOBAL_SEARCH_LIMIT.max);
  if (q === undefined || query.errors.length > 0) return sendInvalid(request, query.errors);
  const search = state.search.now;
  if (search === undefined) return state.search.ready.then(() => searchGlobalRoute(context));
  if (search === null) return sendNoIndex(request);
  return sendJson(request, answerGlobalSearch(search.global, state.urls, q.text, q.short, limit), { cacheControl: FIVE_MINUTES });
}

interface QueryText {
  text: string;
  /** Under the 2 characters a search needs: answered with empty results, not an error. */
  short: boolean;
}

/** `q`, trimmed; a missing, repeated or too long one is recorded in `query.errors`. */
function readQuery(query: QueryReader, max: number, what: string): QueryText | undefined {
  const raw = query.string("q");
  if (raw === undefined) {
    if (!query.errors.some((e) => e.name === "q")) query.errors.push(fieldError(`is required: ${what}, 2 to ${max} characters`));
    return undefined;
  }
  const text = raw.trim();
  const length = countCharacters(text, max + 1);
  if (length > max) {
    query.errors.push(fieldError(`must be at most ${max} characters long (after trimming)`));
    return undefined;
  }
  return { text, short: length < 2 };
}

function fieldError(detail: string): FieldError {
  return { name: "q", in: "query", detail };
}

/** Code points in `text`, counting no further than `stop` (a 10 KB query costs no more than a long one). */
function countCharacters(text: string, stop: number): number {
  let count = 0;
  for (let i = 0; i < text.length && count < stop; i++, count++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return count;
}

function sendNoIndex(request: Request): Response {
  return sendProblem(request, 503, "This build has no search indexes (search/global.json, search/live.json); rebuild dist with the current version.");
}
