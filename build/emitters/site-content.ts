/**
 * A page for every person and every content row with an address (model.content): the
 * pages global search, live search and chat status point at, at exactly the paths of
 * core/urls.ts sitePaths, written as `<path>.html`; plus avatars/{slug}.svg, the
 * initials avatar shown when a person has no absolute http(s) avatar.
 */
import { escapeMarkup as e } from "../../core/escape.ts";
import { formatDate } from "../../core/time.ts";
import { getAvatarUrl, type Urls } from "../../core/urls.ts";
import type { EmitContext } from "../context.ts";
import { renderInitialsAvatar } from "../html/avatar.ts";
import { formatCount } from "../../core/format.ts";
import { renderFacts, renderPage, text } from "../html/layout.ts";
import type { Model, Person } from "../model/types.ts";
import type { Dated, VideoChannelRow, VideoRow } from "../model/types.ts";
import type { OutputFile } from "../writer/index.ts";
import { getRouteFile } from "../../core/routes/match.ts";


function link(href: string, label: string): string {
  return `<a href="${e(href)}">${text(label)}</a>`;
}

/** The pages of one entity each: their footers leave as_of out (html/layout.ts). */
interface PageContext {
  model: Model;
  urls: Urls;
}

function personPage(person: Person, company: { name: string; slug: string } | undefined, { urls }: PageContext): string {
  // The same picture live search shows for this person (one rule, in the search emitter).
  const avatar = getAvatarUrl(person.avatar, person.slug, urls);
  return renderPage({
    title: `${person.name}: spam complaints`,
    urls,
    body: `<p><img class="avatar" src="${e(avatar)}" alt="" width="96" height="96"></p>
<h1>${text(person.name)}</h1>
${renderFacts([
  ["Complaints naming this person", formatCount(person.reportsCount)],
  ["Company", company ? link(urls.companyPage(company.slug), company.name) : null],
])}`,
  });
}

function videoPage(video: Dated<VideoRow>, channel: VideoChannelRow | undefined, { urls }: PageContext): string {
  const published = video.publishedMs;
  return renderPage({
    title: `${video.title} — video`,
    urls,
    body: `<h1>${text(video.title)}</h1>
${renderFacts([
  ["Channel", channel ? link(urls.videoChannel(channel.slug), channel.name) : null],
  ["Published", published === null ? "date unknown" : formatDate(published)],
])}`,
  });
}

function videoChannelPage(channel: VideoChannelRow, videos: VideoRow[], { urls }: PageContext): string {
  const list = videos.map((v) => `<li>${link(urls.video(v.slug), v.title)}</li>`).join("\n");
  return renderPage({
    title: `${channel.name} — video channel`,
    urls,
    body: `<h1>${text(channel.name)}</h1>
${renderFacts([["Subscribers", channel.subscribers === null ? "not known" : formatCount(channel.subscribers)]])}
<h2>Videos</h2>
${list ? `<ul>\n${list}\n</ul>` : "<p>No videos listed yet.</p>"}`,
  });
}

function* emitPeople(ctx: PageContext): Generator<OutputFile> {
  const companies = new Map(ctx.model.companies.map((c) => [c.id, c]));
  for (const person of ctx.model.people) {
    const company = person.companyId === null ? undefined : companies.get(person.companyId);
    yield { path: getRouteFile("getPersonPage", { slug: person.slug }), data: personPage(person, company, ctx) };
    yield { path: getRouteFile("getAvatar", { slug: person.slug }), data: renderInitialsAvatar(person.name, person.slug) };
  }
}

export function* emitContentPages({ model, urls }: EmitContext): Generator<OutputFile> {
  const ctx: PageContext = { model, urls };
  const page = (title: string, body: string) => renderPage({ title, body, urls });
  const content = model.content;
  yield* emitPeople(ctx);
  for (const term of content.glossary) {
    yield { path: getRouteFile("getGlossaryPage", { slug: term.slug }), data: page(`${term.term} — glossary`, `<h1>${text(term.term)}</h1>\n<p>${text(term.definition)}</p>`) };
  }
  const channels = new Map(content.videoChannels.map((c) => [c.id, c]));
  for (const video of content.videos) {
    const channel = video.channel_id === null ? undefined : channels.get(video.channel_id);
    yield { path: getRouteFile("getVideoPage", { slug: video.slug }), data: videoPage(video, channel, ctx) };
  }
  const videosByChannel = new Map<number | null, VideoRow[]>();
  for (const video of content.videos) {
    const list = videosByChannel.get(video.channel_id);
    if (list) list.push(video);
    else videosByChannel.set(video.channel_id, [video]);
  }
  for (const channel of content.videoChannels) {
    yield { path: getRouteFile("getVideoChannelPage", { slug: channel.slug }), data: videoChannelPage(channel, videosByChannel.get(channel.id) ?? [], ctx) };
  }
  for (const channel of content.chatChannels) {
    const facts = renderFacts([
      ["Username", e(`@${channel.username}`)],
      ["Subscribers", channel.subscribers === null ? "not known" : formatCount(channel.subscribers)],
    ]);
    yield { path: getRouteFile("getChatChannelPage", { username: channel.username }), data: page(`${channel.title} — channel`, `<h1>${text(channel.title)}</h1>\n${facts}`) };
  }
  // The verdict and figures of the chat status JSON.
  const known = (n: number | null) => (n === null ? "not known" : formatCount(n));
  for (const chat of model.chats) {
    const facts = renderFacts([
      ["Username", e(`@${chat.username}`)],
      ["Members", known(chat.members)],
      ["Protected", chat.protected ? "yes" : "no"],
      ["Anti-spam bot", chat.botActive ? "active" : "not active"],
      ["Protection began", chat.protectedSinceMs === null ? "never" : formatDate(chat.protectedSinceMs)],
      ["Messages checked", known(chat.messagesChecked)],
      ["Spam messages blocked", known(chat.spamBlocked)],
    ]);
    yield {
      path: getRouteFile("getChatPage", { username: chat.username }),
      data: page(
        `${chat.title} — chat protection`,
        `<h1>${text(chat.title)}</h1>
<p><img src="${e(urls.chatBadge(chat.username))}" alt="${e(`Protection status of @${chat.username}`)}"></p>
${facts}
<p>Data: <a href="${e(urls.chatStatus(chat.username))}">protection status (JSON)</a>.</p>`,
      ),
    };
  }
  for (const post of content.blogPosts) {
    const excerpt = post.excerpt ? `<p>${text(post.excerpt)}</p>` : "";
    const published = post.publishedMs;
    const time = published === null ? "date unknown" : `<time datetime="${formatDate(published)}">${formatDate(published)}</time>`;
    yield {
      path: getRouteFile("getBlogPost", { slug: post.slug }),
      data: page(post.title, `<article>\n<h1>${text(post.title)}</h1>\n<p>${time}</p>\n${excerpt}\n</article>`),
    };
  }
}
