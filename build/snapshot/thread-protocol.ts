/**
 * What the snapshot's two query threads (group-worker.cjs, query-worker.cjs) and the build's
 * main thread say to each other. Both sides import these types, the workers through JSDoc.
 *
 * Each worker counts its answers in `control[0]` (a SharedArrayBuffer), so the main thread can
 * wait for the next answer without an event loop, then read it with `receiveMessageOnPort`.
 */
import type { MessagePort } from "node:worker_threads";
import type { PagePlan } from "./range-digest.cjs";

/** The username pass's thread: grouped queries stepped batch by batch, on request. */
export interface GroupWorkerData {
  /** The snapshot file; the worker opens its own read-only connection. */
  path: string;
  /** SQL run first (temporary tables). */
  setup: string;
  /** Run once per spelling pair, in one transaction, after the setup. */
  insert: string;
  spellings: [unknown, string][];
  /** Named parameters of every query. */
  params: object;
  queries: string[];
  /** Positions of the text columns in a row; every other column is a number. */
  textColumns: number[];
  batchRows: number;
  port: MessagePort;
  control: SharedArrayBuffer;
}

/** The main thread asks for the next batch of one query. */
export interface GroupRequest {
  stream: number;
}

/**
 * A batch of rows packed by column kind (a tenth of the pass's cloning work, against one array
 * per row): `texts` holds the text columns of every row in order, string or null; `numbers`
 * (a transferred Float64Array) the other columns, with NaN for anything not a number.
 */
export interface GroupBatch {
  stream: number;
  count: number;
  texts: (string | null)[];
  numbers: Float64Array;
  done: boolean;
}

export type GroupAnswer = GroupBatch | { error: string };

/** The aggregates thread: a few queries run whole, their raw rows posted back at once. */
export interface SideQuery {
  name: string;
  sql: string;
  params: object;
}

export interface SideWorkerData {
  path: string;
  queries: SideQuery[];
  port: MessagePort;
  control: SharedArrayBuffer;
}

export type SideAnswer = { results: Record<string, unknown[][]> } | { error: string };

/** The digest worker's task (digest-worker.cjs): the report ranges of ids in [from, to). */
export interface DigestWorkerData {
  path: string;
  columns: readonly string[];
  from: bigint;
  to: bigint;
  /** Which ranges' rows to split as well (range-digest.cjs RowRequest). */
  request: RowRequest;
  /** How to read the table's pages, or null: SQLite writes each range's text (range-digest.cjs). */
  pages: PagePlan | null;
  /** At the lowest CPU priority: digests made while the build does other work (digest.ts). */
  nice: boolean;
  port: MessagePort;
  control: SharedArrayBuffer;
}

export type RowRequest = { mode: "none" } | { mode: "all" } | { mode: "changed"; ranges: Float64Array; digests: Uint8Array };

export interface DigestPart {
  ranges: Float64Array;
  digests: Uint8Array;
  split: Float64Array;
  counts: Uint8Array;
  rows: Uint8Array;
  odd: boolean;
}

export type DigestAnswer = DigestPart | { error: string };
