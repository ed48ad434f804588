/**
 * What one entry of the route table says about a public URL (core/routes/table.ts). Pure data:
 * the server registers from it, emitters take their paths from it, and the OpenAPI document,
 * /docs and the static-host rules are generated from it.
 */
import type { TSchema } from "@sinclair/typebox";
import type { LookupKind } from "../lookup.ts";

/** Response media types, each with the exact Content-Type header both servers send. */
export const MEDIA_TYPES = {
  json: "application/json; charset=utf-8",
  problem: "application/problem+json; charset=utf-8",
  svg: "image/svg+xml; charset=utf-8",
  html: "text/html; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  gzip: "application/gzip",
  text: "text/plain; charset=utf-8",
  rss: "application/rss+xml; charset=utf-8",
  atom: "application/atom+xml; charset=utf-8",
  feedJson: "application/feed+json; charset=utf-8",
  binary: "application/octet-stream",
} as const;
export type Media = keyof typeof MEDIA_TYPES;

/** Cache-Control per policy. DESIGN "Caching": five public minutes where the reference says so. */
export const CACHE_CONTROL = {
  public: "public, max-age=300",
  /** Files that describe the build itself: revalidate every time (an ETag makes that cheap). */
  revalidate: "no-cache",
  /** Answers that depend on what was sent (POST), and errors. */
  none: "no-store",
} as const;
export type CachePolicy = keyof typeof CACHE_CONTROL;

export interface RouteParam {
  name: string;
  in: "path" | "query";
  description: string;
  /** JSON Schema of the value, with its bounds and default (TypeBox). */
  schema: TSchema;
  required?: boolean;
}

export interface RouteResponse {
  status: number;
  description: string;
  media: Media;
  /** JSON Schema of a JSON body (TypeBox); absent for SVG, HTML, CSV and feeds. */
  schema?: TSchema;
}

/** Real keys of one build, for examples (docs, OpenAPI, contract tests); null when the build has none. */
export interface ExampleKeys {
  username: string | null;
  companySlug: string | null;
  companyName: string | null;
  chatUsername: string | null;
  personSlug: string | null;
  glossarySlug: string | null;
  videoSlug: string | null;
  videoChannelSlug: string | null;
  chatChannelUsername: string | null;
  blogSlug: string | null;
  /** A word of a company name, for the search examples. */
  searchWord: string | null;
  /** A week of the dump, e.g. `2026-W46`. */
  dumpWeek: string;
  /** Signals of a public profile, for the fingerprint example. */
  signals: Record<string, string> | null;
}

export interface ExampleRequest {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/**
 * How a static host (dist alone, no live server) answers a route. A URL the files can answer is
 * mapped to the right file, byte for byte the live server's answer; anything else gets a 501
 * problem naming the live route (or goes to the live server when the host has one). `differs`
 * says, for the docs, what a static host therefore answers differently.
 */
export type StaticRule =
  | {
      kind: "file";
      /** Per path parameter, the canonical form a host can match literally (regex, no anchors). */
      params?: Record<string, string>;
      /** A path parameter whose one leading `@` the host strips (usernames). */
      stripAt?: string;
      /** A canonical URL without a file: what the live server answers, reproducible by the host. */
      notFound: NotFoundRule;
      differs?: string;
    }
  | {
      kind: "query";
      /** Query forms the files answer, first match wins; any other query is not answerable. */
      forms: QueryForm[];
      differs: string;
    }
  | { kind: "live"; differs: string };

export interface QueryForm {
  /** Parameters and the regex (no anchors) of their only value this form accepts; others must be absent. */
  when: Record<string, string>;
  /** Parameters that may be present with exactly this value (the default), as if absent. */
  defaults?: Record<string, string>;
  /** The dist file; `{name}` is the value of the parameter `name`. */
  file: string;
  /**
   * The default-limit page files of the list this form answers (`{page}` the page number): a
   * next page exists when its file does, which is how a static host sends `Link`.
   */
  pages?: string;
}

/**
 * A file route whose answer is one page of a ranked list (the same bytes as a query of the list
 * route): its `Link` header (RFC 8288) points at the neighbouring pages, in the list's query form.
 */
export interface PagedFile {
  /** The list route's operation id (`listSpammers`). */
  list: string;
  /** The answer's query on the list route, page aside; `{name}` is the path parameter `name`. */
  query: Record<string, string>;
  /** `{page}` (the path parameter) or a fixed page number. */
  page: string;
  /** Items per page of this answer (the default limit, or the top file's 200 on page 1). */
  limit: number;
  /** The list's default-limit page files (`{page}` the page number), as for a query form. */
  pages: string;
}

export type NotFoundRule =
  /** RFC 9457 404 (the server's one constant body for "nothing here"). */
  | { kind: "problem" }
  /** Only the live server can tell (a name lookup, not an unknown slug): the 501, or the upstream. */
  | { kind: "live" }
  /** The route's `notFoundFile` with status 404, the same bytes as the live server's (a page, a badge). */
  | { kind: "notFoundFile" }
  /**
   * A JSON body echoing the canonical parameter (`{param}` in `body`, already safe JSON: the
   * canonical pattern admits no quote or backslash) and `{company_list}`, the list page's URL.
   */
  | { kind: "json"; status: number; body: string };

/**
 * Another spelling of a key (`SpinBit`, `@Traders_Chat`, ` Alpha-Leads `) answers the resource of
 * its canonical key (core/lookup.ts): with the same bytes (`same-bytes`, for images, iframes and
 * API answers: `<img>` follows a redirect, but a cache keyed by URL would then hold both) or with a
 * 301 to the canonical URL (`redirect`, for pages: the address bar and search engines learn it).
 */
export interface RouteLookup {
  param: string;
  kind: LookupKind;
  spelling: "same-bytes" | "redirect";
}

export interface Route {
  /** operationId; also the key the server's handlers are registered under. */
  id: string;
  method: "GET" | "POST";
  /** URL template, e.g. `/api/check/{identifier}`. */
  path: string;
  tag: string;
  summary: string;
  description: string;
  params: RouteParam[];
  /** The request body of a POST: its schema and the largest accepted size. */
  body?: { schema: TSchema; maxBytes: number };
  /** The dist file behind the URL (template); null when the server computes every answer. */
  file: string | null;
  /** Further dist files that answer query forms of this route (see StaticRule "query"). */
  queryFiles?: string[];
  /** Media type of the 200. */
  media: Media;
  cache: CachePolicy;
  /** Every status the route answers with, the 200 included. */
  responses: RouteResponse[];
  /** Subject to a per-client rate limit: always (fingerprint) or when the operator switches reads on. */
  rateLimit: "always" | "optional";
  /**
   * What a request takes from that limit: one (the default), or one per item of its body (the
   * bulk check: each username counts as one read), taken in one step once the body is read.
   */
  rateUnits?: "request" | "item";
  /** How the live server reads the path value that names the resource; absent: as the file's name, as it stands. */
  lookup?: RouteLookup;
  /**
   * The live server's 404 body when the path names nothing, for routes whose answer is no JSON: a
   * constant file of the build, in the route's media type (an HTML page, an SVG badge), so an
   * iframe or `<img>` shows a sentence. Absent: the problem+json 404.
   */
  notFoundFile?: string;
  example: (keys: ExampleKeys) => ExampleRequest | null;
  static: StaticRule;
  /** Headers of its own on the 200 and 304 (names of the OpenAPI document's header components), e.g. `Build-Id`. */
  headers?: string[];
  /** One page of a ranked list: the answer carries `Link` rel=next/prev (see PagedFile). */
  paged?: PagedFile;
}
