/**
 * The guide's embed pictures in a real browser: each, shown as an `<img>` the way a Markdown image
 * is, must paint exactly the pixels its embed document paints at the embed's size — so the
 * picture in docs/site-owners.md is the widget, not a likeness of it (build/doc-pictures.ts).
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInMemory } from "../../build/build.ts";
import { DOC_PICTURES, DOC_PICTURES_BASE_URL, drawEmbedPicture } from "../../build/doc-pictures.ts";
import { EMBED_SIZES } from "../../core/embed-sizes.ts";
import { countInkPixels, decodePng, launchBrowser, type Image } from "../helpers/browser.ts";
import { FIXTURE_SQL, withSnapshot } from "../helpers/fixture.ts";

const EMBEDS = DOC_PICTURES.filter((picture) => picture.embed);

let browser: Browser;
let page: Page;
let files: Map<string, Buffer>;

beforeAll(async () => {
  // Installing Chromium (apt-get) can take minutes on a fresh machine; that is the only slow part.
  browser = await launchBrowser();
  page = await browser.newPage();
  files = withSnapshot("doc-pictures-browser", FIXTURE_SQL, (db) => buildInMemory({ db, baseUrl: DOC_PICTURES_BASE_URL, progress: null }).files);
}, 600_000);

afterAll(async () => {
  await browser?.close();
});

async function shoot(html: string): Promise<Image> {
  await page.setContent(html);
  return decodePng(await page.screenshot());
}

describe("an embed's picture in a browser", () => {
  it.each(EMBEDS)("$file paints what its embed paints at its size", async ({ from, embed }) => {
    const { width, height } = EMBED_SIZES[embed!];
    const html = files.get(from)!.toString("utf8");
    await page.setViewportSize({ width, height });
    const framed = await shoot(html);
    const picture = drawEmbedPicture(html, embed!);
    const shown = await shoot(`<body style="margin:0"><img style="display:block" src="data:image/svg+xml;base64,${Buffer.from(picture).toString("base64")}"></body>`);
    expect(await page.evaluate(() => [document.images[0]!.naturalWidth, document.images[0]!.naturalHeight])).toEqual([width, height]);
    expect(countInkPixels(shown)).toBeGreaterThan(500);
    expect(shown.pixels.equals(framed.pixels), "the picture's pixels differ from the embed's").toBe(true);
  });
});
