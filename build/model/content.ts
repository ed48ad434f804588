/**
 * Which content rows get an address of their own. A slug or chat username becomes a file path
 * and a URL path segment, so the rules are the company slugs' ones (catalog.ts): a slug must be
 * a safe path segment, compared ignoring case (static hosts and file systems may fold case);
 * chat and channel usernames follow the messenger username rules (core/username.ts). Rows that
 * fail are left out everywhere — no page, no search entry, no chat status — and reported, so the
 * site pages, search and chat status agree on exactly one list (`model.content`). Publication
 * times are parsed here, once, by the rules of report times.
 */
import { isPathSlug } from "../../core/lookup.ts";
import { isValidUsername, normalizeUsername } from "../../core/username.ts";
import type { ContentRows } from "../snapshot/content.ts";
import { toSampleText, type Rejections } from "./rejections.ts";
import type { ContentPages } from "./types.ts";

/** An ISO 8601 text as Unix milliseconds by the rules of report times, or null. */
export type InstantParser = (text: string | null) => number | null;

export function selectContentPages(content: ContentRows, rejections: Rejections, parseInstant: InstantParser): ContentPages {
  const bySlug = <T extends { id: number; slug: string }>(table: string, rows: T[]) =>
    selectUnique(rows, table, "slug", (slug) => (isPathSlug(slug) ? slug.toLowerCase() : null), rejections);
  const byUsername = <T extends { id: number; username: string }>(table: string, rows: T[]) =>
    selectUnique(rows, table, "username", (raw) => {
      const username = normalizeUsername(raw);
      return isValidUsername(username) ? username : null;
    }, rejections);
  const dated = <T extends { published_at: string | null }>(rows: T[]) => rows.map((row) => ({ ...row, publishedMs: parseInstant(row.published_at) }));
  return {
    glossary: bySlug("glossary", content.glossary),
    videoChannels: bySlug("video_channels", content.videoChannels),
    videos: dated(bySlug("videos", content.videos)),
    chatChannels: byUsername("chat_channels", content.chatChannels),
    chats: byUsername("chats", content.chats),
    blogPosts: dated(bySlug("blog_posts", content.blogPosts)),
  };
}

/** Rows in id order with `key` replaced by its path form; the first row of a path wins, later ones are reported. */
function selectUnique<T extends { id: number }, K extends keyof T & ("slug" | "username")>(
  rows: T[],
  table: string,
  key: K,
  toPath: (value: string) => string | null,
  rejections: Rejections,
): T[] {
  const seen = new Set<string>();
  const kept: T[] = [];
  for (const row of rows) {
    const value = row[key] as string;
    const path = toPath(value);
    if (path === null || seen.has(path)) {
      rejections.add(path === null ? "content_invalid_path" : "content_duplicate_path", { table, id: row.id, [key]: toSampleText(value) });
      continue;
    }
    seen.add(path);
    kept.push({ ...row, [key]: path });
  }
  return kept;
}
