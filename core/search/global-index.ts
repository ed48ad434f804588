/**
 * The global-search index (GET /api/search/global): every searchable entity of the eight entity types,
 * folded once at build time into compact parallel arrays. The build writes it as JSON, and its
 * n-gram postings beside it in binary (global-grams.ts): a server reads both rather than derive
 * the postings at every start.
 */
import { compareCodePoints, compareNames } from "../order.ts";
import { foldText, hasCyrillic } from "./normalize.ts";
import { transliterateCyrillic } from "../transliterate.ts";

export interface GlobalSearchEntity {
  type: string;
  title: string;
  /** The entity's page as a path below the base URL (core/urls.ts sitePaths); answers put the base URL's path in front. */
  url: string;
  subtitle: string;
  /** Extra searchable text: aliases, domains, usernames. */
  keys?: readonly string[];
  /** Popularity for tie-breaks (reports count, subscribers); higher first. */
  rank?: number;
}

export const GLOBAL_SEARCH_INDEX_FORMAT = "global-search/1";

/**
 * Documents are numbered by type (in `types` order), then rank desc, title, url, so that a
 * document id order is also a rank order inside each type: postings lists, being sorted by id,
 * list the best-ranked matches of each type first.
 */
export interface GlobalSearchIndex {
  format: typeof GLOBAL_SEARCH_INDEX_FORMAT;
  types: string[];
  /** Documents of types[i] are typeStarts[i] .. typeStarts[i + 1] - 1. */
  typeStarts: number[];
  titles: string[];
  urls: string[];
  subtitles: string[];
  ranks: number[];
  /** Document d's searchable texts are texts[textStarts[d] .. textStarts[d + 1]); its folded title first. */
  textStarts: number[];
  texts: string[];
  /** Indexes into `texts`, ordered by text (UTF-16 code units, as `<` compares): exact and prefix lookups. */
  sortedTexts: number[];
}

/** Bounds per document, so that scoring one candidate costs a bounded amount of work. */
export const MAX_TEXTS_PER_ENTITY = 12;
const MAX_TEXT_LENGTH = 160;

/**
 * The API's group types: the eight the reference lists (DESIGN, "Search"), in its order, then
 * reported usernames, which are not in this index but in the live index's arrays
 * (global-usernames.ts). The order breaks ties between groups whose best matches are equally good.
 */
export const GLOBAL_SEARCH_TYPES = ["company", "person", "glossary", "video", "video_channel", "chat_channel", "chat", "blog_post", "spammer"] as const;

export interface CreateGlobalSearchIndexOptions {
  /** Group order (default GLOBAL_SEARCH_TYPES); other types follow in code-point order. */
  types?: readonly string[];
}

export function createGlobalSearchIndex(
  entities: Iterable<GlobalSearchEntity>,
  options: CreateGlobalSearchIndexOptions = {},
): GlobalSearchIndex {
  const list = [...entities];
  const present = new Set(list.map((entity) => entity.type));
  const listed = (options.types ?? GLOBAL_SEARCH_TYPES).filter((type) => present.has(type));
  const types = [...new Set([...listed, ...[...present].sort(compareCodePoints)])];
  const typeOrder = new Map(types.map((type, i) => [type, i]));
  const order = list.map((_, i) => i).sort((a, b) => compareEntities(list[a]!, list[b]!, typeOrder));

  const index: GlobalSearchIndex = {
    format: GLOBAL_SEARCH_INDEX_FORMAT,
    types,
    typeStarts: [],
    titles: [],
    urls: [],
    subtitles: [],
    ranks: [],
    textStarts: [],
    texts: [],
    sortedTexts: [],
  };
  let type = -1;
  for (const position of order) {
    const entity = list[position]!;
    const entityType = typeOrder.get(entity.type)!;
    while (type < entityType) index.typeStarts[++type] = index.titles.length;
    index.textStarts.push(index.texts.length);
    index.titles.push(entity.title);
    index.urls.push(entity.url);
    index.subtitles.push(entity.subtitle);
    index.ranks.push(getRank(entity));
    index.texts.push(...getSearchTexts(entity));
  }
  while (type < types.length) index.typeStarts[++type] = index.titles.length;
  index.textStarts.push(index.texts.length);
  const { texts } = index;
  index.sortedTexts = texts.map((_, i) => i).sort((a, b) => (texts[a]! < texts[b]! ? -1 : texts[a]! > texts[b]! ? 1 : a - b));
  return index;
}

/**
 * Folded title first (possibly empty), then folded keys, then the Latin spelling of every
 * Cyrillic text. Latin queries reach Cyrillic names through those spellings; Cyrillic queries
 * reach Latin names through their own transliteration (getQueryVariants), so one direction of
 * transliteration in the index is enough.
 */
function getSearchTexts(entity: GlobalSearchEntity): string[] {
  const folded = [entity.title, ...(entity.keys ?? [])].map((text) => foldText(text.slice(0, MAX_TEXT_LENGTH * 2)).slice(0, MAX_TEXT_LENGTH));
  const texts = [folded[0] ?? ""];
  const add = (text: string) => {
    if (text.length > 0 && !texts.includes(text) && texts.length < MAX_TEXTS_PER_ENTITY) texts.push(text);
  };
  for (const text of folded.slice(1)) add(text);
  for (const text of folded) if (hasCyrillic(text)) add(transliterateCyrillic(text));
  return texts;
}

function getRank(entity: GlobalSearchEntity): number {
  return Number.isFinite(entity.rank) ? (entity.rank as number) : 0;
}

function compareEntities(a: GlobalSearchEntity, b: GlobalSearchEntity, typeOrder: Map<string, number>): number {
  return (
    typeOrder.get(a.type)! - typeOrder.get(b.type)! ||
    getRank(b) - getRank(a) ||
    compareNames(a.title, b.title) ||
    compareCodePoints(a.title, b.title) ||
    compareCodePoints(a.url, b.url) ||
    // Only for entities equal in all of the above (not expected: urls are unique), so that the
    // index never depends on input order.
    compareCodePoints(a.subtitle, b.subtitle) ||
    compareCodePoints((a.keys ?? []).join("\u0000"), (b.keys ?? []).join("\u0000"))
  );
}
