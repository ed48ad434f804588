/**
 * The embed styles and the iframe size each one is laid out for (docs/site-owners.md "Embeds and
 * site pages" has the same table). Sizes are the common ones: 468×60 is the classic full banner,
 * the badge is a one-line pill like a shields badge, the counter a small square-ish tile for a
 * sidebar. Each embed fills exactly its size and never scrolls; a long name ends in an ellipsis.
 * In core, not beside the templates (build/html/), because the guide's pictures of the embeds
 * (build/doc-pictures.ts) are drawn at these sizes too.
 */
export const EMBED_STYLES = ["badge", "counter-dark", "counter-light", "banner-dark", "banner-light"] as const;

export type EmbedStyle = (typeof EMBED_STYLES)[number];

export const EMBED_SIZES: Record<EmbedStyle, { width: number; height: number }> = {
  badge: { width: 260, height: 32 },
  "counter-dark": { width: 180, height: 100 },
  "counter-light": { width: 180, height: 100 },
  "banner-dark": { width: 468, height: 60 },
  "banner-light": { width: 468, height: 60 },
};
