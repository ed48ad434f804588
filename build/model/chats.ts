/**
 * A chat's spam protection status, for every chat with an address (`content.chats`: usernames
 * normalised like messenger usernames, invalid and duplicate ones already rejected there, so the
 * chat pages, the status files and the badges list the same chats).
 *
 * `protected` is true when the bot is active and protection has a start, `protected_since`, that
 * is a valid instant not after as_of: a bot switched on but never recorded as protecting, or a
 * start in the future, is not protection yet. `protected_since` is kept as the snapshot has it
 * (normalised to UTC), also for a chat whose bot is off now: it is when protection began.
 * Unreadable values become null and are reported, never silently.
 */
import type { ChatRow } from "../snapshot/content.ts";
import type { InstantParser } from "./content.ts";
import { isOn, readCounter } from "./loose-values.ts";
import { toSampleText, type Rejections } from "./rejections.ts";
import type { ChatStatus } from "./types.ts";

export function readChatStatuses(chats: readonly ChatRow[], asOfMs: number, parseInstant: InstantParser, rejections: Rejections): ChatStatus[] {
  return chats.map((row) => {
    const sample = { chat_id: row.id, username: toSampleText(row.username) };
    const raw = row.protected_since as unknown;
    const protectedSinceMs = typeof raw === "string" ? parseInstant(raw) : null;
    if (raw !== null && protectedSinceMs === null) rejections.add("chat_invalid_protected_since", { ...sample, protected_since: toSampleText(raw) });
    const statistic = (field: "messages_checked" | "spam_blocked"): number | null => {
      const value = readCounter(row[field]);
      if (value === null) rejections.add("chat_invalid_statistics", { ...sample, field, value: toSampleText(row[field]) });
      return value;
    };
    const botActive = isOn(row.bot_active);
    return {
      username: row.username,
      title: row.title,
      members: row.members,
      protected: botActive && protectedSinceMs !== null && protectedSinceMs <= asOfMs,
      botActive,
      protectedSinceMs,
      messagesChecked: statistic("messages_checked"),
      spamBlocked: statistic("spam_blocked"),
    };
  });
}
