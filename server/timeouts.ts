/**
 * How long a client may take (DESIGN "More than one server"). A server on the open internet meets
 * slow and stalled clients; Node's own defaults (60 s for headers, 300 s for a whole request,
 * checked every 30 s) let one that sends a byte at a time hold a connection for five minutes.
 * The defaults follow Apache's mod_reqtimeout: the headers within 20 s of their first byte, and
 * a declared body within 20 s of the headers; an idle keep-alive connection closes after 5 s;
 * shutdown drains for at most 10 s.
 *
 * Headers and idle keep-alive are Node's own timers. The body has its own timer here, because
 * Node's `requestTimeout` counts headers and body together from the first byte.
 */
import type { IncomingMessage, ServerOptions, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { TRANSPORT_PROBLEMS } from "../core/routes/problem.ts";
import { writeRawProblem } from "./transport-errors.ts";

export interface ServerTimeouts {
  /** The request headers must be complete this long after their first byte (ms). */
  headersMs: number;
  /** A declared body must be complete this long after the headers (ms). */
  bodyMs: number;
  /** An idle keep-alive connection is closed after this long (ms); clients are told so in `Keep-Alive`. */
  keepAliveMs: number;
  /** On SIGTERM/SIGINT, in-flight requests get this long to be answered (ms). */
  drainMs: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = { headersMs: 20_000, bodyMs: 20_000, keepAliveMs: 5_000, drainMs: 10_000 };

/**
 * Node's server options for these timeouts. Node checks its header and request timers every
 * `connectionsCheckingInterval` (30 s by default, so a 20 s limit would mean up to 50 s): here a
 * tenth of the header limit, at most a second.
 */
export function getNodeServerOptions(timeouts: ServerTimeouts): ServerOptions {
  return {
    headersTimeout: timeouts.headersMs,
    // A backstop only: the body timer below ends a slow body first.
    requestTimeout: timeouts.headersMs + timeouts.bodyMs,
    // Node closes 1 s after the advertised `Keep-Alive: timeout`, so that a client that honours it closes first.
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeouts.headersMs / 10))),
    // A missing Host is answered as our problem (server/transport-errors.ts), not Node's bare 400.
    requireHostHeader: false,
  };
}

/**
 * Ends a request whose declared body (Content-Length or chunked) is not complete `bodyMs` after its
 * headers: a 408 problem when its answer has not begun, else the connection is closed (an answer
 * already out, to a client still sending, cannot be followed by another).
 */
export function limitBodyTime(request: IncomingMessage, response: ServerResponse, bodyMs: number): void {
  const declared = request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"] ?? 0) > 0;
  if (!declared || request.complete) return;
  const socket = request.socket as Socket;
  const timer = setTimeout(() => {
    if (request.complete || socket.destroyed) return;
    if (response.headersSent) socket.destroy();
    else writeRawProblem(socket, TRANSPORT_PROBLEMS.bodyTimeout);
  }, bodyMs);
  // A request closes when it is complete or its connection goes.
  request.once("close", () => clearTimeout(timer));
}
