import { getRoutePath } from "./routes/match.ts";

/**
 * Every URL the API emits, in one place. DESIGN: URLs in responses are absolute, from
 * --base-url, and each must resolve on the same deployment. `sitePaths` are the same addresses
 * below the base URL; `createUrls` puts the base in front. A base URL may carry a path
 * (`https://example.org/spam-api`, docs/operators.md "Base URL with a path"): global search answers with
 * site-relative URLs (the reference's), so they take that path in front (`urls.path`), never
 * a bare `sitePaths` value, which would leave the deployment. The
 * server builds the few URLs of its dynamic answers with the same functions and the base URL
 * recorded in the build report.
 */
const path = getRoutePath;

/** Paths below the base URL of everything the build publishes for people to follow (templates: the route table). */
export const sitePaths = {
  home: () => path("getHome"),
  /** The API documentation page: every endpoint with examples, the limits and the licence. */
  docs: () => path("getDocs"),
  companyPage: (slug: string) => path("getCompanyPage", { slug }),
  companyList: () => path("getCompanyListHtml"),
  companyListPage: (page: number) => (page === 1 ? path("getCompanyListHtml") : path("getCompanyListHtmlPage", { page })),
  person: (slug: string) => path("getPersonPage", { slug }),
  /** A generated initials avatar, used when the snapshot's avatar is not an absolute http(s) URL. */
  personAvatar: (slug: string) => path("getAvatar", { slug }),
  glossary: (slug: string) => path("getGlossaryPage", { slug }),
  video: (slug: string) => path("getVideoPage", { slug }),
  videoChannel: (slug: string) => path("getVideoChannelPage", { slug }),
  chatChannel: (username: string) => path("getChatChannelPage", { username }),
  chat: (username: string) => path("getChatPage", { username }),
  blogPost: (slug: string) => path("getBlogPost", { slug }),
  badge: (slug: string) => path("getBadge", { slug }),
  card: (slug: string) => path("getCard", { slug }),
  embed: (slug: string, style = "badge") => path("getEmbed", { style, slug }),
  spammer: (username: string) => path("checkUsername", { identifier: username }),
  chatStatus: (username: string) => path("getChatStatus", { username }),
  chatBadge: (username: string) => path("getChatBadge", { username }),
  detectionRules: () => path("getDetectionRules"),
  /** Feeds: RSS 2.0 at /rss/all (the reference's address), Atom and JSON Feed beside it; `category` null = all. */
  rss: (category: string | null = null) => (category === null ? path("getFeedRss") : path("getCategoryFeedRss", { category })),
  atom: (category: string | null = null) => (category === null ? path("getFeedAtom") : path("getCategoryFeedAtom", { category })),
  jsonFeed: (category: string | null = null) => (category === null ? path("getFeedJson") : path("getCategoryFeedJson", { category })),
  /** The open-data dump: `name` is a file in /dumps/, e.g. `spammers-latest.csv`, `datapackage.json`. */
  dump: (name: string) => `/dumps/${encodeURIComponent(name)}`,
  /** The index of the dumps: every file by week, with sizes, SHA-256 and rows. */
  dumpIndex: () => path("getDumpIndex"),
  openApi: () => path("getOpenApi"),
  /** The change feed (docs/change-feed.md): a file of /dumps/changes/ by name (`{build}.csv`), its index, the merged route, its feeds. */
  changeFile: (name: string) => `${path("getChangeIndex").slice(0, -"index.json".length)}${encodeURIComponent(name)}`,
  changeIndex: () => path("getChangeIndex"),
  changes: () => path("listChanges"),
  changesRss: () => path("getChangesFeedRss"),
  changesAtom: () => path("getChangesFeedAtom"),
  changesJsonFeed: () => path("getChangesFeedJson"),
};

export type SitePath = keyof typeof sitePaths;

/**
 * `sitePaths` with the base URL in front, plus the base itself (no `/` at its end) and its path
 * (`/spam-api`, or "" at a host's root): what a site-relative URL of this deployment starts with.
 */
export type Urls = { base: string; path: string } & { [K in SitePath]: (...args: Parameters<(typeof sitePaths)[K]>) => string };

export function createUrls(baseUrl: string): Urls {
  const base = baseUrl.replace(/\/+$/, "");
  const urls = { base, path: new URL(`${base}/`).pathname.slice(0, -1) } as Record<string, unknown>;
  for (const [name, toPath] of Object.entries(sitePaths)) {
    urls[name] = (...args: unknown[]) => base + (toPath as (...a: unknown[]) => string)(...args);
  }
  return urls as Urls;
}

/**
 * A person's avatar: the snapshot's value when it is an absolute http(s) URL (an image hosted
 * elsewhere), else the initials avatar the build generates, which always exists. A relative path
 * from the snapshot would point at a file this deployment does not have.
 */
export function getAvatarUrl(avatar: string | null, slug: string, urls: Urls): string {
  const text = avatar?.trim() ?? "";
  if (/^https?:\/\/[^\s/?#]+/i.test(text) && URL.canParse(text)) return new URL(text).href;
  return urls.personAvatar(slug);
}

/** A base URL must be an absolute http(s) URL without query or fragment. */
export function checkBaseUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL such as https://api.example.org";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must use http or https";
  if (url.search || url.hash) return "must not have a query or fragment";
  return null;
}
