/**
 * The embeds and pages in a real browser: Debian's Chromium (installed by the project's own
 * setup when missing) loads them from a real listening server. Each embed style, for a normal
 * company, one with no complaints and one with a long hostile name, is rendered at the size the
 * README documents, on its own and framed by a page of another origin, and must show its text
 * inside the frame, overflow nothing, paint something, and log no error or CSP violation.
 */
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDist } from "../../build/build.ts";
import { startServer, type RunningServer } from "../../server/listen.ts";
import { countInkPixels, cropImage, decodePng, launchBrowser, measureLayout, watchProblems, type Layout } from "../helpers/browser.ts";
import { expectedCard, expectedCompanies } from "../helpers/expected.ts";
import { FIXTURE_SQL, createSnapshot, makeTempDir } from "../helpers/fixture.ts";
import { checkHtml } from "../helpers/html-check.ts";
import { listFiles, readDistFile } from "../helpers/links.ts";

/** docs/site-owners.md's table: the iframe size each style is laid out for. */
const SIZES = { badge: [260, 32], "counter-dark": [180, 100], "counter-light": [180, 100], "banner-dark": [468, 60], "banner-light": [468, 60] } as const;
const STYLES = Object.keys(SIZES) as (keyof typeof SIZES)[];

/** A company whose name is long, markup, right-to-left override, wide characters and a bell, with 12 345 complaints. */
const LONG_HOSTILE = `
  INSERT INTO companies (id, name, slug, category, website, created_at) VALUES
    (60, 'Международная <script>alert(1)</script> & "Ｗｉｄｅ 広告ネットワーク" Supercalifragilisticexpialidociousaffiliatenetwork ‮reversed' || char(7) || ' tail', 'long-hostile', 'crypto', NULL, '2024-01-01T00:00:00Z');
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12345)
  INSERT INTO reports (id, username, category, company_id, person_id, reporter, confidence, created_at)
    SELECT 1000 + i, NULL, 'crypto', 60, NULL, 'bulk' || (i % 97), 50, strftime('%Y-%m-%dT%H:%M:%SZ', '2026-03-11T09:00:00Z', '-' || (i % 10) || ' days') FROM n;`;
const COMPANIES = [
  { label: "a normal company", slug: "alpha-leads" },
  { label: "a company with no complaints", slug: "zero-co" },
  { label: "a long hostile name", slug: "long-hostile" },
];

let dir: string;
let dist: string;
let server: RunningServer;
let base: string;
let framer: Server;
let framerUrl: string;
let browser: Browser;
let sql: Database.Database;

function listen(s: Server): Promise<number> {
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve((s.address() as AddressInfo).port)));
}

beforeAll(async () => {
  // Installing Chromium (apt-get) can take minutes on a fresh machine; that is the only slow part.
  browser = await launchBrowser();
  dir = makeTempDir("embed-browser");
  const db = createSnapshot(dir, FIXTURE_SQL + LONG_HOSTILE);
  sql = new Database(db, { readonly: true });
  // The build's URLs must be the listening server's own, so pages load their badges from it.
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  dist = join(dir, "dist");
  base = `http://127.0.0.1:${port}`;
  buildDist({ db, out: dist, baseUrl: base, progress: null });
  server = await startServer({ dist, port, host: "127.0.0.1" });
  framer = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    // /violation: a page whose own policy refuses its inline style, to prove violations are heard.
    res.end(req.url === "/violation" ? `<!doctype html><meta http-equiv="Content-Security-Policy" content="style-src 'none'"><style>p{color:red}</style><p>x</p>` : renderFramingPage());
  });
  framerUrl = `http://localhost:${await listen(framer)}/`;
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  framer?.close();
  sql?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** docs/site-owners.md's copy-paste snippet for every style and company, on a page of another origin. */
function renderFramingPage(): string {
  const frames = COMPANIES.flatMap(({ slug }) =>
    STYLES.map((style) => {
      const [width, height] = SIZES[style];
      return `<p><iframe src="${base}/embed/${style}/${slug}" width="${width}" height="${height}" title="${slug} ${style}" loading="lazy" scrolling="no" style="border:0;overflow:hidden"></iframe></p>`;
    }),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Framing test</title><style>body{margin:8px}p{margin:0 0 8px}iframe{display:block}</style></head><body>${frames.join("")}</body></html>`;
}

/** What the embed must show, from the snapshot by SQL: name (control characters dropped), complaints, trend, 7-day figure. */
function expectedTexts(slug: string): { name: string; texts: string[] } {
  const company = expectedCompanies(sql).find((c) => c.slug === slug)!;
  const weekTrend = expectedCard(sql, company).week_trend as number;
  const whole = Math.sign(weekTrend) * Math.floor(Math.abs(weekTrend) + 0.5);
  const count = (n: number) => n.toLocaleString("en-US");
  return {
    name: company.name.replace(/[\u0000-\u001f]/g, ""),
    texts: [count(company.n), `${whole < 0 ? "-" : "+"}${Math.abs(whole)}%`, `${count(company.cur)} in 7 days`],
  };
}

/** Everything the layout must satisfy at its size; returns the problems found, so a failure lists all of them. */
function findLayoutProblems(layout: Layout, name: string): string[] {
  const problems: string[] = [];
  const { viewport: v, document: d } = layout;
  if (d.scrollWidth > d.clientWidth || d.scrollHeight > d.clientHeight) problems.push(`document ${d.scrollWidth}×${d.scrollHeight} overflows ${d.clientWidth}×${d.clientHeight}`);
  for (const t of layout.texts) {
    const { x, y, width, height } = t.box;
    if (width <= 0 || height <= 0) problems.push(`${t.tag} "${t.text}" has an empty box`);
    if (x < -0.5 || y < -0.5 || x + width > v.width + 0.5 || y + height > v.height + 0.5) problems.push(`${t.tag} "${t.text}" at ${x},${y} ${width}×${height} leaves the ${v.width}×${v.height} frame`);
    if (t.inline) continue;
    // Only the name may be cut, and only with an ellipsis; figures must show whole.
    if (t.text === name && !t.ellipsis) problems.push("the name is not set to end in an ellipsis");
    if (t.text !== name && (t.scrollWidth > t.clientWidth || t.scrollHeight > t.clientHeight)) problems.push(`${t.tag} "${t.text}" overflows its box`);
  }
  if (layout.scripts > 0) problems.push(`${layout.scripts} script elements`);
  return problems;
}

async function renderEmbed(page: Page, style: keyof typeof SIZES, slug: string) {
  const response = await page.goto(`${base}/embed/${style}/${slug}`);
  const layout = await measureLayout(page.mainFrame());
  const image = decodePng(await page.screenshot());
  return { response: response!, layout, image };
}

describe.each(STYLES)("the %s embed", (style) => {
  const [width, height] = SIZES[style];
  it.each(COMPANIES)(`shows $label whole and visible inside ${width}×${height}`, async ({ slug }) => {
    const page = await browser.newPage({ viewport: { width, height } });
    const problems = watchProblems(page);
    try {
      const { response, layout, image } = await renderEmbed(page, style, slug);
      expect(response.status()).toBe(200);
      expect(response.headers()["content-security-policy"]).toContain("frame-ancestors *");
      expect(response.headers()["x-frame-options"]).toBeUndefined();
      const { name, texts } = expectedTexts(slug);
      expect(layout.texts.map((t) => t.text)).toContain(name);
      for (const text of style === "badge" ? texts.slice(0, 1) : texts) expect(layout.text).toContain(text);
      expect(findLayoutProblems(layout, name)).toEqual([]);
      expect(countInkPixels(image)).toBeGreaterThan(100);
      for (const t of layout.texts.filter((t) => !t.inline)) expect(countInkPixels(cropImage(image, t.box)), `ink under "${t.text}"`).toBeGreaterThan(5);
      expect(layout.links).toEqual([{ href: `${base}/company/${slug}`, target: "_blank", rel: "noopener noreferrer" }]);
      if (slug === "long-hostile") {
        const cut = layout.texts.find((t) => t.text === name)!;
        expect(cut.scrollWidth, "the long name is cut").toBeGreaterThan(cut.clientWidth);
      }
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

/** axe-core's rules, run in the page (its CSP bypassed for the audit script alone). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

describe("an embed opened on its own (its iframe's URL followed)", () => {
  const cases: [keyof typeof SIZES, string][] = [...STYLES.map((style): [keyof typeof SIZES, string] => [style, "alpha-leads"]), ["badge", "no-such-company"]];
  it.each(cases)("%s of %s passes axe-core with no violation", async (style, slug) => {
    const [width, height] = SIZES[style];
    const page = await browser.newPage({ viewport: { width, height }, bypassCSP: true });
    try {
      await page.goto(`${base}/embed/${style}/${slug}`);
      await page.evaluate(AXE_SOURCE);
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe;
        return (await axe.run(document)).violations.map((v) => `${v.id} (${v.nodes.length})`);
      });
      expect(violations).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe("embeds framed by another origin", () => {
  it("load under their CSP in the documented iframe snippet and show their text", async () => {
    const page = await browser.newPage({ viewport: { width: 600, height: 1400 } });
    const problems = watchProblems(page);
    try {
      await page.goto(framerUrl);
      await expect.poll(() => page.frames().length).toBe(1 + COMPANIES.length * STYLES.length);
      const frames = page.frames().filter((f) => f !== page.mainFrame());
      for (const frame of frames) {
        await frame.waitForLoadState("load");
        const [, style, slug] = new URL(frame.url()).pathname.match(/^\/embed\/([^/]+)\/([^/]+)$/)!;
        const [width, height] = SIZES[style as keyof typeof SIZES];
        const layout = await measureLayout(frame);
        expect(layout.viewport, frame.url()).toEqual({ width, height });
        const { name, texts } = expectedTexts(slug!);
        expect(layout.texts.map((t) => t.text), frame.url()).toContain(name);
        expect(layout.text, frame.url()).toContain(texts[0]);
        expect(findLayoutProblems(layout, name), frame.url()).toEqual([]);
        const shot = decodePng(await (await frame.frameElement()).screenshot());
        expect(countInkPixels(shot), frame.url()).toBeGreaterThan(100);
      }
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe("the problem watcher", () => {
  it("hears a CSP violation, so a clean run means there was none", async () => {
    const page = await browser.newPage();
    const problems = watchProblems(page);
    try {
      await page.goto(`${framerUrl}violation`);
      await expect.poll(() => problems.join("\n")).toContain("Content Security Policy");
    } finally {
      await page.close();
    }
  });
});

describe("site pages in the browser", () => {
  it.each(["/", "/company/bold-co", "/company/long-hostile", "/docs", "/chats/hostile_chat", "/people/ivan-petrov"])("render %s with no error, wide or narrow", async (path) => {
    for (const viewport of [{ width: 1024, height: 768 }, { width: 360, height: 740 }]) {
      const page = await browser.newPage({ viewport });
      const problems = watchProblems(page);
      try {
        const response = await page.goto(`${base}${path}`);
        expect(response!.status()).toBe(200);
        const layout = await measureLayout(page.mainFrame());
        expect(layout.document.scrollWidth, `${path} fits ${viewport.width}px`).toBeLessThanOrEqual(layout.document.clientWidth);
        expect(layout.scripts).toBe(0);
        const heading = layout.texts.find((t) => t.tag === "bdi" || t.tag === "h1")!;
        expect(heading.box.width).toBeGreaterThan(0);
        expect(countInkPixels(decodePng(await page.screenshot()))).toBeGreaterThan(500);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });

  it("parse in Chromium to exactly the elements their source opens, for every HTML file of the build", async () => {
    const page = await browser.newPage();
    try {
      const files = listFiles(dist).filter((p) => p.endsWith(".html"));
      const sources = files.map((p) => readDistFile(dist, p));
      const counts = await page.evaluate((htmls) => htmls.map((html) => new DOMParser().parseFromString(html, "text/html").getElementsByTagName("*").length), sources);
      const mismatches = files.filter((_, i) => counts[i] !== checkHtml(sources[i]!).elementCount);
      expect(files.length).toBeGreaterThan(60);
      expect(mismatches).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
