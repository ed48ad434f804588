/**
 * Building responses. Every body read with GET or HEAD gets a strong ETag from its bytes (so
 * 304s work the same for files and computed answers), every answer CORS and
 * `X-Content-Type-Options: nosniff`, and HEAD gets headers only. Errors that the reference does not shape are RFC 9457
 * problem+json (DESIGN "Errors").
 */
import { createHash } from "node:crypto";
import { FastResponse } from "srvx";

import type { FieldError } from "../core/routes/schemas.ts";
import { NOT_FOUND_DETAIL, formatProblem } from "../core/routes/problem.ts";
import { CACHE_CONTROL, MEDIA_TYPES } from "../core/routes/types.ts";

export type { FieldError };
export const FIVE_MINUTES = CACHE_CONTROL.public;

export interface BodyOptions {
  status?: number;
  type: string;
  cacheControl?: string;
  headers?: HeadersInit;
}

export function getStrongEtag(body: Uint8Array): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/ prefixes are ignored. */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * A computed answer: its headers made as a list and sent as srvx's FastResponse, as a file's are
 * (server/send-file.ts), which h3's Node adapter writes without a WHATWG Headers and Response
 * (making those was a tenth of what a global search's answer cost the server).
 */
export function sendBody(request: Request, body: Uint8Array | string, options: BodyOptions): Response {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const status = options.status ?? 200;
  const headers: [string, string][] = [...PUBLIC_ENTRIES, ["content-type", options.type]];
  if (options.cacheControl) headers.push(["cache-control", options.cacheControl]);
  // ETags serve conditional reads; the answer to a POST is not a representation to revalidate.
  if (request.method === "GET" || request.method === "HEAD") {
    const etag = getStrongEtag(bytes);
    headers.push(["etag", etag]);
    if (status === 200 && matchesEtag(request.headers.get("if-none-match"), etag)) {
      return makeResponse(null, 304, headers.filter(([name]) => name !== "content-type"), options.headers);
    }
  }
  headers.push(["content-length", String(bytes.byteLength)]);
  return makeResponse(request.method === "HEAD" ? null : bytes, status, headers, options.headers);
}

/** `headers` (PUBLIC_ENTRIES among them), after those of `extra` that they do not name. */
function makeResponse(body: Uint8Array | null, status: number, headers: [string, string][], extra: HeadersInit | undefined): Response {
  let all = headers;
  if (extra) {
    const named = new Set(headers.map(([name]) => name));
    all = [];
    new Headers(extra).forEach((value, name) => {
      if (!named.has(name)) all.push([name, value]);
    });
    all = all.concat(headers);
  }
  return markPublicHeaders(new FastResponse(body as unknown as BodyInit, { status, headers: all }));
}

/**
 * What every answer gets, files, computed answers and problems alike: CORS for the public API
 * (DESIGN "CORS") and nosniff. Every answer is made with them (an error's problem too, which
 * h3's onError hook answers past any middleware); setPublicHeaders adds them to an answer of a
 * route that lacks them, as a net.
 */
export const PUBLIC_HEADERS = { "access-control-allow-origin": "*", "x-content-type-options": "nosniff" } as const;

export const PUBLIC_ENTRIES: [string, string][] = Object.entries(PUBLIC_HEADERS);

/** Answers made with PUBLIC_HEADERS already in place (files): reading their headers here would rebuild them. */
const HAS_PUBLIC_HEADERS = new WeakSet<object>();

export function markPublicHeaders<T extends object>(response: T): T {
  HAS_PUBLIC_HEADERS.add(response);
  return response;
}

export function setPublicHeaders(response: Response): void {
  if (HAS_PUBLIC_HEADERS.has(response)) return;
  for (const [name, value] of PUBLIC_ENTRIES) response.headers.set(name, value);
}

export function sendJson(request: Request, value: unknown, options: Omit<BodyOptions, "type"> = {}): Response {
  return sendJsonText(request, JSON.stringify(value), options);
}

/** JSON that is already serialised (an answer kept in a cache as text). */
export function sendJsonText(request: Request, json: string, options: Omit<BodyOptions, "type"> = {}): Response {
  return sendBody(request, json, { ...options, type: "application/json; charset=utf-8" });
}


export function sendNotFound(request: Request): Response {
  return sendProblem(request, 404, NOT_FOUND_DETAIL);
}

export function sendProblem(
  request: Request,
  status: number,
  detail: string,
  options: { errors?: FieldError[]; headers?: HeadersInit } = {},
): Response {
  return sendBody(request, formatProblem(status, detail, options.errors ? { errors: options.errors } : {}), {
    status,
    type: MEDIA_TYPES.problem,
    cacheControl: CACHE_CONTROL.none,
    headers: options.headers,
  });
}

/** A problem naming every bad field: 422 by default (DESIGN "Errors"), 413 for a request that asks too much. */
export function sendInvalid(request: Request, errors: FieldError[], status = 422): Response {
  return sendProblem(request, status, errors.map((e) => `${e.name}: ${e.detail}`).join("; "), { errors });
}

/**
 * A permanent redirect to a canonical URL (another spelling of a page's key), without a body.
 * Cached like the route's answers, not for ever: a later build may give a name to another company.
 */
export function sendRedirect(location: string, cacheControl: string): Response {
  return new Response(null, { status: 301, headers: { ...PUBLIC_HEADERS, location, "cache-control": cacheControl, "content-length": "0" } });
}

/**
 * A computed answer kept for the build's life (a list page: the same query gives the same bytes
 * until the next build): its body, ETag and headers made once, sent like a held file.
 */
export interface PreparedAnswer {
  body: Buffer;
  etag: string;
  headers: [string, string][];
}

export function prepareJson(json: string, options: { cacheControl: string; headers?: Record<string, string> }): PreparedAnswer {
  const body = Buffer.from(json);
  const etag = getStrongEtag(body);
  const headers: [string, string][] = [
    ...PUBLIC_ENTRIES,
    ["content-type", "application/json; charset=utf-8"],
    ["content-length", String(body.byteLength)],
    ["etag", etag],
    ["cache-control", options.cacheControl],
    ...Object.entries(options.headers ?? {}),
  ];
  return { body, etag, headers };
}

export function sendPrepared(request: Request, answer: PreparedAnswer): Response {
  return markPublicHeaders(answerPrepared(request, answer));
}

/** sendPrepared's answer unmarked (server/known-answers.ts). */
export function answerPrepared(request: Request, answer: PreparedAnswer): Response {
  const { status, headers, body } = planPrepared(request.method, request.headers, answer);
  return new FastResponse(body as unknown as BodyInit, { status, headers });
}

/** A request's headers as the answer functions read them: a web Request's, or Node's through an adapter. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** A prepared answer's status, headers and body for a request (304 on a matching ETag, no body for HEAD). */
export function planPrepared(method: string, headers: HeaderReader, answer: PreparedAnswer): { status: number; headers: [string, string][]; body: Buffer | null } {
  if (matchesEtag(headers.get("if-none-match"), answer.etag)) {
    const kept = answer.headers.filter(([name]) => name !== "content-type" && name !== "content-length");
    return { status: 304, headers: kept, body: null };
  }
  return { status: 200, headers: answer.headers, body: method === "HEAD" ? null : answer.body };
}
