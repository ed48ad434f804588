/**
 * The weekly open-data dump: both CSV files (and their gunzipped copies) parse with papaparse to
 * exactly the rows the fixture's SQL gives, with formula-looking text neutralised and RFC 4180
 * quoting; the files are named by the ISO week of as_of; datapackage.json describes every column
 * of every file; LICENSE.txt carries the credit.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInMemory } from "../../build/build.ts";
import { CsvCollector, endsBatch, formatCsvRecords, type Cell } from "../../build/dump/csv.ts";
import { MemberCompressor } from "../../build/dump/member-compressor.ts";
import { formatIsoWeek, getIsoWeek } from "../../core/iso-week.ts";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";
import { expectedCard, expectedCheck, expectedCompanies, expectedUsernames } from "../helpers/expected.ts";
import { FIXTURE_SQL, BASE_URL, buildFixture, withSnapshot, type BuiltFixture } from "../helpers/fixture.ts";

/** Companies whose text a spreadsheet would run, or that need RFC 4180 quoting, or hold a control character. */
const HOSTILE = `
INSERT INTO companies (id, name, slug, category, website, created_at) VALUES
  (20, '=HYPERLINK("http://evil.example","click")', 'formula-eq', 'tools', '-2+3', '2024-01-01T00:00:00Z'),
  (21, '+cmd|'' /C calc''!A0', 'formula-plus', 'tools', '@evil', '2024-01-01T00:00:00Z'),
  (22, '@SUM(1,2)', 'formula-at', 'tools', NULL, '2024-01-01T00:00:00Z'),
  (23, '-1+2', 'formula-minus', 'tools', NULL, '2024-01-01T00:00:00Z'),
  (24, '=1+1' || char(10) || 'second line', 'formula-multiline', 'tools', NULL, '2024-01-01T00:00:00Z'),
  (25, char(9) || '=tab first', 'formula-tab', 'tools', NULL, '2024-01-01T00:00:00Z'),
  (26, 'Comma, "Quote" and' || char(13) || char(10) || 'newline', 'quoting-co', 'payments', NULL, '2024-01-01T00:00:00Z'),
  (27, 'Bell' || char(7) || 'Co ', 'bell-co', 'payments', NULL, '2024-01-01T00:00:00Z');
INSERT INTO company_aliases (company_id, alias) VALUES
  (20, '=alias()'), (20, 'with, comma'), (20, 'with "quotes"'), (27, 'al' || char(27) || 'ias');
INSERT INTO reports (id, username, category, company_id, person_id, reporter, confidence, created_at) VALUES
  (1001, 'fresh_one', 'payments', 26, NULL, 'r20', 70, '2026-03-11T09:30:00Z'),
  (1002, 'fresh_one', 'tools', 20, NULL, 'r21', 55, '2026-03-03T09:30:00Z');
`;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const SPAMMER_HEADER = ["username", "reports_count", "unique_reports", "confidence_max", "first_seen", "last_seen", "last_7_days", "week_trend", "primary_category", "categories", "companies", "url"];
const COMPANY_HEADER = ["id", "name", "slug", "category", "website", "aliases", "reports_count", "first_report_date", "last_report_date", "last_7_days", "week_trend", "url"];

/** The dump's rule for text cells: control characters dropped, a formula start prefixed with '. */
const neutralise = (text: string) => {
  const clean = text.replace(CONTROL, "");
  return /^[=+\-@\t\r]/.test(clean) ? `'${clean}` : clean;
};
const cell = (value: string | number | null) => (value === null ? "" : typeof value === "number" ? String(value) : neutralise(value));
const list = (values: string[]) => JSON.stringify(values.map((v) => v.replace(CONTROL, "")));

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("dump", FIXTURE_SQL + HOSTILE);
});
afterAll(() => fixture.cleanup());
const readBytes = (path: string) => readFileSync(join(fixture.dist, path));
const read = (path: string) => readBytes(path).toString("utf8");
const parse = (text: string) => Papa.parse<string[]>(text, { header: false, skipEmptyLines: true });

function expectedSpammerRows(): string[][] {
  return expectedUsernames(fixture.sql).map((username) => {
    const c = expectedCheck(fixture.sql, username);
    return [c.username, c.reports_count, c.unique_reports, c.confidence_max, c.first_seen, c.last_seen, c.last_7_days, c.week_trend, c.categories[0] ?? null]
      .map(cell)
      .concat([list(c.categories), list(c.companies.map((x) => x.slug)), c.url]);
  });
}

/** By id, the primary key (a change file is the merge of two dumps in key order). */
function expectedCompanyRows(): string[][] {
  const website = fixture.sql.prepare("SELECT website FROM companies WHERE id = ?").pluck();
  return expectedCompanies(fixture.sql)
    .sort((a, b) => a.id - b.id)
    .map((c) => {
      const card = expectedCard(fixture.sql, c);
      const aliases = (card.aliases as string[]).map((a) => a.trim()).filter(Boolean);
      return [c.id, card.name, card.slug, card.category, website.get(c.id) as string | null].map(cell).concat([
        list(aliases),
        ...[card.reports_count, card.first_report_date, card.last_report_date, card.last_7_days, card.week_trend as number].map(cell),
        card.url,
      ]);
    });
}

describe("the weekly dump", () => {
  it("names its files by the ISO week of as_of, beside stable latest copies with the same bytes", () => {
    for (const name of ["spammers", "companies"]) {
      const weekly = readBytes(`dumps/${name}-2026-W11.csv`);
      expect(readBytes(`dumps/${name}-latest.csv`).equals(weekly)).toBe(true);
      expect(gunzipSync(readBytes(`dumps/${name}-2026-W11.csv.gz`)).equals(weekly)).toBe(true);
      expect(readBytes(`dumps/${name}-latest.csv.gz`).equals(readBytes(`dumps/${name}-2026-W11.csv.gz`))).toBe(true);
    }
  });

  it.each([
    ["spammers", SPAMMER_HEADER, expectedSpammerRows],
    ["companies", COMPANY_HEADER, expectedCompanyRows],
  ] as const)("round-trips the %s CSV (and its gunzipped copy) to the rows of the snapshot's SQL", (name, header, rows) => {
    const expected = [header, ...rows()];
    expect(expected.length).toBeGreaterThan(6);
    for (const text of [read(`dumps/${name}-latest.csv`), gunzipSync(readBytes(`dumps/${name}-latest.csv.gz`)).toString("utf8")]) {
      const parsed = parse(text);
      expect(parsed.errors).toEqual([]);
      expect(parsed.data).toEqual(expected);
    }
  });

  it("neutralises formula-looking text but leaves negative numbers as numbers", () => {
    const rows = parse(read("dumps/companies-latest.csv")).data;
    const byslug = new Map(rows.map((r) => [r[2], r]));
    expect(byslug.get("formula-eq")!.slice(1, 6)).toEqual(["'=HYPERLINK(\"http://evil.example\",\"click\")", "formula-eq", "tools", "'-2+3", '["=alias()","with, comma","with \\"quotes\\""]']);
    expect(byslug.get("formula-plus")![1]).toBe("'+cmd|' /C calc'!A0");
    expect(byslug.get("formula-plus")![4]).toBe("'@evil");
    expect(byslug.get("formula-at")![1]).toBe("'@SUM(1,2)");
    expect(byslug.get("formula-minus")![1]).toBe("'-1+2");
    expect(byslug.get("formula-multiline")![1]).toBe("'=1+1\nsecond line");
    expect(byslug.get("formula-tab")![1]).toBe("'\t=tab first");
    expect(byslug.get("beta-partnery")![10]).toBe("-100");
    expect(read("dumps/companies-latest.csv")).toContain(",0,-100,https://api.example.org/company/beta-partnery\r\n");
    for (const path of ["dumps/companies-latest.csv", "dumps/spammers-latest.csv"]) {
      for (const row of parse(read(path)).data) {
        for (const value of row) if (/^[=+\-@\t\r]/.test(value)) expect(value, path).toMatch(/^-\d+(\.\d)?$/);
      }
    }
  });

  it("quotes by RFC 4180: CRLF records, commas, doubled quotes and line breaks inside quotes, no BOM", () => {
    const text = read("dumps/companies-latest.csv");
    expect(text.startsWith("id,name,slug,")).toBe(true);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text).toContain(',"Comma, ""Quote"" and\r\nnewline",quoting-co,payments,,[],');
    expect(text).toContain(',"\'=1+1\nsecond line",formula-multiline,');
    expect(text).toContain(',"BellCo ",bell-co,payments,,"[""alias""]",');
    // Outside quoted cells every line ends with CRLF.
    const unquoted = text.replace(/"(?:[^"]|"")*"/g, "");
    expect(unquoted.split("\r\n").every((line) => !line.includes("\n") && !line.includes("\r"))).toBe(true);
  });

  it("lets no control character into either CSV", () => {
    for (const path of ["dumps/companies-latest.csv", "dumps/spammers-latest.csv"]) expect(read(path), path).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
  });

  it("describes every column of every CSV in datapackage.json, in order, and every path exists", () => {
    const pkg = JSON.parse(read("dumps/datapackage.json"));
    expect(pkg.profile).toBe("tabular-data-package");
    expect(pkg.name).toMatch(/^[a-z0-9._-]+$/);
    expect(pkg.licenses).toEqual([{ name: "CC-BY-4.0", path: "https://creativecommons.org/licenses/by/4.0/", title: "Creative Commons Attribution 4.0 International" }]);
    expect(pkg.sources).toEqual([{ title: "Test fixture", path: `${BASE_URL}/` }]);
    const paths = pkg.resources.map((r: any) => r.path);
    expect(paths.slice(0, 2)).toEqual(["spammers-2026-W11.csv", "companies-2026-W11.csv"]);
    // Then a week's new usernames for every week that has any, oldest first.
    expect(paths.slice(2).length).toBeGreaterThan(2);
    expect(paths.slice(2).every((p: string) => /^spammers-new-\d{4}-W\d{2}\.csv$/.test(p))).toBe(true);
    expect([...paths.slice(2)].sort()).toEqual(paths.slice(2));
    for (const resource of pkg.resources) {
      const bytes = readBytes(`dumps/${resource.path}`);
      expect(existsSync(join(fixture.dist, "dumps", resource.path))).toBe(true);
      expect(resource).toMatchObject({ profile: "tabular-data-resource", format: "csv", mediatype: "text/csv", encoding: "utf-8", bytes: bytes.byteLength });
      expect(resource.hash).toBe(`sha256:${createHash("sha256").update(bytes).digest("hex")}`);
      const header = parse(bytes.toString("utf8")).data[0];
      expect(resource.schema.fields.map((f: any) => f.name)).toEqual(header);
      for (const field of resource.schema.fields) {
        expect(["string", "integer", "number", "date", "datetime", "array"], field.name).toContain(field.type);
        expect(field.description.length, field.name).toBeGreaterThan(10);
      }
      expect(header).toContain(resource.schema.primaryKey);
    }
  });

  it("ships LICENSE.txt with the licence and the credit line", () => {
    const license = read("dumps/LICENSE.txt");
    expect(license).toContain("https://creativecommons.org/licenses/by/4.0/");
    expect(license).toContain(`Data: Test fixture (${BASE_URL}/), licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/).`);
  });

  it("gives the same bytes in two builds, gzip included", () => {
    const again = buildInMemory({ db: fixture.db, baseUrl: BASE_URL }).files;
    const paths = [...again.keys()].filter((p) => p.startsWith("dumps/"));
    expect(paths.sort()).toEqual(readdirSync(join(fixture.dist, "dumps"), { recursive: true, encoding: "utf8" }).filter((name) => name !== "changes").map((name) => `dumps/${name}`).sort());
    for (const path of paths) expect(again.get(path)!.equals(readBytes(path)), path).toBe(true);
  });

  it.each(["spammers-latest.csv", "companies-latest.csv", "datapackage.json", "LICENSE.txt"])("matches the golden file for %s", (name) => {
    const golden = new URL(`../golden/dumps/${name}`, import.meta.url);
    const actual = readBytes(`dumps/${name}`);
    if (process.env.UPDATE_GOLDEN === "1") {
      mkdirSync(new URL("../golden/dumps/", import.meta.url), { recursive: true });
      writeFileSync(golden, actual);
    }
    expect(actual.equals(readFileSync(golden))).toBe(true);
  });

  it("takes the week from as_of across a year boundary", () => {
    const sql = `${FIXTURE_SQL}\nUPDATE meta SET value = '2027-01-01T12:00:00Z' WHERE key = 'as_of';`;
    // A snapshot of its own, removed afterwards (a folder was left behind every run).
    const files = withSnapshot("dump-week", sql, (db) => buildInMemory({ db, baseUrl: BASE_URL }).files);
    expect([...files.keys()].filter((p) => p.startsWith("dumps/") && p.includes("-20") && !p.includes("-new-")).sort()).toEqual([
      "dumps/companies-2026-W53.csv",
      "dumps/companies-2026-W53.csv.gz",
      "dumps/spammers-2026-W53.csv",
      "dumps/spammers-2026-W53.csv.gz",
    ]);
  });
});

/** A collector's files whole, as a writer writes them; the CSV read twice gives the same bytes. */
function finishWhole(collector: CsvCollector): { csv: Buffer; gz: Buffer } {
  const { csv, gz } = collector.finish();
  const bytes = Buffer.concat([...csv.chunks()]);
  expect(Buffer.concat([...csv.chunks()]).equals(bytes)).toBe(true);
  expect(bytes.byteLength).toBe(csv.byteLength);
  expect(csv.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
  const compressed = Buffer.concat([...gz.chunks()]);
  expect(compressed.byteLength).toBe(gz.byteLength);
  return { csv: bytes, gz: compressed };
}

describe("collecting a large CSV", () => {
  it("keeps it as gzip members that inflate, with gunzip and the system's gzip, to the same bytes", () => {
    const collector = new CsvCollector(["n", "name"]);
    for (let i = 0; i < 5000; i++) collector.add([i, i % 2 ? `row, ${i}` : `=row ${i}`]);
    const { csv, gz } = finishWhole(collector);
    const rows = Papa.parse<string[]>(csv.toString("utf8"), { skipEmptyLines: true }).data;
    expect(rows.length).toBe(5001);
    expect(rows[4999]).toEqual(["4998", "'=row 4998"]);
    expect(gunzipSync(gz).equals(csv)).toBe(true);
    expect(execFileSync("gzip", ["-dc"], { input: gz }).equals(csv)).toBe(true);
    // More than one member: each starts with the gzip magic and our OS byte 255.
    expect(gz.toString("latin1").split("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff").length - 1).toBe(3);
  });

  it("keeps rows in order when preformatted records and cell rows are mixed", () => {
    const collector = new CsvCollector(["n", "name"]);
    const rows: Cell[][] = [];
    for (let i = 0; i < 5000; i++) {
      const row: Cell[] = [i, i % 3 ? `"${i}"` : `+${i}`];
      rows.push(row);
      if (i % 7 < 3) collector.addRecord(formatCsvRecords([row]));
      else collector.add(row);
    }
    const { csv, gz } = finishWhole(collector);
    expect(csv.toString("utf8")).toBe(formatCsvRecords([["n", "name"], ...rows]));
    expect(gunzipSync(gz).equals(csv)).toBe(true);
    expect(collector.rows).toBe(5000);
  });
});

describe("batches cut by content", () => {
  const members = (usernames: string[]) => {
    const collector = new CsvCollector(["username", "n"]);
    for (const username of usernames) collector.addRecord(formatCsvRecords([[username, username.length]]), endsBatch(username));
    const { csv, gz } = collector.finish();
    expect(gunzipSync(Buffer.concat([...gz.chunks()])).equals(Buffer.concat([...csv.chunks()]))).toBe(true);
    return [...gz.chunks()].map((member) => Buffer.from(member).toString("base64"));
  };

  it("change only the batch where a row is added or removed, not every batch after it", () => {
    const usernames = Array.from({ length: 30_000 }, (_, i) => `user_${(i * 7919).toString(36)}`).sort();
    const before = members(usernames);
    expect(before.length).toBeGreaterThan(10);
    const known = new Set(before);
    const added = [...usernames.slice(0, 3_000), "user_added", ...usernames.slice(3_000)];
    const removed = usernames.filter((_, i) => i !== 4_000);
    for (const after of [members(added), members(removed)]) {
      // The header's batch and the changed one at most (a row in the first batch: one).
      expect(after.filter((member) => !known.has(member)).length).toBeLessThanOrEqual(2);
    }
  });
});

describe("gzipping a dump's batches on the compression thread", () => {
  it("gives the bytes of gzipping them inline, for several CSVs at once and more batches than it holds in flight", () => {
    const compressor = new MemberCompressor();
    try {
      const header = ["n", "name"];
      const [inline, threadedA, threadedB] = [new CsvCollector(header), new CsvCollector(header, compressor), new CsvCollector(header, compressor)];
      // 12 batches each (2 048 rows a batch), posted in turn from two CSVs, as the weekly dumps are.
      for (let i = 0; i < 24_000; i++) {
        const row: Cell[] = [i, `name ${i}, ${"x".repeat(i % 50)}`];
        inline.add(row);
        threadedA.add(row);
        if (i % 3 === 0) threadedB.add(row);
      }
      const expected = finishWhole(inline);
      const b = finishWhole(threadedB);
      const a = finishWhole(threadedA);
      expect(a.csv.equals(expected.csv)).toBe(true);
      expect(a.gz.equals(expected.gz)).toBe(true);
      expect(gunzipSync(b.gz).equals(b.csv)).toBe(true);
      expect(threadedB.rows).toBe(8000);
    } finally {
      compressor.close();
    }
  });

  it("refuses a batch it was never given, or one taken already, rather than wait for it", () => {
    const compressor = new MemberCompressor();
    try {
      compressor.submit(Buffer.from("a,b\r\n"));
      expect(compressor.take(0).member.byteLength).toBeGreaterThan(0);
      expect(() => compressor.take(1)).toThrow(/dump batch 1 was never posted/);
      expect(() => compressor.take(0)).toThrow(/dump batch 0 was taken already/);
    } finally {
      compressor.close();
    }
  });
});

describe("CSV records", () => {
  // Every character papaparse treats specially, at every place in a cell, plus formula starts.
  const pieces = ["", "a", " ", ",", '"', "\r", "\n", "\r\n", "\ufeff", "=", "+", "-", "@", "\t", "'", "é", "😀", "\u0007", "\u0085"];
  let seed = 11;
  const random = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const cell = (): Cell => {
    const kind = random(8);
    if (kind === 0) return null;
    if (kind === 1) return [0, -1, 2.5, -33.3, 1e21, -0][random(6)]!;
    let text = "";
    for (let k = random(5); k >= 0; k--) text += pieces[random(pieces.length)];
    return text;
  };

  it("read back through a CSV parser as the cells, control characters removed and formula starts guarded", () => {
    for (let trial = 0; trial < 300; trial++) {
      const rows = Array.from({ length: 1 + random(4) }, () => Array.from({ length: 1 + random(5) }, cell));
      const text = formatCsvRecords(rows);
      expect(text.endsWith("\r\n")).toBe(true);
      const parsed = Papa.parse<string[]>(text.slice(0, -2), { delimiter: ",", newline: "\r\n" });
      expect(parsed.errors, JSON.stringify(rows)).toEqual([]);
      const expected = rows.map((row) =>
        row.map((c) => {
          if (c === null) return "";
          if (typeof c === "number") return String(c);
          const clean = c.replace(/[\u0007\u0085]/g, "");
          return /^[=+\-@\t\r]/.test(clean) ? `'${clean}` : clean;
        }),
      );
      expect(parsed.data, JSON.stringify(rows)).toEqual(expected);
    }
    expect(formatCsvRecords([])).toBe("");
  });
});

describe("ISO week names", () => {
  it.each([
    ["2026-03-11T10:00:00Z", "2026-W11"],
    ["2026-12-31T23:59:59Z", "2026-W53"],
    ["2027-01-01T00:00:00Z", "2026-W53"],
    ["2027-01-03T23:59:59Z", "2026-W53"],
    ["2027-01-04T00:00:00Z", "2027-W01"],
    ["2026-01-01T00:00:00Z", "2026-W01"],
    ["2025-12-29T00:00:00Z", "2026-W01"],
    ["2024-12-30T00:00:00Z", "2025-W01"],
    ["2020-12-31T00:00:00Z", "2020-W53"],
    ["2021-01-03T00:00:00Z", "2020-W53"],
    ["2015-12-31T00:00:00Z", "2015-W53"],
    ["2016-01-03T00:00:00Z", "2015-W53"],
    ["2008-12-29T00:00:00Z", "2009-W01"],
    ["2010-01-03T00:00:00Z", "2009-W53"],
    ["1969-12-29T00:00:00Z", "1970-W01"],
    ["1969-12-28T00:00:00Z", "1969-W52"],
  ])("puts %s in %s", (instant, week) => {
    expect(formatIsoWeek(getIsoWeek(Date.parse(instant)))).toBe(week);
  });
});

describe.each(CLIENT_KINDS)("serving the dump (%s)", (kind) => {
  let client: Client;
  beforeAll(async () => {
    client = await createClient(kind, fixture.dist);
  });
  afterAll(() => client.close());

  it.each([
    ["/dumps/spammers-latest.csv", "text/csv; charset=utf-8"],
    ["/dumps/companies-2026-W11.csv.gz", "application/gzip"],
    ["/dumps/datapackage.json", "application/json; charset=utf-8"],
    ["/dumps/LICENSE.txt", "text/plain; charset=utf-8"],
  ])("serves %s as %s with an ETag", async (path, type) => {
    const res = await client.fetch(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    const etag = res.headers.get("etag")!;
    expect(Buffer.from(await res.arrayBuffer()).equals(readBytes(path.slice(1)))).toBe(true);
    expect((await client.fetch(path, { headers: { "if-none-match": etag } })).status).toBe(304);
  });
});
