/**
 * The snapshot's small tables beside reports: content (glossary, videos and their channels, chat
 * channels, blog posts), chats with their protection statistics, and detection rules. Each has
 * at most a few thousand rows even at the largest scale, so they are read whole, in id order.
 * Like the rest of build/snapshot/, this is SQL only: validation (slugs, dates) belongs to the model.
 */
import { selectColumns } from "./contract.ts";
import type { Snapshot } from "./open.ts";

export interface GlossaryRow {
  id: number;
  term: string;
  slug: string;
  definition: string;
}

export interface VideoChannelRow {
  id: number;
  name: string;
  slug: string;
  subscribers: number | null;
}

export interface VideoRow {
  id: number;
  title: string;
  slug: string;
  channel_id: number | null;
  published_at: string | null;
}

export interface ChatChannelRow {
  id: number;
  username: string;
  title: string;
  subscribers: number | null;
}

export interface ChatRow {
  id: number;
  username: string;
  title: string;
  members: number | null;
  bot_active: number;
  protected_since: string | null;
  messages_checked: number;
  spam_blocked: number;
}

export interface BlogPostRow {
  id: number;
  title: string;
  slug: string;
  excerpt: string | null;
  published_at: string;
}

export interface DetectionRuleRow {
  id: number;
  name: string;
  kind: string;
  pattern: string;
  category: string | null;
  weight: number;
  enabled: number;
  updated_at: string;
}

export interface ContentRows {
  glossary: GlossaryRow[];
  videoChannels: VideoChannelRow[];
  videos: VideoRow[];
  chatChannels: ChatChannelRow[];
  chats: ChatRow[];
  blogPosts: BlogPostRow[];
  detectionRules: DetectionRuleRow[];
}

export function readContent(db: Snapshot): ContentRows {
  const all = <T>(sql: string) => db.prepare(sql).all() as T[];
  return {
    glossary: all<GlossaryRow>(`SELECT ${selectColumns("glossary")} FROM glossary ORDER BY id`),
    videoChannels: all<VideoChannelRow>(`SELECT ${selectColumns("video_channels")} FROM video_channels ORDER BY id`),
    videos: all<VideoRow>(`SELECT ${selectColumns("videos")} FROM videos ORDER BY id`),
    chatChannels: all<ChatChannelRow>(`SELECT ${selectColumns("chat_channels")} FROM chat_channels ORDER BY id`),
    chats: all<ChatRow>(`SELECT ${selectColumns("chats")} FROM chats ORDER BY id`),
    blogPosts: all<BlogPostRow>(`SELECT ${selectColumns("blog_posts")} FROM blog_posts ORDER BY id`),
    detectionRules: all<DetectionRuleRow>(`SELECT ${selectColumns("detection_rules")} FROM detection_rules ORDER BY id`),
  };
}
