/**
 * Finding every link a build publishes, for the dead-link crawl: the `url`, `*_url` and `avatar`
 * fields of JSON files, the href and src attributes of HTML, SVG and feed files, and the
 * <link> elements of RSS. Site-relative values are resolved against the base URL's origin, as a
 * browser would; links to other hosts are left out unless asked for (the crawl checks this
 * deployment only). A base URL may carry a path (`https://example.org/spam-api`): a link is on the
 * deployment only under it, and `toServerPath` strips it, as the reverse proxy in front does.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { BASE_URL } from "./fixture.ts";

export interface FoundLink {
  /** Absolute, without fragment. */
  url: string;
  /** The dist file it was found in. */
  source: string;
}

/** Every file under `dist`, as `/`-separated paths relative to it. */
export function listFiles(dist: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(dist, path).split("\\").join("/"));
    }
  };
  walk(dist);
  return files.sort();
}

export function readDistFile(dist: string, path: string): string {
  return readFileSync(join(dist, path), "utf8");
}

const ENTITIES: Record<string, string> = { amp: "&", quot: '"', lt: "<", gt: ">", apos: "'", "#39": "'" };

function unescapeAttribute(value: string): string {
  return value.replace(/&(amp|quot|lt|gt|apos|#39);/g, (_, name: string) => ENTITIES[name]!);
}

/**
 * The `url`, `*_url` and `avatar` strings anywhere in a JSON value, as written; but an OpenAPI
 * `x-example-request`'s `url` is a path below the server URL, like the document's paths, so it
 * comes with `baseUrl` in front.
 */
export function collectJsonLinks(value: unknown, out: string[] = [], baseUrl = BASE_URL): string[] {
  if (Array.isArray(value)) for (const v of value) collectJsonLinks(v, out, baseUrl);
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if (key === "x-example-request" && typeof (v as { url?: unknown }).url === "string") out.push(baseUrl + (v as { url: string }).url);
      else if ((key === "url" || key.endsWith("_url") || key === "avatar") && typeof v === "string") out.push(v);
      else collectJsonLinks(v, out, baseUrl);
    }
  }
  return out;
}

function collectMarkupLinks(text: string, out: string[]): void {
  for (const match of text.matchAll(/\s(?:href|src|xlink:href)="([^"]*)"/g)) out.push(unescapeAttribute(match[1]!));
  for (const match of text.matchAll(/<link>([^<]*)<\/link>/g)) out.push(unescapeAttribute(match[1]!.trim()));
}

const MARKUP = /\.(html|svg|rss|atom|xml)$/;

/**
 * The path (and query) the server sees for `url`, a URL under `baseUrl`; null for any other URL.
 * The base URL itself is its home page (`/spam-api` is `/spam-api/` behind the proxy).
 */
export function toServerPath(url: string, baseUrl = BASE_URL): string | null {
  if (url === baseUrl) return "/";
  return url.startsWith(`${baseUrl}/`) ? url.slice(baseUrl.length) : null;
}

export function collectLinks(dist: string, options: { baseUrl?: string; keepExternal?: boolean } = {}): FoundLink[] {
  const baseUrl = options.baseUrl ?? BASE_URL;
  const origin = new URL(baseUrl).origin;
  const links: FoundLink[] = [];
  for (const source of listFiles(dist)) {
    const found: string[] = [];
    if (source.endsWith(".json")) collectJsonLinks(JSON.parse(readDistFile(dist, source)), found, baseUrl);
    else if (MARKUP.test(source)) collectMarkupLinks(readDistFile(dist, source), found);
    else continue;
    for (const raw of found) {
      if (raw === "" || raw.startsWith("#") || /^(data|mailto):/i.test(raw)) continue;
      const url = new URL(raw, `${baseUrl}/`);
      url.hash = "";
      const absolute = url.href;
      // Another path on the base URL's own host is kept: the crawl reports it as outside the deployment.
      if (options.keepExternal || url.origin === origin) links.push({ url: absolute, source });
    }
  }
  return links;
}
