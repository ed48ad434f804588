/**
 * The route table: every public URL of the API and the site, in the order of the API reference.
 * It is the one owner of what a URL is — its template, the dist file behind it, its parameters
 * and bounds, its media type and cache policy, every answer's schema, an example, and how a
 * static host answers it. Emitters take their paths from here (build/), the server registers from
 * here (server/app.ts), and openapi.json, /docs, the nginx block and `_headers`/`_redirects` are
 * generated from here. Pure data: no I/O.
 */
import { Type } from "@sinclair/typebox";
import { BULK_CHECK_LIMITS, BulkCheckRequestSchema, BulkCheckSchema } from "../bulk-check.ts";
import { CATEGORIES } from "../categories.ts";
import { CANONICAL_SLUG, type LookupKind } from "../lookup.ts";
import { ShieldsEndpointSchema } from "../svg/shields-endpoint.ts";
import { GLOBAL_QUERY_LENGTH, GLOBAL_SEARCH_LIMIT } from "../search/global-groups.ts";
import {
  ChatNotFoundSchema,
  ChatStatusSchema,
  CheckFoundSchema,
  CheckNotFoundSchema,
  CompanyAllSchema,
  CompanyCardSchema,
  CompanyNotFoundSchema,
  CompanyPageSchema,
  DataPackageSchema,
  DetectionRulesSchema,
  GlobalSearchSchema,
  JsonFeedSchema,
  LiveSearchSchema,
  ManifestSchema,
  MatchRequestSchema,
  MatchResponseSchema,
  OpenApiDocumentSchema,
  ProblemSchema,
  ProfilesSchema,
  SpammerListSchema,
  WidgetNotFoundSchema,
  WidgetSchema,
  BuildReportSchema,
} from "./schemas.ts";
import { DumpIndexSchema } from "./dump-index-schema.ts";
import { ChangeExpiredSchema, ChangeIndexSchema, CHANGES_EXPIRED_KEPT } from "./changes-schema.ts";
import type { ExampleRequest, Media, Route, RouteParam, RouteResponse } from "./types.ts";

/** Reference "Limits": list limits and pages. */
export const LIST_LIMIT = { default: 50, min: 1, max: 200 } as const;
/** Server-side lists keep this many (the largest `limit`), so any limit is answered from memory. */
export const LIST_TOP = LIST_LIMIT.max;
export const MAX_PAGE = 100_000_000;
/** Reference "GET /api/search": q is 2..200 characters. */
export const LIVE_QUERY_LENGTH = { min: 2, max: 200 } as const;
/** DESIGN "Fingerprint": bodies over 16 KiB are refused with 413. */
export const MAX_MATCH_BODY_BYTES = 16 * 1024;

/** Canonical path values a static host can match literally (regex sources, no anchors). */
const CANONICAL = {
  username: "[a-z0-9_]{1,64}",
  /** Build slugs are path-safe (the build rejects others); a static host matches them as they are. */
  slug: "[^/]+",
  page: "[1-9][0-9]{0,8}",
  category: CATEGORIES.join("|"),
  style: "badge|counter-dark|counter-light|banner-dark|banner-light",
  /** A content or company slug as the build writes it (lower-cased path slug): what a page's file is named. */
  pathSlug: CANONICAL_SLUG,
} as const;

const text = (description: string, extra: Record<string, unknown> = {}) => Type.String({ description, ...extra });
const pathParam = (name: string, description: string, schema: RouteParam["schema"] = text(description)): RouteParam => ({ name, in: "path", description, schema, required: true });
const queryParam = (name: string, description: string, schema: RouteParam["schema"], required = false): RouteParam => ({ name, in: "query", description, schema, required });
const limitParam = queryParam(
  "limit",
  `Items per answer, ${LIST_LIMIT.min}..${LIST_LIMIT.max}.`,
  Type.Integer({ minimum: LIST_LIMIT.min, maximum: LIST_LIMIT.max, default: LIST_LIMIT.default }),
);
const categoryParam = queryParam("category", "Only usernames with at least one report in this category.", Type.Union(CATEGORIES.map((c) => Type.Literal(c))));
const pageParam = queryParam("page", "Page number, from 1.", Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 }));

/**
 * The ranked lists' page files at the default limit, for static hosts (every page of the
 * companies; the first DEFAULT_SPAMMER_PAGE_FILES of each spammer list, `--list-pages`), and
 * what their answers say about pages and `Link` (RFC 8288) — the same on every paginated route.
 */
const COMPANY_PAGES = "api/companies/page/{page}.json";
const SPAMMER_PAGES = "api/spammers/page/{page}.json";
const SPAMMER_CATEGORY_PAGES = "api/spammers/category/{category}/page/{page}.json";
/**
 * Page files of each spammer list (overall and per category) a build writes by default: the top
 * 1 000 usernames of each. Deeper pages are the live server's (from the ranking file and the
 * check files): one more report shifts every page between a username's old place and its new
 * one, and page files of every page made a deploy of a one-report change copy thousands of them.
 */
export const DEFAULT_SPAMMER_PAGE_FILES = 20;
/** Beside the first spammer page without a file, when the list goes on: that page exists, on the live server (nginx's rel=next). */
export const SPAMMER_PAGE_BEYOND_SUFFIX = ".live";
/** The spammer lists' order (core/spammer-ranking.ts): the live server's pages beyond the top it holds. */
export const SPAMMER_RANKING_FILE = "api/spammers/ranking.bin";
const PAGING =
  "`pages` is ceil(total / limit), 0 for an empty list; a page past the end answers 200 with an empty `data`. The `Link` header (RFC 8288) gives `rel=\"next\"` and `rel=\"prev\"` as absolute URLs of the list's query form, when there is such a page.";
const PAGE_FILE_LINKS = "It carries the same `Link` header as that query (absolute URLs of the query form).";
/** Netlify-like hosts match a path or query to a file but cannot compute a neighbouring page. */
const NO_HOST_LINK = "Netlify-like hosts (`_headers`) send no `Link` header: follow `page` and `pages` in the body; nginx sends it.";

/** A page file of a ranked list at the default limit: the static form of the list's `?page=` (and `?category=`), with its Link. */
function listPage(id: string, list: "listCompanies" | "listSpammers", what: string, file: string, schema: RouteResponse["schema"], category: boolean): Route {
  const query = category ? "category={category}&page={page}" : "page={page}";
  return {
    id,
    method: "GET",
    path: `/${file.replace(/\.json$/, "")}`,
    tag: list === "listCompanies" ? "Companies" : "Spammers",
    summary: `One page of ${what} (static form)`,
    description: `The same bytes as \`${list === "listCompanies" ? "/api/companies" : "/api/spammers"}?${query}\` at the default limit, as a plain file for static hosts and caches; a page past the end is a 404${list === "listSpammers" ? `, and so is a page past the list's page files (the first ${DEFAULT_SPAMMER_PAGE_FILES} by default, the build's \`--list-pages\`), which the query answers` : ""}. ${PAGE_FILE_LINKS}`,
    params: [
      ...(category ? [pathParam("category", "A category.", Type.Union(CATEGORIES.map((c) => Type.Literal(c))))] : []),
      pathParam("page", "Page number, from 1.", Type.Integer({ minimum: 1 })),
    ],
    file,
    media: "json",
    cache: "public",
    responses: [ok("json", "The page.", schema), notFound],
    rateLimit: "optional",
    example: () => ({ params: category ? { category: "crypto", page: "1" } : { page: "1" } }) as ExampleRequest,
    static: { ...fileRule({ ...(category ? { category: CANONICAL.category } : {}), page: CANONICAL.page }), differs: NO_HOST_LINK },
    paged: { list, query: category ? { category: "{category}" } : {}, page: "{page}", limit: LIST_LIMIT.default, pages: file },
  };
}

const ok = (media: Media, description: string, schema?: RouteResponse["schema"]): RouteResponse => ({ status: 200, description, media, schema });
const problem = (status: number, description: string): RouteResponse => ({ status, description, media: "problem", schema: ProblemSchema });
const invalid = (what: string) => problem(422, `Invalid input: ${what}. Every bad field is named in \`errors\`.`);
const notFound = problem(404, "Nothing is published at this address.");
const noIndex = problem(503, "The build being served has no index for this route (built by an older version).");

/** A file route's usual static rule: the canonical URL is the file, a missing one is a 404. */
const fileRule = (params?: Record<string, string>): Route["static"] => ({ kind: "file", params, notFound: { kind: "problem" } });

const page = (id: string, path: string, file: string, summary: string, param: [string, string] | null, example: Route["example"]): Route => ({
  id,
  method: "GET",
  path,
  tag: "Site",
  summary,
  description: `${summary} Plain HTML: no script, one inline stylesheet, every snapshot text escaped.`,
  params: param ? [pathParam(param[0], param[1])] : [],
  file,
  media: "html",
  cache: "public",
  // A page without a parameter always exists: only a keyed one can be missing.
  responses: param ? [ok("html", "The page."), notFound] : [ok("html", "The page.")],
  rateLimit: "optional",
  example,
  static: fileRule(),
});

const keyed = (key: string | null, name: string): ExampleRequest | null => (key === null ? null : { params: { [name]: key } });

const feed = (id: string, suffix: "" | ".atom" | ".feed.json", fileSuffix: string, media: Media, format: string, category: boolean): Route => ({
  id,
  method: "GET",
  path: category ? `/rss/category/{category}${suffix}` : `/rss/all${suffix}`,
  tag: "Open data",
  summary: `${format} feed${category ? " of one category" : ""}`,
  description: `Newly reported usernames and companies with rising complaints, newest first, as ${format}${category ? ", limited to one category" : ""}. Carries the CC BY 4.0 credit line.`,
  params: category ? [pathParam("category", "A category.", Type.Union(CATEGORIES.map((c) => Type.Literal(c))))] : [],
  file: category ? `rss/category/{category}${fileSuffix}` : `rss/all${fileSuffix}`,
  media,
  cache: "public",
  responses: [ok(media, `The ${format} document.`, media === "feedJson" ? JsonFeedSchema : undefined), ...(category ? [notFound] : [])],
  rateLimit: "optional",
  example: () => (category ? { params: { category: "crypto" } } : {}),
  static: fileRule(category ? { category: CANONICAL.category } : undefined),
});

/** The change feed's feed: one entry per retained publish, with its counts and change files. */
const changesFeed = (id: string, suffix: "" | ".atom" | ".feed.json", fileSuffix: string, media: Media, format: string): Route => ({
  id,
  method: "GET",
  path: `/rss/changes${suffix}`,
  tag: "Open data",
  summary: `${format} feed of publishes`,
  description: `One entry per retained publish, newest first, as ${format}: its counts of added, updated and removed usernames and companies, and links to its change files (/dumps/changes/index.json lists the same). Carries the CC BY 4.0 credit line.`,
  params: [],
  file: `rss/changes${fileSuffix}`,
  media,
  cache: "public",
  responses: [ok(media, `The ${format} document.`, media === "feedJson" ? JsonFeedSchema : undefined)],
  rateLimit: "optional",
  example: () => ({}),
  static: fileRule(),
});

/** Company card and widget: by slug or name on the live server; a static host knows slugs only. */
const COMPANY_LOOKUP_RULE: Route["static"] = {
  kind: "file",
  params: { slug: CANONICAL.slug },
  notFound: { kind: "live" },
  differs: "A static host finds companies by their exact slug only: any other value may be a name, so it gets 501 naming the live route (which answers the card or the 404).",
};

/** Chat status and badge: a canonical username is its file, an unknown one the live server's 404 body. */
const CHAT_RULE: Route["static"] = {
  kind: "file",
  params: { username: CANONICAL.username },
  stripAt: "username",
  notFound: { kind: "json", status: 404, body: '{"found":false,"username":"{username}"}' },
  differs: "A static host cannot lower-case a username nor check a malformed one: those get 501 naming the live route.",
};

/** Files of the build that are the live server's (and a static host's) 404 bodies: embeds, pages, SVGs. */
export const EMBED_NOT_FOUND_FILE = "embed/404.html";
export const NOT_FOUND_PAGE_FILE = "404.html";
export const NOT_FOUND_BADGE_FILE = "404.svg";

const svgNotFound: RouteResponse = { status: 404, description: "The SVG \"not found\" badge (`/404.svg`), so an `<img>` shows a sentence, not a broken image.", media: "svg" };
const moved: RouteResponse = { status: 301, description: "Another spelling of the key (capitals, spaces, an `@`, a company's name): a permanent redirect to the canonical URL in `Location`.", media: "html" };

/**
 * Badges, cards, their endpoint JSON and embeds: by slug or name on the live server (core/lookup.ts),
 * answered with the canonical company's bytes; a static host knows exact slugs only.
 */
const companyNameRule = (params: Record<string, string> = {}): Route["static"] => ({
  kind: "file",
  params: { ...params, slug: CANONICAL.slug },
  notFound: { kind: "live" },
  differs: "A static host finds a company by its exact slug only: another spelling, a name, or a slug that names no company (it may be a name) gets 501 naming the live route.",
});
const companyLookup = { param: "slug", kind: "company", spelling: "same-bytes" } as const;

/** A site page keyed by a slug or username: another spelling is a 301 to the canonical URL, nothing there the HTML 404 page. */
function keyedPage(id: string, path: string, file: string, summary: string, [name, description]: [string, string], kind: LookupKind, example: Route["example"]): Route {
  const canonical = kind === "username" ? CANONICAL.username : CANONICAL.pathSlug;
  const spelling = kind === "company" ? "capitals, spaces or the company's name" : kind === "username" ? "capitals, spaces or an `@`" : "capitals or spaces";
  const base = page(id, path, file, summary, [name, description], example);
  return {
    ...base,
    description: `${base.description} Another spelling (${spelling}) is a 301 to the canonical URL; an unknown ${name} is the HTML 404 page.`,
    responses: [ok("html", "The page."), moved, { status: 404, description: "The site's HTML not-found page (`/404.html`).", media: "html" }],
    lookup: { param: name, kind, spelling: "redirect" },
    notFoundFile: NOT_FOUND_PAGE_FILE,
    static: {
      kind: "file",
      params: { [name]: canonical },
      notFound: { kind: kind === "company" ? "live" : "notFoundFile" },
      differs: `A static host cannot lower-case or trim a ${name}${kind === "company" ? " nor look up a name" : ""}: another spelling${kind === "company" ? ", or a slug that names no company," : ""} gets 501 naming the live route (which redirects to the canonical URL${kind === "company" ? " or answers the 404 page" : ""}).`,
    },
  };
}

const dumpDescription = "CC BY 4.0; see /dumps/LICENSE.txt for the credit line.";

export const ROUTES = [
  {
    id: "checkUsername",
    method: "GET",
    path: "/api/check/{identifier}",
    tag: "Spammers",
    summary: "Check a username",
    description:
      "Whether a messenger username was reported, with counts, categories and companies. The identifier is trimmed, one leading `@` is stripped and it is lower-cased; valid usernames are `[a-z0-9_]{1,64}`. An unknown valid username answers 200 with `found: false` (absence is an answer, not a guarantee the account is clean).",
    params: [pathParam("identifier", "A messenger username; a leading `@` is optional, case does not matter.", text("A username", { minLength: 1 }))],
    file: "api/check/{identifier}.json",
    media: "json",
    cache: "public",
    responses: [
      { status: 200, description: "Found, or not found (`found: false`).", media: "json", schema: Type.Union([CheckFoundSchema, CheckNotFoundSchema]) },
      invalid("the identifier is not a username"),
    ],
    rateLimit: "optional",
    example: (k) => keyed(k.username, "identifier"),
    static: {
      kind: "file",
      params: { identifier: CANONICAL.username },
      stripAt: "identifier",
      notFound: { kind: "json", status: 200, body: '{"found":false,"username":"{identifier}","reports_count":0}' },
      differs: "A static host cannot lower-case or trim a username, nor check a malformed one: such identifiers get 501 naming the live route instead of the live answer (the canonical lower-case form, with or without `@`, is answered the same).",
    },
  },
  {
    id: "checkUsernames",
    method: "POST",
    path: "/api/check",
    tag: "Spammers",
    summary: "Check many usernames at once",
    description:
      `Up to ${BULK_CHECK_LIMITS.maxUsernames} usernames in one request, each read like \`GET /api/check/{identifier}\`. \`results\` answers each in the order sent, a duplicate at each of its positions: \`{identifier, result}\` with exactly the GET route's answer (found, or \`found: false\`), or \`{identifier, error}\` with the GET's 422 reason for an identifier that is no username — the request still succeeds. An ordered array rather than an object keyed by identifier: JSON objects give no order, and clients put integer-like keys such as \`123\` first. With the operator's read limit on, each username sent counts as one read, all taken in one step: more than the client has left this minute is a 429 that takes none, more than the whole limit a 413; a body that cannot be checked counts as one.`,
    params: [],
    body: { schema: BulkCheckRequestSchema, maxBytes: BULK_CHECK_LIMITS.maxBodyBytes },
    file: null,
    media: "json",
    cache: "none",
    responses: [
      ok("json", "Each username's answer, in the order sent.", BulkCheckSchema),
      problem(400, "The body is not readable JSON (syntax, empty, bad UTF-8)."),
      problem(413, `More than ${BULK_CHECK_LIMITS.maxUsernames} usernames, a body over 16 KiB, or (with the read limit on) more usernames than the limit allows in a minute.`),
      problem(415, "The body is not `application/json`."),
      invalid("the body is not an object with a `usernames` array of strings, or the array is empty"),
    ],
    rateLimit: "optional",
    rateUnits: "item",
    example: (k) => (k.username === null ? null : { body: { usernames: [k.username, `@${k.username.toUpperCase()}`, "no_such_username_0", "not a username!"] } }),
    static: { kind: "live", differs: "Checking is computed: a static host answers 501 naming the live route (single usernames are files: `GET /api/check/{identifier}`)." },
  },
  {
    id: "listCompanies",
    method: "GET",
    path: "/api/companies",
    tag: "Companies",
    summary: "Companies ranked by complaints",
    description: `Companies by complaints (then name, then id), paginated. ${PAGING} \`slug\` narrows the list to one company.`,
    params: [limitParam, pageParam, queryParam("slug", "Only the company with this slug (case-insensitive).", Type.String())],
    file: "api/companies.json",
    queryFiles: [COMPANY_PAGES],
    media: "json",
    cache: "public",
    responses: [ok("json", "One page of the ranked list.", CompanyPageSchema), invalid("a bad `limit` or `page`, or one of `limit`, `page`, `slug` given twice")],
    rateLimit: "optional",
    example: () => ({ query: { page: "2" } }),
    static: {
      kind: "query",
      forms: [
        { when: {}, defaults: { limit: String(LIST_LIMIT.default), page: "1" }, file: "api/companies.json", pages: COMPANY_PAGES },
        { when: { page: CANONICAL.page }, defaults: { limit: String(LIST_LIMIT.default) }, file: COMPANY_PAGES, pages: COMPANY_PAGES },
      ],
      differs: `A static host answers the default limit's pages that exist; another \`limit\`, \`slug\`, a page past the end, an invalid value, a parameter given twice (the live server's 422) or any percent-encoded character in the query get 501 naming the live route. Parameters the route does not take are ignored by both. ${NO_HOST_LINK}`,
    },
  },
  {
    id: "listSpammers",
    method: "GET",
    path: "/api/spammers",
    tag: "Spammers",
    summary: "Reported usernames, most reported first",
    description:
      `Usernames with at least one report, by reports, then last report (newest first), then username, paginated: every one of them is on some page. \`total\` counts the whole set (of the category, when one is given). ${PAGING} \`username\` is an exact lookup. ` +
      `Any \`limit\` goes with any \`page\`: the first ${LIST_TOP} of each list are answered from memory, a page beyond them from the build's ranking (\`${SPAMMER_RANKING_FILE}\`) and the usernames' check files; a build of an older version, without the ranking, answers those 503.`,
    params: [limitParam, pageParam, queryParam("username", "Exactly this username (normalised like /api/check).", Type.String()), categoryParam],
    file: "api/spammers.json",
    queryFiles: ["api/spammers/category/{category}.json", SPAMMER_PAGES, SPAMMER_CATEGORY_PAGES],
    media: "json",
    cache: "public",
    responses: [
      ok("json", "One page of the list and the size of the set.", SpammerListSchema),
      invalid("a bad `limit`, `page` (0, negative, not a whole number), `username`, `category`, or one of them given twice"),
      problem(503, "A page beyond the top 200 of a build made by an older version, which has no ranking file."),
    ],
    rateLimit: "optional",
    example: () => ({ query: { category: "crypto" } }),
    static: {
      kind: "query",
      forms: [
        { when: {}, defaults: { limit: String(LIST_LIMIT.default), page: "1" }, file: "api/spammers.json", pages: SPAMMER_PAGES },
        { when: { page: CANONICAL.page }, defaults: { limit: String(LIST_LIMIT.default) }, file: SPAMMER_PAGES, pages: SPAMMER_PAGES },
        { when: { category: CANONICAL.category }, defaults: { limit: String(LIST_LIMIT.default), page: "1" }, file: "api/spammers/category/{category}.json", pages: SPAMMER_CATEGORY_PAGES },
        { when: { category: CANONICAL.category, page: CANONICAL.page }, defaults: { limit: String(LIST_LIMIT.default) }, file: SPAMMER_CATEGORY_PAGES, pages: SPAMMER_CATEGORY_PAGES },
      ],
      differs: `A static host answers the default limit's pages that have files, per category too (the first ${DEFAULT_SPAMMER_PAGE_FILES} of each list by default, the build's \`--list-pages\`); another \`limit\`, \`username\`, a page past them or past the end, an invalid value, a parameter given twice (the live server's 422) or any percent-encoded character in the query get 501 naming the live route. Parameters the route does not take are ignored by both. ${NO_HOST_LINK}`,
    },
  },
  {
    id: "getCompany",
    method: "GET",
    path: "/api/company/{slug}",
    tag: "Companies",
    summary: "A company's card",
    description: "The company card, by slug or exact company name, case-insensitively (Unicode). Aliases are listed, not lookup keys.",
    params: [pathParam("slug", "A company slug, or its exact name.")],
    file: "api/company/{slug}.json",
    media: "json",
    cache: "public",
    responses: [ok("json", "The company card.", CompanyCardSchema), { status: 404, description: "No such company.", media: "json", schema: CompanyNotFoundSchema }],
    rateLimit: "optional",
    example: (k) => keyed(k.companySlug, "slug"),
    static: COMPANY_LOOKUP_RULE,
  },
  {
    id: "getWidget",
    method: "GET",
    path: "/api/widget/{slug}",
    tag: "Companies",
    summary: "Widget data of a company",
    description: "Compact data for embeddable widgets: complaints, trend, the last 7 days (oldest first). Looked up like the company card.",
    params: [pathParam("slug", "A company slug, or its exact name.")],
    file: "api/widget/{slug}.json",
    media: "json",
    cache: "public",
    responses: [ok("json", "The widget data.", WidgetSchema), { status: 404, description: "No such company; `page_url` is the company list.", media: "json", schema: WidgetNotFoundSchema }],
    rateLimit: "optional",
    example: (k) => keyed(k.companySlug, "slug"),
    static: COMPANY_LOOKUP_RULE,
  },
  {
    id: "matchFingerprint",
    method: "POST",
    path: "/api/fingerprint/match",
    tag: "Fingerprints",
    summary: "Match fingerprint signals",
    description:
      "Matches browser or bot fingerprint signals against the public profile library. At most 20 signals, each value 1..255 characters; 60 requests a minute per client, errors included. Stateless: answers are cached for five minutes by a hash of the signals, which are never stored.",
    params: [],
    body: { schema: MatchRequestSchema, maxBytes: MAX_MATCH_BODY_BYTES },
    file: null,
    media: "json",
    cache: "none",
    responses: [
      ok("json", "The verdict and the best candidates.", MatchResponseSchema),
      problem(400, "The body is not readable JSON (syntax, empty, bad UTF-8)."),
      problem(413, "The body is larger than 16 KiB."),
      problem(415, "The body is not `application/json`."),
      invalid("`signals` missing, not an object of strings, empty, more than 20 keys or a value too long"),
      problem(429, "More than 60 requests in the client's current minute; see `Retry-After`."),
      noIndex,
    ],
    rateLimit: "always",
    example: (k) => (k.signals ? { body: { signals: k.signals } } : null),
    static: { kind: "live", differs: "Matching is computed: a static host answers 501 naming the live route." },
  },
  {
    id: "getChatStatus",
    method: "GET",
    path: "/api/chat/{username}/status",
    tag: "Chats",
    summary: "A chat's spam protection status",
    description: "Whether the chat's anti-spam bot protects it, since when, and its counters. The username is read like a messenger username (`@Traders_Chat` works).",
    params: [pathParam("username", "The chat's username; `@` optional, case does not matter.")],
    file: "api/chat/{username}/status.json",
    media: "json",
    cache: "public",
    responses: [
      ok("json", "The status.", ChatStatusSchema),
      { status: 404, description: "No such chat.", media: "json", schema: ChatNotFoundSchema },
      invalid("the username is malformed"),
    ],
    rateLimit: "optional",
    example: (k) => keyed(k.chatUsername, "username"),
    static: CHAT_RULE,
  },
  {
    id: "getChatBadge",
    method: "GET",
    path: "/api/chat/{username}/badge.svg",
    tag: "Chats",
    summary: "A chat's protection badge",
    description: "`spam protection | protected` (green) or `not protected` (grey), as an accessible SVG.",
    params: [pathParam("username", "The chat's username; `@` optional, case does not matter.")],
    file: "api/chat/{username}/badge.svg",
    media: "svg",
    cache: "public",
    responses: [ok("svg", "The badge."), svgNotFound, invalid("the username is malformed")],
    rateLimit: "optional",
    notFoundFile: NOT_FOUND_BADGE_FILE,
    example: (k) => keyed(k.chatUsername, "username"),
    static: { ...CHAT_RULE, notFound: { kind: "notFoundFile" } },
  },
  {
    id: "searchLive",
    method: "GET",
    path: "/api/search",
    tag: "Search",
    summary: "Live search",
    description: "Case-insensitive substring search over companies (name, aliases, domain), people and reported usernames: at most 6 people, 7 companies, 4 spammers; exact, then prefix, then substring. `q` under 2 characters answers empty groups.",
    params: [queryParam("q", "A company, an @username, a domain or a pasted link.", Type.String({ maxLength: LIVE_QUERY_LENGTH.max }), true)],
    file: null,
    media: "json",
    cache: "public",
    responses: [ok("json", "The three groups.", LiveSearchSchema), invalid("`q` missing, repeated or longer than 200 characters"), noIndex],
    rateLimit: "optional",
    example: (k) => ({ query: { q: k.searchWord ?? "spam" } }),
    static: { kind: "live", differs: "Search is computed: a static host answers 501 naming the live route." },
  },
  {
    id: "searchGlobal",
    method: "GET",
    path: "/api/search/global",
    tag: "Search",
    summary: "Global search",
    description:
      "Typo-tolerant and prefix search over eight groups (companies, people, glossary, videos, video channels, chat channels, chats, blog posts), in either script or keyboard layout, and over reported usernames (`spammer`), with or without `@`, found as live search finds them (exact, prefix, substring; no typo matches: a username a letter away is another account). In a group: exact matches, then prefixes, then a word's prefix (a username containing the query), each by the word the query completes (whole, a letter longer, longer: `lumo` lists Lumo Agency before better-known Lumoraxen), then typo matches, one typo from a name first (a transposition or a moved space is one typo). Groups go by their best item on that scale, then in the order above, so the first item of the first group is the best match. Empty groups are left out; urls are site-relative, starting with the base URL's path when it has one (`/spam-api/company/…`).",
    params: [
      queryParam("q", `What to look for, ${GLOBAL_QUERY_LENGTH.min}..${GLOBAL_QUERY_LENGTH.max} characters (shorter answers no results).`, Type.String({ maxLength: GLOBAL_QUERY_LENGTH.max }), true),
      queryParam("limit", `Cap per group, ${GLOBAL_SEARCH_LIMIT.min}..${GLOBAL_SEARCH_LIMIT.max}, replacing the group defaults (3..8).`, Type.Integer({ minimum: GLOBAL_SEARCH_LIMIT.min, maximum: GLOBAL_SEARCH_LIMIT.max })),
    ],
    file: null,
    media: "json",
    cache: "public",
    responses: [ok("json", "The non-empty groups.", GlobalSearchSchema), invalid("`q` missing, repeated or too long, or a bad or repeated `limit`"), noIndex],
    rateLimit: "optional",
    example: (k) => ({ query: { q: k.searchWord ?? "spam" } }),
    static: { kind: "live", differs: "Search is computed: a static host answers 501 naming the live route." },
  },
  {
    id: "getBadge",
    method: "GET",
    path: "/api/badge/{slug}.svg",
    tag: "Companies",
    summary: "A company's SVG badge",
    description: "Shields-style badge `name | N complaints`: green without complaints, red when rising or 100+, amber otherwise. The company is found by slug or exact name, any case (`SpinBit`), and answered with its canonical badge's bytes.",
    params: [pathParam("slug", "The company's slug or exact name; case does not matter.")],
    file: "api/badge/{slug}.svg",
    media: "svg",
    cache: "public",
    responses: [ok("svg", "The badge."), svgNotFound],
    rateLimit: "optional",
    lookup: companyLookup,
    notFoundFile: NOT_FOUND_BADGE_FILE,
    example: (k) => keyed(k.companySlug, "slug"),
    static: companyNameRule(),
  },
  {
    id: "getBadgeJson",
    method: "GET",
    path: "/api/badge/{slug}.json",
    tag: "Companies",
    summary: "A company's badge as a shields.io endpoint",
    description:
      "The badge in shields.io's endpoint schema (https://shields.io/badges/endpoint-badge), to restyle it with shields: `https://img.shields.io/endpoint?url=` followed by this URL, percent-encoded, and any shields option (`&style=for-the-badge`). The same label, message and colour as the SVG badge; names uncut. Found by slug or exact name, any case.",
    params: [pathParam("slug", "The company's slug or exact name; case does not matter.")],
    file: "api/badge/{slug}.json",
    media: "json",
    cache: "public",
    responses: [ok("json", "The endpoint badge.", ShieldsEndpointSchema), notFound],
    rateLimit: "optional",
    lookup: companyLookup,
    example: (k) => keyed(k.companySlug, "slug"),
    static: companyNameRule(),
  },
  {
    id: "getCard",
    method: "GET",
    path: "/api/card/{slug}.svg",
    tag: "Companies",
    summary: "A company's SVG card",
    description: "A 340×120 card: name, category, complaints, trend and a bar per day of the last week. Found by slug or exact name, any case, and answered with the canonical card's bytes.",
    params: [pathParam("slug", "The company's slug or exact name; case does not matter.")],
    file: "api/card/{slug}.svg",
    media: "svg",
    cache: "public",
    responses: [ok("svg", "The card."), svgNotFound],
    rateLimit: "optional",
    lookup: companyLookup,
    notFoundFile: NOT_FOUND_BADGE_FILE,
    example: (k) => keyed(k.companySlug, "slug"),
    static: companyNameRule(),
  },
  {
    id: "getEmbed",
    method: "GET",
    path: "/embed/{style}/{slug}",
    tag: "Companies",
    summary: "An iframe widget",
    description: "A self-contained HTML widget (no script, nothing fetched) in one of five styles; framable by any site. The company is found by slug or exact name, any case, and answered with its canonical widget's bytes. Unknown style or company: the HTML 404 page.",
    params: [
      pathParam("style", "badge (260×32), counter-dark/counter-light (180×100), banner-dark/banner-light (468×60).", Type.Union(CANONICAL.style.split("|").map((s) => Type.Literal(s)))),
      pathParam("slug", "The company's slug or exact name; case does not matter."),
    ],
    file: "embed/{style}/{slug}.html",
    media: "html",
    cache: "public",
    responses: [ok("html", "The widget."), { status: 404, description: "The HTML not-found page, so the iframe shows a sentence.", media: "html" }],
    rateLimit: "optional",
    lookup: companyLookup,
    notFoundFile: EMBED_NOT_FOUND_FILE,
    example: (k) => (k.companySlug === null ? null : { params: { style: "banner-light", slug: k.companySlug } }),
    static: companyNameRule({ style: CANONICAL.style }),
  },
  {
    id: "getDetectionRules",
    method: "GET",
    path: "/api/detection-rules",
    tag: "Chats",
    summary: "Spam detection rules",
    description: "The enabled rules in id order with a content `version`; poll with If-None-Match.",
    params: [],
    file: "api/detection-rules.json",
    media: "json",
    cache: "public",
    responses: [ok("json", "The rules.", DetectionRulesSchema)],
    rateLimit: "optional",
    example: () => ({}),
    static: fileRule(),
  },
  listPage("getCompanyListPage", "listCompanies", "the ranked company list", COMPANY_PAGES, CompanyPageSchema, false),
  {
    id: "getCompanyListAll",
    method: "GET",
    path: "/api/companies/all",
    tag: "Companies",
    summary: "The whole ranked company list",
    description: "Every company in ranking order, in one file.",
    params: [],
    file: "api/companies/all.json",
    media: "json",
    cache: "public",
    responses: [ok("json", "Every company.", CompanyAllSchema)],
    rateLimit: "optional",
    example: () => ({}),
    static: fileRule(),
  },
  {
    id: "getSpammerTop",
    method: "GET",
    path: "/api/spammers/top",
    tag: "Spammers",
    summary: "The 200 most reported usernames",
    description: `The same bytes as \`/api/spammers?limit=200\`. ${PAGE_FILE_LINKS}`,
    params: [],
    file: "api/spammers/top.json",
    media: "json",
    cache: "public",
    responses: [ok("json", "The list.", SpammerListSchema)],
    rateLimit: "optional",
    example: () => ({}),
    static: { ...fileRule(), differs: NO_HOST_LINK },
    paged: { list: "listSpammers", query: { limit: String(LIST_TOP) }, page: "1", limit: LIST_TOP, pages: SPAMMER_PAGES },
  },
  {
    id: "getSpammerCategory",
    method: "GET",
    path: "/api/spammers/category/{category}",
    tag: "Spammers",
    summary: "Most reported usernames of a category (static form)",
    description: `The same bytes as \`/api/spammers?category={category}\` at the default limit. ${PAGE_FILE_LINKS}`,
    params: [pathParam("category", "A category.", Type.Union(CATEGORIES.map((c) => Type.Literal(c))))],
    file: "api/spammers/category/{category}.json",
    media: "json",
    cache: "public",
    responses: [ok("json", "The list.", SpammerListSchema), notFound],
    rateLimit: "optional",
    example: () => ({ params: { category: "crypto" } }),
    static: { ...fileRule({ category: CANONICAL.category }), differs: NO_HOST_LINK },
    paged: { list: "listSpammers", query: { category: "{category}" }, page: "1", limit: LIST_LIMIT.default, pages: SPAMMER_CATEGORY_PAGES },
  },
  {
    id: "getSpammerCategoryTop",
    method: "GET",
    path: "/api/spammers/category/{category}/top",
    tag: "Spammers",
    summary: "The 200 most reported usernames of a category",
    description: `The same bytes as \`/api/spammers?category={category}&limit=200\`. ${PAGE_FILE_LINKS}`,
    params: [pathParam("category", "A category.", Type.Union(CATEGORIES.map((c) => Type.Literal(c))))],
    file: "api/spammers/category/{category}/top.json",
    media: "json",
    cache: "public",
    responses: [ok("json", "The list.", SpammerListSchema), notFound],
    rateLimit: "optional",
    example: () => ({ params: { category: "crypto" } }),
    static: { ...fileRule({ category: CANONICAL.category }), differs: NO_HOST_LINK },
    paged: { list: "listSpammers", query: { limit: String(LIST_TOP), category: "{category}" }, page: "1", limit: LIST_TOP, pages: SPAMMER_CATEGORY_PAGES },
  },
  listPage("getSpammerListPage", "listSpammers", "the ranked usernames", SPAMMER_PAGES, SpammerListSchema, false),
  listPage("getSpammerCategoryPage", "listSpammers", "a category's ranked usernames", SPAMMER_CATEGORY_PAGES, SpammerListSchema, true),
  feed("getFeedRss", "", ".rss", "rss", "RSS 2.0", false),
  feed("getFeedAtom", ".atom", ".atom", "atom", "Atom 1.0", false),
  feed("getFeedJson", ".feed.json", ".feed.json", "feedJson", "JSON Feed 1.1", false),
  feed("getCategoryFeedRss", "", ".rss", "rss", "RSS 2.0", true),
  feed("getCategoryFeedAtom", ".atom", ".atom", "atom", "Atom 1.0", true),
  feed("getCategoryFeedJson", ".feed.json", ".feed.json", "feedJson", "JSON Feed 1.1", true),
  changesFeed("getChangesFeedRss", "", ".rss", "rss", "RSS 2.0"),
  changesFeed("getChangesFeedAtom", ".atom", ".atom", "atom", "Atom 1.0"),
  changesFeed("getChangesFeedJson", ".feed.json", ".feed.json", "feedJson", "JSON Feed 1.1"),
  {
    id: "getDumpCsv",
    method: "GET",
    path: "/dumps/{name}.csv",
    tag: "Open data",
    summary: "Weekly CSV dump",
    description: `\`spammers-{YYYY}-W{ww}\`, \`companies-{YYYY}-W{ww}\`, or \`-latest\` for this week's; \`spammers-new-{YYYY}-W{ww}\` for the usernames first reported in that ISO week, for every week that has any (\`/dumps/index.json\` lists them). RFC 4180, UTF-8 without BOM, no cell starts a formula. ${dumpDescription}`,
    params: [pathParam("name", "`spammers-latest`, `companies-latest`, a week's name such as `spammers-2026-W46`, or a week's new usernames such as `spammers-new-2026-W46`.")],
    file: "dumps/{name}.csv",
    media: "csv",
    cache: "public",
    responses: [ok("csv", "The CSV file."), notFound],
    rateLimit: "optional",
    example: () => ({ params: { name: "companies-latest" } }),
    static: fileRule(),
  },
  {
    id: "getDumpGzip",
    method: "GET",
    path: "/dumps/{name}.csv.gz",
    tag: "Open data",
    summary: "Weekly CSV dump, gzip-compressed",
    description: `The same bytes as the CSV, gzip-compressed (reproducible). ${dumpDescription}`,
    params: [pathParam("name", "As for the CSV.")],
    file: "dumps/{name}.csv.gz",
    media: "gzip",
    cache: "public",
    responses: [ok("gzip", "The compressed CSV."), notFound],
    rateLimit: "optional",
    example: () => ({ params: { name: "companies-latest" } }),
    static: fileRule(),
  },
  {
    id: "getDumpLicense",
    method: "GET",
    path: "/dumps/LICENSE.txt",
    tag: "Open data",
    summary: "The dump's licence and credit line",
    description: "CC BY 4.0 and how to credit the source.",
    params: [],
    file: "dumps/LICENSE.txt",
    media: "text",
    cache: "public",
    responses: [ok("text", "The licence text.")],
    rateLimit: "optional",
    example: () => ({}),
    static: fileRule(),
  },
  {
    id: "getDataPackage",
    method: "GET",
    path: "/dumps/datapackage.json",
    tag: "Open data",
    summary: "The dump's Data Package",
    description: "A Frictionless Tabular Data Package: every column's type and constraints, each file's size and SHA-256.",
    params: [],
    file: "dumps/datapackage.json",
    media: "json",
    cache: "public",
    responses: [ok("json", "The data package.", DataPackageSchema)],
    rateLimit: "optional",
    example: () => ({}),
    static: fileRule(),
  },
  {
    id: "getDumpIndexJson",
    method: "GET",
    path: "/dumps/index.json",
    tag: "Open data",
    summary: "The index of the dumps",
    description:
      "Every file in /dumps/ by ISO week, newest first: its URL, size in bytes, SHA-256 and data rows, with the licence and its credit line. The full dumps are of the snapshot's week; a `spammers-new` file exists for every week in which some username was first reported (a week that is not listed had none), so a client that last fetched week W takes the `spammers-new` files of W and after (W again: it may have grown since).",
    params: [],
    file: "dumps/index.json",
    media: "json",
    cache: "public",
    responses: [ok("json", "The index.", DumpIndexSchema)],
    rateLimit: "optional",
    example: () => ({}),
    static: fileRule(),
  },
  {
    id: "getChangeIndex",
    method: "GET",
    path: "/dumps/changes/index.json",
    tag: "Open data",
    summary: "The change feed: publishes and their change files",
    description:
      "The retained publishes, newest first (at least the last 30 and every one of the last 35 days by default, the build's `--changes-keep` and `--changes-days`): each one's build id, the publish it is relative to, as_of, counts of added, updated and removed rows, and its change files with size, SHA-256 and rows. A client holding the dump of publish P fetches the change files of every publish after P, oldest first, and applies them in turn; or asks `/api/changes?since=P` once.",
    params: [],
    file: "dumps/changes/index.json",
    media: "json",
    cache: "public",
    responses: [ok("json", "The index.", ChangeIndexSchema)],
    rateLimit: "optional",
    example: () => ({}),
    static: fileRule(),
  },
  {
    id: "getChangeFile",
    method: "GET",
    path: "/dumps/changes/{name}.csv",
    tag: "Open data",
    summary: "One publish's change file",
    description: `\`{build}\` for the spammer dump, \`{build}-companies\` for the company dump: a \`change\` column (\`added\`, \`updated\`, \`removed\`), then exactly the dump's columns, rows in the dump's order (its key: username, company id). A removed row carries its key and empty cells. Applied to the previous publish's \`-latest\` dump (drop the rows it names, put in its added and updated rows, in key order) it gives this publish's, byte for byte. The first publish of a history has none. ${dumpDescription}`,
    params: [pathParam("name", "A build id from /dumps/changes/index.json, with `-companies` for the company dump's changes.")],
    file: "dumps/changes/{name}.csv",
    media: "csv",
    cache: "public",
    responses: [ok("csv", "The change file."), notFound],
    rateLimit: "optional",
    // Written after the docs (named by the build id): the docs have no example of it.
    example: () => null,
    static: fileRule(),
  },
  {
    id: "getChangeFileGzip",
    method: "GET",
    path: "/dumps/changes/{name}.csv.gz",
    tag: "Open data",
    summary: "One publish's change file, gzip-compressed",
    description: `The same bytes as the change file, gzip-compressed (reproducible). ${dumpDescription}`,
    params: [pathParam("name", "As for the CSV.")],
    file: "dumps/changes/{name}.csv.gz",
    media: "gzip",
    cache: "public",
    responses: [ok("gzip", "The compressed change file."), notFound],
    rateLimit: "optional",
    example: () => null,
    static: fileRule(),
  },
  {
    id: "getChangeExpired",
    method: "GET",
    path: "/dumps/changes/expired.json",
    tag: "Open data",
    summary: "Publishes whose change files are gone",
    description: `Build ids of publishes older than the retained ones, newest first (the last ${CHANGES_EXPIRED_KEPT.toLocaleString("en")}): \`/api/changes?since=\` answers them 410 (start again from the full dump), and an id in neither list 404.`,
    params: [],
    file: "dumps/changes/expired.json",
    media: "json",
    cache: "public",
    responses: [ok("json", "The ids.", ChangeExpiredSchema)],
    rateLimit: "optional",
    example: () => ({}),
    static: fileRule(),
  },
  {
    id: "listChanges",
    method: "GET",
    path: "/api/changes",
    tag: "Open data",
    summary: "Every change since a publish, merged",
    description:
      "The rows that differ between the dump of publish `since` and the current one, as one change file (the columns of `/dumps/changes/{build}.csv`), merged over the publishes between: added then removed is nothing, added then updated is added with the latest row, removed then added is updated. Streamed. The `Build-Id` header names the current publish: the next `since`. `since` equal to the current publish answers the header row alone. A row changed and changed back within the span may be listed as updated with its current values (applying it is still exact).",
    params: [
      queryParam("since", "The build id of the publish whose dump the client holds.", Type.String({ pattern: "^[0-9a-f]{16}$" }), true),
      queryParam("dataset", "`spammers` (the default) or `companies`.", Type.Union([Type.Literal("spammers"), Type.Literal("companies")], { default: "spammers" })),
    ],
    file: null,
    media: "csv",
    cache: "public",
    headers: ["Build-Id"],
    responses: [
      ok("csv", "The merged changes."),
      problem(404, "`since` is no publish this deployment has made (nor one it still remembers as expired)."),
      problem(410, "`since` is older than the retained publishes: start again from the full dump the problem names."),
      invalid("`since` missing, repeated or not a build id (16 hex digits), or an unknown `dataset`"),
      problem(503, "The build being served has no change feed (built by an older version)."),
    ],
    rateLimit: "optional",
    example: () => null,
    static: { kind: "live", differs: "The merge is computed: a static host answers 501 naming the live route; its per-publish change files are plain files." },
  },
  {
    ...page("getDumpIndex", "/dumps/", "dumps/index.html", "The open-data dumps: every file by week, with sizes, SHA-256 and rows, and the licence.", null, () => ({})),
    tag: "Open data",
  },
  {
    id: "getFingerprintProfiles",
    method: "GET",
    path: "/fingerprint/profiles.json",
    tag: "Fingerprints",
    summary: "The public fingerprint profiles",
    description: "Every profile matching can answer with, by id.",
    params: [],
    file: "fingerprint/profiles.json",
    media: "json",
    cache: "public",
    responses: [ok("json", "The profiles.", ProfilesSchema)],
    rateLimit: "optional",
    example: () => ({}),
    static: fileRule(),
  },
  {
    id: "getOpenApi",
    method: "GET",
    path: "/openapi.json",
    tag: "Build",
    summary: "This API description",
    description: "OpenAPI 3.1, generated from the route table.",
    params: [],
    file: "openapi.json",
    media: "json",
    cache: "revalidate",
    responses: [ok("json", "The OpenAPI document.", OpenApiDocumentSchema)],
    rateLimit: "optional",
    example: () => ({}),
    static: fileRule(),
  },
  {
    id: "getManifest",
    method: "GET",
    path: "/manifest.json",
    tag: "Build",
    summary: "Every file of this build",
    description: "Each file of dist with its size and SHA-256: what a deploy compares to upload only what changed.",
    params: [],
    file: "manifest.json",
    media: "json",
    cache: "revalidate",
    responses: [ok("json", "The manifest.", ManifestSchema)],
    rateLimit: "optional",
    example: () => ({}),
    static: fileRule(),
  },
  {
    id: "getBuildReport",
    method: "GET",
    path: "/build-report.json",
    tag: "Build",
    summary: "What the build refused",
    description: "Counts and every rejected row by reason, with up to ten samples each.",
    params: [],
    file: "build-report.json",
    media: "json",
    cache: "revalidate",
    responses: [ok("json", "The report.", BuildReportSchema)],
    rateLimit: "optional",
    example: () => ({}),
    static: fileRule(),
  },
  page("getHome", "/", "index.html", "The landing page.", null, () => ({})),
  page("getDocs", "/docs", "docs/index.html", "The API documentation.", null, () => ({})),
  page("getCompanyListHtml", "/companies", "companies/index.html", "The company list, 50 a page.", null, () => ({})),
  page("getCompanyListHtmlPage", "/companies/page/{page}", "companies/page/{page}/index.html", "A further page of the company list.", ["page", "Page number, from 2."], () => ({ params: { page: "2" } })),
  keyedPage("getCompanyPage", "/company/{slug}", "company/{slug}.html", "A company's page, with its badge and embed snippets.", ["slug", "The company's slug or exact name."], "company", (k) => keyed(k.companySlug, "slug")),
  keyedPage("getPersonPage", "/people/{slug}", "people/{slug}.html", "A person's page.", ["slug", "The person's slug."], "slug", (k) => keyed(k.personSlug, "slug")),
  {
    ...page("getAvatar", "/avatars/{slug}.svg", "avatars/{slug}.svg", "A person's generated initials avatar.", ["slug", "The person's slug."], (k) => keyed(k.personSlug, "slug")),
    media: "svg",
    responses: [ok("svg", "The avatar."), notFound],
    description: "An initials avatar, used when the snapshot's avatar is not an absolute http(s) URL.",
  },
  keyedPage("getGlossaryPage", "/glossary/{slug}", "glossary/{slug}.html", "A glossary term.", ["slug", "The term's slug."], "slug", (k) => keyed(k.glossarySlug, "slug")),
  keyedPage("getVideoPage", "/videos/{slug}", "videos/{slug}.html", "A video.", ["slug", "The video's slug."], "slug", (k) => keyed(k.videoSlug, "slug")),
  keyedPage("getVideoChannelPage", "/video-channels/{slug}", "video-channels/{slug}.html", "A video channel.", ["slug", "The channel's slug."], "slug", (k) => keyed(k.videoChannelSlug, "slug")),
  keyedPage("getChatChannelPage", "/channels/{username}", "channels/{username}.html", "A messenger channel.", ["username", "The channel's username."], "username", (k) => keyed(k.chatChannelUsername, "username")),
  keyedPage("getChatPage", "/chats/{username}", "chats/{username}.html", "A chat and its protection.", ["username", "The chat's username."], "username", (k) => keyed(k.chatUsername, "username")),
  keyedPage("getBlogPost", "/blog/{slug}", "blog/{slug}.html", "A blog post.", ["slug", "The post's slug."], "slug", (k) => keyed(k.blogSlug, "slug")),
] as const satisfies readonly Route[];

export type RouteId = (typeof ROUTES)[number]["id"];

/** The routes by id, typed: `route("checkUsername").file`. */
const BY_ID = new Map<string, Route>(ROUTES.map((r) => [r.id, r]));
export function getRoute(id: RouteId): Route {
  return BY_ID.get(id)!;
}

/**
 * Files the build writes that are no public URL of their own: read by the server or a host, and
 * still served at their path in dist (every file of a build is public; the manifest lists them).
 */
export const SEARCH_INDEX_FILES = { global: "search/global.json", globalGrams: "search/global.bin", liveHeader: "search/live.json", liveBinary: "search/live.bin" } as const;
export const FINGERPRINT_INDEX_FILE = "fingerprint/index.json";
/** The 501 problem a Netlify-like host answers for a route its rules cannot (core/hosting/netlify.ts). */
export const CANNOT_ANSWER_FILE = "_static-host/cannot-answer/{id}.json";
/** The 400 problem of a path that does not decode, for hosts that refuse it before any rule (nginx). */
export const BAD_REQUEST_FILE = "_static-host/bad-request.json";
/** The problem+json 404 a Netlify-like host answers under /api/ (it would send its HTML 404 page to every client). */
export const NOT_FOUND_PROBLEM_FILE = "_static-host/not-found.json";

export const SUPPORT_FILES = [
  { file: EMBED_NOT_FOUND_FILE, purpose: "The HTML 404 page of /embed/ (getEmbed's 404)." },
  { file: SEARCH_INDEX_FILES.global, purpose: "The global search index the server loads." },
  { file: SEARCH_INDEX_FILES.globalGrams, purpose: "The global search index's n-gram postings." },
  { file: SEARCH_INDEX_FILES.liveHeader, purpose: "The live search index's header." },
  { file: SEARCH_INDEX_FILES.liveBinary, purpose: "The live search index's arrays." },
  { file: FINGERPRINT_INDEX_FILE, purpose: "The fingerprint index the server loads." },
  { file: SPAMMER_RANKING_FILE, purpose: "The spammer lists' order: every username, and each category's positions in it." },
  {
    file: `${SPAMMER_PAGES}${SPAMMER_PAGE_BEYOND_SUFFIX}`,
    purpose: "Empty: the first page of the ranked usernames past their page files, when the list goes on (the page exists on the live server).",
  },
  {
    file: `${SPAMMER_CATEGORY_PAGES}${SPAMMER_PAGE_BEYOND_SUFFIX}`,
    purpose: "Empty: the same for a category's list.",
  },
  { file: "_headers", purpose: "Headers per path for Netlify / Cloudflare Pages (not served)." },
  { file: "_redirects", purpose: "Rewrites for Netlify / Cloudflare Pages (not served)." },
  { file: BAD_REQUEST_FILE, purpose: "The 400 problem of a path whose percent-encoding does not decode (nginx's error_page)." },
  { file: NOT_FOUND_PROBLEM_FILE, purpose: "The problem+json 404 of a path under /api/ that is no file, for hosts that answer with a file (`_redirects`)." },
  { file: CANNOT_ANSWER_FILE, purpose: "The 501 problem of a route, for hosts that answer with a file (`_redirects`)." },
  { file: NOT_FOUND_PAGE_FILE, purpose: "The HTML 404 page of the site's pages (their notFoundFile)." },
  { file: NOT_FOUND_BADGE_FILE, purpose: "The SVG \"not found\" badge, the 404 of badges and cards (their notFoundFile)." },
] as const;

export type SupportFile = (typeof SUPPORT_FILES)[number]["file"];

/** Host configuration: written into dist for the host to read, never served at its own path. */
export const HOST_CONFIG_FILES: readonly string[] = ["_headers", "_redirects"];
export const HOST_CONFIG_PREFIX = "_static-host/";
