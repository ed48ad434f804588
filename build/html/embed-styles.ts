/**
 * The embed styles and the iframe size each one is laid out for (docs/site-owners.md "Embeds and site pages"
 * has the same table). Sizes are the common ones: 468×60 is the classic full banner, the badge
 * is a one-line pill like a shields badge, the counter a small square-ish tile for a sidebar.
 * Each embed fills exactly its size and never scrolls; a long name ends in an ellipsis.
 */
import { escapeMarkup as e } from "../../core/escape.ts";
import type { Urls } from "../../core/urls.ts";

export const EMBED_STYLES = ["badge", "counter-dark", "counter-light", "banner-dark", "banner-light"] as const;

export type EmbedStyle = (typeof EMBED_STYLES)[number];

export const EMBED_SIZES: Record<EmbedStyle, { width: number; height: number }> = {
  badge: { width: 260, height: 32 },
  "counter-dark": { width: 180, height: 100 },
  "counter-light": { width: 180, height: 100 },
  "banner-dark": { width: 468, height: 60 },
  "banner-light": { width: 468, height: 60 },
};

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
