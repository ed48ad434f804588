/**
 * Listening: the h3 app through h3's Node handler, on a Node HTTP server made here with the
 * timeouts of server/timeouts.ts, its transport errors answered as problem+json
 * (server/transport-errors.ts), and its connections tracked so that closing drains them
 * (server/connections.ts). Port 0 is any free port the OS has; any other port is that port or an
 * error, never another.
 *
 * The server is Node's own rather than listhen's: listhen makes it with no options (so Node's
 * timers would be checked every 30 s), and its close resets idle keep-alive connections.
 */
import { createServer, ServerResponse, STATUS_CODES, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { toNodeHandler } from "h3/node";
import { createServerApp, type AppOptions } from "./app.ts";
import { connectRedisStore } from "./redis-store.ts";
import { trackConnections, type DrainReport } from "./connections.ts";
import { DEFAULT_TIMEOUTS, getNodeServerOptions, limitBodyTime, type ServerTimeouts } from "./timeouts.ts";
import { answerClientError, answerConnect, answerExpectation, refuseMissingHost } from "./transport-errors.ts";

export type { DrainReport, ServerTimeouts };

export interface ServerOptions extends Omit<AppOptions, "redis"> {
  /** 0: any free port. Any other port is that port, or an error when it is taken. */
  port: number;
  host: string;
  /** Redis for the limits and the match cache (`redis://…`), connected here and closed with the server. */
  redisUrl?: string;
  /** Each one defaults to DEFAULT_TIMEOUTS (DESIGN "More than one server"). */
  timeouts?: Partial<ServerTimeouts>;
}

export interface RunningServer {
  url: string;
  /**
   * Stops accepting and drains: in-flight requests are answered with `Connection: close`, idle
   * connections end cleanly, and whatever is still open after the drain timeout is destroyed.
   * Calling it again returns the same drain.
   */
  close(): Promise<DrainReport>;
}

/**
 * Node's response, with the standard reason phrase when the answer gives none. A web Response
 * made with a status alone has an empty statusText, which h3's Node handler passes on as the
 * reason: `HTTP/1.1 422 ` is valid HTTP, but a client that shows `statusText` (fetch, Python's
 * `reason`) shows nothing. nginx sends `422 Unprocessable Entity`; so does this server.
 */
class ReasonedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override writeHead(statusCode: number, reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[], headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this {
    if (reason === "" || reason === undefined) return super.writeHead(statusCode, STATUS_CODES[statusCode] ?? "", headers);
    if (typeof reason === "string") return super.writeHead(statusCode, reason, headers);
    return super.writeHead(statusCode, STATUS_CODES[statusCode] ?? "", reason);
  }
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const redis = options.redisUrl ? await connectRedisStore(options.redisUrl) : undefined;
  const { app, answerKnownDirectly } = createServerApp({ ...options, redis });
  const handle = toNodeHandler(app);
  const server = createServer({ ...getNodeServerOptions(timeouts), ServerResponse: ReasonedResponse }, (request, response) => {
    if (refuseMissingHost(request, response)) return;
    if (answerKnownDirectly(request, response)) return;
    limitBodyTime(request, response, timeouts.bodyMs);
    void handle(request, response);
  });
  const connections = trackConnections(server);
  // Node's types say Duplex; an HTTP server's connections are sockets.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket, connections.getResponseState(socket)));
  server.on("checkExpectation", answerExpectation);
  server.on("connect", answerConnect);
  await listenOn(server, options.port, options.host).catch((error: unknown) => {
    redis?.close();
    throw error;
  });
  let closing: Promise<DrainReport> | null = null;
  const close = async () => {
    const report = await connections.drain({ timeoutMs: timeouts.drainMs });
    redis?.close();
    return report;
  };
  return {
    url: formatServerUrl(options.host, (server.address() as AddressInfo).port),
    close: () => (closing ??= close()),
  };
}

function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** The server's URL: an IPv6 address in brackets, and no port where the scheme implies it. */
function formatServerUrl(host: string, port: number): string {
  return new URL(`http://${host.includes(":") ? `[${host}]` : host}:${port}/`).href;
}
