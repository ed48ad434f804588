/**
 * The model: everything the emitters read, computed once from the snapshot by `readModel`
 * (read-model.ts) before any emitter runs. Every aggregate is final and every rejection recorded
 * by then, so emitters are functions of the model alone and may run in any order.
 */
import type { Category } from "../../core/categories.ts";
import type { FingerprintIndex } from "../../core/fingerprint/index.ts";
import type { BlogPostRow, ChatChannelRow, ChatRow, GlossaryRow, VideoChannelRow, VideoRow } from "../snapshot/content.ts";

/** Content rows as the snapshot holds them (their addresses checked by the model). */
export type { BlogPostRow, ChatChannelRow, GlossaryRow, VideoChannelRow, VideoRow };
import type { RejectionsReport } from "./rejections.ts";
import type { SpammerTable } from "./spammer-table.ts";

/** Days kept per company for trends: day-13..day-0. */
export const TREND_DAYS = 14;

export interface Company {
  id: number;
  name: string;
  slug: string;
  category: Category;
  website: string | null;
  aliases: string[];
  reportsCount: number;
  firstReportMs: number | null;
  lastReportMs: number | null;
  /** Complaints per day, index 0 = day-13 … index 13 = day-0. */
  recentDays: Int32Array;
  categoryCounts: Uint32Array;
}

export interface Person {
  id: number;
  name: string;
  slug: string;
  avatar: string | null;
  companyId: number | null;
  reportsCount: number;
}

/** One valid reported username's aggregate (a row of the SpammerTable). */
export interface Spammer {
  username: string;
  reportsCount: number;
  uniqueReports: number;
  confidenceMax: number;
  firstSeenMs: number;
  lastSeenMs: number;
  last7Days: number;
  previous7Days: number;
  categories: Category[];
  /** Companies named with this username, most-named first (ties by name, then id). */
  companies: Company[];
}

/** The spammer rankings (DESIGN "Orders"), overall and per category, each with its set's size. */
export interface SpammerLists {
  total: number;
  /** Every row of the SpammerTable in that order, best first (the list pages). */
  ranking: Uint32Array;
  /** The best LIST_TOP, best first. */
  top: Spammer[];
  byCategory: Map<Category, { total: number; top: Spammer[] }>;
}

/** A content row's publication time, parsed by the rules of report times (null when unreadable). */
export type Dated<T> = T & { publishedMs: number | null };

/** The content rows with an address: slugs lower-cased, usernames normalised, each unique in its table. */
export interface ContentPages {
  glossary: GlossaryRow[];
  videoChannels: VideoChannelRow[];
  videos: Dated<VideoRow>[];
  chatChannels: ChatChannelRow[];
  chats: ChatRow[];
  blogPosts: Dated<BlogPostRow>[];
}

/** A chat's spam protection status (docs/site-owners.md "Chat status"). */
export interface ChatStatus {
  username: string;
  title: string;
  members: number | null;
  protected: boolean;
  botActive: boolean;
  protectedSinceMs: number | null;
  messagesChecked: number | null;
  spamBlocked: number | null;
}

export interface PublishedRule {
  id: number;
  name: string;
  kind: string;
  pattern: string;
  category: Category | null;
  weight: number;
}

export interface PublishedRules {
  version: string;
  updatedAtMs: number | null;
  rules: PublishedRule[];
}

export interface Model {
  asOfMs: number;
  /** The UTC day (days since the epoch) that contains as_of: day-0 of DESIGN "Days". */
  day0: number;
  meta: ReadonlyMap<string, string>;
  /** Every report in the snapshot, read or rejected. */
  reportCount: number;
  /** In id order. */
  companies: readonly Company[];
  /** Companies in the order of DESIGN: reports desc, name, id. */
  ranked: readonly Company[];
  people: readonly Person[];
  /** Every valid reported username, in username order. */
  spammers: SpammerTable;
  spammerLists: SpammerLists;
  /**
   * Ids of the companies an incremental build shows in their badges, widget and embeds as the
   * current build did (model/company-shows.ts showCompanyWidgets), whose files therefore have its
   * bytes; empty when no row was kept from the current build.
   */
  unchangedCompanies: ReadonlySet<number>;
  content: ContentPages;
  /** Every chat with an address, in id order (the chat rows of `content`). */
  chats: readonly ChatStatus[];
  detectionRules: PublishedRules;
  /** Public profiles only (core's createFingerprintIndex drops the others). */
  fingerprints: FingerprintIndex;
  rejections: RejectionsReport;
}
