/**
 * Labelled typo queries for bench/search.ts, made from real entity names by deterministic edits.
 * The other-script spellings use a popular scheme (х → h, ц → c, й → i…) rather than the one the
 * index transliterates with, so the bench does not grade the index against its own table.
 */
import type { GlobalSearchEntity } from "../core/search/global-index.ts";
import { swapKeyboardLayout } from "../core/search/normalize.ts";
import type { BenchRandom } from "./search-corpus.ts";

export const QUERY_KINDS = [
  "substitution", "deletion", "insertion", "transposition", "two typos", "other script", "wrong layout",
  "moved space", "swap across a space", "swap in a short word",
] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

export interface BenchQuery {
  kind: QueryKind;
  query: string;
  type: string;
  url: string;
}

const POPULAR_LATIN: Record<string, string> = {
  а: "a", б: "b", в: "v", г: "g", д: "d", е: "e", ё: "yo", ж: "zh", з: "z", и: "i", й: "i", к: "k",
  л: "l", м: "m", н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f", х: "h", ц: "c",
  ч: "ch", ш: "sh", щ: "sch", ъ: "", ы: "y", ь: "", э: "e", ю: "ju", я: "ja",
};
const POPULAR_CYRILLIC: Record<string, string> = {
  a: "а", b: "б", c: "с", d: "д", e: "е", f: "ф", g: "г", h: "х", i: "и", j: "дж", k: "к", l: "л",
  m: "м", n: "н", o: "о", p: "п", q: "к", r: "р", s: "с", t: "т", u: "у", v: "в", w: "в", x: "кс",
  y: "и", z: "з",
};
const QWERTY_ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
const JCUKEN_ROWS = ["йцукенгшщзхъ", "фывапролджэ", "ячсмитьбю"];

/** A key next to `ch` on its own layout (the commonest substitution typo), in `ch`'s case; `ch` itself off the letter rows. */
function neighbourKey(ch: string, random: BenchRandom): string {
  const lower = ch.toLowerCase();
  for (const row of [...QWERTY_ROWS, ...JCUKEN_ROWS]) {
    const at = row.indexOf(lower);
    if (at === -1) continue;
    const options = [row[at - 1], row[at + 1]].filter((c): c is string => c !== undefined);
    const key = random.pick(options);
    return lower === ch ? key : key.toUpperCase();
  }
  return ch;
}

function letterPositions(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) if (/\p{L}/u.test(text[i]!)) out.push(i);
  return out;
}

/**
 * One typo of `kind` at a random letter. It must change the text, ignoring case (a "typo"
 * that leaves the name as it was would be an exact query under a typo label): a substitution
 * off the letter rows (ё, digits) or a transposition of equal or non-letter neighbours is
 * tried elsewhere.
 */
function typo(text: string, kind: "substitution" | "deletion" | "insertion" | "transposition", random: BenchRandom): string {
  const positions = letterPositions(text);
  if (positions.length < 2) return text;
  for (let attempt = 0; attempt < 16; attempt++) {
    const at = random.pick(positions);
    const ch = text[at]!;
    let edited = text;
    if (kind === "substitution") edited = text.slice(0, at) + neighbourKey(ch, random) + text.slice(at + 1);
    else if (kind === "deletion") edited = text.slice(0, at) + text.slice(at + 1);
    else if (kind === "insertion") edited = text.slice(0, at) + neighbourKey(ch, random) + text.slice(at);
    else {
      const next = text[at + 1];
      if (next !== undefined && /\p{L}/u.test(next)) edited = text.slice(0, at) + next + ch + text.slice(at + 2);
    }
    if (edited.toLowerCase() !== text.toLowerCase()) return edited;
  }
  return text.slice(0, positions[0]!) + text.slice(positions[0]! + 1);
}

function otherScript(text: string): string {
  const lower = text.toLowerCase();
  const cyrillic = /[а-яё]/.test(lower);
  let out = "";
  for (const ch of lower) out += (cyrillic ? POPULAR_LATIN[ch] : POPULAR_CYRILLIC[ch]) ?? ch;
  return out;
}

/** What a user types for an entity: its title, cut at a word end to at most 32 characters. */
export function typedName(title: string): string {
  if (title.length <= 32) return title;
  const cut = title.slice(0, 32);
  const space = cut.lastIndexOf(" ");
  return space > 8 ? cut.slice(0, space) : cut;
}

/** Per kind, `perKind` entities whose name the kind can alter (a swap across a space needs two words), each altered once. */
export function createBenchQueries(entities: readonly GlobalSearchEntity[], perKind: number, random: BenchRandom): BenchQuery[] {
  const queries: BenchQuery[] = [];
  for (const kind of QUERY_KINDS) {
    for (let n = 0; n < perKind; n++) {
      for (let attempt = 0; attempt < 100; attempt++) {
        const entity = entities[random.int(entities.length)]!;
        const name = typedName(entity.title);
        const query = alterName(name, kind, random);
        if (query.toLowerCase() === name.toLowerCase()) continue;
        queries.push({ kind, query, type: entity.type, url: entity.url });
        break;
      }
    }
  }
  return queries;
}

/**
 * A space moved into or out of a word, one edit to a reader: two words run together ("lumo
 * agency" → "lumoagency"), a word split ("lumo age ncy"), or a space one letter off ("lum
 * oagency", "lumoa gency").
 */
function moveSpace(text: string, random: BenchRandom): string {
  const spaces = [...text.matchAll(/(?<=\p{L}) (?=\p{L})/gu)].map((m) => m.index);
  const inside = [...text.matchAll(/(?<=\p{L})(?=\p{L})/gu)].map((m) => m.index);
  const way = spaces.length === 0 ? "split" : random.pick(["join", "split", "left", "right"] as const);
  if (way === "split") {
    if (inside.length === 0) return text;
    const at = random.pick(inside);
    return `${text.slice(0, at)} ${text.slice(at)}`;
  }
  const at = random.pick(spaces);
  if (way === "join") return text.slice(0, at) + text.slice(at + 1);
  // The space and the letter beside it change places.
  if (way === "left") return `${text.slice(0, at - 1)} ${text[at - 1]}${text.slice(at + 1)}`;
  return `${text.slice(0, at)}${text[at + 1]} ${text.slice(at + 2)}`;
}

/** The letters either side of a space change places ("lumo agency" → "luma ogency"); `text` when no two differ. */
function swapAcrossSpace(text: string, random: BenchRandom): string {
  const spaces = [...text.matchAll(/(?<=\p{L}) (?=\p{L})/gu)].map((m) => m.index).filter((at) => text[at - 1]!.toLowerCase() !== text[at + 1]!.toLowerCase());
  if (spaces.length === 0) return text;
  const at = random.pick(spaces);
  return text.slice(0, at - 1) + text[at + 1] + " " + text[at - 1] + text.slice(at + 2);
}

/** Two neighbouring letters swapped in a word of 2 to 4 letters ("gold tv" → "glod tv", "gold vt"); `text` when there is none. */
function swapInShortWord(text: string, random: BenchRandom): string {
  const pairs: number[] = [];
  for (const word of text.matchAll(/(?<![\p{L}\p{N}])\p{L}{2,4}(?![\p{L}\p{N}])/gu)) {
    for (let i = word.index; i + 1 < word.index + word[0].length; i++) if (text[i]!.toLowerCase() !== text[i + 1]!.toLowerCase()) pairs.push(i);
  }
  if (pairs.length === 0) return text;
  const at = random.pick(pairs);
  return text.slice(0, at) + text[at + 1] + text[at] + text.slice(at + 2);
}

/** `name` as a query of `kind`: with typos, in the other script, or typed on the other layout; `name` itself when the kind cannot alter it. */
export function alterName(name: string, kind: QueryKind, random: BenchRandom): string {
  if (kind === "other script") return otherScript(name);
  if (kind === "wrong layout") return swapKeyboardLayout(name);
  if (kind === "moved space") return moveSpace(name, random);
  if (kind === "swap across a space") return swapAcrossSpace(name, random);
  if (kind === "swap in a short word") return swapInShortWord(name, random);
  if (kind !== "two typos") return typo(name, kind, random);
  // The second typo may undo the first ("ab" → "b" → "ab"): then another second typo.
  const once = typo(name, random.pick(["substitution", "deletion", "insertion"] as const), random);
  let query = once;
  for (let attempt = 0; attempt < 8 && (query === once || query.toLowerCase() === name.toLowerCase()); attempt++) {
    query = typo(once, random.pick(["substitution", "deletion", "transposition"] as const), random);
  }
  return query;
}
