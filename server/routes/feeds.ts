/**
 * /rss/** — the feeds. RSS lives at the extension-less addresses `/rss/all` and
 * `/rss/category/{category}` (the reference's address), stored as `.rss` files; Atom
 * (`.atom`) and JSON Feed (`.feed.json`) are stored under their own names. Each answers with its
 * feed media type, a strong ETag (304 on If-None-Match) and five minutes of caching, like
 * every file.
 */
import { readBuildFile, toBuildPath } from "../files.ts";
import { FIVE_MINUTES, sendBody, sendProblem } from "../respond.ts";
import type { RouteContext } from "./context.ts";

const FORMATS: [suffix: string, type: string][] = [
  [".atom", "application/atom+xml; charset=utf-8"],
  [".feed.json", "application/feed+json; charset=utf-8"],
  [".rss", "application/rss+xml; charset=utf-8"],
];

/** The stored file and its media type for a feed address, or null when it is not one. */
export function getFeedFile(urlPath: string): { path: string; type: string } | null {
  const path = toBuildPath(urlPath);
  if (path === null || !path.startsWith("rss/")) return null;
  const format = FORMATS.find(([suffix]) => path.endsWith(suffix));
  return format ? { path, type: format[1] } : { path: `${path}.rss`, type: FORMATS[2]![1] };
}

export async function serveFeed({ request, url, state }: RouteContext): Promise<Response> {
  const feed = getFeedFile(url.pathname);
  const body = feed && (await readBuildFile(state.root, feed.path));
  if (feed && body) return sendBody(request, body, { type: feed.type, cacheControl: FIVE_MINUTES });
  return sendProblem(request, 404, `No feed is published at ${url.pathname}.`);
}
