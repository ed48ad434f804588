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
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
};

/** "Nothing here" is constant (it does not echo the path), so a static host answers the same bytes. */
export const NOT_FOUND_DETAIL = "Nothing is published at this address.";

/** A path whose percent-encoding does not decode: the same 400 from the live server and nginx. */
export const BAD_ENCODING_DETAIL = "The percent-encoding of the URL is malformed.";

export function formatProblem(status: number, detail: string, extra: { errors?: FieldError[]; live_route?: string } = {}): string {
  const body: Problem = { type: "about:blank", title: TITLES[status] ?? "Error", status, detail, ...extra };
  return JSON.stringify(body);
}

/** A static host's answer to a request only the live server can answer (501, naming the route). */
export function formatCannotAnswer(route: Route): string {
  const live = `${route.method} ${route.path}`;
  return formatProblem(501, `A static host cannot answer this request; the live server answers it at ${live}.`, { live_route: live });
}
