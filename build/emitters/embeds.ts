/**
 * embed/{style}/{slug}.html for every style and company (the iframe widgets, see
 * build/html/embed.ts), and embed/404.html, the page the server answers with status 404 for an
 * unknown style or slug under /embed/ (a static host can do the same with one error_page rule).
 */
import { makeUnlessUnchanged, type EmitContext } from "../context.ts";
import { renderEmbed, renderEmbedNotFound } from "../html/embed.ts";
import { EMBED_STYLES } from "../html/embed-styles.ts";
import type { OutputFile } from "../writer/index.ts";
import { getRouteFile } from "../../core/routes/match.ts";
import { EMBED_NOT_FOUND_FILE } from "../../core/routes/table.ts";

/** Where the 404 page of /embed/ lives in the build; the server's file route reads it. */
const EMBED_NOT_FOUND_PATH = EMBED_NOT_FOUND_FILE;

export function* emitEmbeds(ctx: EmitContext): Generator<OutputFile> {
  const { model, urls } = ctx;
  for (const company of model.ranked) {
    const same = model.unchangedCompanies.has(company.id);
    for (const style of EMBED_STYLES) {
      yield makeUnlessUnchanged(ctx, same, getRouteFile("getEmbed", { style, slug: company.slug }), () => renderEmbed(company, urls, style));
    }
  }
  yield { path: EMBED_NOT_FOUND_PATH, data: renderEmbedNotFound(urls) };
}
