/**
 * api/chat/{username}/status.json — a chat's spam protection status — and
 * api/chat/{username}/badge.svg — its badge — for every chat with an address (the model's chat
 * statuses: build/model/chats.ts says what `protected` means and which values are reported).
 */
import { renderChatBadge } from "../../core/svg/badge.ts";
import { formatDate, formatInstant } from "../../core/time.ts";
import type { Urls } from "../../core/urls.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { ChatStatus } from "../model/types.ts";
import type { OutputFile } from "../writer/index.ts";
import { getRouteFile } from "../../core/routes/match.ts";

/** The status answer (field order as in the issue); unknown chats get `{found:false, username}` from the server. */
function renderChatStatus(chat: ChatStatus, urls: Urls) {
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
  for (const chat of model.chats) {
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
