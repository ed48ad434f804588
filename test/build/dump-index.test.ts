/**
 * The dumps' index and the weekly "new" dumps: index.json lists every CSV and gzip in /dumps/ with
 * the size, SHA-256 and rows of the bytes on disk; the page /dumps/ shows the same; every
 * username of the full dump is in exactly one `spammers-new` file, the one of the ISO week of its
 * first report, with the very record the full dump has (so every CSV rule holds there too).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatIsoWeek, getIsoWeek } from "../../core/iso-week.ts";
import type { DumpIndex } from "../../core/routes/dump-index-schema.ts";
import { BASE_URL, buildFixture, type BuiltFixture } from "../helpers/fixture.ts";

let fixture: BuiltFixture;
let index: DumpIndex;
beforeAll(() => {
  fixture = buildFixture("dump-index");
  index = JSON.parse(read("dumps/index.json")) as DumpIndex;
});
afterAll(() => fixture.cleanup());
const readBytes = (path: string) => readFileSync(join(fixture.dist, path));
const read = (path: string) => readBytes(path).toString("utf8");
/** A CSV's records as text, header first, each without its CRLF (no record of these files holds a line break). */
const records = (text: string) => text.split("\r\n").slice(0, -1);
const allFiles = () => [...index.latest, ...index.weeks.flatMap((w) => w.files)];

describe("the dumps' index", () => {
  it("lists every CSV and gzip in /dumps/ with the size, SHA-256 and rows of its bytes", () => {
    const listed = allFiles();
    const onDisk = readdirSync(join(fixture.dist, "dumps")).filter((name) => name.endsWith(".csv") || name.endsWith(".csv.gz"));
    expect(listed.map((f) => f.name).sort()).toEqual(onDisk.sort());
    for (const file of listed) {
      const bytes = readBytes(`dumps/${file.name}`);
      expect(file.url).toBe(`${BASE_URL}/dumps/${file.name}`);
      expect([file.bytes, file.sha256], file.name).toEqual([bytes.byteLength, createHash("sha256").update(bytes).digest("hex")]);
      const csv = file.name.endsWith(".gz") ? gunzipSync(bytes).toString("utf8") : bytes.toString("utf8");
      expect(file.rows, file.name).toBe(records(csv).length - 1);
      expect(file.media_type).toBe(file.name.endsWith(".gz") ? "application/gzip" : "text/csv");
    }
  });

  it("says the snapshot's week, the licence with its credit line, and lists weeks newest first", () => {
    expect(index).toMatchObject({ as_of: "2026-03-11T10:00:00Z", week: "2026-W11", datapackage: `${BASE_URL}/dumps/datapackage.json` });
    expect(index.license).toEqual({
      id: "CC-BY-4.0",
      title: "Creative Commons Attribution 4.0 International",
      url: "https://creativecommons.org/licenses/by/4.0/",
      credit: `Data: Test fixture (${BASE_URL}/), licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/).`,
      text: `${BASE_URL}/dumps/LICENSE.txt`,
    });
    const weeks = index.weeks.map((w) => w.week);
    expect(weeks).toEqual([...weeks].sort().reverse());
    expect(index.weeks[0]!.files.map((f) => f.name)).toEqual([
      "spammers-2026-W11.csv", "spammers-2026-W11.csv.gz", "companies-2026-W11.csv", "companies-2026-W11.csv.gz", "spammers-new-2026-W11.csv", "spammers-new-2026-W11.csv.gz",
    ]);
    expect(index.latest.map((f) => f.name)).toEqual(["spammers-latest.csv", "spammers-latest.csv.gz", "companies-latest.csv", "companies-latest.csv.gz"]);
    for (const week of index.weeks) {
      // Monday to Sunday of that ISO week.
      expect([new Date(`${week.first_day}T00:00:00Z`).getUTCDay(), new Date(`${week.last_day}T00:00:00Z`).getUTCDay()], week.week).toEqual([1, 0]);
      expect(formatIsoWeek(getIsoWeek(Date.parse(`${week.first_day}T00:00:00Z`))), week.week).toBe(week.week);
      expect(formatIsoWeek(getIsoWeek(Date.parse(`${week.last_day}T23:59:59Z`))), week.week).toBe(week.week);
    }
  });

  it("is also a page that names every file with its size and SHA-256, and runs nothing", () => {
    const page = read("dumps/index.html");
    for (const file of allFiles()) {
      expect(page).toContain(`<a href="${file.url}">${file.name}</a>`);
      expect(page).toContain(`<code>${file.sha256}</code>`);
    }
    expect(page).toContain(index.license.credit);
    expect(page).not.toMatch(/<script/i);
  });
});

describe("the weekly new-username dumps", () => {
  it("hold every username of the full dump once, in the week of its first report, with the full dump's record", () => {
    const [header, ...full] = records(read("dumps/spammers-latest.csv"));
    const byUsername = new Map(full.map((record) => [record.split(",")[0]!, record]));
    const seen: string[] = [];
    const newWeeks = index.weeks.filter((w) => w.files.some((f) => f.dataset === "spammers-new"));
    expect(newWeeks.length).toBeGreaterThan(2);
    for (const week of newWeeks) {
      const [ownHeader, ...rows] = records(read(`dumps/spammers-new-${week.week}.csv`));
      expect(ownHeader).toBe(header);
      expect(rows.length).toBeGreaterThan(0);
      const names = rows.map((record) => record.split(",")[0]!);
      expect(names, "username order").toEqual([...names].sort());
      for (const record of rows) {
        const username = record.split(",")[0]!;
        expect(record).toBe(byUsername.get(username));
        const firstSeen = Papa.parse<string[]>(record).data[0]![4]!;
        expect(formatIsoWeek(getIsoWeek(Date.parse(firstSeen))), username).toBe(week.week);
      }
      seen.push(...names);
    }
    expect(seen.sort()).toEqual([...byUsername.keys()].sort());
  });

  it("compress to the same bytes beside them", () => {
    for (const week of index.weeks) {
      if (!week.files.some((f) => f.name === `spammers-new-${week.week}.csv`)) continue;
      expect(gunzipSync(readBytes(`dumps/spammers-new-${week.week}.csv.gz`)).equals(readBytes(`dumps/spammers-new-${week.week}.csv`))).toBe(true);
    }
  });
});
