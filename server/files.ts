/**
 * Serving files of the current build: content types by extension, cache policy by path, and a
 * path check so that no request can leave the build folder.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { EMBED_CSP_HEADER } from "../core/embed-policy.ts";
import { FIVE_MINUTES, sendBody } from "./respond.ts";

const TYPES: Record<string, string> = {
  json: "application/json; charset=utf-8",
  svg: "image/svg+xml; charset=utf-8",
  html: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  xml: "application/xml; charset=utf-8",
  rss: "application/rss+xml; charset=utf-8",
  atom: "application/atom+xml; charset=utf-8",
  gz: "application/gzip",
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


export function sendFile(request: Request, path: string, body: Buffer, headers?: Record<string, string>, status?: number): Response {
  return sendBody(request, body, {
    status,
    type: getContentType(path),
    cacheControl: status === 404 ? "no-store" : NO_CACHE.has(path) ? "no-cache" : FIVE_MINUTES,
    headers: path.startsWith("embed/") ? { ...headers, "content-security-policy": EMBED_CSP_HEADER } : headers,
  });
}

/**
 * Looks a URL path up the way a static host configured per the README does:
 * the exact file, else `<path>.json`, else `<path>.html`, else `<path>/index.html`. Pages are
 * `<path>.html` files rather than folders: a folder per page doubled the build's file-system work.
 */
export async function findStaticFile(root: string, urlPath: string): Promise<{ path: string; body: Buffer } | null> {
  const path = toBuildPath(urlPath);
  if (path === null) return null;
  const candidates = path === "" ? ["index.html"] : [path, `${path}.json`, `${path}.html`, `${path}/index.html`];
  for (const candidate of candidates) {
    const body = await readBuildFile(root, candidate);
    if (body) return { path: candidate, body };
  }
  return null;
}
