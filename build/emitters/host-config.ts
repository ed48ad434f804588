/**
 * _headers and _redirects for Netlify / Cloudflare Pages, and the 501 problem documents their
 * rules point at, generated from the route table (core/hosting/netlify.ts).
 */
import { getStaticHostProblemFiles, renderHeaders, renderRedirects } from "../../core/hosting/netlify.ts";
import type { OutputFile } from "../writer/index.ts";

export function* emitHostConfig(): Generator<OutputFile> {
  yield { path: "_headers", data: renderHeaders() };
  yield { path: "_redirects", data: renderRedirects() };
  yield* getStaticHostProblemFiles();
}
