/**
 * The generated initials avatar at avatars/{slug}.svg, shown when a person's snapshot avatar
 * is not an absolute http(s) URL (the rule: getAvatarUrl in core/urls.ts). It is
 * written for every person, so any link to it resolves. The colour comes from a hash of the slug:
 * the same person looks the same in every build, and nothing depends on the machine.
 */
import { escapeMarkup as e } from "../../core/escape.ts";
import { fnv1a } from "../fnv.cjs";

/** Dark enough for white text at AA contrast (4.5:1 or better). */
const PALETTE = ["#1e5aa8", "#7b3fa0", "#a3333d", "#1e7b34", "#8a4b08", "#0f6e6e", "#5a5f66", "#b0306f"];

/** Up to two letters: the first of the first and last words, upper-cased (whole code points, so emoji and surrogates stay whole). */
function getInitials(name: string): string {
  const words = name.replace(/[\p{C}]/gu, "").split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w));
  const first = (word: string | undefined) => (word ? ([...word.replace(/^[^\p{L}\p{N}]+/u, "")][0] ?? "") : "");
  const letters = words.length > 1 ? first(words[0]) + first(words[words.length - 1]) : first(words[0]);
  return letters.toUpperCase() || "?";
}

export function renderInitialsAvatar(name: string, slug: string): string {
  const color = PALETTE[fnv1a(slug) % PALETTE.length]!;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img" aria-label="${e(name)}">
<title>${e(name)}</title>
<circle cx="48" cy="48" r="48" fill="${color}"/>
<text x="48" y="48" dy=".35em" text-anchor="middle" fill="#fff" font-family="system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',Arial,sans-serif" font-size="38" font-weight="600">${e(getInitials(name))}</text>
</svg>
`;
}
