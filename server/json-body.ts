/**
 * Reading a JSON request body within a byte bound. Content-Length is checked first (a declared
 * 1 GB body is refused before a byte of it is read), and the bytes are counted as they arrive
 * too, so a chunked body, which declares no length, cannot get past the bound either.
 *
 * Status codes: 415 when the body is not declared as JSON; 413 when it is too large; 400 when
 * the bytes are not JSON at all (not UTF-8, empty, a syntax error): the request cannot be read,
 * as with any unparsable HTTP message. Well-formed JSON with the wrong content is the caller's
 * 422, with the bad fields named.
 */
import { TRANSPORT_PROBLEMS } from "../core/routes/problem.ts";
import { sendProblem } from "./respond.ts";

export type JsonBody = { ok: true; value: unknown } | { ok: false; response: Response };

/** application/json, alone or with a UTF-8 charset (RFC 8259: JSON between systems is UTF-8). */
export function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  const [type, ...parameters] = header.split(";").map((part) => part.trim().toLowerCase());
  if (type !== "application/json") return false;
  return parameters.every((p) => p === "" || /^charset=(?:"utf-8"|utf-8)$/.test(p));
}

export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  const fail = (status: number, detail: string, headers?: Record<string, string>): JsonBody => ({
    ok: false,
    response: sendProblem(request, status, detail, { headers }),
  });
  if (!isJsonContentType(request.headers.get("content-type"))) {
    return fail(415, "Send the body as JSON, with Content-Type: application/json.", { "accept-post": "application/json" });
  }
  const tooLarge = `The body may be at most ${maxBytes} bytes.`;
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) return fail(413, tooLarge);

  let bytes: Uint8Array | null;
  try {
    bytes = await readAtMost(request, maxBytes);
  } catch {
    // The connection ended mid-body (the client went away, its framing broke, or the body timed
    // out): no fault of ours to log, and the answer most likely reaches no one.
    return fail(TRANSPORT_PROBLEMS.bodyAborted.status, TRANSPORT_PROBLEMS.bodyAborted.detail);
  }
  if (bytes === null) return fail(413, tooLarge);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return fail(400, "The body is not valid UTF-8.");
  }
  if (text.trim() === "") return fail(400, "The body is empty; send a JSON object.");
  try {
    // JSON.parse defines "__proto__" as an ordinary own key; it never sets a prototype.
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return fail(400, "The body is not valid JSON.");
  }
}

/**
 * Past the bound the rest of a body is read and dropped while the 413 goes out, so that the
 * connection stays usable for the client's next request; cancelling the stream instead would
 * close the socket under the answer. A body that goes on past DISCARD_BYTES is cut off.
 */
const DISCARD_BYTES = 1024 * 1024;

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let discarded = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      discarded += value.byteLength;
      if (discarded > DISCARD_BYTES) return void (await reader.cancel());
    }
  } catch {
    // The client went away; there is nothing left to drop.
  }
}

/** The body's bytes, or null as soon as there are more than `maxBytes` of them. */
async function readAtMost(request: Request, maxBytes: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      void discardRest(reader);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
