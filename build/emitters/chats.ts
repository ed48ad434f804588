/**
 * api/chat/{username}/status.json — a chat's spam protection status — and
 * api/chat/{username}/badge.svg — its badge — for every chat with an address
 * (`model.contentPages.chats`: usernames normalised like messenger usernames, invalid and
 * duplicate ones already rejected there, so the chat pages and these files list the same chats).
 *
 * `protected` is true when the bot is active and protection has a start, `protected_since`, that
 * is a valid instant not after as_of: a bot switched on but never recorded as protecting, or a
 * start in the future, is not protection yet. `protected_since` is published as the snapshot
 * has it (normalised to UTC), also for a chat whose bot is off now: it is when protection began.
 * Unreadable values are published as null and reported, never silently.
 */
import { renderChatBadge } from "../../core/svg/badge.ts";
import { formatDate, formatInstant } from "../../core/time.ts";
import type { Urls } from "../../core/urls.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { Model } from "../model.ts";
import type { ChatRow } from "../snapshot/content.ts";
import type { OutputFile } from "../writer.ts";
import { getRouteFile } from "../../core/routes/match.ts";

export interface ChatStatus {
  username: string;
  title: string;
  protected: boolean;
  botActive: boolean;
  protectedSinceMs: number | null;
  messagesChecked: number | null;
  spamBlocked: number | null;
}

const statusByModel = new WeakMap<Model, ChatStatus[]>();

/**
 * Every published chat's status, in id order. Computed once per model, so a page emitter can
 * show the same verdict without reporting the same bad rows twice.
 */
export function getChatStatuses(model: Model): ChatStatus[] {
  let statuses = statusByModel.get(model);
  if (!statuses) statusByModel.set(model, (statuses = model.contentPages.chats.map((row) => toChatStatus(model, row))));
  return statuses;
}

/** SQLite stores whatever it is given: a flag is on when it reads as a non-zero number. */
function isOn(flag: unknown): boolean {
  const n = Number(flag);
  return Number.isFinite(n) && n !== 0;
}

function toChatStatus(model: Model, row: ChatRow): ChatStatus {
  const sample = { chat_id: row.id, username: row.username };
  const raw = row.protected_since as unknown;
  const protectedSinceMs = typeof raw === "string" ? model.parseInstant(raw) : null;
  if (raw !== null && protectedSinceMs === null) model.rejections.add("chat_invalid_protected_since", { ...sample, protected_since: String(raw) });
  const statistic = (field: "messages_checked" | "spam_blocked"): number | null => {
    const value = row[field] as unknown;
    if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
    model.rejections.add("chat_invalid_statistics", { ...sample, field, value: String(value) });
    return null;
  };
  const botActive = isOn(row.bot_active);
  return {
    username: row.username,
    title: row.title,
    protected: botActive && protectedSinceMs !== null && protectedSinceMs <= model.asOfMs,
    botActive,
    protectedSinceMs,
    messagesChecked: statistic("messages_checked"),
    spamBlocked: statistic("spam_blocked"),
  };
}

/** The status answer (field order as in the issue); unknown chats get `{found:false, username}` from the server. */
export function renderChatStatus(chat: ChatStatus, urls: Urls) {
  return {
    found: true,
    username: chat.username,
    title: chat.title,
    protected: chat.protected,
    bot_active: chat.botActive,
    protected_since: chat.protectedSinceMs === null ? null : formatInstant(chat.protectedSinceMs),
    messages_checked: chat.messagesChecked,
    spam_blocked: chat.spamBlocked,
    url: urls.chat(chat.username),
  };
}

export function* emitChatStatuses({ model, urls }: EmitContext): Generator<OutputFile> {
  for (const chat of getChatStatuses(model)) {
    yield { path: getRouteFile("getChatStatus", { username: chat.username }), data: toJson(renderChatStatus(chat, urls)) };
    yield {
      path: getRouteFile("getChatBadge", { username: chat.username }),
      data: renderChatBadge({
        username: chat.username,
        title: chat.title,
        protected: chat.protected,
        protectedSinceDate: chat.protectedSinceMs === null ? null : formatDate(chat.protectedSinceMs),
        spamBlocked: chat.spamBlocked,
      }),
    };
  }
}
