/**
 * The labelled query set, bench/search-labelled.json: what people type into global search over
 * the bench corpus (createBenchEntities(100 000), createBenchUsernames(1 000 000)), each query with
 * the item expected among the first five of its group. bench/search.ts prints its top-5 recall
 * beside plain fuse.js's; test/bench/search-labelled.test.ts checks the file against the corpus.
 *
 * The file is committed so that the set stays fixed while the search changes; this module wrote
 * it (npx tsx bench/search-labelled.ts --write) and reads it. A label must be right whatever the
 * ranking, so queries whose answer is ambiguous are left out when the set is made:
 * - a prefix is the shortest (of at least 4 characters) that at most 3 items of the group start a
 *   text with (usernames: of the million), so any search ranking prefix matches first lists it;
 * - a typo, other-script or wrong-layout query is dropped when another item of the group has a
 *   text starting with it, or with the name it was made from (search-queries.ts typedName): that
 *   item would be the better answer; a typo query also when another item starts a text as few
 *   typos from it as its own (bench/search-typo-distance.ts);
 * - a whole-word prefix ("lumo" for Lumo Agency) or one a letter short ("lumo" for Lumox Pay) is
 *   kept when its item is the only one of the group with such a word, no item has a word
 *   closer, and at least 5 items above it in rank start a text with it (isOnlyNearWord);
 * - usernames are not misspelt: the username a letter away is another account, which global
 *   search does not offer (core/search/global-usernames.ts).
 * Usernames are drawn from the first 100 000 of the million (the test builds those only).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createGlobalSearchIndex } from "../core/search/global-index.ts";
import type { GlobalSearchEntity, GlobalSearchIndex } from "../core/search/global-index.ts";
import { foldText, swapKeyboardLayout } from "../core/search/normalize.ts";
import { sitePaths } from "../core/urls.ts";
import { createBenchEntities, createBenchUsernames, createRandom } from "./search-corpus.ts";
import type { BenchRandom } from "./search-corpus.ts";
import { alterName, typedName } from "./search-queries.ts";
import { countTyposFromStart } from "./search-typo-distance.ts";
import type { QueryKind } from "./search-queries.ts";

export const LABELLED_FILE = new URL("./search-labelled.json", import.meta.url);
export const LABELLED_CORPUS = { entities: 100_000, usernames: 1_000_000, usernamesDrawnFrom: 100_000 } as const;

/** Kinds and how many of each the set holds. */
const KIND_COUNTS = {
  "exact name": 25,
  prefix: 25,
  "prefix, whole word": 40,
  "prefix, a letter short": 40,
  substitution: 40,
  deletion: 40,
  insertion: 40,
  transposition: 40,
  "two typos": 40,
  "moved space": 40,
  "swap across a space": 40,
  "swap in a short word": 40,
  "other script": 25,
  "wrong layout": 25,
  "@username": 15,
  username: 10,
  "username prefix": 10,
  "username, wrong layout": 10,
} as const;
export type LabelledKind = keyof typeof KIND_COUNTS;
export const LABELLED_KINDS = Object.keys(KIND_COUNTS) as LabelledKind[];
/** Kinds whose expected item any search that ranks exact and prefix matches first must list. */
export const GUARANTEED_KINDS: readonly LabelledKind[] = ["exact name", "prefix", "@username", "username", "username prefix", "username, wrong layout"];
/** Misspelt names: the kinds on which global search must find as many as plain fuse.js does (issue 24). */
export const TYPO_KINDS: readonly LabelledKind[] = ["substitution", "deletion", "insertion", "transposition", "two typos", "moved space", "swap across a space", "swap in a short word"];
/** Kinds whose expected item a search must list that ranks, among prefix matches, whole words and words a letter longer first. */
export const WHOLE_WORD_KINDS: readonly LabelledKind[] = ["prefix, whole word", "prefix, a letter short"];

export interface LabelledQuery {
  kind: LabelledKind;
  query: string;
  /** The expected item: its group, address and title (for usernames, the username). */
  type: string;
  url: string;
  title: string;
}

export function readLabelledQueries(): LabelledQuery[] {
  return (JSON.parse(readFileSync(LABELLED_FILE, "utf8")) as { queries: LabelledQuery[] }).queries;
}

const MIN_PREFIX = 4;
const MAX_PREFIX_SHARERS = 3;
/** Typo queries further than this from their item's texts are dropped (a name cut short by typedName is a prefix, 0). */
const MAX_TYPOS = 3;
/** A whole-word prefix is kept only when at least this many items of the group rank above its item and start a text with it. */
const MIN_OUTRANKING = 5;
/** Where a word ends, as the searcher reads words (core/search/global-searcher.ts). */
const WORD_SEPARATORS = /[ .\-_]/;

export function createLabelledQueries(entities: readonly GlobalSearchEntity[], usernames: readonly string[]): LabelledQuery[] {
  const random = createRandom(21);
  const texts = createTextLookup(createGlobalSearchIndex(entities));
  const sortedNames = [...usernames].sort();
  const queries: LabelledQuery[] = [];
  for (const kind of LABELLED_KINDS) {
    const found: LabelledQuery[] = [];
    // Few items fit the whole-word kinds (one in a thousand): more attempts, each cheap.
    const attempts = WHOLE_WORD_KINDS.includes(kind) ? 300_000 : 2_000;
    for (let attempt = 0; found.length < KIND_COUNTS[kind] && attempt < attempts; attempt++) {
      const made = kind.includes("username") ? makeUsernameQuery(kind, usernames, sortedNames, random) : makeEntityQuery(kind, entities, texts, random);
      if (made !== null && !found.some((q) => q.query === made.query)) found.push(made);
    }
    queries.push(...found);
  }
  return queries;
}

function makeEntityQuery(kind: LabelledKind, entities: readonly GlobalSearchEntity[], texts: TextLookup, random: BenchRandom): LabelledQuery | null {
  const entity = entities[random.int(entities.length)]!;
  const label = { kind, type: entity.type, url: entity.url, title: entity.title };
  const folded = foldText(entity.title);
  // Exact matches outrank the rest: only items with an equal text compete.
  if (kind === "exact name") return entity.title.length <= 40 && texts.count(entity.type, folded, entity.url, true) < MAX_PREFIX_SHARERS ? { ...label, query: entity.title } : null;
  if (kind === "prefix") {
    for (let n = MIN_PREFIX; n < folded.length; n++) {
      const prefix = folded.slice(0, n).trimEnd();
      if (texts.count(entity.type, prefix, entity.url) < MAX_PREFIX_SHARERS) return { ...label, query: prefix };
    }
    return null;
  }
  if (kind === "prefix, whole word" || kind === "prefix, a letter short") {
    const word = folded.split(WORD_SEPARATORS)[0]!;
    const query = kind === "prefix, whole word" ? word : word.slice(0, -1);
    return query.length >= MIN_PREFIX && query !== folded && isOnlyNearWord(texts, entity, query, kind === "prefix, whole word" ? 0 : 1) ? { ...label, query } : null;
  }
  const name = typedName(entity.title);
  const query = alterName(name, kind as QueryKind, random);
  const typed = foldText(query);
  if (typed.length < 2 || typed === folded || texts.count(entity.type, typed, entity.url) !== 0 || texts.count(entity.type, foldText(name), entity.url) !== 0) return null;
  return kind === "other script" || kind === "wrong layout" || texts.isClosest(entity.type, typed, entity.url) ? { ...label, query } : null;
}

function makeUsernameQuery(kind: LabelledKind, usernames: readonly string[], sorted: readonly string[], random: BenchRandom): LabelledQuery | null {
  const username = usernames[random.int(LABELLED_CORPUS.usernamesDrawnFrom)]!;
  const label = { kind, type: "spammer", url: sitePaths.spammer(username), title: username };
  if (kind === "@username") return { ...label, query: `@${username}` };
  if (kind === "username") return { ...label, query: random.chance(0.5) ? username.toUpperCase() : username };
  if (kind === "username, wrong layout") return /[a-z]/.test(username) ? { ...label, query: swapKeyboardLayout(username) } : null;
  for (let n = MIN_PREFIX; n < username.length; n++) {
    if (countPrefixed(sorted, username.slice(0, n)) <= MAX_PREFIX_SHARERS) return { ...label, query: username.slice(0, n) };
  }
  return null;
}

/**
 * Whether `entity` is the one item of its group with a word that completes `query` with `extra`
 * letters (0: the word is the query), no item has a shorter such word, and MIN_OUTRANKING items
 * that rank above it start a text with the query: a ranking by popularity alone would not list
 * it, one that puts whole words and words a letter longer first must.
 */
function isOnlyNearWord(texts: TextLookup, entity: GlobalSearchEntity, query: string, extra: number): boolean {
  for (let shorter = 0; shorter < extra; shorter++) if (texts.countWords(entity.type, query, shorter, "") > 0) return false;
  return texts.countWords(entity.type, query, extra, entity.url) === 0 && texts.countWords(entity.type, query, extra, "") === 1 && texts.countAbove(entity.type, query, entity.url) >= MIN_OUTRANKING;
}

interface TextLookup {
  /** Items of `type` other than `url` with a text (folded, as the index holds it) starting with `prefix` (or equal to it), counted up to 4. */
  count(type: string, prefix: string, url: string, equal?: boolean): number;
  /** Items of `type` other than `url` with a word (in any text) of `prefix` and `extra` more letters, counted up to 2. */
  countWords(type: string, prefix: string, extra: number, url: string): number;
  /** Items of `type` ranked above `url` (earlier in the index) with a text starting with `prefix`, counted up to MIN_OUTRANKING. */
  countAbove(type: string, prefix: string, url: string): number;
  /** Whether `url` starts a text fewer typos from `typed` than any other item of `type` does. */
  isClosest(type: string, typed: string, url: string): boolean;
}

function createTextLookup(index: GlobalSearchIndex): TextLookup {
  const byType = new Map<string, { texts: string[]; docs: number[]; words: string[]; wordDocs: number[] }>();
  const byText = (a: { text: string }, b: { text: string }) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);
  for (let t = 0; t < index.types.length; t++) {
    const list: { text: string; doc: number }[] = [];
    const words: { text: string; doc: number }[] = [];
    for (let d = index.typeStarts[t]!; d < index.typeStarts[t + 1]!; d++) {
      const own = new Set<string>();
      for (let f = index.textStarts[d]!; f < index.textStarts[d + 1]!; f++) {
        list.push({ text: index.texts[f]!, doc: d });
        for (const word of index.texts[f]!.split(WORD_SEPARATORS)) if (word !== "") own.add(word);
      }
      for (const word of own) words.push({ text: word, doc: d });
    }
    list.sort(byText);
    words.sort(byText);
    byType.set(index.types[t]!, { texts: list.map((item) => item.text), docs: list.map((item) => item.doc), words: words.map((w) => w.text), wordDocs: words.map((w) => w.doc) });
  }
  const docOf = new Map(index.urls.map((url, d) => [url, d]));
  return {
    count(type, prefix, url, equal = false) {
      const { texts, docs } = byType.get(type)!;
      const self = docOf.get(url);
      const others = new Set<number>();
      for (let i = lowerBound(texts, prefix); i < texts.length && (equal ? texts[i] === prefix : texts[i]!.startsWith(prefix)) && others.size <= MAX_PREFIX_SHARERS; i++) {
        if (docs[i] !== self) others.add(docs[i]!);
      }
      return others.size;
    },
    countWords(type, prefix, extra, url) {
      const { words, wordDocs } = byType.get(type)!;
      const self = docOf.get(url);
      const owners = new Set<number>();
      for (let i = lowerBound(words, prefix); i < words.length && words[i]!.startsWith(prefix) && owners.size < 2; i++) {
        if (words[i]!.length === prefix.length + extra && wordDocs[i] !== self) owners.add(wordDocs[i]!);
      }
      return owners.size;
    },
    isClosest(type, typed, url) {
      const { texts, docs } = byType.get(type)!;
      const self = docOf.get(url)!;
      let own = MAX_TYPOS + 1;
      for (let f = index.textStarts[self]!; f < index.textStarts[self + 1]!; f++) own = Math.min(own, countTyposFromStart(typed, index.texts[f]!, MAX_TYPOS));
      if (own > MAX_TYPOS) return false;
      for (let i = 0; i < texts.length; i++) if (docs[i] !== self && countTyposFromStart(typed, texts[i]!, own) <= own) return false;
      return true;
    },
    countAbove(type, prefix, url) {
      const { texts, docs } = byType.get(type)!;
      const self = docOf.get(url)!;
      const above = new Set<number>();
      for (let i = lowerBound(texts, prefix); i < texts.length && texts[i]!.startsWith(prefix) && above.size < MIN_OUTRANKING; i++) {
        if (docs[i]! < self) above.add(docs[i]!);
      }
      return above.size;
    },
  };
}

function countPrefixed(sorted: readonly string[], prefix: string): number {
  let count = 0;
  for (let i = lowerBound(sorted, prefix); i < sorted.length && sorted[i]!.startsWith(prefix) && count <= MAX_PREFIX_SHARERS; i++) count++;
  return count;
}

function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One query a line, so that a change to the set reads as a change to those lines. */
function formatLabelledFile(queries: readonly LabelledQuery[]): string {
  const lines = queries.map((q) => `    ${JSON.stringify({ kind: q.kind, query: q.query, type: q.type, title: q.title, url: q.url })}`);
  return `{\n  "corpus": ${JSON.stringify(LABELLED_CORPUS)},\n  "queries": [\n${lines.join(",\n")}\n  ]\n}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes("--write")) {
  const entities = createBenchEntities(LABELLED_CORPUS.entities);
  const usernames = createBenchUsernames(LABELLED_CORPUS.usernames).map((u) => u.username);
  writeFileSync(LABELLED_FILE, formatLabelledFile(createLabelledQueries(entities, usernames)));
}
