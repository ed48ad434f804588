/**
 * Finding every link a build publishes, for the dead-link crawl: the `url`, `*_url` and `avatar`
 * fields of JSON files, the href and src attributes of HTML, SVG and feed files, and the
 * <link> elements of RSS. Site-relative values are resolved against the base URL; links to
 * other sites are left out unless asked for (the crawl checks this deployment only).
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

/** The `url`, `*_url` and `avatar` strings anywhere in a JSON value, as written. */
export function collectJsonLinks(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) collectJsonLinks(v, out);
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if ((key === "url" || key.endsWith("_url") || key === "avatar") && typeof v === "string") out.push(v);
      else collectJsonLinks(v, out);
    }
  }
  return out;
}

function collectMarkupLinks(text: string, out: string[]): void {
  for (const match of text.matchAll(/\s(?:href|src|xlink:href)="([^"]*)"/g)) out.push(unescapeAttribute(match[1]!));
  for (const match of text.matchAll(/<link>([^<]*)<\/link>/g)) out.push(unescapeAttribute(match[1]!.trim()));
}

const MARKUP = /\.(html|svg|rss|atom|xml)$/;

export function collectLinks(dist: string, options: { keepExternal?: boolean } = {}): FoundLink[] {
  const links: FoundLink[] = [];
  for (const source of listFiles(dist)) {
    const found: string[] = [];
    if (source.endsWith(".json")) collectJsonLinks(JSON.parse(readDistFile(dist, source)), found);
    else if (MARKUP.test(source)) collectMarkupLinks(readDistFile(dist, source), found);
    else continue;
    for (const raw of found) {
      if (raw === "" || raw.startsWith("#") || /^(data|mailto):/i.test(raw)) continue;
      const url = new URL(raw, `${BASE_URL}/`);
      url.hash = "";
      const absolute = url.href;
      if (options.keepExternal || absolute.startsWith(`${BASE_URL}/`)) links.push({ url: absolute, source });
    }
  }
  return links;
}
