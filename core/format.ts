/**
 * Numbers and nouns in the texts people read (badges, cards, pages, embeds, feeds, search
 * subtitles), written one way everywhere and without locale data: the build's bytes must not
 * depend on the machine's ICU.
 */

/** `1234567` → `1,234,567`. A value the snapshot holds as something else is shown as it is. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** The noun for `n` of it: singular for exactly one, plural otherwise (`0 reports`, `1 report`). */
export function pluralize(n: number, singular: string, plural = `${singular}s`): string {
  return n === 1 ? singular : plural;
}

/** `n noun(s)` with the number as it is (`1234 reports`): for texts that have always shown it so. */
export function countNoun(n: number, singular: string): string {
  return `${n} ${pluralize(n, singular)}`;
}
