/**
 * GET /api/changes?since={build}&dataset= — every change since a publish, as one change file
 * (docs/change-feed.md): the change files of the publishes after `since`, merged key by key
 * (core/changes/merge.ts) and streamed as they are read, so an answer spanning a month of
 * publishes costs constant memory. The answer is fixed by `since`, the dataset and the build
 * being served, which its ETag says; `Build-Id` tells the client its next `since`.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { CHANGE_DATASETS, composeChanges, formatChange, parseChange, toChangeHeader, type ChangeDataset } from "../../core/changes/merge.ts";
import { readCsvRecords, readFirstRecord } from "../../core/changes/records.ts";
import { BUILD_ID_PATTERN, type ChangeIndex } from "../../core/routes/changes-schema.ts";
import { getRouteFile } from "../../core/routes/match.ts";
import { CACHE_CONTROL, MEDIA_TYPES } from "../../core/routes/types.ts";
import type { BuildState } from "../dist-source.ts";
import { readBuildFile, readStoredBytes } from "../files.ts";
import { QueryReader } from "../query.ts";
import { matchesEtag, PUBLIC_HEADERS, sendInvalid, sendProblem } from "../respond.ts";
import type { RouteContext } from "./context.ts";

/** What a build's change feed says, read once per build. */
interface ChangeHistory {
  index: ChangeIndex;
  /** Of the index's bytes: a build id can come back with another history (a rollback), its ETag must not. */
  version: string;
  expired: Set<string>;
}

const histories = new WeakMap<BuildState, Promise<ChangeHistory | null>>();
const BUILD_ID = new RegExp(BUILD_ID_PATTERN);
/** Bytes of CSV gathered before they are handed to the client. */
const PIECE_BYTES = 64 * 1024;

export async function listChanges({ request, url, state }: RouteContext): Promise<Response> {
  const query = new QueryReader(url.searchParams);
  const since = query.string("since");
  const dataset = query.oneOf("dataset", CHANGE_DATASETS) ?? "spammers";
  if (since === undefined && query.errors.length === 0) query.errors.push({ name: "since", in: "query", detail: "is required: the build id of the publish whose dump you hold" });
  else if (since !== undefined && !BUILD_ID.test(since)) query.errors.push({ name: "since", in: "query", detail: `must be a build id (16 hex digits, as /dumps/changes/index.json lists them), got ${JSON.stringify(since.slice(0, 80))}` });
  if (query.errors.length > 0) return sendInvalid(request, query.errors);

  const history = await readHistory(state);
  if (!history) return sendProblem(request, 503, `This build has no change feed (${getRouteFile("getChangeIndex")}); rebuild dist with the current version.`);
  const { index } = history;
  const chain = findChain(index, since!);
  const dump = state.urls.dump(`${dataset}-latest.csv`);
  if (chain === null) {
    if (history.expired.has(since!)) {
      return sendProblem(request, 410, `Publish ${since} is older than the retained change files (the oldest retained publish is relative to ${index.publishes.at(-1)?.previous ?? index.build}): start again from the full dump ${dump}, then follow ${state.urls.changeIndex()}.`);
    }
    return sendProblem(request, 404, `No publish ${since} is known here: ${state.urls.changeIndex()} lists the retained publishes; without one, start from the full dump ${dump}.`);
  }
  // Every file the merge will read, there before the first byte is sent (a damaged folder is a 500, not a cut answer).
  const missing = listChangeFiles(state, chain, dataset).find((path) => !existsSync(path));
  if (missing) throw new Error(`the change file ${missing} that the build's change index lists is missing`);
  const etag = `"changes-${since}-${dataset}-${history.version}"`;
  const headers = new Headers({
    ...PUBLIC_HEADERS,
    "content-type": MEDIA_TYPES.csv,
    "cache-control": CACHE_CONTROL.public,
    "last-modified": state.lastModified,
    etag,
    "build-id": index.build,
    // A script of another origin reads them only when they are exposed (neither is CORS-safelisted).
    "access-control-expose-headers": "Build-Id, ETag",
  });
  if (matchesEtag(request.headers.get("if-none-match"), etag)) {
    headers.delete("content-type");
    return new Response(null, { status: 304, headers });
  }
  if (request.method === "HEAD") return new Response(null, { status: 200, headers });
  return new Response(streamText(mergeChanges(state, chain, dataset)), { status: 200, headers });
}

/**
 * The publishes after `since`, oldest first (their change files in the order they apply), [] when
 * `since` is the current publish, null when it is not a publish the retained ones start from.
 */
function findChain(index: ChangeIndex, since: string): ChangeIndex["publishes"] | null {
  if (since === index.build) return [];
  const chain: ChangeIndex["publishes"] = [];
  for (const publish of index.publishes) {
    chain.push(publish);
    if (publish.previous === since) return chain.reverse();
  }
  return null;
}

/** The merged change file: the header, then the changes of every file of the chain as one. */
function* mergeChanges(state: BuildState, chain: ChangeIndex["publishes"], dataset: ChangeDataset): Generator<string> {
  const dumpHeader = readFirstRecord(readFileChunks(join(state.root, getRouteFile("getDumpCsv", { name: `${dataset}-latest` }))));
  if (!dumpHeader) throw new Error(`the build's ${dataset} dump is empty`);
  yield toChangeHeader(dumpHeader.text);
  const columns = countCells(dumpHeader.text);
  const files = listChangeFiles(state, chain, dataset).map(readChangeRows);
  for (const change of composeChanges(files, dataset, columns)) yield formatChange(change);
}

/** The chain's change files of the dataset, oldest first, as paths in the build. */
function listChangeFiles(state: BuildState, chain: ChangeIndex["publishes"], dataset: ChangeDataset): string[] {
  return chain.map((publish) => {
    const name = publish.files.find((file) => file.dataset === dataset && file.name.endsWith(".csv"))?.name;
    if (!name) throw new Error(`publish ${publish.build} lists no ${dataset} change file`);
    return join(state.root, getRouteFile("getChangeFile", { name: name.slice(0, -".csv".length) }));
  });
}

function* readChangeRows(path: string) {
  let header = true;
  for (const row of readCsvRecords(readFileChunks(path))) {
    if (header) header = false;
    else yield parseChange(row);
  }
}

/** Cells of a header row (its names are plain words: no quotes, no commas inside). */
const countCells = (header: string) => header.split(",").length;

/** Text pieces as a byte stream, gathered into pieces of about PIECE_BYTES, made as the client reads. */
function streamText(pieces: Iterator<string>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let text = "";
      for (let step = pieces.next(); ; step = pieces.next()) {
        if (step.done) {
          if (text) controller.enqueue(Buffer.from(text));
          controller.close();
          return;
        }
        text += step.value;
        if (text.length >= PIECE_BYTES) break;
      }
      controller.enqueue(Buffer.from(text));
    },
    cancel() {
      pieces.return?.(undefined);
    },
  });
}

function readHistory(state: BuildState): Promise<ChangeHistory | null> {
  let history = histories.get(state);
  if (!history) {
    history = loadHistory(state);
    histories.set(state, history);
  }
  return history;
}

async function loadHistory(state: BuildState): Promise<ChangeHistory | null> {
  const read = async (path: string): Promise<Buffer | null> => {
    const file = await readBuildFile(state, path);
    return file && (await readStoredBytes(state, file));
  };
  const index = await read(getRouteFile("getChangeIndex"));
  if (!index) return null;
  const expired = await read(getRouteFile("getChangeExpired"));
  return {
    index: JSON.parse(index.toString("utf8")) as ChangeIndex,
    version: createHash("sha256").update(index).digest("base64url").slice(0, 16),
    expired: new Set(expired ? (JSON.parse(expired.toString("utf8")) as { builds: string[] }).builds : []),
  };
}

/** A file's bytes in 64 KiB pieces, read as the merge needs them (one buffer per file merged). */
function* readFileChunks(path: string): Generator<Uint8Array> {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) yield buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
