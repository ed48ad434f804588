/**
 * Every URL the API emits, in one place. DESIGN: URLs in responses are absolute, from
 * --base-url, and each must resolve on the same deployment. The server builds the few URLs of
 * its dynamic answers with the same functions and the base URL recorded in the manifest.
 */
export interface Urls {
  base: string;
  companyPage(slug: string): string;
  companyList(): string;
  badge(slug: string): string;
  card(slug: string): string;
  embed(slug: string, style?: string): string;
  spammer(username: string): string;
}

export function createUrls(baseUrl: string): Urls {
  const base = baseUrl.replace(/\/+$/, "");
  const seg = encodeURIComponent;
  return {
    base,
    companyPage: (slug) => `${base}/company/${seg(slug)}`,
    companyList: () => `${base}/companies`,
    badge: (slug) => `${base}/api/badge/${seg(slug)}.svg`,
    card: (slug) => `${base}/api/card/${seg(slug)}.svg`,
    embed: (slug, style = "badge") => `${base}/embed/${style}/${seg(slug)}`,
    spammer: (username) => `${base}/api/check/${seg(username)}`,
  };
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
