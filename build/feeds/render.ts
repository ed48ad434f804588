/**
 * One feed in three formats with the `feed` package: RSS 2.0, Atom 1.0 and JSON Feed 1.1.
 *
 * What `feed` 6 does not do for us, and why each string is prepared here first:
 * - It reads the clock when `updated` is missing (RSS lastBuildDate, Atom updated): we always
 *   pass `as_of`, and no generator text, so two builds give the same bytes.
 * - Its XML writer (xml-js) drops no control characters, which XML 1.0 cannot carry: every
 *   string loses them here.
 * - Item titles and summaries go into CDATA sections, and xml-js breaks only the first `]]>`
 *   of a section: our HTML never contains a raw `>` outside its own tags (names are escaped),
 *   and `]]>` is still rewritten as `]]&gt;`, which HTML reads as the same text.
 * - Plain text nodes are escaped after turning every `&amp;` back into `&` (to avoid double
 *   escaping), which would change a literal "&amp;" in our data: escaping `&` ourselves first
 *   makes that step a no-op. Attributes get only `"` escaped, so no data goes into one except
 *   URLs (which `feed` parses and re-serialises) and category enum values.
 * - The channel's title, description and rights carry snapshot text (`meta.source`, in the credit
 *   line) and readers show them as HTML, as they do item titles: RSS has no way to say otherwise,
 *   and many readers ignore Atom's default `type="text"`. So they are escaped HTML, like item
 *   titles, and Atom says `type="html"` (`feed` writes its feed-level title, subtitle and rights as
 *   given, so they are given in xml-js's element form); either reading shows the literal text.
 *   The Atom author's name cannot say it is HTML (a person construct is text): it stays text.
 * - Its JSON Feed says version 1 and uses the 1.0 `author`: we upgrade it to 1.1 (`authors`,
 *   `language`) and add the licence as a `_license` extension (JSON Feed has no rights field).
 */
import { Feed, type FeedOptions, type Item } from "feed";
import { escapeMarkup, removeControlCharacters } from "../../core/escape.ts";
import { LICENSE, type Credit } from "../dump/credit.ts";
import type { FeedEntry } from "./entries.ts";

export interface FeedSpec {
  title: string;
  /** Plain text: what the feed lists. The credit line is added to it. */
  description: string;
  links: { home: string; rss: string; atom: string; json: string };
  updatedMs: number;
  credit: Credit;
  entries: FeedEntry[];
}

export interface RenderedFeed {
  rss: string;
  atom: string;
  json: string;
}

const LANGUAGE = "en";

/** Text for an xml-js text node (see above: `&` escaped once by us, the rest by xml-js). */
const toXmlText = (text: string) => removeControlCharacters(text).replace(/&/g, "&amp;");
/** HTML for a CDATA section. */
const toCdata = (html: string) => removeControlCharacters(html).replaceAll("]]>", "]]&gt;");

/** Escaped HTML as an RSS text node (readers show it as HTML). */
const toRssHtml = (text: string) => toXmlText(escapeMarkup(text));
/** Escaped HTML as an Atom text construct that says so, in the element form `feed` passes through to xml-js. */
const toAtomHtml = (text: string) => ({ _attributes: { type: "html" }, _cdata: toCdata(escapeMarkup(text)) }) as unknown as string;

type Target = "rss" | "atom" | "json";

/** How each target carries the channel's text fields (see above). */
const CHANNEL_TEXT: Record<Target, (text: string) => string> = { rss: toRssHtml, atom: toAtomHtml, json: removeControlCharacters };

export function renderFeed(spec: FeedSpec): RenderedFeed {
  return { rss: createFeed(spec, "rss").rss2() + "\n", atom: createFeed(spec, "atom").atom1() + "\n", json: renderJsonFeed(spec) };
}

function createFeed(spec: FeedSpec, target: Target): Feed {
  const text = CHANNEL_TEXT[target];
  const updated = new Date(spec.updatedMs);
  const options: FeedOptions = {
    id: spec.links.atom,
    title: text(spec.title),
    description: text(`${spec.description} ${spec.credit.line}`),
    link: spec.links.home,
    feedLinks: { rss: spec.links.rss, atom: spec.links.atom, json: spec.links.json },
    language: LANGUAGE,
    updated,
    generator: false,
    copyright: text(spec.credit.rights),
    author: { name: target === "json" ? removeControlCharacters(spec.credit.source) : toXmlText(spec.credit.source), link: spec.credit.home },
  };
  const feed = new Feed(options);
  for (const entry of spec.entries) {
    const date = new Date(entry.dateMs);
    const item: Item = {
      id: entry.id,
      guid: entry.id,
      link: entry.link,
      date,
      published: date,
      // Atom and RSS readers treat these titles as HTML; JSON Feed titles are plain text.
      title: target === "json" ? removeControlCharacters(entry.title) : toCdata(escapeMarkup(entry.title)),
      description: target === "json" ? removeControlCharacters(entry.html) : toCdata(entry.html),
      category: entry.categories.map((category) => ({ name: category, term: category })),
    };
    feed.addItem(item);
  }
  return feed;
}

function renderJsonFeed(spec: FeedSpec): string {
  const { author, ...rest } = JSON.parse(createFeed(spec, "json").json1()) as Record<string, unknown>;
  const upgraded = {
    ...rest,
    version: "https://jsonfeed.org/version/1.1",
    language: LANGUAGE,
    authors: [author],
    _license: { about: "https://spdx.org/licenses/CC-BY-4.0.html", name: LICENSE.id, url: LICENSE.url, credit: removeControlCharacters(spec.credit.line) },
  };
  return JSON.stringify(upgraded) + "\n";
}
