/**
 * RFC 9457 problem bodies, shared by the live server and the generated static-host rules so both
 * send the same bytes for the same problem (DESIGN "Errors").
 */
import type { FieldError, Problem } from "./schemas.ts";
import type { Route } from "./types.ts";

const TITLES: Record<number, string> = {
  400: "Bad Request",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  417: "Expectation Failed",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
};

/** "Nothing here" is constant (it does not echo the path), so a static host answers the same bytes. */
export const NOT_FOUND_DETAIL = "Nothing is published at this address.";

/** A path whose percent-encoding does not decode: the same 400 from the live server and nginx. */
export const BAD_ENCODING_DETAIL = "The percent-encoding of the URL is malformed.";

/**
 * What the server answers before a request reaches a route: Node's HTTP parser refuses a message
 * it cannot read, and the server's timeouts (DESIGN "More than one server") end slow ones. These
 * are the same whatever the URL, so they are constants, and every route documents them.
 */
export const TRANSPORT_PROBLEMS = {
  malformed: { status: 400, detail: "The request is not a well-formed HTTP/1.1 message." },
  noHost: { status: 400, detail: "An HTTP/1.1 request needs a Host header." },
  headersTimeout: { status: 408, detail: "The request headers did not arrive in time." },
  bodyTimeout: { status: 408, detail: "The request body did not arrive in time." },
  bodyAborted: { status: 400, detail: "The request body could not be read to its end." },
  chunkTooLarge: { status: 413, detail: "A chunk extension of the request body is too large." },
  expectation: { status: 417, detail: "The only expectation this server meets is `Expect: 100-continue`." },
  headersTooLarge: { status: 431, detail: "The request headers are too large." },
} as const;

/** The status's reason phrase, the problem's `title`. */
export function getProblemTitle(status: number): string {
  return TITLES[status] ?? "Error";
}

export function formatProblem(status: number, detail: string, extra: { errors?: FieldError[]; live_route?: string } = {}): string {
  const body: Problem = { type: "about:blank", title: getProblemTitle(status), status, detail, ...extra };
  return JSON.stringify(body);
}

/** A static host's answer to a request only the live server can answer (501, naming the route). */
export function formatCannotAnswer(route: Route): string {
  const live = `${route.method} ${route.path}`;
  return formatProblem(501, `A static host cannot answer this request; the live server answers it at ${live}.`, { live_route: live });
}

/** Whether a parsed JSON body is an object (not null, not an array): what every POST body must be. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What a JSON value is, for a problem naming a bad field ("must be a string, not a number"). */
export function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
