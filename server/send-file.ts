/**
 * Answering a file of the build: the one place that turns a StoredFile into a response.
 *
 * - Headers are made once per file and route kind and kept with the file (a hot file's answer
 *   costs no hashing and no header building); the response is srvx's FastResponse, which h3's
 *   Node adapter writes without going through a WHATWG Response.
 * - `If-None-Match` → 304; HEAD → GET's headers, no body.
 * - `Accept-Encoding` picks the build's precompressed sibling (`.br`, `.gz`) when there is one,
 *   with `Vary: Accept-Encoding` on every answer for such a file, compressed or not; a request
 *   with `Range` always gets parts of the file itself.
 * - `Range` (with `If-Range`) → 206 with one part, or `multipart/byteranges` for several; 416
 *   for a range past the end. Large files are streamed from disk in constant memory.
 * - `Last-Modified` is the snapshot's `as_of` (the data is as of then, whenever it was built).
 */
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { FastResponse } from "srvx";
import { pickEncoding } from "../core/http/accept-encoding.ts";
import type { Encoding } from "../core/routes/variants.ts";
import { MAX_RANGES, formatContentRange, parseRange, type ByteRange } from "../core/http/range.ts";
import type { FileStore, StoredFile } from "./file-store.ts";
import { markKnown, type KnownAnswer } from "./known-answers.ts";
import { PUBLIC_ENTRIES, PUBLIC_HEADERS, markPublicHeaders, matchesEtag, sendProblem, type HeaderReader } from "./respond.ts";

export interface FileAnswer {
  /** Content-Type. */
  type: string;
  cacheControl: string;
  /** `Last-Modified`, an HTTP date. */
  lastModified: string;
  /** More headers (the embeds' CSP, a list page's Link). */
  extra?: Readonly<Record<string, string>>;
  /** 200, or 404 for a not-found page sent as a file. */
  status?: number;
  /** Its headers but the file's own, by encoding and Vary: made once per answer (getAnswerHeaders). */
  headers?: Partial<Record<string, Headers>>;
}

export type Headers = [string, string][];

/**
 * The answer for `file`: synchronous for a file held in memory whose siblings are known (no
 * promise, no header made), a promise when something must be read first. The response is
 * marked as made with the public headers and as the URL's known answer (server/known-answers.ts).
 */
export function sendStoredFile(request: Request, store: FileStore, file: StoredFile, answer: FileAnswer): Response | Promise<Response> {
  const known: KnownAnswer = { kind: "file", path: file.path, answer };
  const response = answerWithFile(request, store, file, answer);
  return response instanceof Promise ? response.then((made) => markKnown(markPublicHeaders(made), known)) : markKnown(markPublicHeaders(response), known);
}

/** sendStoredFile's answer unmarked: for a URL whose answer is known already, nothing needs to learn it again. */
export function answerWithFile(request: Request, store: FileStore, file: StoredFile, answer: FileAnswer): Response | Promise<Response> {
  const plan = planFileAnswer(request.method, request.headers, store, file, answer);
  if (plan instanceof Promise) return plan.then(() => answerWithFile(request, store, file, answer));
  switch (plan.kind) {
    case "reply":
      return fileResponse(plan.body && toBody(plan.body), plan);
    case "stream":
      return store.openStream(plan.file).then((stream) => fileResponse(toBody(stream), plan));
    case "ranges":
      return sendRanges(store, plan.file, plan.headers, plan.ranges, answer.type);
    case "unsatisfiable": {
      const detail = `No range asked for starts within the file's ${plan.file.size} bytes (or more than ${MAX_RANGES} ranges were asked for); Content-Range gives the size.`;
      return sendProblem(request, 416, detail, { headers: { "content-range": formatContentRange(null, plan.file.size), "accept-ranges": "bytes" } });
    }
  }
}

/** An answer made at once: its status, complete headers and the bytes (null: none, for a 304 or HEAD). */
export interface Reply {
  status: number;
  headers: Headers;
  body: Buffer | null;
}

/** How a request for a file is answered, negotiation done; a promise while its siblings are being learnt. */
export type FilePlan =
  | ({ kind: "reply" } & Reply)
  | { kind: "stream"; status: number; headers: Headers; file: StoredFile }
  | { kind: "ranges"; headers: Headers; file: StoredFile; ranges: ByteRange[] }
  | { kind: "unsatisfiable"; file: StoredFile };

/**
 * The negotiation of a file's answer (the rules of this module's header), apart from making the
 * response: the web Request's answer above and the known answers' direct one
 * (server/known-answers.ts) are both made from it.
 */
export function planFileAnswer(
  method: string,
  headers: HeaderReader,
  store: FileStore,
  file: StoredFile,
  answer: FileAnswer,
): FilePlan | Promise<unknown> {
  const status = answer.status ?? 200;
  const encodings = status === 200 ? store.getEncodings(file) : NO_ENCODINGS;
  if (encodings instanceof Promise) return encodings;
  // Ranges are of the file itself, whose size and hash the manifest and the dump index
  // publish, never of a compressed form of it: a resumed download must fit the part it has.
  const rangeHeader = status === 200 ? headers.get("range") : null;
  const encoding = encodings.size > 0 && rangeHeader === null ? pickEncoding(headers.get("accept-encoding"), encodings) : null;
  const chosen = encoding ? encodings.get(encoding)! : file;
  const made = getHeaders(chosen, answer, encoding, encodings.size > 0);
  if (status === 200 && matchesEtag(headers.get("if-none-match"), chosen.etag)) {
    return { kind: "reply", status: 304, headers: made.filter(([name]) => NOT_MODIFIED_HEADERS.has(name)), body: null };
  }
  if (rangeHeader !== null && method !== "HEAD") {
    const range = readRange(headers, rangeHeader, chosen, answer);
    if (range.kind === "unsatisfiable") return { kind: "unsatisfiable", file: chosen };
    if (range.kind === "partial") return { kind: "ranges", headers: made, file: chosen, ranges: range.ranges };
  }
  if (method === "HEAD") return { kind: "reply", status, headers: made, body: null };
  if (chosen.bytes) return { kind: "reply", status, headers: made, body: chosen.bytes };
  return { kind: "stream", status, headers: made, file: chosen };
}

const NO_ENCODINGS: ReadonlyMap<Encoding, StoredFile> = new Map();

const NOT_MODIFIED_HEADERS = new Set(["etag", "cache-control", "vary", "last-modified", "content-location", "link", ...Object.keys(PUBLIC_HEADERS)]);

/**
 * A file's answer headers: the answer's (made once per answer, encoding and Vary, shared by every
 * file it answers with), then the file's own length and ETag (made once per file). Only the
 * array that puts them together is made per request: a header list per held file was half of
 * what a held check file cost in memory.
 */
function getHeaders(file: StoredFile, answer: FileAnswer, encoding: Encoding | null, varies: boolean): Headers {
  const slot = `${encoding ?? "identity"}${varies ? " vary" : ""}`;
  const shared = ((answer.headers ??= {})[slot] ??= makeAnswerHeaders(answer, encoding, varies));
  return [...shared, ...file.ownHeaders];
}

function makeAnswerHeaders(answer: FileAnswer, encoding: Encoding | null, varies: boolean): Headers {
  const headers: Headers = [
    ...PUBLIC_ENTRIES,
    ["content-type", answer.type],
    ["last-modified", answer.lastModified],
    ["cache-control", answer.cacheControl],
    ["accept-ranges", "bytes"],
    ...Object.entries(answer.extra ?? {}),
  ];
  if (encoding) headers.push(["content-encoding", encoding]);
  if (varies) headers.push(["vary", "accept-encoding"]);
  return headers;
}

function readRange(headers: HeaderReader, header: string, file: StoredFile, answer: FileAnswer) {
  // If-Range: the ranges only if the client's copy is this one (a strong ETag, or the date).
  const ifRange = headers.get("if-range");
  if (ifRange && ifRange.trim() !== file.etag && ifRange.trim() !== answer.lastModified) return WHOLE;
  return parseRange(header, file.size);
}

const WHOLE = { kind: "whole" } as const;

async function sendRanges(store: FileStore, file: StoredFile, headers: Headers, ranges: ByteRange[], type: string): Promise<Response> {
  const base = headers.filter(([name]) => name !== "content-length" && name !== "content-type");
  if (ranges.length === 1) {
    const range = ranges[0]!;
    return fileResponse(toBody(file.bytes?.subarray(range.start, range.end + 1) ?? (await store.openStream(file, range))), {
      status: 206,
      headers: [...base, ["content-type", type], ["content-range", formatContentRange(range, file.size)], ["content-length", String(range.end - range.start + 1)]],
    });
  }
  // Several ranges: one multipart/byteranges body (RFC 9110 §14.6), parts in file order.
  const boundary = randomBytes(12).toString("hex");
  const heads = ranges.map((range, i) =>
    Buffer.from(`${i === 0 ? "" : "\r\n"}--${boundary}\r\ncontent-type: ${type}\r\ncontent-range: ${formatContentRange(range, file.size)}\r\n\r\n`),
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = heads.reduce((n, head, i) => n + head.byteLength + ranges[i]!.end - ranges[i]!.start + 1, tail.byteLength);
  async function* parts() {
    for (const [i, range] of ranges.entries()) {
      yield heads[i]!;
      if (file.bytes) yield file.bytes.subarray(range.start, range.end + 1);
      else yield* await store.openStream(file, range);
    }
    yield tail;
  }
  return fileResponse(toBody(Readable.from(parts())), {
    status: 206,
    headers: [...base, ["content-type", `multipart/byteranges; boundary=${boundary}`], ["content-length", String(length)]],
  });
}

/**
 * A Node buffer or stream as a body (the DOM types know neither): srvx's Node adapter pipes it to the socket as it is (with
 * backpressure, destroyed when the client goes away), where a web stream would be converted.
 */
function toBody(body: Readable | Buffer): BodyInit {
  return body as unknown as BodyInit;
}

/** A file's answer, its headers (CORS and nosniff among them) complete as made. */
function fileResponse(body: BodyInit | null, init: { status?: number; headers: Headers }): Response {
  return new FastResponse(body, init);
}
