/**
 * Serving files of the current build: content types by extension, cache policy by path, and a
 * path check so that no request can leave the build folder.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { EMBED_CSP_HEADER } from "../core/embed-policy.ts";
import { CACHE_CONTROL, MEDIA_TYPES, type Route } from "../core/routes/types.ts";
import { sendBody } from "./respond.ts";

/** Content types of files served at their own path, by extension (the table's media types where it has one). */
const TYPES: Record<string, string> = {
  json: MEDIA_TYPES.json,
  svg: MEDIA_TYPES.svg,
  html: MEDIA_TYPES.html,
  csv: MEDIA_TYPES.csv,
  txt: MEDIA_TYPES.text,
  rss: MEDIA_TYPES.rss,
  atom: MEDIA_TYPES.atom,
  gz: MEDIA_TYPES.gzip,
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  xml: "application/xml; charset=utf-8",
  png: "image/png",
  ico: "image/x-icon",
  webmanifest: "application/manifest+json",
};

/** Files that describe the build itself: clients should revalidate them every time. */
const NO_CACHE = new Set(["manifest.json", "build-report.json"]);

export function getContentType(path: string): string {
  const dot = path.lastIndexOf(".");
  return (dot >= 0 && TYPES[path.slice(dot + 1).toLowerCase()]) || "application/octet-stream";
}

/**
 * A decoded URL path as a path inside the build, or null when it could escape it or names a
 * hidden file. Percent-decoding happens before the check, so `%2e%2e` is caught too.
 */
export function toBuildPath(urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return null;
  const segments = decoded.split("/").filter((s) => s !== "");
  if (segments.some((s) => s.startsWith("."))) return null;
  return segments.join("/");
}

/** The file's bytes, or null when there is no such file (or it is a folder). */
export async function readBuildFile(root: string, path: string): Promise<Buffer | null> {
  try {
    return await readFile(join(root, path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR" || code === "ENAMETOOLONG") return null;
    throw error;
  }
}


/** A file served at its own path: type by extension. */
export function sendFile(request: Request, path: string, body: Buffer): Response {
  return sendBody(request, body, {
    type: getContentType(path),
    cacheControl: NO_CACHE.has(path) ? CACHE_CONTROL.revalidate : CACHE_CONTROL.public,
    headers: path.startsWith("embed/") ? { "content-security-policy": EMBED_CSP_HEADER } : undefined,
  });
}

/** A route's file: the table's media type and cache policy (a 404 page is not cached). */
export function sendRouteFile(request: Request, route: Route, body: Buffer, status = 200): Response {
  return sendBody(request, body, {
    status,
    type: MEDIA_TYPES[route.media],
    cacheControl: status === 200 ? CACHE_CONTROL[route.cache] : CACHE_CONTROL.none,
    headers: route.id === "getEmbed" ? { "content-security-policy": EMBED_CSP_HEADER } : undefined,
  });
}
