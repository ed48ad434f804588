import type { Urls } from "../core/urls.ts";
import type { ExampleCollector } from "./examples.ts";
import type { Model } from "./model/types.ts";
import { UNCHANGED, type OutputFile } from "./writer/index.ts";

/** The current build's folder and the state's records of its dump files (unchecked: the dump's compression thread checks them). */
export interface KeptDumps {
  dir: string;
  files: unknown;
}

/**
 * What every emitter gets: the finished model, the URL builder for the deployment's base URL,
 * and the build's real examples (kept from the files earlier emitters wrote; only the docs
 * emitter reads them).
 */
export interface EmitContext {
  model: Model;
  urls: Urls;
  examples: ExampleCollector;
  /** Page files written of each spammer list (`--list-pages`): deeper pages are the live server's. */
  listPages: number;
  /**
   * Whether an emitter may hand the writer UNCHANGED (writer/output.ts) for a file the model says
   * has the current build's bytes (SpammerTable.unchanged): an incremental build's writer, which
   * keeps or links that build's file. A file the examples show is always made (ExampleCollector.wants).
   */
  unchanged: boolean;
  /** An incremental build's: the current build's dump files, whose gzip members the dump takes where its batches are unchanged. */
  keptDumps?: KeptDumps | null;
}

/**
 * The file at `path`: UNCHANGED when the model says its bytes are the current build's (`same`) and
 * the writer takes that (EmitContext.unchanged), unless the examples show it; else made by `make`.
 */
export function makeUnlessUnchanged(ctx: EmitContext, same: boolean, path: string, make: () => OutputFile["data"]): OutputFile {
  return { path, data: same && ctx.unchanged && !ctx.examples.wants(path) ? UNCHANGED : make() };
}

/** Compact JSON: the files are served as they are, so no whitespace goes over the wire. */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}
