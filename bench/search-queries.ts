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

/** A key next to `ch` on its own layout: the commonest substitution typo. */
function neighbourKey(ch: string, random: BenchRandom): string {
  for (const row of [...QWERTY_ROWS, ...JCUKEN_ROWS]) {
    const at = row.indexOf(ch);
    if (at === -1) continue;
    const options = [row[at - 1], row[at + 1]].filter((c): c is string => c !== undefined);
    return random.pick(options);
  }
  return ch;
}

function letterPositions(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) if (/\p{L}/u.test(text[i]!)) out.push(i);
  return out;
}

function typo(text: string, kind: "substitution" | "deletion" | "insertion" | "transposition", random: BenchRandom): string {
  const positions = letterPositions(text);
  if (positions.length < 2) return text;
  const at = random.pick(positions);
  const ch = text[at]!;
  switch (kind) {
    case "substitution":
      return text.slice(0, at) + neighbourKey(ch, random) + text.slice(at + 1);
    case "deletion":
      return text.slice(0, at) + text.slice(at + 1);
    case "insertion":
      return text.slice(0, at) + neighbourKey(ch, random) + text.slice(at);
    case "transposition": {
      const next = text[at + 1];
      if (next === undefined || next === " " || next === ch) return text.slice(0, at - 1) + ch + text[at - 1] + text.slice(at + 1);
      return text.slice(0, at) + next + ch + text.slice(at + 2);
    }
  }
}

function otherScript(text: string): string {
  const lower = text.toLowerCase();
  const cyrillic = /[а-яё]/.test(lower);
  let out = "";
  for (const ch of lower) out += (cyrillic ? POPULAR_LATIN[ch] : POPULAR_CYRILLIC[ch]) ?? ch;
  return out;
}

/** What a user types for an entity: its title, cut at a word end to at most 32 characters. */
function typedName(title: string): string {
  if (title.length <= 32) return title;
  const cut = title.slice(0, 32);
  const space = cut.lastIndexOf(" ");
  return space > 8 ? cut.slice(0, space) : cut;
}

export function createBenchQueries(entities: readonly GlobalSearchEntity[], perKind: number, random: BenchRandom): BenchQuery[] {
  const queries: BenchQuery[] = [];
  for (const kind of QUERY_KINDS) {
    for (let n = 0; n < perKind; n++) {
      const entity = entities[random.int(entities.length)]!;
      const name = typedName(entity.title);
      let query: string;
      if (kind === "other script") query = otherScript(name);
      else if (kind === "wrong layout") query = swapKeyboardLayout(name);
      else if (kind === "two typos") {
        query = typo(typo(name, random.pick(["substitution", "deletion", "insertion"] as const), random), random.pick(["substitution", "deletion", "transposition"] as const), random);
      } else query = typo(name, kind, random);
      queries.push({ kind, query, type: entity.type, url: entity.url });
    }
  }
  return queries;
}
