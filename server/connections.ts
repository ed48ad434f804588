/**
 * The Node server's connections, tracked so that shutdown can drain them (DESIGN "More than one
 * server": on SIGTERM, in-flight requests get at most 10 s). Node's own `server.close()` destroys
 * every connection it sees as idle at once, and a keep-alive request whose bytes are already in
 * the kernel, not yet read, then meets a reset. Draining here instead:
 *  1. stops accepting: the listening socket closes, so a new connection is refused;
 *  2. keeps idle connections open for a moment (a request already on its way is answered), then
 *     ends each with a FIN — never a reset: the socket goes on reading, so a request that crosses
 *     the FIN is read and dropped rather than refused by the kernel, and the client sees a clean close;
 *  3. answers every request in flight, or arriving meanwhile, with `Connection: close`, so that
 *     its connection closes after the answer (Node ends it once the response is written);
 *  4. gives up at the deadline: what is still open is destroyed, and the report counts it.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** How long an ended idle connection may stay half-open for the client to close its side. */
const LINGER_MS = 1000;
/**
 * How long idle keep-alive connections stay open once draining begins. A client cannot see the
 * drain: a request it sent just before (or that crossed the SIGTERM, which npm relays a few ms
 * late) arrives within a round trip, and is better answered than refused. Half a second covers
 * a round trip across the internet, and lengthens a shutdown by at most that.
 */
const IDLE_GRACE_MS = 500;

interface Connection {
  socket: Socket;
  /** Responses not yet finished: more than one when requests are pipelined. */
  responses: Set<ServerResponse>;
  /** `socket.bytesRead` when its last response finished: more since then is a request arriving. */
  bytesAtRest: number;
}

export interface DrainReport {
  /** Requests answered after draining began: in flight then, or arrived on a connection still open. */
  answered: number;
  /** Requests still unanswered (or still arriving) at the deadline, whose connections were destroyed. */
  dropped: number;
}

/**
 * Where a connection is with its requests: none in flight (it may be receiving the next one's
 * head), one whose answer has not begun, or an answer whose head is out (nothing else may be
 * written on the socket then).
 */
export type ResponseState = "none" | "pending" | "started";

export interface ConnectionTracker {
  getResponseState(socket: Socket): ResponseState;
  /** Drains as above; resolves when every request is answered, or at `timeoutMs`. */
  drain(options: { timeoutMs: number }): Promise<DrainReport>;
}

export function trackConnections(server: Server): ConnectionTracker {
  const connections = new Map<Socket, Connection>();
  let draining: { report: DrainReport; settle(): void } | null = null;

  server.on("connection", (socket: Socket) => {
    connections.set(socket, { socket, responses: new Set(), bytesAtRest: 0 });
    socket.once("close", () => {
      connections.delete(socket);
      draining?.settle();
    });
  });
  // Prepended, so that a request arriving while draining is marked before its handler writes a head.
  server.prependListener("request", (request: IncomingMessage, response: ServerResponse) => {
    const connection = connections.get(request.socket);
    if (!connection) return;
    connection.responses.add(response);
    if (draining) response.setHeader("connection", "close");
    if (!request.complete) lingerOnClose(request.socket);
    response.once("close", () => {
      connection.responses.delete(response);
      if (connection.responses.size === 0) connection.bytesAtRest = connection.socket.bytesRead;
      if (!draining) return;
      if (response.writableFinished) draining.report.answered++;
      endIfIdle(connection);
      draining.settle();
    });
  });

  const isIdle = (c: Connection) => c.responses.size === 0 && c.socket.bytesRead === c.bytesAtRest;

  function drain({ timeoutMs }: { timeoutMs: number }): Promise<DrainReport> {
    const report: DrainReport = { answered: 0, dropped: 0 };
    return new Promise((resolve) => {
      let answeredAll = false;
      const deadline = setTimeout(() => {
        for (const connection of connections.values()) {
          if (!isIdle(connection)) report.dropped += Math.max(1, connection.responses.size);
          connection.socket.destroy();
        }
        answeredAll = true;
      }, timeoutMs);
      // Resolved once the ended connections are closed too (each within LINGER_MS), so that a
      // process exiting next resets none of them.
      draining = {
        report,
        settle() {
          if (!answeredAll && [...connections.values()].every(isIdle)) {
            answeredAll = true;
            clearTimeout(deadline);
          }
          if (answeredAll && connections.size === 0) resolve(report);
        },
      };
      // Node's close() would destroy the idle connections at once (the reset above): they are ended here instead.
      server.closeIdleConnections = () => {};
      server.close();
      for (const connection of connections.values()) {
        for (const response of connection.responses) if (!response.headersSent) response.setHeader("connection", "close");
      }
      // Idle connections stay open for IDLE_GRACE_MS, so that a request already sent on one is
      // answered (with Connection: close) rather than crossed by our FIN; then, after one more
      // poll for I/O (what arrived during the timer's turn is read and marked first), they end.
      setTimeout(() =>
        setImmediate(() => {
          for (const connection of connections.values()) endIfIdle(connection);
          draining?.settle();
        }),
      IDLE_GRACE_MS).unref();
    });
  }

  return {
    getResponseState(socket) {
      const responses = [...(connections.get(socket)?.responses ?? [])];
      if (responses.length === 0) return "none";
      return responses.some((r) => r.headersSent) ? "started" : "pending";
    },
    drain,
  };
}

/**
 * A request whose body is still arriving may be answered before it is read (every route but the
 * POST reads none), and Node closes a connection after its last answer with `destroySoon()`:
 * a FIN, then the socket destroyed as soon as the answer is written. Unread bytes then make the
 * kernel send a reset, and a client still sending loses the answer it was sent. So such a socket
 * lingers instead (as nginx's lingering close does): FIN, go on reading, destroy when the client
 * closes or LINGER_MS pass.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/** A FIN on an idle connection; the socket still reads until the client closes, or LINGER_MS pass. */
function endIfIdle(connection: Connection): void {
  const { socket } = connection;
  if (connection.responses.size > 0 || socket.bytesRead !== connection.bytesAtRest || socket.writableEnded) return;
  socket.end();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
