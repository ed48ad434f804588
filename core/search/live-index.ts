/**
 * Live search (GET /api/search): substring matches over companies (name, aliases, website
 * domain), people (name) and spammer usernames, each group ranked exact > prefix > substring,
 * then reports count desc, then name. Callers cap the groups (7 / 6 / 4 by the reference).
 *
 * Each group is a SubstringIndex whose records are numbered in that rank order, so "the first k
 * matches found" are the best k. Usernames can number a million: they live only in typed arrays
 * and one joined string (about 160 MB in memory at 1M), never as per-user objects, and
 * serializeLiveIndex writes those arrays as raw bytes so the server maps them back without
 * rebuilding anything (live-index-format.ts).
 */
import { compareCodePoints, compareNames } from "../order.ts";
import { foldText, normalizeSearchQuery, normalizeUsernameQuery } from "./normalize.ts";
import { UsernameCollector, type RankedUsernames } from "./ranked-usernames.ts";
import { createSubstringIndex, createSubstringIndexFromJoined, getRecordText, searchSubstrings } from "./substring-index.ts";
import type { SubstringIndex, SubstringMatchKind } from "./substring-index.ts";

export interface LiveCompany {
  name: string;
  slug: string;
  aliases: readonly string[];
  domain: string | null;
  reportsCount: number;
  category: string;
  lastReportMs: number | null;
}

export interface LivePerson {
  name: string;
  slug: string;
  avatar: string | null;
  reportsCount: number;
}

export interface LiveSpammer {
  username: string;
  reportsCount: number;
}

export interface LiveIndex {
  /** In rank order; record i of `companyTexts` is companies[i]. */
  companies: LiveCompany[];
  people: LivePerson[];
  companyTexts: SubstringIndex;
  personTexts: SubstringIndex;
  /** One text per spammer, the username itself; spammerCounts[i] is its reports count. */
  spammerTexts: SubstringIndex;
  spammerCounts: Uint32Array;
}

export interface LiveLimits {
  companies: number;
  people: number;
  spammers: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = { companies: 7, people: 6, spammers: 4 };

export type LiveMatch<T> = T & { match: SubstringMatchKind };

export interface LiveResults {
  companies: LiveMatch<LiveCompany>[];
  people: LiveMatch<LivePerson>[];
  spammers: LiveMatch<LiveSpammer>[];
}

export interface LiveInput {
  companies: Iterable<LiveCompany>;
  people: Iterable<LivePerson>;
  /** A list, or (the build, at a million) usernames gathered by a UsernameCollector. */
  spammers: Iterable<LiveSpammer> | RankedUsernames;
}

const byRank = <T extends { reportsCount: number }>(name: (item: T) => string) => (a: T, b: T) =>
  b.reportsCount - a.reportsCount || compareNames(name(a), name(b)) || compareCodePoints(name(a), name(b));

export function createLiveIndex(input: LiveInput): LiveIndex {
  const companies = [...input.companies].sort(byRank((c) => `${c.name}\u0000${c.slug}`));
  const people = [...input.people].sort(byRank((p) => `${p.name}\u0000${p.slug}`));
  const spammers = "joined" in input.spammers ? input.spammers : rankUsernames(input.spammers);
  return {
    companies,
    people,
    companyTexts: createGroupedIndex(companies.map(getCompanyTexts)),
    personTexts: createSubstringIndex(people.map((p) => foldText(p.name))),
    spammerTexts: createSubstringIndexFromJoined(spammers, spammers.sortedTexts),
    spammerCounts: spammers.counts,
  };
}

function rankUsernames(spammers: Iterable<LiveSpammer>): RankedUsernames {
  const collector = new UsernameCollector();
  for (const spammer of spammers) collector.add(spammer.username.toLowerCase(), spammer.reportsCount);
  return collector.finish();
}

function createGroupedIndex(recordTexts: readonly string[][]): SubstringIndex {
  const starts = [0];
  for (const texts of recordTexts) starts.push(starts.at(-1)! + texts.length);
  return createSubstringIndex(recordTexts.flat(), starts);
}

function getCompanyTexts(company: LiveCompany): string[] {
  const domain = company.domain === null ? "" : normalizeSearchQuery(company.domain);
  const texts = [company.name, ...company.aliases].map(foldText);
  texts.push(domain);
  return [...new Set(texts)].filter((text) => text.length > 0);
}

/** Live search for one raw query; queries that normalise to fewer than 2 characters match nothing. */
export function searchLive(index: LiveIndex, query: string, limits: LiveLimits = DEFAULT_LIVE_LIMITS): LiveResults {
  const text = String(query).slice(0, MAX_LIVE_QUERY_LENGTH);
  const folded = normalizeSearchQuery(text);
  const username = normalizeUsernameQuery(text);
  return {
    companies: searchSubstrings(index.companyTexts, folded, limits.companies).map((m) => ({ ...index.companies[m.record]!, match: m.kind })),
    people: searchSubstrings(index.personTexts, folded, limits.people).map((m) => ({ ...index.people[m.record]!, match: m.kind })),
    spammers: searchSubstrings(index.spammerTexts, username, limits.spammers).map((m) => ({
      username: getRecordText(index.spammerTexts, m.record),
      reportsCount: index.spammerCounts[m.record]!,
      match: m.kind,
    })),
  };
}

/** The API bound for `q` (2..200); the route answers 422 beyond it, the index just cuts. */
const MAX_LIVE_QUERY_LENGTH = 200;
