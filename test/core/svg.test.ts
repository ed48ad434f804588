/**
 * SVG badges and cards: the width table, then every SVG of the fixture build through a real XML
 * parser (accessible, escaped, no control characters, no text wider than its box), then golden
 * files per style (regenerate with UPDATE_GOLDEN=1 after a deliberate change, and review the diff).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BADGE_COLORS, renderCompanyBadge } from "../../core/svg/badge.ts";
import { CARD_COLORS, CARD_HEIGHT, CARD_WIDTH, renderCompanyCardSvg } from "../../core/svg/card.ts";
import { measureTenths, measureText, truncateToWidth } from "../../core/svg/text-width.ts";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";

const GOLDEN = fileURLToPath(new URL("../golden/", import.meta.url));
/** Control characters: what XML 1.0 cannot carry (tab, newline and carriage return aside), and C1. */
const XML_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const HOSTILE_NAME = '日本語 😀👨‍👩‍👧 <script>alert("x")</script> & \'Ünïcödé\'\u0007\u001b\u0085\u009b Кириллица \u202eevil, a name far too long for any card';

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("svg");
});
afterAll(() => fixture.cleanup());

describe("the width table", () => {
  it.each([
    ["", 0],
    ["A", 75],
    ["Verdana", 75 + 66 + 47 + 69 + 66 + 70 + 66],
    ["Émile", 70 + 110 + 30 + 30 + 66],
    ["Привет", 83 + 69 + 70 + 65 + 66 + 55],
    ["Ω", 90],
    ["日本", 2 * 110],
    ["Ａ", 110],
    ["😀", 140],
    ["👍🏽", 2 * 140],
    ["e\u0301", 66],
    ["\u0410\u0483\u00ad", 75],
    ["\u202eevil", 66 + 65 + 30 + 30],
    ["a\u200db", 66 + 69],
    ["\u0000\u0007\u001b\u007f\u0085", 0],
    ["\ud800", 120],
    ["م", 120],
    ["…", 110],
  ])("measures %j as %i tenths of a pixel at 11px", (text, tenths) => {
    expect(measureTenths(text)).toBe(tenths);
  });

  it("counts code points, so an emoji's surrogate pair is one character", () => {
    expect("😀".length).toBe(2);
    expect(measureTenths("😀😀")).toBe(2 * 140);
  });

  it("scales linearly with the font size", () => {
    expect(measureText("A")).toBe(7.5);
    expect(measureText("A", 22)).toBe(15);
  });

  it.each([
    ["Short", 100, "Short"],
    ["A long company name", 60, "A long c…"],
    ["😀😀😀", 30, "😀…"],
    ["👨\u200d👩\u200d👧", 30, "👨…"],
    ["ee\u0301ee\u0301ee\u0301", 30, "ee\u0301…"],
    ["a b c d e f", 28, "a…"],
    ["Anything", 5, ""],
  ])("cuts %j to %i pixels as %j", (text, width, cut) => {
    expect(truncateToWidth(text, width)).toBe(cut);
    expect(measureText(truncateToWidth(text, width))).toBeLessThanOrEqual(width);
  });
});

interface Element {
  name: string;
  attrs: Record<string, string>;
  children: Element[];
  text: string;
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", preserveOrder: true, trimValues: false, htmlEntities: true, parseAttributeValue: false, parseTagValue: false });

function toElements(nodes: Record<string, unknown>[]): Element[] {
  const out: Element[] = [];
  for (const node of nodes) {
    const name = Object.keys(node).find((k) => k !== ":@")!;
    if (name === "#text") continue;
    const content = node[name] as Record<string, unknown>[];
    const text = content.filter((c) => "#text" in c).map((c) => String(c["#text"])).join("");
    out.push({ name, attrs: (node[":@"] as Record<string, string>) ?? {}, children: toElements(content), text });
  }
  return out;
}

function parseSvg(svg: string): Element {
  expect(XMLValidator.validate(svg)).toBe(true);
  const [root] = toElements(parser.parse(svg));
  expect(root!.name).toBe("svg");
  return root!;
}

/** Every <text> with its inherited font size and anchor, and the left and right edges it is drawn between. */
function findTexts(el: Element, inherited: Record<string, string> = {}): { el: Element; left: number; right: number; width: number }[] {
  const attrs = { ...inherited, ...el.attrs };
  if (el.name === "text") {
    const width = measureText(el.text, Number(attrs["font-size"]));
    const x = Number(attrs.x);
    const anchor = attrs["text-anchor"] ?? "start";
    const left = anchor === "middle" ? x - width / 2 : anchor === "end" ? x - width : x;
    return [{ el, left, right: left + width, width }];
  }
  return el.children.flatMap((child) => findTexts(child, { "font-size": attrs["font-size"] ?? "", "text-anchor": attrs["text-anchor"] ?? "start" }));
}

function listSvgs(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith(".svg")) out.push(relative(root, join(dir, entry.name)).split("\\").join("/"));
    }
  };
  walk(join(root, "api"));
  return out.sort();
}

function expectAccessible(root: Element): void {
  expect(root.attrs.role).toBe("img");
  expect(root.attrs["aria-label"]!.length).toBeGreaterThan(0);
  expect(root.children[0]!.name).toBe("title");
  expect(root.children[0]!.text).toBe(root.attrs["aria-label"]);
}

describe("every SVG of the build", () => {
  const read = (path: string) => readFileSync(join(fixture.dist, path), "utf8");

  it("exists for every company (badge and card) and every chat (badge)", () => {
    const slugs = fixture.sql.prepare("SELECT lower(slug) FROM companies WHERE slug NOT GLOB '*[^A-Za-z0-9._-]*' ORDER BY 1").pluck().all() as string[];
    const chats = fixture.sql.prepare("SELECT lower(ltrim(trim(username), '@')) FROM chats ORDER BY 1").pluck().all() as string[];
    expect(listSvgs(fixture.dist)).toEqual(
      [...slugs.map((s) => `api/badge/${s}.svg`), ...slugs.map((s) => `api/card/${s}.svg`), ...chats.map((c) => `api/chat/${c}/badge.svg`)].sort(),
    );
  });

  it("parses as XML, is one accessible image, and keeps no control character", () => {
    for (const path of listSvgs(fixture.dist)) {
      const svg = read(path);
      expect(XML_CONTROL.test(svg), path).toBe(false);
      expectAccessible(parseSvg(svg));
    }
  });

  it("draws no text wider than its box, and pins each text to its measured width", () => {
    for (const path of listSvgs(fixture.dist)) {
      const root = parseSvg(read(path));
      const width = Number(root.attrs.width);
      const rects = root.children.find((c) => c.attrs["clip-path"])?.children ?? [];
      for (const text of findTexts(root)) {
        expect(Number(text.el.attrs.textLength ?? 0), path).toBeCloseTo(text.width, 1);
        if (path.startsWith("api/card/")) {
          expect(text.left, `${path}: ${text.el.text}`).toBeGreaterThanOrEqual(16);
          expect(text.right, `${path}: ${text.el.text}`).toBeLessThanOrEqual(width - 16 + 0.05);
        } else {
          // A badge text stays inside its own coloured part, 6px from each side.
          const x = Number(text.el.attrs.x);
          const part = rects.find((r) => Number(r.attrs.x ?? 0) <= x && x < Number(r.attrs.x ?? 0) + Number(r.attrs.width) && r.attrs.fill !== "url(#s)")!;
          expect(text.left, path).toBeGreaterThanOrEqual(Number(part.attrs.x ?? 0) + 6 - 0.05);
          expect(text.right, path).toBeLessThanOrEqual(Number(part.attrs.x ?? 0) + Number(part.attrs.width) - 6 + 0.05);
        }
      }
    }
  });

  it("comes out at the documented sizes: cards 340×120, badges 20 high", () => {
    for (const path of listSvgs(fixture.dist)) {
      const { attrs } = parseSvg(read(path));
      if (path.startsWith("api/card/")) expect([attrs.width, attrs.height]).toEqual(["340", "120"]);
      else expect(attrs.height).toBe("20");
    }
  });

  it("escapes hostile names everywhere they land", () => {
    const badge = read("api/badge/bold-co.svg");
    const card = read("api/card/bold-co.svg");
    for (const svg of [badge, card]) {
      expect(svg).toContain("&lt;b&gt;Bold &amp; &quot;Co&quot;&lt;/b&gt;");
      expect(svg).not.toContain("<b>");
    }
    expect(parseSvg(card).attrs["aria-label"]).toMatch(/^<b>Bold & "Co"<\/b>, Other: 1 complaint;/);
    const chat = read("api/chat/hostile_chat/badge.svg");
    expect(chat).toContain("&lt;img src=x onerror=alert(1)&gt; שלום \u202eevil (@hostile_chat)");
    expect(chat).not.toContain("<img");
  });

  it("shows a company without complaints as such", () => {
    const root = parseSvg(read("api/card/also-zero.svg"));
    expect(root.attrs["aria-label"]).toBe("Also Zero, Other: no complaints");
    expect(findTexts(root).map((t) => t.el.text)).toContain("no complaints yet");
    const bars = root.children.filter((c) => c.name === "rect").slice(1);
    expect(bars.map((b) => b.attrs.height)).toEqual(["1", "1", "1", "1", "1", "1", "1"]);
    expect(parseSvg(read("api/badge/also-zero.svg")).attrs["aria-label"]).toBe("Also Zero: no complaints");
  });
});

describe("a hostile, too long name", () => {
  const card = renderCompanyCardSvg({ name: HOSTILE_NAME, categoryLabel: "Other", reportsCount: 1234567, lastSevenDays: [0, 3, 1, 0, 7, 2, 1], trend: "+250%", trendDirection: "up" });
  const badge = renderCompanyBadge({ name: HOSTILE_NAME, reportsCount: 7, trendDirection: "down" });

  it("is cut with an ellipsis by measured width and escaped, with no control character left", () => {
    for (const svg of [card, badge]) {
      expect(XML_CONTROL.test(svg)).toBe(false);
      expect(svg).not.toContain("<script");
      expect(svg).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Ünïcödé&#39;");
    }
    const name = findTexts(parseSvg(card))[0]!;
    expect(name.el.text.endsWith("…")).toBe(true);
    expect(name.width).toBeLessThanOrEqual(CARD_WIDTH - 32);
    expect(parseSvg(card).attrs["aria-label"]).toContain("a name far too long for any card");
  });
});

describe("colours", () => {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const contrastWithWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);

  it("keep white badge text and card text on white at WCAG AA contrast (4.5:1)", () => {
    for (const color of Object.values(BADGE_COLORS)) expect(contrastWithWhite(color), color).toBeGreaterThanOrEqual(4.5);
    for (const color of [CARD_COLORS.text, CARD_COLORS.muted, CARD_COLORS.up, CARD_COLORS.down, CARD_COLORS.flat]) {
      expect(contrastWithWhite(color), color).toBeGreaterThanOrEqual(4.5);
    }
  });
});

function expectGolden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === "1") {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  expect(existsSync(path), `test/golden/${name} is missing: run UPDATE_GOLDEN=1 npx vitest run test/core/svg.test.ts`).toBe(true);
  expect(actual, `test/golden/${name}`).toBe(readFileSync(path, "utf8"));
}

describe("golden files", () => {
  const read = (path: string) => readFileSync(join(fixture.dist, path), "utf8");

  it.each([
    ["badge.svg", "api/badge/alpha-leads.svg"],
    ["badge-no-complaints.svg", "api/badge/also-zero.svg"],
    ["card.svg", "api/card/alpha-leads.svg"],
    ["card-cyrillic.svg", "api/card/beta-partnery.svg"],
    ["card-no-complaints.svg", "api/card/also-zero.svg"],
    ["chat-badge-protected.svg", "api/chat/traders_chat/badge.svg"],
    ["chat-badge-not-protected.svg", "api/chat/quiet_chat/badge.svg"],
    ["badge-not-found.svg", "404.svg"],
  ])("%s matches %s", (golden, path) => {
    expectGolden(golden, read(path));
  });

  it("card-long-hostile-name.svg and badge-long-hostile-name.svg match", () => {
    expectGolden("card-long-hostile-name.svg", renderCompanyCardSvg({ name: HOSTILE_NAME, categoryLabel: "Other", reportsCount: 1234567, lastSevenDays: [0, 3, 1, 0, 7, 2, 1], trend: "+250%", trendDirection: "up" }));
    expectGolden("badge-long-hostile-name.svg", renderCompanyBadge({ name: HOSTILE_NAME, reportsCount: 7, trendDirection: "down" }));
  });

  it("cards are the documented size", () => {
    expect([CARD_WIDTH, CARD_HEIGHT]).toEqual([340, 120]);
  });
});
