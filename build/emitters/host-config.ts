/** _headers and _redirects for Netlify / Cloudflare Pages, generated from the route table. */
import type { EmitContext } from "../context.ts";
import type { OutputFile } from "../writer.ts";

export function* emitHostConfig(_ctx: EmitContext): Generator<OutputFile> {}
