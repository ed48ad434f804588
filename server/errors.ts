/**
 * The server's one error type is h3's HTTPError. The middleware refuses a request by throwing one
 * with a status (400 for a path that does not decode, 405, 429); anything else that is thrown is a
 * fault (500). One handler, run by h3's onError middleware, answers both as our RFC 9457
 * problem+json (DESIGN "Errors"), built like every other problem of ours (server/respond.ts), so
 * the bytes are the same whichever side refused.
 *
 * A route's own documented answers (its 404, 422, 503…) are answers, returned by its handler.
 */
import { HTTPError, type H3Event } from "h3";
import { sendProblem } from "./respond.ts";

/** What the client is told about a fault; the fault itself goes to the log only. */
export const FAULT_DETAIL = "The server failed to answer; the error was logged.";

/** A refusal to throw: `detail` is the problem's detail, `headers` go out with it (Allow, Retry-After). */
export function createProblemError(status: number, detail: string, headers?: Record<string, string>): HTTPError {
  return new HTTPError(detail, { status, headers });
}

/**
 * The onError hook. h3 hands over every error as an HTTPError; one it did not get as such (an
 * exception of ours) is marked unhandled, and keeps the original as its cause.
 */
export function sendErrorProblem(error: HTTPError, event: H3Event): Response {
  if (error.unhandled) {
    console.error(error.cause);
    return sendProblem(event.req, 500, FAULT_DETAIL);
  }
  return sendProblem(event.req, error.status, error.message, { headers: error.headers });
}
