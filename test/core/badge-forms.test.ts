/**
 * A company's badge comes in two forms, the SVG (`/api/badge/{slug}.svg`) and shields.io's
 * endpoint JSON (`/api/badge/{slug}.json`): for every company of the fixture build they say the
 * same label and message in the same colours. And the SVG "not found" badge is one accessible
 * image that repeats nothing of the request.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_FOUND_BADGE_FILE } from "../../core/routes/table.ts";
import { BADGE_COLORS, getCompanyBadge, renderCompanyBadge, renderNotFoundBadge } from "../../core/svg/badge.ts";
import { ShieldsEndpointSchema, toShieldsEndpoint, type ShieldsEndpoint } from "../../core/svg/shields-endpoint.ts";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("badge-forms");
});
afterAll(() => fixture.cleanup());

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", htmlEntities: true, parseTagValue: false, trimValues: false });

interface DrawnBadge {
  ariaLabel: string;
  title: string;
  labelFill: string;
  valueFill: string;
  labelText: string;
  valueText: string;
}

/** What a badge SVG draws: its accessible name, the two coloured parts and their texts. */
function readBadgeSvg(svg: string): DrawnBadge {
  expect(XMLValidator.validate(svg)).toBe(true);
  const root = parser.parse(svg).svg;
  const [shapes, texts] = root.g as [{ rect: { fill: string }[] }, { text: { "#text": string }[] }];
  return {
    ariaLabel: root["aria-label"],
    title: String(root.title),
    labelFill: shapes.rect[0]!.fill,
    valueFill: shapes.rect[1]!.fill,
    labelText: texts.text[0]!["#text"],
    valueText: texts.text[1]!["#text"],
  };
}

/** How the endpoint JSON and the SVG disagree, or nothing. The SVG cuts a long name with `…`, the JSON keeps it whole. */
function compareForms(json: ShieldsEndpoint, drawn: DrawnBadge): string[] {
  const differences: string[] = [];
  const cut = drawn.labelText.endsWith("…") && json.label.startsWith(drawn.labelText.slice(0, -1));
  if (drawn.labelText !== json.label && !cut) differences.push(`label ${JSON.stringify(drawn.labelText)} / ${JSON.stringify(json.label)}`);
  if (drawn.valueText !== json.message) differences.push(`message ${drawn.valueText} / ${json.message}`);
  if (drawn.valueFill !== json.color) differences.push(`color ${drawn.valueFill} / ${json.color}`);
  if (drawn.labelFill !== json.labelColor) differences.push(`labelColor ${drawn.labelFill} / ${json.labelColor}`);
  if (drawn.ariaLabel !== `${json.label}: ${json.message}`) differences.push(`accessible name ${drawn.ariaLabel}`);
  return differences;
}

describe("a company badge's SVG and its shields endpoint JSON", () => {
  const read = (path: string) => readFileSync(join(fixture.dist, path), "utf8");
  const slugs = () => fixture.sql.prepare("SELECT lower(slug) FROM companies WHERE slug NOT GLOB '*[^A-Za-z0-9._-]*' ORDER BY 1").pluck().all() as string[];

  it("say the same label and message in the same colours, for every company", () => {
    expect(slugs().length).toBeGreaterThan(5);
    for (const slug of slugs()) {
      const json = JSON.parse(read(`api/badge/${slug}.json`)) as ShieldsEndpoint;
      expect(compareForms(json, readBadgeSvg(read(`api/badge/${slug}.svg`))), slug).toEqual([]);
    }
  });

  it("keep a long hostile name whole in the JSON, cut in the SVG, and still agree", () => {
    const company = { name: `<b>"Bold" & Co</b>\u0007 ${"very long name ".repeat(8)}`, reportsCount: 120, trendDirection: "flat" } as const;
    const json = toShieldsEndpoint(getCompanyBadge(company));
    expect(json).toMatchObject({ message: "120 complaints", color: BADGE_COLORS.red, label: `<b>"Bold" & Co</b> ${"very long name ".repeat(8).trim()}` });
    const drawn = readBadgeSvg(renderCompanyBadge(company));
    expect(drawn.labelText.endsWith("…")).toBe(true);
    expect(compareForms(json, drawn)).toEqual([]);
  });

  it("writes only the keys of shields' schema (shields refuses any other), at five minutes of caching", () => {
    for (const slug of slugs()) {
      const json = JSON.parse(read(`api/badge/${slug}.json`));
      expect(Value.Check(ShieldsEndpointSchema, json), slug).toBe(true);
      expect(Object.keys(json).sort()).toEqual(["cacheSeconds", "color", "label", "labelColor", "message", "schemaVersion"]);
      expect([json.schemaVersion, json.cacheSeconds]).toEqual([1, 300]);
    }
  });

  it("would notice a colour, a message or a label that differ", () => {
    const drawn = readBadgeSvg(read("api/badge/alpha-leads.svg"));
    const json = JSON.parse(read("api/badge/alpha-leads.json")) as ShieldsEndpoint;
    expect(compareForms({ ...json, color: "#000000" }, drawn)).toHaveLength(1);
    expect(compareForms({ ...json, message: "1 report" }, drawn)).toHaveLength(2);
    expect(compareForms({ ...json, label: "Other" }, drawn)).toHaveLength(2);
  });
});

describe("the not-found badge", () => {
  it("is the build's 404.svg: one accessible image saying not found, in the neutral grey", () => {
    const svg = readFileSync(join(fixture.dist, NOT_FOUND_BADGE_FILE), "utf8");
    expect(svg).toBe(renderNotFoundBadge());
    const drawn = readBadgeSvg(svg);
    expect(drawn).toMatchObject({ labelText: "spam check", valueText: "not found", valueFill: BADGE_COLORS.grey, labelFill: BADGE_COLORS.label });
    expect(drawn.title).toBe(drawn.ariaLabel);
    expect(drawn.ariaLabel).toMatch(/^Spam check: not found\./);
    expect(svg).toContain('role="img"');
  });
});
