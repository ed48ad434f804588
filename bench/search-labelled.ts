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
 *   text starting with it: that item would be the better answer;
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
import type { QueryKind } from "./search-queries.ts";

export const LABELLED_FILE = new URL("./search-labelled.json", import.meta.url);
export const LABELLED_CORPUS = { entities: 100_000, usernames: 1_000_000, usernamesDrawnFrom: 100_000 } as const;

/** Kinds and how many of each the set holds. */
const KIND_COUNTS = {
  "exact name": 25,
  prefix: 25,
  substitution: 20,
  deletion: 20,
  insertion: 20,
  transposition: 20,
  "two typos": 20,
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

export function createLabelledQueries(entities: readonly GlobalSearchEntity[], usernames: readonly string[]): LabelledQuery[] {
  const random = createRandom(21);
  const texts = createTextLookup(createGlobalSearchIndex(entities));
  const sortedNames = [...usernames].sort();
  const queries: LabelledQuery[] = [];
  for (const kind of LABELLED_KINDS) {
    const found: LabelledQuery[] = [];
    for (let attempt = 0; found.length < KIND_COUNTS[kind] && attempt < 1000; attempt++) {
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
  const query = alterName(typedName(entity.title), kind as QueryKind, random);
  const typed = foldText(query);
  return typed.length >= 2 && typed !== folded && texts.count(entity.type, typed, entity.url) === 0 ? { ...label, query } : null;
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

interface TextLookup {
  /** Items of `type` other than `url` with a text (folded, as the index holds it) starting with `prefix` (or equal to it), counted up to 4. */
  count(type: string, prefix: string, url: string, equal?: boolean): number;
}

function createTextLookup(index: GlobalSearchIndex): TextLookup {
  const byType = new Map<string, { texts: string[]; urls: string[] }>();
  for (let t = 0; t < index.types.length; t++) {
    const list: { text: string; url: string }[] = [];
    for (let d = index.typeStarts[t]!; d < index.typeStarts[t + 1]!; d++) {
      for (let f = index.textStarts[d]!; f < index.textStarts[d + 1]!; f++) list.push({ text: index.texts[f]!, url: index.urls[d]! });
    }
    list.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    byType.set(index.types[t]!, { texts: list.map((item) => item.text), urls: list.map((item) => item.url) });
  }
  return {
    count(type, prefix, url, equal = false) {
      const { texts, urls } = byType.get(type)!;
      const others = new Set<string>();
      for (let i = lowerBound(texts, prefix); i < texts.length && (equal ? texts[i] === prefix : texts[i]!.startsWith(prefix)) && others.size <= MAX_PREFIX_SHARERS; i++) {
        if (urls[i] !== url) others.add(urls[i]!);
      }
      return others.size;
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
