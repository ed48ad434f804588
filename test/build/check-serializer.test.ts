/**
 * The check files, the spammer list pages and the spammer dump's records are written by
 * hand-built serializers (build/api-json/check.ts, build/emitters/spammers.ts, build/dump/columns.ts) for speed; they must give exactly the bytes of
 * JSON.stringify over the documented object and of the general CSV path over the dump's cells,
 * for the fixture's spammers and for values the fixture lacks (odd base URLs, negative and
 * fractional trends, text that needs quoting).
 */
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { toJson } from "../../build/context.ts";
import { createSpammerRecordFormatter, toSpammerCells } from "../../build/dump/columns.ts";
import { formatCsvRecords } from "../../build/dump/csv.ts";
import { createCheckSerializer, createSpammerItemSerializer, renderCheckResult, renderSpammerItem } from "../../build/api-json/check.ts";
import { formatListPage } from "../../build/emitters/spammers.ts";
import { readModel } from "../../build/model/read-model.ts";
import type { Company, Spammer } from "../../build/model/types.ts";
import { openSnapshot } from "../../build/snapshot/open.ts";
import { createUrls } from "../../core/urls.ts";
import { BASE_URL, createSnapshot, makeTempDir } from "../helpers/fixture.ts";

const dir = makeTempDir("check-serializer");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function company(name: string, slug: string): Company {
  return { id: 1, name, slug, category: "crypto", website: null, aliases: [], reportsCount: 1, firstReportMs: 0, lastReportMs: 0, recentDays: new Int32Array(14), categoryCounts: new Uint32Array(12) };
}

function spammer(overrides: Partial<Spammer>): Spammer {
  return {
    username: "someone", reportsCount: 3, uniqueReports: 2, confidenceMax: 90, firstSeenMs: 1_700_000_000_000, lastSeenMs: 1_773_223_199_999,
    last7Days: 1, previous7Days: 3, categories: ["crypto", "gambling"], companies: [], ...overrides,
  };
}

function fixtureSpammers(): Spammer[] {
  const db = openSnapshot(createSnapshot(dir));
  try {
    return [...readModel(db).spammers];
  } finally {
    db.close();
  }
}

const hostile = company('<b>"Q" & \\ \u2028 Ω</b>', "q-co");
const ODD_VALUES: [string, string, Spammer][] = [
  ["a base URL with a path, quotes and a backslash", 'https://x.example/a"b\\c/', spammer({})],
  ["a base URL with a comma and an edge space", "https://x.example/a,b ", spammer({})],
  ["a fractional negative trend", BASE_URL, spammer({ last7Days: 1, previous7Days: 3 })],
  ["a zero trend with no categories or companies", BASE_URL, spammer({ last7Days: 0, previous7Days: 0, categories: [] })],
  ["hostile company names, repeated", BASE_URL, spammer({ companies: [hostile, company("Плюс", "plus"), hostile] })],
  ["a company slug that would need quoting", BASE_URL, spammer({ companies: [company("Q", 'q"co'), company("P", "p,co")] })],
  ["a username that would need escaping", BASE_URL, spammer({ username: 'odd"name' })],
  ["a username that starts like a formula", BASE_URL, spammer({ username: "=1+1" })],
];

describe("the check serializer", () => {
  it("writes the same bytes as JSON.stringify for every spammer of the fixture", () => {
    const urls = createUrls(BASE_URL);
    const serialize = createCheckSerializer(urls);
    const spammers = fixtureSpammers();
    expect(spammers.length).toBeGreaterThan(3);
    for (const s of spammers) expect(serialize(s)).toBe(toJson(renderCheckResult(s, urls)));
  });

  it.each(ODD_VALUES)("matches JSON.stringify with %s", (_label, base, value) => {
    const urls = createUrls(base);
    expect(createCheckSerializer(urls)(value)).toBe(toJson(renderCheckResult(value, urls)));
  });
});

describe("the spammer list item serializer and page", () => {
  it("writes the same bytes as JSON.stringify for every spammer of the fixture", () => {
    const urls = createUrls(BASE_URL);
    const serialize = createSpammerItemSerializer(urls);
    for (const s of fixtureSpammers()) expect(serialize(s)).toBe(toJson(renderSpammerItem(s, urls)));
  });

  it.each(ODD_VALUES)("matches JSON.stringify with %s", (_label, base, value) => {
    const urls = createUrls(base);
    expect(createSpammerItemSerializer(urls)(value)).toBe(toJson(renderSpammerItem(value, urls)));
  });

  it("writes a page as JSON.stringify writes { data, total, page, pages }", () => {
    const urls = createUrls(BASE_URL);
    const items = fixtureSpammers().map((s) => renderSpammerItem(s, urls));
    expect(formatListPage(items.map(toJson), 7, 2, 3)).toBe(toJson({ data: items, total: 7, page: 2, pages: 3 }));
    expect(formatListPage([], 0, 1, 0)).toBe(toJson({ data: [], total: 0, page: 1, pages: 0 }));
  });
});

describe("the spammer dump's record formatter", () => {
  it("writes the same bytes as the general CSV path for every spammer of the fixture", () => {
    const urls = createUrls(BASE_URL);
    const format = createSpammerRecordFormatter(urls);
    const spammers = fixtureSpammers();
    expect(spammers.some((s) => s.companies.length > 1 && s.categories.length > 1)).toBe(true);
    for (const s of spammers) expect(format(s)).toBe(formatCsvRecords([toSpammerCells(s, urls)]));
  });

  it.each(ODD_VALUES)("matches the general CSV path with %s", (_label, base, value) => {
    const urls = createUrls(base);
    expect(createSpammerRecordFormatter(urls)(value)).toBe(formatCsvRecords([toSpammerCells(value, urls)]));
  });
});
