/**
 * HTTP/1.1 over a bare TCP socket, for what fetch cannot send or cannot show: bytes that are not
 * a valid request, a body sent slowly, several requests on one connection, and how the
 * connection ended (a FIN, or a reset).
 */
import { connect, type Socket } from "node:net";

export interface RawResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

export interface RawConnection {
  write(data: string | Uint8Array): void;
  /** The next whole response on the connection (of a HEAD: `head`); rejects when it closes first. */
  readResponse(options?: { head?: boolean }): Promise<RawResponse>;
  /** How the server ended the connection: "end" is a FIN, "reset" an ECONNRESET. */
  readonly ended: Promise<"end" | "reset">;
  destroy(): void;
}

export async function openRawConnection(baseUrl: string): Promise<RawConnection> {
  const url = new URL(baseUrl);
  const socket: Socket = connect(Number(url.port), url.hostname.replace(/^\[|\]$/g, ""));
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  let buffer = Buffer.alloc(0);
  let wake: (() => void) | null = null;
  let finished = false;
  const ended = new Promise<"end" | "reset">((resolve) => {
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNRESET" ? "reset" : "end"));
    socket.on("close", () => resolve("end"));
  });
  void ended.then(() => {
    finished = true;
    wake?.();
  });
  socket.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    wake?.();
  });

  async function readResponse({ head = false } = {}): Promise<RawResponse> {
    for (;;) {
      const parsed = parseResponse(buffer, finished, head);
      if (parsed) {
        buffer = buffer.subarray(parsed.length);
        return parsed.response;
      }
      if (finished) throw new Error(`the connection closed before a whole response: ${JSON.stringify(buffer.toString("latin1").slice(0, 200))}`);
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  }

  return { write: (data) => void socket.write(data), readResponse, ended, destroy: () => socket.destroy() };
}

/** One request on its own connection: its response (or null when the server closed without one), and how the connection ended. */
export async function sendRaw(baseUrl: string, request: string | Uint8Array): Promise<{ response: RawResponse | null; ended: "end" | "reset" }> {
  const connection = await openRawConnection(baseUrl);
  connection.write(request);
  const response = await connection.readResponse().catch(() => null);
  connection.destroy();
  return { response, ended: await connection.ended };
}

function parseResponse(buffer: Buffer, closed: boolean, head: boolean): { response: RawResponse; length: number } | null {
  const headEnd = buffer.indexOf("\r\n\r\n");
  if (headEnd < 0) return null;
  const [statusLine, ...lines] = buffer.subarray(0, headEnd).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const bodyStart = headEnd + 4;
  const declared = headers["content-length"];
  // 204, 304 and the answer to HEAD have no body; a response without a length runs to the close.
  const length = head || status === 204 || status === 304 ? 0 : declared !== undefined ? Number(declared) : closed ? buffer.length - bodyStart : null;
  if (length === null || buffer.length < bodyStart + length) return null;
  return { response: { status, headers, body: buffer.subarray(bodyStart, bodyStart + length).toString("utf8") }, length: bodyStart + length };
}
