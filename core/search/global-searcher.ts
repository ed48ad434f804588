/**
 * Typo-tolerant global search over a GlobalSearchIndex: fuse.js quality at index speed.
 *
 * Plain fuse.js runs its bitap matcher over every document: half a second to seconds per query
 * at 100 000. Here a prefilter (global-candidates.ts) picks, per query variant, a few dozen
 * candidates per type, and only those are scored, with fuse.js's own scoring (fuse-score.ts, a
 * port that the tests hold equal to fuse.js) under the options a whole-corpus fuse.js would use
 * (GLOBAL_FUSE_OPTIONS): a candidate's score is exactly what plain fuse.js gives it. Quality can
 * only be lost in the prefilter; bench/search.ts measures how often, against plain fuse.js over
 * the same data.
 *
 * Order inside a type: exact match of a text, then a text starting with the query, then a word
 * starting with it (each: a match of the query as typed before a match of one of its variants;
 * then the word it completes: whole, a letter longer, longer; then rank), then fuzzy matches, one
 * edit away before the others (a transposition or a moved space is one edit), each by fuse.js
 * score (global-match.ts says why); ties by rank desc, title, url. Reported usernames (the live
 * index's, global-usernames.ts) are a group after the index's types.
 *
 * Groups go by their best item's tier and closeness (as above; a username's substring match ranks
 * as a word prefix), then in the fixed type order: `spam` lists the glossary's "Spam bot" (a
 * prefix) above companies that only resemble it, and the first item of the first group is the
 * best match.
 */
import type { IFuseOptions } from "fuse.js";
import { MAX_TEXTS_PER_ENTITY } from "./global-index.ts";
import type { GlobalSearchIndex } from "./global-index.ts";
import { getGroupLimit } from "./global-groups.ts";
import { createCandidateFinder } from "./global-candidates.ts";
import type { Candidates } from "./global-candidates.ts";
import { buildGlobalGrams } from "./global-grams.ts";
import type { GramPostings } from "./gram-postings.ts";
import { describeQueryVariants, stripQueryDecorations } from "./normalize.ts";
import { getFuzzyVariants, getOneEditRepair, getWordwiseLatinVariant, getWordwiseLayoutVariant } from "./query-repair.ts";
import type { QueryVariant } from "./normalize.ts";
import { BitapPattern, NO_MATCH, getFieldNorm, scoreRecord } from "./fuse-score.ts";
import { COMPLETIONS, ONE_EDIT_WORD, FURTHER, getPrefixMatch, getTypoCloseness } from "./global-match.ts";
import { USERNAME_GROUP_TYPE, getUsernameLookups, searchUsernameGroup } from "./global-usernames.ts";
import type { GlobalUsernames } from "./global-usernames.ts";

/** A document as fuse.js sees it: folded title, its other folded texts, its id. */
export interface FuseDocument {
  t: string;
  a: string[];
  d: number;
}

const TITLE_WEIGHT = 2;
const OTHER_WEIGHT = 1;
const FUSE_THRESHOLD = 0.4;

/**
 * The fuse.js configuration whose scores the searcher reproduces (see fuse-score.ts), for the
 * baseline in bench/search.ts and the equivalence test. Texts are folded on both sides, so
 * fuse.js need not lower-case them (isCaseSensitive). Threshold 0.4 admits two typos in a
 * five-letter word and drops the long tail that the default 0.6 lets in. Location scoring stays
 * on: a match at the start of a name is the better one.
 */
export const GLOBAL_FUSE_OPTIONS: IFuseOptions<FuseDocument> = {
  keys: [
    { name: "t", weight: TITLE_WEIGHT },
    { name: "a", weight: OTHER_WEIGHT },
  ],
  threshold: FUSE_THRESHOLD,
  isCaseSensitive: true,
  includeScore: true,
};

/** Key weights as fuse.js normalises them (each over their sum), title first. */
const FIELD_WEIGHTS = [TITLE_WEIGHT / (TITLE_WEIGHT + OTHER_WEIGHT)];
while (FIELD_WEIGHTS.length < MAX_TEXTS_PER_ENTITY) FIELD_WEIGHTS.push(OTHER_WEIGHT / (TITLE_WEIGHT + OTHER_WEIGHT));

/** Queries are cut to the API bound (2..120); the route answers 422 beyond it. */
const MAX_GLOBAL_QUERY_LENGTH = 120;

/** "substring": a username containing the query (the username group only). */
export type GlobalMatchKind = "exact" | "prefix" | "word-prefix" | "substring" | "fuzzy";

export interface GlobalSearchHit {
  type: string;
  title: string;
  url: string;
  subtitle: string;
  match: GlobalMatchKind;
  /** fuse.js score of the best-matching query variant: 0 is perfect, 1 is no fuzzy match. */
  score: number;
}

export interface GlobalSearchGroup {
  type: string;
  /** Matches before the cap: those among the candidates, so a lower bound of a full scan's count. */
  count: number;
  items: GlobalSearchHit[];
}

export interface GlobalSearchOptions {
  /** Cap per group; types not named get `defaultLimit` (5). */
  limitPerType?: ReadonlyMap<string, number> | Readonly<Record<string, number>>;
  defaultLimit?: number;
  /**
   * "relevance" (default): exact and prefix matches first, as described above. "fuse-score":
   * fuse.js's order alone (score, then rank) in the index's groups, over the variants a plain
   * fuse.js would be given (the Cyrillic respelling, used here only for exact and prefix matches,
   * is left out), groups in the fixed order: the mode bench/search.ts compares with plain fuse.js.
   */
  rankBy?: "relevance" | "fuse-score";
}

export interface CreateGlobalSearcherOptions {
  /** The live index, whose usernames are the `spammer` group (none without it). */
  usernames?: GlobalUsernames;
  /** The index's n-gram postings as the build wrote them (global-grams.ts); derived from the texts when absent. */
  grams?: GramPostings;
}

export interface GlobalSearcher {
  readonly size: number;
  search(query: string, options?: GlobalSearchOptions): GlobalSearchGroup[];
  /** The variants a query is searched with (see normalize.ts), wrong-layout words repaired. */
  getVariants(query: string): QueryVariant[];
}

const MATCH_KINDS: readonly GlobalMatchKind[] = ["exact", "prefix", "word-prefix", "fuzzy"];

/** A scored candidate, by its position in the candidate list. */
interface ScoredCandidates {
  docs: readonly number[];
  /** Sort key: MATCH_KINDS index * 2, + 1 for an exact or prefix match of a variant only; -1: no match. */
  tiers: Int32Array;
  /** Next sort key (global-match.ts): the word a prefix completes (0..2); for a fuzzy match its typo closeness (0..2). */
  closeness: Uint8Array;
  scores: Float64Array;
  /** MATCH_KINDS index. */
  kinds: Uint8Array;
}

const FUZZY_TIER = 6;

export function createGlobalSearcher(index: GlobalSearchIndex, { usernames, grams }: CreateGlobalSearcherOptions = {}): GlobalSearcher {
  const size = index.titles.length;
  const docType = new Uint8Array(size);
  for (let t = 0; t < index.types.length; t++) {
    docType.fill(t, index.typeStarts[t], index.typeStarts[t + 1]);
  }
  const { texts, textStarts } = index;
  // Field norms as fuse.js computes them (Float64: the exact doubles it raises scores to), once
  // for scoring and the prefilter's ranking alike.
  const norms = new Float64Array(texts.length);
  for (let f = 0; f < texts.length; f++) norms[f] = getFieldNorm(texts[f]!);
  const finder = createCandidateFinder(index, docType, norms, grams ?? buildGlobalGrams(index));
  // Per-query scratch (search is synchronous): a document's place in the candidate list, + 1.
  const candidateAt = new Int32Array(size);

  const getVariants = (query: string): QueryVariant[] => {
    // A pasted link or @handle is searched as its host or username (as live search does).
    const text = stripQueryDecorations(String(query).slice(0, MAX_GLOBAL_QUERY_LENGTH));
    const variants = describeQueryVariants(text).filter((v) => v.text.length >= 2);
    addVariant(variants, getWordwiseLayoutVariant(text, finder.getPlausibility), "layout");
    addVariant(variants, getWordwiseLatinVariant(variants[0]?.text ?? "", finder.getPlausibility), "latin");
    return variants;
  };

  /**
   * Each candidate's best over the variants that proposed it: match kind, then fuse.js score.
   * No closure or object per candidate: this runs for hundreds of candidates per query.
   */
  function scoreCandidates(variants: readonly QueryVariant[], patterns: Patterns, docs: readonly number[], variantMasks: readonly number[], byScore: boolean): ScoredCandidates {
    const scored: ScoredCandidates = { docs, tiers: new Int32Array(docs.length).fill(-1), closeness: new Uint8Array(docs.length), scores: new Float64Array(docs.length), kinds: new Uint8Array(docs.length) };
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      const from = textStarts[d]!;
      const to = textStarts[d + 1]!;
      for (let v = 0; v < variants.length; v++) {
        if ((variantMasks[i]! & (1 << v)) === 0) continue;
        const match = getPrefixMatch(texts, from, to, variants[v]!.text);
        const kind = (match / COMPLETIONS) | 0;
        const tier = byScore ? FUZZY_TIER : getTier(kind, variants[v]!);
        const previous = scored.tiers[i]!;
        // Exact and prefix tiers order by completion, then rank: the first variant reaching the
        // tier and completion wins, and its score is needed only if the document is listed (see fillScore).
        if (tier < FUZZY_TIER) {
          const completion = match % COMPLETIONS;
          if (previous === -1 || tier < previous || (tier === previous && completion < scored.closeness[i]!)) {
            scored.tiers[i] = tier;
            scored.closeness[i] = completion;
            scored.scores[i] = NaN;
            scored.kinds[i] = kind;
          }
          continue;
        }
        if (previous !== -1 && previous < FUZZY_TIER) continue;
        let fuseScore = scoreRecord(getPattern(patterns, variants, v), texts, FIELD_WEIGHTS, from, to, norms);
        const near = byScore ? ONE_EDIT_WORD : getTypoCloseness(texts, from, to, variants[v]!.text);
        // A swap in a short word is two of fuse.js's errors, past its threshold: one edit all the same.
        if (fuseScore === NO_MATCH) {
          if (near === FURTHER) continue;
          fuseScore = 1;
        }
        if (previous === -1 || near < scored.closeness[i]! || (near === scored.closeness[i]! && fuseScore < scored.scores[i]!)) {
          scored.tiers[i] = tier;
          scored.closeness[i] = near;
          scored.scores[i] = fuseScore;
          scored.kinds[i] = kind;
        }
      }
    }
    return scored;
  }

  /** The fuse.js score of the variant that put candidate i in its exact or prefix tier (1 if it has none). */
  function fillScore(variants: readonly QueryVariant[], patterns: Patterns, scored: ScoredCandidates, variantMasks: readonly number[], i: number): number {
    if (!Number.isNaN(scored.scores[i]!)) return scored.scores[i]!;
    const d = scored.docs[i]!;
    const from = textStarts[d]!;
    const to = textStarts[d + 1]!;
    for (let v = 0; v < variants.length; v++) {
      if ((variantMasks[i]! & (1 << v)) === 0) continue;
      const match = getPrefixMatch(texts, from, to, variants[v]!.text);
      if (getTier((match / COMPLETIONS) | 0, variants[v]!) !== scored.tiers[i] || match % COMPLETIONS !== scored.closeness[i]) continue;
      const fuseScore = scoreRecord(getPattern(patterns, variants, v), texts, FIELD_WEIGHTS, from, to, norms);
      scored.scores[i] = fuseScore === NO_MATCH ? 1 : fuseScore;
      break;
    }
    return scored.scores[i]!;
  }

  /**
   * The prefilter's candidates for the variants; and, for a query as typed that starts no text,
   * those of its readings one edit away that start texts (global-candidates.ts
   * getOneEditPrefixes), or when there are none, of its likeliest reading one transposition or
   * moved space away (query-repair.ts getOneEditRepair), as candidates of the query as typed: a
   * reading only finds documents, the query scores them. Readings are looked up on their own, so
   * that their votes do not crowd out the query's (fuse-score mode, which stands for plain
   * fuse.js, has no readings).
   */
  function findCandidates(variants: readonly QueryVariant[], limits: readonly number[], byScore: boolean): Candidates {
    const found = finder.find(variants, limits, getFuzzyVariants(variants, finder.getPlausibility));
    const typed = variants[0]!;
    if (byScore || typed.kind !== "typed" || finder.hasTextPrefix(typed.text)) return found;
    const readings = finder.getOneEditPrefixes(typed.text).map((text): QueryVariant => ({ text, kind: "typed" }));
    if (readings.length > 0) addCandidates(found, finder.find(readings, limits, readings.map(() => false), true));
    // No reading starts a name: the likeliest may start a word inside one, found as a query is.
    const repair = readings.length > 0 ? undefined : getOneEditRepair(typed.text, finder.getTrigramFrequency, finder.getPlausibility);
    if (repair !== undefined && !readings.some((r) => r.text === repair)) addCandidates(found, finder.find([{ text: repair, kind: "typed" }], limits, [!finder.hasTextPrefix(repair)]));
    return found;
  }

  /** `extra`'s documents into `found`, as candidates of the query as typed (variant 0). */
  function addCandidates(found: Candidates, extra: Candidates): void {
    for (let i = 0; i < found.docs.length; i++) candidateAt[found.docs[i]!] = i + 1;
    for (const doc of extra.docs) {
      const at = candidateAt[doc]!;
      if (at === 0) {
        found.docs.push(doc);
        found.variantMasks.push(1);
      } else found.variantMasks[at - 1]! |= 1;
    }
    for (const doc of found.docs) candidateAt[doc] = 0;
  }

  /** The index's groups, unordered. */
  function searchEntities(variants: readonly QueryVariant[], options: GlobalSearchOptions, byScore: boolean): RankedGroup[] {
    const limits = index.types.map((type) => getGroupLimit(type, options.limitPerType, options.defaultLimit));
    const { docs, variantMasks } = findCandidates(variants, limits, byScore);
    const patterns: Patterns = [];
    const scored = scoreCandidates(variants, patterns, docs, variantMasks, byScore);
    const byType = index.types.map((): number[] => []);
    for (let i = 0; i < docs.length; i++) if (scored.tiers[i]! !== -1) byType[docType[docs[i]!]!]!.push(i);
    const groups: RankedGroup[] = [];
    for (let t = 0; t < byType.length; t++) {
      const matches = byType[t]!;
      if (matches.length === 0) continue;
      const type = index.types[t]!;
      matches.sort((a, b) => compareScored(scored, a, b));
      const items = matches.slice(0, limits[t]).map((i): GlobalSearchHit => ({
        type,
        title: index.titles[docs[i]!]!,
        url: index.urls[docs[i]!]!,
        subtitle: index.subtitles[docs[i]!]!,
        match: MATCH_KINDS[scored.kinds[i]!]!,
        score: fillScore(variants, patterns, scored, variantMasks, i),
      }));
      groups.push({ group: { type, count: matches.length, items }, tier: scored.tiers[matches[0]!]! * COMPLETIONS + scored.closeness[matches[0]!]!, position: t });
    }
    return groups;
  }

  const search = (query: string, options: GlobalSearchOptions = {}): GlobalSearchGroup[] => {
    const byScore = options.rankBy === "fuse-score";
    const variants = getVariants(query).filter((v) => !byScore || v.kind !== "cyrillic");
    // A query can fold to nothing and still be a username ("__").
    const groups = variants.length === 0 ? [] : searchEntities(variants, options, byScore);
    if (usernames !== undefined) {
      const lookups = getUsernameLookups(String(query).slice(0, MAX_GLOBAL_QUERY_LENGTH), variants);
      const found = searchUsernameGroup(usernames, lookups, getGroupLimit(USERNAME_GROUP_TYPE, options.limitPerType, options.defaultLimit), scoreUsername);
      if (found !== null) groups.push({ group: found.group, tier: found.tier * COMPLETIONS + found.completion, position: index.types.length });
    }
    // fuse-score mode compares groups with plain fuse.js, type by type: the fixed order.
    if (!byScore) groups.sort((a, b) => a.tier - b.tier || a.position - b.position);
    return groups.map((ranked) => ranked.group);
  };
  return { size, search, getVariants };
}

/** fuse.js's score of a username document ({t: username}) for a lookup text, as plain fuse.js gives it; 1 for none. */
function scoreUsername(text: string, username: string): number {
  const score = scoreRecord(new BitapPattern(text, FUSE_THRESHOLD), [username], FIELD_WEIGHTS);
  return score === NO_MATCH ? 1 : score;
}

/** A group and what orders it among the others: its best item's tier and closeness, its type's place. */
interface RankedGroup {
  group: GlobalSearchGroup;
  /** tier * COMPLETIONS + closeness. */
  tier: number;
  position: number;
}

/** Each variant's bitap pattern, made when first needed (most queries score few variants fuzzily). */
type Patterns = (BitapPattern | undefined)[];

function getPattern(patterns: Patterns, variants: readonly QueryVariant[], v: number): BitapPattern {
  return (patterns[v] ??= new BitapPattern(variants[v]!.text, FUSE_THRESHOLD));
}

/** Sort key of a match: MATCH_KINDS index * 2, + 1 for an exact or prefix match of a variant only. */
function getTier(kind: number, variant: QueryVariant): number {
  return kind * 2 + (variant.kind === "typed" || kind === 3 ? 0 : 1);
}

function addVariant(variants: QueryVariant[], extra: string | undefined, kind: QueryVariant["kind"]): void {
  if (extra !== undefined && extra.length >= 2 && !variants.some((v) => v.text === extra)) variants.push({ text: extra, kind });
}

/** Tier, closeness, then: exact/prefix tiers keep document (= rank) order; fuzzy matches go by fuse.js score first. */
function compareScored(scored: ScoredCandidates, a: number, b: number): number {
  const tier = scored.tiers[a]!;
  if (tier !== scored.tiers[b]!) return tier - scored.tiers[b]!;
  if (scored.closeness[a] !== scored.closeness[b]) return scored.closeness[a]! - scored.closeness[b]!;
  if (tier >= FUZZY_TIER && scored.scores[a] !== scored.scores[b]) return scored.scores[a]! - scored.scores[b]!;
  return scored.docs[a]! - scored.docs[b]!;
}
