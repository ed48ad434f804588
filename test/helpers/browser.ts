/**
 * Headless Chromium for the browser tests: Debian's package (installed by
 * test/helpers/ensure-chromium.ts when missing) driven by playwright-core, which never downloads a
 * browser of its own. Also the measuring tools: console problems of a page, the layout of every
 * text element in a frame, and a PNG decoder (node:zlib only) to prove a screenshot is not blank.
 */
import { inflateSync } from "node:zlib";
import { chromium, type Browser, type Frame, type Page } from "playwright-core";
import { CHROMIUM_ARGS, ensureChromium } from "./ensure-chromium.ts";

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS, headless: true });
}

/** Collects what a page reports as wrong: console errors and warnings (CSP violations among them), script errors, failed or 4xx/5xx loads. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`console ${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => problems.push(`failed: ${request.url()} (${request.failure()?.errorText})`));
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return problems;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TextElement {
  tag: string;
  text: string;
  box: Box;
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  clientHeight: number;
  /** Cut with an ellipsis by design (text-overflow: ellipsis on a box that hides overflow). */
  ellipsis: boolean;
  /** Inline boxes have no client size; their box is what counts. */
  inline: boolean;
}

export interface Layout {
  viewport: { width: number; height: number };
  document: { scrollWidth: number; clientWidth: number; scrollHeight: number; clientHeight: number };
  texts: TextElement[];
  links: { href: string; target: string; rel: string }[];
  /** Script elements in the document: our pages have none, so any is markup that escaped escaping. */
  scripts: number;
  /** The whole visible text. */
  text: string;
}

/** Every element that holds text of its own, with its box and scroll sizes, measured in the frame. */
export function measureLayout(frame: Frame): Promise<Layout> {
  return frame.evaluate(() => {
    const root = document.documentElement;
    const texts = Array.from(document.body.querySelectorAll("*"))
      .filter((el) => Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? "").trim() !== ""))
      // Text for screen readers only (clipped away, `.vh`) is no part of what is shown.
      .filter((el) => getComputedStyle(el).clipPath !== "inset(50%)")
      .map((el) => {
        const style = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        return {
          tag: el.tagName.toLowerCase(),
          text: (el as HTMLElement).innerText,
          box: { x: r.x, y: r.y, width: r.width, height: r.height },
          scrollWidth: el.scrollWidth,
          clientWidth: el.clientWidth,
          scrollHeight: el.scrollHeight,
          clientHeight: el.clientHeight,
          ellipsis: style.textOverflow === "ellipsis" && style.overflowX === "hidden",
          inline: style.display === "inline",
        };
      });
    const links = Array.from(document.querySelectorAll("a")).map((a) => ({ href: a.href, target: a.target, rel: a.rel }));
    return {
      viewport: { width: window.innerWidth, height: window.innerHeight },
      document: { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, scrollHeight: root.scrollHeight, clientHeight: root.clientHeight },
      texts,
      links,
      scripts: document.getElementsByTagName("script").length,
      text: document.body.innerText,
    };
  });
}

export interface Image {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  pixels: Buffer;
}

/** Decodes the 8-bit, non-interlaced RGB or RGBA PNGs that Chromium's screenshots are. */
export function decodePng(png: Buffer): Image {
  if (png.subarray(0, 8).toString("hex") !== "89504e470d0a1a0a") throw new Error("not a PNG");
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const chunk = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = chunk.readUInt32BE(0);
      height = chunk.readUInt32BE(4);
      const [depth, colour, , , interlace] = chunk.subarray(8, 13);
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6)) throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === "IDAT") data.push(chunk);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = Buffer.alloc(width * height * 4, 255);
  let previous = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? line[i - channels]! : 0;
      const up = previous[i]!;
      const upLeft = i >= channels ? previous[i - channels]! : 0;
      const add = filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : filter === 4 ? paeth(left, up, upLeft) : 0;
      line[i] = (line[i]! + add) & 255;
    }
    for (let x = 0; x < width; x++) line.copy(out, (y * width + x) * 4, x * channels, x * channels + channels);
    previous = line;
  }
  return { width, height, pixels: out };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Pixels that differ from the image's most common colour: 0 for a blank (single-colour) render. */
export function countInkPixels({ pixels }: Image): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < pixels.length; i += 4) {
    const colour = pixels.readUInt32BE(i);
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  const background = counts.size ? Math.max(...counts.values()) : 0;
  return pixels.length / 4 - background;
}

/** The part of `image` under `box` (CSS pixels at device scale 1), clamped to the image. */
export function cropImage(image: Image, box: Box): Image {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(image.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(image.height, Math.ceil(box.y + box.height));
  const width = Math.max(0, x1 - x0);
  const height = Math.max(0, y1 - y0);
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) image.pixels.copy(pixels, y * width * 4, ((y0 + y) * image.width + x0) * 4, ((y0 + y) * image.width + x1) * 4);
  return { width, height, pixels };
}
