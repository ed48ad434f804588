/**
 * What each URL answered, kept for the build's life. Every GET answer of this server is a
 * function of the build and the URL (path and query) alone — negotiation aside (HEAD,
 * If-None-Match, Range, Accept-Encoding), which the send functions do per request. So the work
 * between a URL and its bytes (the table's route match, decoding the parameters, a lookup of
 * another spelling, the file's name, the query's checks) is done once per build: the first answer
 * says where its bytes live — a file of the build with a route's headers, or a computed answer
 * the build keeps — and later requests for that URL go there at once (server/app.ts).
 *
 * An entry is a pointer, not the bytes: those stay where they are budgeted (the file store, the
 * answer cache), and a pointer whose target was evicted is a miss that the route answers again.
 * Only answers that the send functions mark are kept (files and kept computed answers); problems,
 * redirects and answers that depend on a body are not, and always go through their route.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BuildState } from "./dist-source.ts";
import { GenerationCache } from "./generation-cache.ts";
import { answerPrepared, planPrepared, sendPrepared, type HeaderReader, type PreparedAnswer } from "./respond.ts";
import { pumpFile } from "./pump-file.ts";
import { answerWithFile, planFileAnswer, type FileAnswer, type Reply } from "./send-file.ts";

export type KnownAnswer =
  /** A file of the build (`path`), answered with `answer`'s headers. */
  | { kind: "file"; path: string; answer: FileAnswer }
  /** A computed answer kept in the build's answer cache under `key`. */
  | { kind: "computed"; key: string };

/** URLs remembered per build. An entry costs about 150 bytes with its key: at most ~10 MiB. */
const MAX_KNOWN_URLS = 65_536;

/** Longer URLs are answered but not remembered (a key is kept whole). */
const MAX_KNOWN_URL_LENGTH = 512;

export function createKnownAnswers(): GenerationCache<KnownAnswer> {
  return new GenerationCache<KnownAnswer>({ maxSize: MAX_KNOWN_URLS });
}

/** The key of a request's URL: its path as h3 canonicalised it, and its query as sent. Null: not to be kept. */
export function getKnownKey(url: { pathname: string; search: string }): string | null {
  const key = url.search === "" ? url.pathname : url.pathname + url.search;
  return key.length <= MAX_KNOWN_URL_LENGTH ? key : null;
}

/** The answer a response was made from, for responses made by the send functions. */
const MADE_FROM = new WeakMap<Response, KnownAnswer>();

/** Marks `response` as the answer `known` (whatever this request negotiated of it); returns it. */
export function markKnown(response: Response, known: KnownAnswer): Response {
  MADE_FROM.set(response, known);
  return response;
}

export function getKnownAnswer(response: Response): KnownAnswer | undefined {
  return MADE_FROM.get(response);
}

/**
 * A computed answer that stays the same until the next build (a page of a list), kept in the
 * build's answer cache under `key`: made by `prepare` the first time.
 */
export async function sendKeptAnswer(request: Request, state: BuildState, key: string, prepare: () => PreparedAnswer | Promise<PreparedAnswer>): Promise<Response> {
  let prepared = state.answers.get(key);
  if (!prepared) {
    prepared = await prepare();
    state.answers.set(key, prepared);
  }
  return markKnown(sendPrepared(request, prepared), { kind: "computed", key });
}

/**
 * The answer to a request for a URL whose answer is known, made from where its bytes are; null
 * when they cannot be had at once (a large file evicted since), for the route to answer again.
 */
export function answerKnown(request: Request, state: BuildState, known: KnownAnswer): Response | Promise<Response> | null {
  if (known.kind === "computed") {
    const prepared = state.answers.get(known.key);
    return prepared ? answerPrepared(request, prepared) : null;
  }
  const file = state.files.get(known.path);
  return file === null || file instanceof Promise ? null : answerWithFile(request, state.files, file, known.answer);
}

/**
 * The key of a Node request's URL, when it is the key the app would make of it (getKnownKey):
 * a path without `%` is taken as it is sent (h3 rewrites only percent-encoded paths), and the
 * query always is. Null for any other, which the app answers.
 */
export function getRawKnownKey(url: string | undefined): string | null {
  if (url === undefined || url.charCodeAt(0) !== 47 /* / */ || url.length > MAX_KNOWN_URL_LENGTH) return null;
  const query = url.indexOf("?");
  const percent = url.indexOf("%");
  return percent !== -1 && (query === -1 || percent < query) ? null : url;
}

/**
 * A known answer written straight to Node's response, without the app: the request's URL was
 * answered before, so everything the app would do for it (decoding, the route, the file's name)
 * is done, and what is left is negotiation and the bytes (the same functions as the app's
 * answer). Made at once from bytes in memory, or a whole large file pumped from disk
 * (server/pump-file.ts); false, with nothing written, for anything else (a file evicted, a
 * range, a file that will not open), which the app then answers.
 */
export function writeKnownAnswer(request: IncomingMessage, response: ServerResponse, state: BuildState, known: KnownAnswer): boolean {
  const headers: HeaderReader = { get: (name) => (request.headers[name] as string | undefined) ?? null };
  const method = request.method!;
  let reply: Reply;
  if (known.kind === "computed") {
    const prepared = state.answers.get(known.key);
    if (!prepared) return false;
    reply = planPrepared(method, headers, prepared);
  } else {
    const file = state.files.get(known.path);
    if (file === null || file instanceof Promise) return false;
    const plan = planFileAnswer(method, headers, state.files, file, known.answer);
    if (plan instanceof Promise) return false;
    if (plan.kind === "stream") {
      const fd = state.files.openSync(plan.file);
      if (fd === null) return false;
      response.writeHead(plan.status, flattenHeaders(plan.headers));
      pumpFile(fd, 0, plan.file.size, response);
      return true;
    }
    if (plan.kind !== "reply") return false;
    reply = plan;
  }
  response.writeHead(reply.status, flattenHeaders(reply.headers));
  response.end(reply.body ?? undefined);
  return true;
}

/**
 * Name, value, name, value: the one form of a header list Node takes whatever else was set (the
 * drain's Connection: close). A loop: Array.prototype.flat took a microsecond a call, a fifth of
 * what the rest of such an answer costs.
 */
function flattenHeaders(headers: readonly (readonly [string, string])[]): string[] {
  const flat = new Array<string>(headers.length * 2);
  for (let i = 0; i < headers.length; i++) {
    flat[2 * i] = headers[i]![0];
    flat[2 * i + 1] = headers[i]![1];
  }
  return flat;
}
