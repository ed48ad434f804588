/**
 * The nine groups of global search (GET /api/search/global): type (DESIGN "Search", and
 * `spammer`, the reported usernames), the label a client shows above the group, and how many
 * items it lists by default. The reference puts the defaults between 3 and 8; ours favour what
 * people look up most (companies and people) and keep the long-text groups short, so a default
 * answer stays under forty items; usernames get live search's 4. A request's `limit` (1..50)
 * replaces every default.
 */
import { GLOBAL_SEARCH_TYPES } from "./global-index.ts";

export type GlobalSearchType = (typeof GLOBAL_SEARCH_TYPES)[number];

export interface GlobalSearchGroupInfo {
  label: string;
  limit: number;
}

const GLOBAL_SEARCH_GROUPS: Readonly<Record<GlobalSearchType, GlobalSearchGroupInfo>> = {
  company: { label: "Companies", limit: 8 },
  person: { label: "People", limit: 6 },
  glossary: { label: "Glossary", limit: 3 },
  video: { label: "Videos", limit: 4 },
  video_channel: { label: "Video channels", limit: 3 },
  chat_channel: { label: "Channels", limit: 4 },
  chat: { label: "Chats", limit: 4 },
  blog_post: { label: "Blog posts", limit: 3 },
  spammer: { label: "Spammers", limit: 4 },
};

/** The API's bounds (reference "Limits"). */
export const GLOBAL_SEARCH_LIMIT = { min: 1, max: 50 } as const;
export const GLOBAL_QUERY_LENGTH = { min: 2, max: 120 } as const;

export function getGlobalSearchGroup(type: string): GlobalSearchGroupInfo | undefined {
  return Object.hasOwn(GLOBAL_SEARCH_GROUPS, type) ? GLOBAL_SEARCH_GROUPS[type as GlobalSearchType] : undefined;
}

/** Default caps per type, as the searcher takes them. */
export function getDefaultGroupLimits(): Map<string, number> {
  return new Map(GLOBAL_SEARCH_TYPES.map((type) => [type, GLOBAL_SEARCH_GROUPS[type].limit]));
}

/** A group's cap from a search's options: its own, else `defaultLimit` (5); 0 leaves the group out. */
export function getGroupLimit(type: string, limits: ReadonlyMap<string, number> | Readonly<Record<string, number>> | undefined, defaultLimit = 5): number {
  let limit: number | undefined;
  if (limits instanceof Map) limit = limits.get(type);
  else if (limits !== undefined && Object.hasOwn(limits, type)) limit = (limits as Record<string, number>)[type];
  limit ??= defaultLimit;
  return Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : 0;
}
