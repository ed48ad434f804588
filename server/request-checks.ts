/**
 * What a request must pass before its route answers: a path that decodes, and a method the
 * route answers. Every route answers its method (GET also HEAD) and OPTIONS, the CORS preflight
 * (DESIGN "CORS": the POST needs it); any other method is a 405 with `Allow`.
 */
import type { H3Event } from "h3";
import { BAD_ENCODING_DETAIL } from "../core/routes/problem.ts";
import { createProblemError } from "./errors.ts";
import { PUBLIC_HEADERS } from "./respond.ts";
import { getTableMatch } from "./table-match.ts";

/**
 * A path whose percent-encoding does not decode is our problem+json 400, the same bytes a static
 * host sends, not h3's own error body: the app lets such paths through (allowMalformedURL) to here.
 */
export function rejectMalformedPath(event: H3Event): void {
  const pathname = event.url.pathname;
  if (pathname.includes("%") && !isDecodable(pathname)) throw createProblemError(400, BAD_ENCODING_DETAIL);
}

function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

const READ_METHODS = ["GET", "HEAD"];

/** Answers the preflight, refuses a method the route does not answer, and lets the rest through. */
export function checkMethod(event: H3Event): Response | undefined {
  const route = getTableMatch(event)?.route;
  const methods = !route || route.method === "GET" ? READ_METHODS : [route.method];
  const { method } = event.req;
  if (method !== "OPTIONS" && methods.includes(method)) return undefined;
  const allow = [...methods, "OPTIONS"].join(", ");
  if (method === "OPTIONS") {
    return new Response(null, {
      status: 204,
      headers: { ...PUBLIC_HEADERS, allow, "access-control-allow-methods": allow, "access-control-allow-headers": "content-type, if-none-match", "access-control-max-age": "86400" },
    });
  }
  throw createProblemError(405, `${method} is not allowed here; use ${methods.join(" or ")}.`, { allow });
}
