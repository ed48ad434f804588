/**
 * The pictures of the site owners' guide (docs/site-owners.md): each state of the badge, the card,
 * the chat badge and one picture per embed style, taken from the files of a build of the test
 * fixture (test/fixtures/snapshot.sql), so each picture is what the build writes, not a drawing
 * of it. `npm run docs:pictures` (cli/docs-pictures.ts) writes them to docs/images/, and
 * test/build/doc-pictures.test.ts fails while a committed one differs from a fresh one.
 *
 * The fixture, not a generated sample: its rows are hand-written and explained by the tests, so a
 * picture changes only when the rendering or the fixture does, and its Alpha Leads is the company
 * the guide's snippets name.
 */
import { EMBED_SIZES, EMBED_STYLES, type EmbedStyle } from "../core/embed-sizes.ts";
import { getRouteFile } from "../core/routes/match.ts";
import { NOT_FOUND_BADGE_FILE } from "../core/routes/table.ts";
import { BADGE_COLORS } from "../core/svg/badge.ts";
import { buildInMemory } from "./build.ts";
import { BuildError } from "./errors.ts";

/** Where the pictures go, from the project's root; the guide links them as `images/…`. */
export const DOC_PICTURES_DIR = "docs/images";

/** The base URL the fixture is built with for the pictures: the guide's own (its snippets name it). */
export const DOC_PICTURES_BASE_URL = "https://api.example.org";

/** The company of the card and the embeds: the one the guide's snippets show. */
const SNIPPET_COMPANY = "alpha-leads";

export interface DocPicture {
  /** Its file name in docs/images/. */
  file: string;
  /** The build's file it is taken from. */
  from: string;
  /** An embed, drawn as an SVG of its size (drawEmbedPicture); anything else is an SVG, taken as it is. */
  embed?: EmbedStyle;
  /**
   * What the build must say of the thing pictured for the picture to show its state (a field of
   * one of its JSON files): a fixture edit that turns the amber company red fails the command
   * instead of drawing a red badge named amber.
   */
  shows?: { file: string; field: string; value: unknown };
}

function badge(file: string, slug: string, color: keyof typeof BADGE_COLORS): DocPicture {
  return { file, from: getRouteFile("getBadge", { slug }), shows: { file: getRouteFile("getBadgeJson", { slug }), field: "color", value: BADGE_COLORS[color] } };
}

function chatBadge(file: string, username: string, isProtected: boolean): DocPicture {
  return { file, from: getRouteFile("getChatBadge", { username }), shows: { file: getRouteFile("getChatStatus", { username }), field: "protected", value: isProtected } };
}

/** Every picture, in the guide's order. */
export const DOC_PICTURES: readonly DocPicture[] = [
  badge("badge-green.svg", "zero-co", "green"),
  badge("badge-amber.svg", "beta-partnery", "amber"),
  badge("badge-red.svg", SNIPPET_COMPANY, "red"),
  { file: "badge-not-found.svg", from: NOT_FOUND_BADGE_FILE },
  { file: "card.svg", from: getRouteFile("getCard", { slug: SNIPPET_COMPANY }) },
  chatBadge("chat-badge-protected.svg", "traders_chat", true),
  chatBadge("chat-badge-not-protected.svg", "lapsed_chat", false),
  ...EMBED_STYLES.map((style) => ({ file: `embed-${style}.svg`, from: getRouteFile("getEmbed", { style, slug: SNIPPET_COMPANY }), embed: style })),
];

/** Each picture's file name and text, from a build of the snapshot `db` (in memory: nothing is written). */
export function drawDocPictures(db: string): Map<string, string> {
  const { files } = buildInMemory({ db, baseUrl: DOC_PICTURES_BASE_URL, progress: null });
  const read = (path: string): string => {
    const data = files.get(path);
    if (!data) throw new BuildError(`the build of ${db} wrote no ${path}: pick another key in build/doc-pictures.ts`);
    return data.toString("utf8");
  };
  const pictures = new Map<string, string>();
  for (const picture of DOC_PICTURES) {
    if (picture.shows) {
      const { file, field, value } = picture.shows;
      const found = (JSON.parse(read(file)) as Record<string, unknown>)[field];
      if (found !== value) throw new BuildError(`${picture.file}: ${file} has ${field} ${JSON.stringify(found)}, not ${JSON.stringify(value)}: pick another key in build/doc-pictures.ts`);
    }
    const text = read(picture.from);
    pictures.set(picture.file, picture.embed ? drawEmbedPicture(text, picture.embed) : text);
  }
  return pictures;
}

const XHTML = "http://www.w3.org/1999/xhtml";
const SVG = "http://www.w3.org/2000/svg";

/**
 * An embed document as a standalone SVG of the embed's size: its own stylesheet and body as XHTML
 * in a `<foreignObject>`, so that an `<img>` (a Markdown image on a git host) shows the widget as
 * its iframe does, laid out by the viewer's browser with its own fonts, like the iframe. Left out
 * is what an image has no use for: the head's meta tags (CSP, robots, referrer), the icon and the
 * title (the picture has its own). The link stays, inert. XML wants what HTML parsing forgives:
 * the template's markup is well-formed already (every element closed, every text and attribute
 * through the one escaper), but the inline `<svg>` of the bars must name its namespace.
 */
export function drawEmbedPicture(html: string, style: EmbedStyle): string {
  const part = (name: string, pattern: RegExp): string => {
    const match = pattern.exec(html);
    if (!match) throw new BuildError(`drawing the ${style} embed: its document has no ${name} (build/html/embed.ts changed its shape?)`);
    return match[1]!;
  };
  const lang = part("<html lang>", /<html lang="([^"]*)">/);
  const title = part("<title>", /<title>([^<]*)<\/title>/);
  const css = part("<style>", /<style>([^<]*)<\/style>/);
  const body = part("<body>", /(<body>[\s\S]*<\/body>)/).replace(/<svg(?=[\s>])/g, `<svg xmlns="${SVG}"`);
  const { width, height } = EMBED_SIZES[style];
  // The title is the embed's, escaped by its template already, so it goes in as it is.
  const label = `${title}, the ${style} embed (${width}×${height})`;
  return (
    `<svg xmlns="${SVG}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}"><title>${label}</title>` +
    `<foreignObject width="${width}" height="${height}"><html xmlns="${XHTML}" lang="${lang}"><head><style>${css}</style></head>${body}</html></foreignObject></svg>\n`
  );
}
