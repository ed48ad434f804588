/**
 * Cyrillic → Latin transliteration (a practical, ASCII-only scheme close to the passport one), used
 * to make slugs from Cyrillic names and, by search, to match a query typed in the other script.
 */
const CYRILLIC_TO_LATIN: Record<string, string> = {
  а: "a", б: "b", в: "v", г: "g", д: "d", е: "e", ё: "e", ж: "zh", з: "z", и: "i", й: "y",
  к: "k", л: "l", м: "m", н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f",
  х: "kh", ц: "ts", ч: "ch", ш: "sh", щ: "shch", ъ: "", ы: "y", ь: "", э: "e", ю: "yu", я: "ya",
  і: "i", ї: "yi", є: "ye", ґ: "g", ў: "u",
};

export function transliterateCyrillic(text: string): string {
  let out = "";
  for (const ch of text) {
    const lower = ch.toLowerCase();
    const latin = CYRILLIC_TO_LATIN[lower];
    if (latin === undefined) out += ch;
    else out += lower === ch ? latin : latin.charAt(0).toUpperCase() + latin.slice(1);
  }
  return out;
}

/** A URL slug: transliterated, lower-case ASCII letters and digits joined by single hyphens. */
export function slugify(text: string): string {
  return transliterateCyrillic(text)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
