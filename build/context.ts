import type { Urls } from "../core/urls.ts";
import type { ExampleCollector } from "./examples.ts";
import type { Model } from "./model.ts";

/** What every emitter gets: the model, the URL builder for the deployment's base URL, and the build's real examples (for the docs). */
export interface EmitContext {
  model: Model;
  urls: Urls;
  examples: ExampleCollector;
}

/** Compact JSON: the files are served as they are, so no whitespace goes over the wire. */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}
