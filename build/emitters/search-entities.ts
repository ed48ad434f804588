/**
 * What global search finds (GET /api/search/global), one entity per page that exists: companies
 * and people from the model, and the content rows that have an address (model.content:
 * slugs and usernames already validated, the others reported there). Each entity has a title,
 * its page below the base URL (core/urls.ts sitePaths; the answer puts the base URL's path in
 * front, so the index is the same under any base), a one-line subtitle, extra searchable keys
 * (aliases, website domain, @usernames) and a rank that orders equally good matches.
 *
 * Rank: complaints for companies and people, subscribers or members for channels and chats,
 * the day of publication for videos and blog posts (the newest first).
 */
import { getCategoryLabel } from "../../core/categories.ts";
import { countNoun } from "../../core/format.ts";
import type { GlobalSearchEntity } from "../../core/search/global-index.ts";
import { normalizeSearchQuery } from "../../core/search/normalize.ts";
import { DAY_MS, formatDate } from "../../core/time.ts";
import { sitePaths } from "../../core/urls.ts";
import type { Model } from "../model/types.ts";

/** Glossary definitions and blog excerpts are cut to this many characters in a subtitle. */
const SUBTITLE_TEXT_LENGTH = 100;

export function* listGlobalEntities(model: Model): Generator<GlobalSearchEntity> {
  const companyNames = new Map(model.companies.map((c) => [c.id, c.name]));
  for (const company of model.ranked) {
    const domain = company.website === null ? "" : normalizeSearchQuery(company.website);
    yield {
      type: "company",
      title: company.name,
      url: sitePaths.companyPage(company.slug),
      subtitle: `${getCategoryLabel(company.category)} · ${countNoun(company.reportsCount, "complaint")}`,
      keys: domain ? [...company.aliases, domain] : company.aliases,
      rank: company.reportsCount,
    };
  }
  for (const person of model.people) {
    const company = person.companyId === null ? undefined : companyNames.get(person.companyId);
    yield {
      type: "person",
      title: person.name,
      url: sitePaths.person(person.slug),
      subtitle: joinParts(countNoun(person.reportsCount, "complaint"), company),
      rank: person.reportsCount,
    };
  }
  yield* listContentEntities(model);
}

function* listContentEntities(model: Model): Generator<GlobalSearchEntity> {
  const content = model.content;
  const day = (ms: number | null) => (ms === null ? null : Math.floor(ms / DAY_MS));
  const date = (ms: number | null) => (ms === null ? undefined : formatDate(ms));
  for (const term of content.glossary) {
    yield { type: "glossary", title: term.term, url: sitePaths.glossary(term.slug), subtitle: shorten(term.definition) || "Glossary term" };
  }
  const channelNames = new Map(content.videoChannels.map((c) => [c.id, c.name]));
  for (const video of content.videos) {
    const channel = video.channel_id === null ? undefined : channelNames.get(video.channel_id);
    yield {
      type: "video",
      title: video.title,
      url: sitePaths.video(video.slug),
      subtitle: joinParts(channel, date(video.publishedMs)) || "Video",
      rank: day(video.publishedMs) ?? 0,
    };
  }
  for (const channel of content.videoChannels) {
    yield {
      type: "video_channel",
      title: channel.name,
      url: sitePaths.videoChannel(channel.slug),
      subtitle: channel.subscribers === null ? "Video channel" : countNoun(channel.subscribers, "subscriber"),
      rank: channel.subscribers ?? 0,
    };
  }
  for (const channel of content.chatChannels) {
    yield {
      type: "chat_channel",
      title: channel.title,
      url: sitePaths.chatChannel(channel.username),
      subtitle: joinParts(`@${channel.username}`, channel.subscribers === null ? undefined : countNoun(channel.subscribers, "subscriber")),
      keys: [channel.username],
      rank: channel.subscribers ?? 0,
    };
  }
  for (const chat of content.chats) {
    yield {
      type: "chat",
      title: chat.title,
      url: sitePaths.chat(chat.username),
      subtitle: joinParts(`@${chat.username}`, chat.members === null ? undefined : countNoun(chat.members, "member")),
      keys: [chat.username],
      rank: chat.members ?? 0,
    };
  }
  for (const post of content.blogPosts) {
    yield {
      type: "blog_post",
      title: post.title,
      url: sitePaths.blogPost(post.slug),
      subtitle: joinParts(date(post.publishedMs), shorten(post.excerpt ?? "")) || "Blog post",
      rank: day(post.publishedMs) ?? 0,
    };
  }
}


function joinParts(...parts: (string | undefined)[]): string {
  return parts.filter((part) => part !== undefined && part !== "").join(" · ");
}

/**
 * One line of display text: control characters and whitespace runs become one space, and the
 * text is cut at a word end to SUBTITLE_TEXT_LENGTH code points, with "…".
 */
function shorten(text: string): string {
  const flat = text.replace(/[\p{Cc}\s]+/gu, " ").trim();
  const chars = [...flat];
  if (chars.length <= SUBTITLE_TEXT_LENGTH) return flat;
  const cut = chars.slice(0, SUBTITLE_TEXT_LENGTH - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > SUBTITLE_TEXT_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
