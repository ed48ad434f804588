/**
 * The username group of global search (type `spammer`): every reported username, found as live
 * search finds it — the username itself, usernames starting with the query, usernames containing
 * it — with or without `@` or a t.me link, and through the query's other-layout and other-script
 * readings. It searches the live index's own username arrays (searchSubstrings over
 * LiveIndex.spammerTexts): a server holds a million usernames once, for both routes.
 *
 * No typo matches: a username is an account's identifier, and the one a letter away is another
 * account (spin_official60, spin_official62, both reported): listing it as a near match would put
 * forward an account nobody asked about. Live search makes the same choice.
 */
import { countNoun } from "../format.ts";
import { getCompletion } from "./global-match.ts";
import { sitePaths } from "../urls.ts";
import type { GlobalSearchGroup, GlobalSearchHit } from "./global-searcher.ts";
import type { QueryVariant } from "./normalize.ts";
import { normalizeUsernameQuery } from "./normalize.ts";
import { getRecordText, searchSubstrings } from "./substring-index.ts";
import type { SubstringMatchKind } from "./substring-index.ts";
import type { LiveIndex } from "./live-index.ts";

export const USERNAME_GROUP_TYPE = "spammer";

/** The live index, of which the username group reads its usernames and their reports counts. */
export type GlobalUsernames = Pick<LiveIndex, "spammerTexts" | "spammerCounts">;

/** A text the usernames are searched for: the query as typed, or one of its variants. */
export interface UsernameLookup {
  text: string;
  variant: boolean;
}

/** Matches found beyond the cap, for the group's `count` (a lower bound, as the other groups'). */
const COUNT_MARGIN = 12;
const USERNAME_TEXT_RE = /^[a-z0-9_]{2,64}$/;
/** As the searcher's tiers: exact 0, prefix 2, substring 4 (a word prefix's level); + 1 when only a variant matched. */
const KIND_TIERS: Readonly<Record<SubstringMatchKind, number>> = { exact: 0, prefix: 2, substring: 4 };

/**
 * The query as a username (decorations stripped, lower-cased, underscores kept: folding would turn
 * `a__b` into `a b`), then each variant that can be one. Texts no username can hold are left out.
 */
export function getUsernameLookups(query: string, variants: readonly QueryVariant[]): UsernameLookup[] {
  const lookups: UsernameLookup[] = [];
  const typed = normalizeUsernameQuery(query);
  if (USERNAME_TEXT_RE.test(typed)) lookups.push({ text: typed, variant: false });
  for (const v of variants) {
    if (v.kind !== "typed" && USERNAME_TEXT_RE.test(v.text) && !lookups.some((l) => l.text === v.text)) lookups.push({ text: v.text, variant: true });
  }
  return lookups;
}

/**
 * The group for `lookups` (getUsernameLookups), best first: by tier, then live search's rank
 * (reports count desc, then username); `count` is how many matched, up to `limit` + COUNT_MARGIN;
 * `tier` is the first item's, and `completion` how much of the word the query ends in its first
 * item is left (global-match.ts): what orders the group among the others. Each item has the fuse.js score `score` gives it for the lookup that
 * found it. Null when nothing matched, or `limit` is 0.
 */
export function searchUsernameGroup(
  usernames: GlobalUsernames,
  lookups: readonly UsernameLookup[],
  limit: number,
  score: (lookup: string, username: string) => number,
): { group: GlobalSearchGroup; tier: number; completion: number } | null {
  const best = new Map<number, { tier: number; kind: SubstringMatchKind; lookup: number }>();
  for (let l = 0; limit > 0 && l < lookups.length; l++) {
    for (const found of searchSubstrings(usernames.spammerTexts, lookups[l]!.text, limit + COUNT_MARGIN)) {
      const tier = KIND_TIERS[found.kind] + (lookups[l]!.variant ? 1 : 0);
      const held = best.get(found.record);
      if (held === undefined || tier < held.tier) best.set(found.record, { tier, kind: found.kind, lookup: l });
    }
  }
  if (best.size === 0) return null;
  const records = [...best.keys()].sort((a, b) => best.get(a)!.tier - best.get(b)!.tier || a - b);
  const items = records.slice(0, limit).map((record): GlobalSearchHit => {
    const { kind, lookup } = best.get(record)!;
    const username = getRecordText(usernames.spammerTexts, record);
    return {
      type: USERNAME_GROUP_TYPE,
      title: username,
      url: sitePaths.spammer(username),
      subtitle: countNoun(usernames.spammerCounts[record]!, "report"),
      match: kind,
      score: score(lookups[lookup]!.text, username),
    };
  });
  const first = best.get(records[0]!)!;
  const text = lookups[first.lookup]!.text;
  const username = items[0]!.title;
  const completion = first.kind === "exact" ? 0 : getCompletion(username, username.indexOf(text) + text.length);
  return { group: { type: USERNAME_GROUP_TYPE, count: records.length, items }, tier: first.tier, completion };
}
