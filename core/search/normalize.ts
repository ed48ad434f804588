/**
 * Search text normalisation. The build folds indexed text and the server folds queries with these
 * same functions, so both sides always agree on what "the same text" is.
 *
 * Decisions:
 * - `ё` folds to `е` (Russian text is written both ways), but `й` stays distinct from `и`: it is a
 *   separate letter (мой / мои), and NFKD alone would merge them.
 * - Connectors `.`, `_`, `-` survive between two letters or digits, so `binance.com`, `coca-cola`
 *   and `spam_bot` stay single tokens; any other run of punctuation, symbols or spaces becomes one
 *   space. Leading/trailing connectors go (`__proto__` → `proto`).
 * - Invisible format characters (zero-width joiners, RTL marks, soft hyphens) are deleted, not
 *   turned into spaces, because they sit inside words.
 */
import { transliterateCyrillic } from "../transliterate.ts";

/** Letters that NFKD does not decompose; the same table Fuse.js uses for `ignoreDiacritics`. */
const EXTRA_FOLDS: Record<string, string> = {
  ł: "l", đ: "d", ø: "o", ħ: "h", ŧ: "t", ı: "i", ß: "ss", æ: "ae", œ: "oe", þ: "th", ð: "d",
};
const EXTRA_FOLDS_RE = /[łđøħŧıßæœþð]/g;
const FORMAT_CHARS_RE = /[\p{Cf}]/gu;
const COMBINING_MARKS_RE = /\p{M}/gu;
const SEPARATOR_RUN_RE = /[^\p{L}\p{N}]+/gu;
const CONNECTORS = new Set([".", "_", "-"]);
const CYRILLIC_RE = /[\u0400-\u04ff]/;
const LATIN_RE = /[a-z]/;

export function foldText(text: string): string {
  const decomposed = text
    .toLowerCase()
    .replace(FORMAT_CHARS_RE, "")
    .replace(/ё/g, "е")
    .normalize("NFKD")
    // Recompose й before the marks go (NFKD splits it into и + U+0306).
    .replace(/и\u0306/g, "й")
    .replace(COMBINING_MARKS_RE, "")
    .replace(EXTRA_FOLDS_RE, (ch) => EXTRA_FOLDS[ch] ?? ch);
  return decomposed
    .replace(SEPARATOR_RUN_RE, (run, offset: number, whole: string) => {
      const inside = offset > 0 && offset + run.length < whole.length;
      return inside && run.length === 1 && CONNECTORS.has(run) ? run : " ";
    })
    .trim();
}

export function hasCyrillic(text: string): boolean {
  return CYRILLIC_RE.test(text);
}

function hasLatin(text: string): boolean {
  return LATIN_RE.test(text);
}

/** Cyrillic → Latin on folded text (the project's slug transliteration, lower-case). */
export function toLatin(text: string): string {
  return transliterateCyrillic(foldText(text));
}

// Longest-first Latin clusters for the reverse direction. English spellings of Russian and of
// global brands both occur, so the table mixes them ("kh" and "h" → х, "x" → кс, "ce" → се).
const LATIN_CLUSTERS: ReadonlyArray<readonly [string, string]> = [
  ["shch", "щ"], ["sch", "щ"], ["sh", "ш"], ["ch", "ч"], ["zh", "ж"], ["kh", "х"], ["ts", "ц"],
  ["tz", "ц"], ["ya", "я"], ["ja", "я"], ["yu", "ю"], ["ju", "ю"], ["yo", "е"], ["ye", "е"],
  ["ph", "ф"], ["th", "т"], ["ck", "к"], ["qu", "кв"], ["oo", "у"], ["ee", "и"], ["ce", "се"],
  ["ci", "си"], ["cy", "си"],
];
const LATIN_LETTERS: Record<string, string> = {
  a: "а", b: "б", c: "к", d: "д", e: "е", f: "ф", g: "г", h: "х", i: "и", j: "дж", k: "к", l: "л",
  m: "м", n: "н", o: "о", p: "п", q: "к", r: "р", s: "с", t: "т", u: "у", v: "в", w: "в", x: "кс",
  y: "и", z: "з",
};
const VOWELS = new Set(["a", "e", "i", "o", "u", "y"]);

/**
 * Latin → Cyrillic, approximate: good enough that a Latin query lands within a typo or two of the
 * Cyrillic spelling (binance → бинанс, yandex → яндекс). A silent final `e` after a consonant is
 * dropped, as Russian spellings of English names do.
 */
export function toCyrillic(text: string): string {
  return foldedToCyrillic(foldText(text));
}

function isLatinLetter(ch: string | undefined): boolean {
  return ch !== undefined && ch >= "a" && ch <= "z";
}

/** Whether no Latin letter follows at `at` (the end of a Latin word, or of the text). */
function isWordEnd(folded: string, at: number): boolean {
  return !isLatinLetter(folded[at]);
}

function foldedToCyrillic(folded: string): string {
  let out = "";
  let i = 0;
  while (i < folded.length) {
    const ch = folded[i]!;
    const previous = folded[i - 1];
    if (ch === "e" && isWordEnd(folded, i + 1) && i >= 3 && isLatinLetter(previous) && !VOWELS.has(previous!)) {
      i += 1;
      continue;
    }
    if (ch === "y" && previous !== undefined && VOWELS.has(previous) && !VOWELS.has(folded[i + 1] ?? "")) {
      out += "й";
      i += 1;
      continue;
    }
    if (ch === "c" && folded[i + 1] === "e" && isWordEnd(folded, i + 2)) {
      out += "с"; // final "ce": binance → бинанс
      i += 2;
      continue;
    }
    const cluster = LATIN_CLUSTERS.find(([latin]) => latin.charCodeAt(0) === folded.charCodeAt(i) && folded.startsWith(latin, i));
    if (cluster !== undefined) {
      out += cluster[1];
      i += cluster[0].length;
      continue;
    }
    out += LATIN_LETTERS[ch] ?? ch;
    i += 1;
  }
  return out;
}

// ЙЦУКЕН ↔ QWERTY, key for key (lower-case; the shifted punctuation that carries Russian letters
// is included, so "c,th,fyr" — сбербанк typed on a US layout — comes back whole).
const QWERTY = "qwertyuiop[]asdfghjkl;'zxcvbnm,./`{}:\"<>~";
const JCUKEN = "йцукенгшщзхъфывапролджэячсмитьбю.ёхъжэбюё";
const LATIN_TO_CYRILLIC_KEYS = new Map<string, string>();
const CYRILLIC_TO_LATIN_KEYS = new Map<string, string>();
for (let i = 0; i < QWERTY.length; i++) {
  const latin = QWERTY[i]!;
  const cyrillic = JCUKEN[i]!;
  LATIN_TO_CYRILLIC_KEYS.set(latin, cyrillic);
  if (!CYRILLIC_TO_LATIN_KEYS.has(cyrillic)) CYRILLIC_TO_LATIN_KEYS.set(cyrillic, latin);
}

/**
 * The text as if typed with the other keyboard layout active ("ишт" ↔ "bin"). The direction is
 * chosen for the whole string by which script has more letters, because punctuation keys are
 * ambiguous on their own ("." is ю one way and / the other).
 */
export function swapKeyboardLayout(text: string): string {
  const lower = text.toLowerCase();
  let latin = 0;
  let cyrillic = 0;
  for (const ch of lower) {
    if (ch >= "a" && ch <= "z") latin++;
    else if (CYRILLIC_TO_LATIN_KEYS.has(ch) && ch !== ".") cyrillic++;
  }
  const map = cyrillic > latin ? CYRILLIC_TO_LATIN_KEYS : LATIN_TO_CYRILLIC_KEYS;
  let out = "";
  for (const ch of lower) out += map.get(ch) ?? ch;
  return out;
}

export type QueryVariantKind = "typed" | "latin" | "cyrillic" | "layout";

export interface QueryVariant {
  text: string;
  /** typed: the folded query; latin/cyrillic: transliterated; layout: read with the other keyboard layout. */
  kind: QueryVariantKind;
}

/** At most this many variants per query: each costs a candidate walk and a scoring pass. */
export const MAX_QUERY_VARIANTS = 4;

/**
 * The folded query first, then its other-script spellings and its wrong-layout reading, without
 * duplicates or empties. The layout swap works on the raw text, before folding would erase the
 * punctuation keys that carry Russian letters.
 */
export function describeQueryVariants(query: string): QueryVariant[] {
  const folded = foldText(query);
  const variants: QueryVariant[] = [{ text: folded, kind: "typed" }];
  if (hasCyrillic(folded)) variants.push({ text: transliterateCyrillic(folded), kind: "latin" });
  if (hasLatin(folded)) variants.push({ text: foldedToCyrillic(folded), kind: "cyrillic" });
  variants.push({ text: foldText(swapKeyboardLayout(query)), kind: "layout" });
  const unique: QueryVariant[] = [];
  for (const variant of variants) {
    if (variant.text.length > 0 && !unique.some((u) => u.text === variant.text)) unique.push(variant);
  }
  return unique.slice(0, MAX_QUERY_VARIANTS);
}

export function getQueryVariants(query: string): string[] {
  return describeQueryVariants(query).map((variant) => variant.text);
}

const SCHEME_RE = /^[a-z][a-z0-9+.-]*:\/\//i;
const TELEGRAM_LINK_RE = /^(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)\/(?:s\/)?@?([a-z0-9_]+)/i;
const HOST_RE = /^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+(?::\d+)?$/u;

/**
 * Live-search input: `@username`, a company name, or a pasted link. A leading `@` goes; a link is
 * reduced to its host without scheme, `www.` or path ("https://www.Binance.com/en/x" →
 * "binance.com"); a Telegram link to the username it points at. Then folded.
 */
export function normalizeSearchQuery(query: string): string {
  return foldText(stripQueryDecorations(query));
}

/**
 * The same input as a username lookup: decorations stripped, lower-cased, but not folded, since
 * usernames keep their underscores where folding would drop them ("__proto__").
 */
export function normalizeUsernameQuery(query: string): string {
  return stripQueryDecorations(query).toLowerCase();
}

/**
 * The query without `@`, scheme, `www.`, port or path when it is a handle or a link (otherwise
 * only trimmed); a Telegram link becomes the username it points at. Not folded.
 */
export function stripQueryDecorations(query: string): string {
  let text = query.trim().replace(/^@/, "");
  const hadScheme = SCHEME_RE.test(text);
  text = text.replace(SCHEME_RE, "");
  const telegram = TELEGRAM_LINK_RE.exec(text);
  if (telegram?.[1] !== undefined) return telegram[1];
  const cut = text.search(/[/?#]/);
  const host = cut === -1 ? text : text.slice(0, cut);
  if (hadScheme || HOST_RE.test(host)) return host.replace(/:\d+$/, "").replace(/^www\./i, "");
  return text;
}
