/**
 * Serving files of the current build: content types by extension, cache policy by path, and a
 * path check so that no request can leave the build folder.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { EMBED_CSP_HEADER } from "../core/embed-policy.ts";
import { ROUTES } from "../core/routes/table.ts";
import { CACHE_CONTROL, MEDIA_TYPES, type Route } from "../core/routes/types.ts";
import { VARIANT_SUFFIX } from "../core/routes/variants.ts";
import type { BuildState } from "./dist-source.ts";
import type { StoredFile } from "./file-store.ts";
import { markPublicHeaders } from "./respond.ts";
import { answerWithFile, sendStoredFile, type FileAnswer } from "./send-file.ts";

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

/**
 * The files that describe the build (the manifest, the build report, the OpenAPI document) and
 * their precompressed siblings: revalidated, as their routes are, when asked at their own path.
 */
const NO_CACHE = new Set(
  (ROUTES as readonly Route[]).flatMap((route) => (route.file !== null && route.cache === "revalidate" ? [route.file, ...Object.values(VARIANT_SUFFIX).map((suffix) => `${route.file}${suffix}`)] : [])),
);

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

/** The build's file at `path` (a checked path inside it), or null when there is none. */
export function readBuildFile(state: BuildState, path: string): StoredFile | null | Promise<StoredFile | null> {
  return state.files.get(path);
}

/** A file's bytes: held ones as they are, a large one read from disk. */
export async function readStoredBytes(state: BuildState, file: StoredFile): Promise<Buffer> {
  return file.bytes ?? (await readFile(join(state.root, file.path)));
}

/** A file served at its own path: type by extension. */
export function sendFile(request: Request, state: BuildState, file: StoredFile): Response | Promise<Response> {
  const type = getContentType(file.path);
  const cache = NO_CACHE.has(file.path) ? "revalidate" : "public";
  const embed = file.path.startsWith("embed/");
  return sendStoredFile(request, state.files, file, getFileAnswer(state, `${type} ${cache} ${embed}`, () => ({
    type,
    cacheControl: CACHE_CONTROL[cache],
    lastModified: state.lastModified,
    extra: embed ? EMBED_HEADERS : undefined,
  })));
}

/** A route's file: the table's media type and cache policy (a 404 page is not cached). */
export function sendRouteFile(request: Request, state: BuildState, route: Route, file: StoredFile, status = 200): Response | Promise<Response> {
  return sendStoredFile(request, state.files, file, getRouteAnswer(state, route, status));
}

/**
 * A route's file answered for this request only, not kept as the URL's answer: one that depends
 * on more than the URL (the HTML 404 page a browser gets where an API client gets the problem).
 */
export function sendRouteFileOnce(request: Request, state: BuildState, route: Route, file: StoredFile, status: number): Response | Promise<Response> {
  const response = answerWithFile(request, state.files, file, getRouteAnswer(state, route, status));
  return response instanceof Promise ? response.then(markPublicHeaders) : markPublicHeaders(response);
}

/** How a route answers with a file of this status, in this build. */
export function getRouteAnswer(state: BuildState, route: Route, status = 200): FileAnswer {
  return getFileAnswer(state, status === 200 ? route.id : `${route.id} ${status}`, () => ({
    status,
    type: MEDIA_TYPES[route.media],
    cacheControl: status === 200 ? CACHE_CONTROL[route.cache] : CACHE_CONTROL.none,
    lastModified: state.lastModified,
    extra: route.id === "getEmbed" ? EMBED_HEADERS : undefined,
  }));
}

/**
 * One answer object per kind of file answer and build: a file's headers are made once per
 * answer (server/send-file.ts), and a URL's known answer points at it (server/known-answers.ts).
 */
function getFileAnswer(state: BuildState, key: string, make: () => FileAnswer): FileAnswer {
  let answer = state.fileAnswers.get(key);
  if (!answer) state.fileAnswers.set(key, (answer = make()));
  return answer;
}

const EMBED_HEADERS = { "content-security-policy": EMBED_CSP_HEADER } as const;
