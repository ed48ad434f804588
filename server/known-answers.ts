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
import { LRUCache } from "lru-cache";
import type { BuildState } from "./dist-source.ts";
import { answerPrepared, sendPrepared, type PreparedAnswer } from "./respond.ts";
import { answerWithFile, type FileAnswer } from "./send-file.ts";

export type KnownAnswer =
  /** A file of the build (`path`), answered with `answer`'s headers. */
  | { kind: "file"; path: string; answer: FileAnswer }
  /** A computed answer kept in the build's answer cache under `key`. */
  | { kind: "computed"; key: string };

/** URLs remembered per build. An entry costs about 150 bytes with its key: at most ~10 MiB. */
const MAX_KNOWN_URLS = 65_536;

/** Longer URLs are answered but not remembered (a key is kept whole). */
const MAX_KNOWN_URL_LENGTH = 512;

export function createKnownAnswers(): LRUCache<string, KnownAnswer> {
  return new LRUCache<string, KnownAnswer>({ max: MAX_KNOWN_URLS });
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
