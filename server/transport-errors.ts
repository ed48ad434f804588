/**
 * The answers Node's HTTP layer gives before a request reaches h3, made our problem+json with
 * CORS and nosniff like every other error (DESIGN "Errors"). Left to itself, Node answers these
 * with a bare status line and no body, or not at all:
 *  - its parser refuses a message it cannot read (`clientError`): 400 for a bad request line,
 *    header or framing (and bytes that are not ASCII in the target), 431 for headers over its
 *    16 KiB limit, 413 for an oversized chunk extension, 408 when a timeout of ours ends it;
 *  - an HTTP/1.1 request without Host is a 400 (RFC 9112 §3.2), written by Node itself unless
 *    the server takes it over (`requireHostHeader: false`, then checked here);
 *  - an `Expect` other than 100-continue is a 417 (`checkExpectation`);
 *  - CONNECT has its socket destroyed without a word (`connect`): here it is a 405.
 * The problems are constants (core/routes/problem.ts), so every route documents them alike.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { formatProblem, getProblemTitle, TRANSPORT_PROBLEMS } from "../core/routes/problem.ts";
import { CACHE_CONTROL, MEDIA_TYPES } from "../core/routes/types.ts";
import type { ResponseState } from "./connections.ts";
import { PUBLIC_HEADERS } from "./respond.ts";

export interface TransportProblem {
  status: number;
  detail: string;
}

/** Node's parser error codes, by the problem each one is; any other is a malformed message. */
const BY_CODE: Record<string, TransportProblem> = {
  HPE_HEADER_OVERFLOW: TRANSPORT_PROBLEMS.headersTooLarge,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: TRANSPORT_PROBLEMS.chunkTooLarge,
};

function getProblemHeaders(body: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    "content-type": MEDIA_TYPES.problem,
    "content-length": String(Buffer.byteLength(body)),
    "cache-control": CACHE_CONTROL.none,
    ...PUBLIC_HEADERS,
    ...extra,
    // The message could not be read, or was refused whole: nothing after it on the connection can be trusted.
    connection: "close",
  };
}

/**
 * The problem as a whole HTTP/1.1 message, written on the socket, which then closes: there is no
 * response object when the parser itself failed. The method is unknown, so the body always goes.
 */
export function writeRawProblem(socket: Duplex, problem: TransportProblem, extra?: Record<string, string>): void {
  const body = formatProblem(problem.status, problem.detail);
  const head = Object.entries(getProblemHeaders(body, extra)).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${problem.status} ${getProblemTitle(problem.status)}\r\n${head.join("")}\r\n${body}`, () => socket.destroy());
}

/** The problem through a response object (the request was read): a HEAD gets the head only. */
export function writeProblem(request: IncomingMessage, response: ServerResponse, problem: TransportProblem): void {
  const body = formatProblem(problem.status, problem.detail);
  response.writeHead(problem.status, getProblemHeaders(body));
  response.end(request.method === "HEAD" ? undefined : body);
}

/**
 * The `clientError` listener: a parser error, or Node's own timeout (ERR_HTTP_REQUEST_TIMEOUT,
 * for headers; the body has its own timer, server/timeouts.ts). `state` is the socket's
 * (server/connections.ts): once an answer has begun nothing more can be written, the check
 * Node's own handler makes too.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket, state: ResponseState): void {
  if (error.code === "ECONNRESET" || !socket.writable || socket.writableEnded || state === "started") {
    if (!socket.writableEnded) socket.destroy();
    return;
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    // A connection that never sent a byte is not waiting for an answer (a browser's preconnect):
    // it is closed without one, as Apache does.
    if (socket.bytesRead === 0 && state === "none") return void socket.destroy();
    return writeRawProblem(socket, state === "pending" ? TRANSPORT_PROBLEMS.bodyTimeout : TRANSPORT_PROBLEMS.headersTimeout);
  }
  writeRawProblem(socket, BY_CODE[error.code ?? ""] ?? TRANSPORT_PROBLEMS.malformed);
}

/** `checkExpectation`: only 100-continue is met (Node answers it itself). */
export function answerExpectation(request: IncomingMessage, response: ServerResponse): void {
  writeProblem(request, response, TRANSPORT_PROBLEMS.expectation);
}

/** `connect`: this server is no proxy. The same 405 as any other method a route does not answer. */
export function answerConnect(_request: IncomingMessage, socket: Duplex): void {
  writeRawProblem(socket, { status: 405, detail: "CONNECT is not allowed here; use GET or HEAD." }, { allow: "GET, HEAD, OPTIONS" });
}

/** RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400. True when it answered. */
export function refuseMissingHost(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.httpVersion !== "1.1" || request.headers.host !== undefined) return false;
  writeProblem(request, response, TRANSPORT_PROBLEMS.noHost);
  return true;
}
