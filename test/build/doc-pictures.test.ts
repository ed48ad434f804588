/**
 * The site owners' guide's pictures cannot drift: drawn again from a build of the fixture, each
 * must be its committed file in docs/images/ byte for byte, an SVG that parses as XML, and shown
 * by docs/site-owners.md with its own accessible name as alt text; the guide shows no other.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DOC_PICTURES, DOC_PICTURES_DIR, drawDocPictures, drawEmbedPicture } from "../../build/doc-pictures.ts";
import { EMBED_SIZES } from "../../core/embed-sizes.ts";
import { BADGE_COLORS } from "../../core/svg/badge.ts";
import { FIXTURE_SQL, withSnapshot } from "../helpers/fixture.ts";

const ROOT = join(import.meta.dirname, "../..");
const GUIDE = "docs/site-owners.md";
const FILES = DOC_PICTURES.map((picture) => picture.file);
const RUN = "run npm run docs:pictures";
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", parseTagValue: false, htmlEntities: true });

interface Svg {
  "@width": string;
  "@height": string;
  "@role": string;
  "@aria-label": string;
  title: string;
  foreignObject?: { "@width": string; "@height": string; html: { "@xmlns": string } };
}

let drawn: Map<string, string>;

beforeAll(() => {
  drawn = withSnapshot("doc-pictures", FIXTURE_SQL, drawDocPictures);
});

function readCommitted(file: string): string | null {
  try {
    return readFileSync(join(ROOT, DOC_PICTURES_DIR, file), "utf8");
  } catch {
    return null;
  }
}

/** Each image of the guide (`![alt](images/file)`) as its alt text and file. */
function listGuideImages(): { alt: string; file: string }[] {
  const guide = readFileSync(join(ROOT, GUIDE), "utf8");
  return [...guide.matchAll(/!\[([^\]]*)\]\(images\/([^)\s]+)\)/g)].map((m) => ({ alt: m[1]!, file: m[2]! }));
}

describe("the guide's pictures", () => {
  it("are drawn, one per entry of the list", () => {
    expect([...drawn.keys()]).toEqual(FILES);
  });

  it.each(FILES)("%s is committed as a fresh build draws it", (file) => {
    const committed = readCommitted(file);
    expect(committed, `${DOC_PICTURES_DIR}/${file} is missing: ${RUN}`).not.toBeNull();
    expect(committed === drawn.get(file), `${DOC_PICTURES_DIR}/${file} is not what the build draws: ${RUN}`).toBe(true);
  });

  it(`are all of ${DOC_PICTURES_DIR}/`, () => {
    expect(readdirSync(join(ROOT, DOC_PICTURES_DIR)).sort(), `${DOC_PICTURES_DIR}/ is not the list of pictures: ${RUN}`).toEqual([...FILES].sort());
  });

  it.each(FILES)("%s is one accessible SVG image that parses as XML", (file) => {
    const text = drawn.get(file)!;
    expect(XMLValidator.validate(text)).toBe(true);
    const svg = (parser.parse(text) as { svg: Svg }).svg;
    expect(svg["@role"]).toBe("img");
    expect(svg["@aria-label"]).toBe(svg.title);
  });

  it.each(DOC_PICTURES.filter((picture) => picture.embed))("$file holds its embed's document at the embed's size", ({ file, embed }) => {
    const svg = (parser.parse(drawn.get(file)!) as { svg: Svg }).svg;
    const { width, height } = EMBED_SIZES[embed!];
    expect([svg["@width"], svg["@height"], svg.foreignObject?.["@width"], svg.foreignObject?.["@height"]]).toEqual([width, height, width, height].map(String));
    expect(svg.foreignObject?.html["@xmlns"]).toBe("http://www.w3.org/1999/xhtml");
    // Nothing of the head an image cannot use, and nothing that runs or loads.
    expect(drawn.get(file)).not.toMatch(/<meta|<link|<script|\son[a-z]+=|\ssrc=/i);
  });
});

describe(`${GUIDE}`, () => {
  it("shows every picture, each under its own accessible name, and no other image of images/", () => {
    const images = listGuideImages();
    expect([...new Set(images.map((image) => image.file))].sort(), `${GUIDE} and ${DOC_PICTURES_DIR}/ disagree`).toEqual([...FILES].sort());
    for (const { alt, file } of images) {
      const svg = (parser.parse(drawn.get(file)!) as { svg: Svg }).svg;
      expect(alt, `the alt text of images/${file} in ${GUIDE}`).toBe(svg.title);
    }
  });
});

describe("drawing the pictures", () => {
  it("refuses a fixture in which a picture no longer shows its state", () => {
    // Zero Co's first complaint: its badge turns red (rising from none), and the green picture may not be drawn from it.
    const zeroCoComplaint = "INSERT INTO reports (id, username, category, company_id, person_id, reporter, confidence, created_at) VALUES (900, NULL, 'tools', 3, NULL, 'r99', 50, '2026-03-10T08:00:00Z');";
    expect(() => withSnapshot("doc-pictures-state", FIXTURE_SQL + zeroCoComplaint, drawDocPictures)).toThrow(
      `badge-green.svg: api/badge/zero-co.json has color "${BADGE_COLORS.red}", not "${BADGE_COLORS.green}"`,
    );
  });

  it.each([
    ["no <style>", "<!doctype html><html lang=\"en\"><head><title>x</title></head><body></body></html>"],
    ["no <body>", "<!doctype html><html lang=\"en\"><head><title>x</title><style>a{}</style></head></html>"],
    ["no <title>", "<!doctype html><html lang=\"en\"><head><style>a{}</style></head><body></body></html>"],
  ])("refuses an embed document with %s", (missing, html) => {
    expect(() => drawEmbedPicture(html, "badge")).toThrow(`its document has ${missing}`);
  });
});
