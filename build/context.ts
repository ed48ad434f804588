import type { Urls } from "../core/urls.ts";
import type { Model } from "./model.ts";

/** What every emitter gets: the model and the URL builder for the deployment's base URL. */
export interface EmitContext {
  model: Model;
  urls: Urls;
}

/** Compact JSON: the files are served as they are, so no whitespace goes over the wire. */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}
