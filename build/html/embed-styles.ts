/**
 * The embeds' copy-paste snippets (the company page shows one per style) and the badge's. The
 * styles and the size each is laid out for are core/embed-sizes.ts, re-exported here for the
 * templates and emitters that already read them from this file.
 */
import { escapeMarkup as e } from "../../core/escape.ts";
import { EMBED_SIZES, type EmbedStyle } from "../../core/embed-sizes.ts";
import type { Urls } from "../../core/urls.ts";

export { EMBED_SIZES, EMBED_STYLES, type EmbedStyle } from "../../core/embed-sizes.ts";

/**
 * A name as it goes into a snippet's alt or title: without bidi embedding, override and isolate
 * controls, which would reverse the rest of the snippet line where it is shown and in the
 * user's source (the page shows the name itself isolated in <bdi>).
 */
function toSnippetName(name: string): string {
  return name.replace(/[\u202a-\u202e\u2066-\u2069]/g, "");
}

/** The copy-paste iframe for an embed: lazy, borderless, not scrolling, with a title for screen readers. */
export function renderIframeSnippet(urls: Urls, slug: string, name: string, style: EmbedStyle): string {
  const { width, height } = EMBED_SIZES[style];
  return `<iframe src="${e(urls.embed(slug, style))}" width="${width}" height="${height}" title="${e(`${toSnippetName(name)}: spam complaints`)}" loading="lazy" scrolling="no" style="border:0;overflow:hidden"></iframe>`;
}

/** Markdown for the SVG badge linking the company page. Brackets and backslashes in the name are escaped for Markdown. */
export function renderBadgeMarkdown(urls: Urls, slug: string, name: string): string {
  const alt = `${toSnippetName(name)}: spam complaints`.replace(/\s+/g, " ").replace(/[\\[\]]/g, (c) => `\\${c}`);
  return `[![${alt}](${urls.badge(slug)})](${urls.companyPage(slug)})`;
}

/** HTML for the SVG badge linking the company page. */
export function renderBadgeHtml(urls: Urls, slug: string, name: string): string {
  return `<a href="${e(urls.companyPage(slug))}"><img src="${e(urls.badge(slug))}" alt="${e(`${toSnippetName(name)}: spam complaints`)}"></a>`;
}
