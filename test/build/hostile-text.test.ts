/**
 * Every text column of the snapshot holding markup, control characters and a formula start, built
 * into a real dist, and every artefact checked for what its family must guarantee: HTML and SVG
 * carry the text escaped (no element of ours comes from data), feeds carry it escaped wherever a
 * reader shows HTML, CSV cells start no formula, no markup or CSV file holds a control character,
 * and JSON parses back to the text. Each column's text carries its own tag, so the test also
 * shows which columns reach an artefact at all.
 */
import Database from "better-sqlite3";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDist } from "../../build/build.ts";
import { FINGERPRINT_FIXTURE_SQL } from "../helpers/fingerprint.ts";
import { BASE_URL, createSnapshot, makeTempDir } from "../helpers/fixture.ts";
import { checkHtml } from "../helpers/html-check.ts";

/**
 * Columns whose rows stay valid with any text in them: the text is prefixed to what is there.
 * The others are keys the build validates (slugs, usernames, categories, kinds, times): one row
 * of each gets the hostile text alone, and is rejected or, for a company category, listed as other.
 */
const FREE_TEXT: Record<string, string[]> = {
  meta: ["value"],
  companies: ["name", "website"],
  company_aliases: ["alias"],
  people: ["name", "avatar"],
  reports: ["reporter"],
  glossary: ["term", "definition"],
  video_channels: ["name"],
  videos: ["title"],
  chat_channels: ["title"],
  chats: ["title"],
  blog_posts: ["title", "excerpt"],
  detection_rules: ["name", "pattern"],
  fp_profiles: ["label", "name", "os_family"],
  fp_signals: ["value"],
};
const KEYS: Record<string, string[]> = {
  companies: ["slug", "category", "created_at"],
  people: ["slug"],
  reports: ["username", "category", "created_at"],
  glossary: ["slug"],
  video_channels: ["slug"],
  videos: ["slug", "published_at"],
  chat_channels: ["username"],
  chats: ["username", "protected_since"],
  blog_posts: ["slug", "published_at"],
  detection_rules: ["kind", "category", "updated_at"],
  fp_profiles: ["kind", "trust_level"],
  fp_signals: ["key"],
};
/** Free text that no artefact shows, by design: who reported a username is only counted. */
const NOT_PUBLISHED = new Set(["reports.reporter"]);

const FORMULA_STARTS = ["=", "+", "-", "@", "\t", "\r"];
const CONTROLS = "\u0001\u0008\u000b\u001f\u007f\u0085\u009f\ufffe";
/** Markup of the kinds our templates use, a CDATA end, a comment start, quotes and an entity. */
const hostile = (tag: string, i: number) =>
  `${FORMULA_STARTS[i % FORMULA_STARTS.length]}HYPERLINK("x")<i data-hostile="${tag}">&amp;</i> "q" 'a' ]]></script><!--${CONTROLS} `;
const RAW_TAG = /<i data-hostile="([a-z_]+\.[a-z_]+)">/;
/** The tag's start unescaped, whatever became of its attribute: where markup is expected, data made an element. */
const INJECTED = /<i data-hostile/;
const ESCAPED_TAG = /&lt;i data-hostile=&quot;([a-z_]+\.[a-z_]+)&quot;&gt;/;
/** The tag as JSON writes it inside a string (openapi.json's example answers). */
const JSON_TAG = /<i data-hostile=\\"([a-z_]+\.[a-z_]+)\\">/;
/** The tag in a URL, percent-encoded (an absolute avatar URL is normalised, so it is never markup). */
const URL_TAG = /%3Ci%20data-hostile=%22([a-z_]+\.[a-z_]+)%22%3E/;
const all = (pattern: RegExp) => new RegExp(pattern, "g");
/** Control characters no markup or CSV file may hold (tab, line feed and carriage return are text). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]/;
/** Elements our templates write: a JSON string holding one of these and a raw tag from data is markup with data injected. */
const TEMPLATE_TAG = /<(?:p|a|div|span|small|svg|html|body|table|td|li|h[1-6]|text|title|feed|rss|channel|item|entry)[\s>]/;

let dir: string;
let root: string;
let files: string[];
const read = (path: string) => readFileSync(join(root, path), "utf8");
const byExtension = (...extensions: string[]) => files.filter((f) => extensions.some((e) => f.endsWith(e)));

function makeHostileSnapshot(): string {
  const db = createSnapshot(dir, FINGERPRINT_FIXTURE_SQL, "hostile.sqlite");
  const sql = new Database(db);
  let i = 0;
  for (const [table, columns] of Object.entries(FREE_TEXT)) {
    for (const column of columns) {
      const text = hostile(`${table}.${column}`, i++);
      // as_of must stay an instant: meta's hostile text goes into every other row, and a new one.
      const where = table === "meta" ? "WHERE key <> 'as_of'" : "";
      sql.prepare(`UPDATE ${table} SET ${column} = ? || coalesce(${column}, '') ${where}`).run(text);
    }
  }
  sql.prepare("INSERT INTO meta (key, value) VALUES (?, ?)").run(hostile("meta.key", 0), hostile("meta.value", 1));
  for (const [table, columns] of Object.entries(KEYS)) {
    columns.forEach((column, offset) => {
      sql.prepare(`UPDATE ${table} SET ${column} = ? WHERE rowid = (SELECT rowid FROM ${table} ORDER BY rowid LIMIT 1 OFFSET ?)`).run(hostile(`${table}.${column}`, i++), offset);
    });
  }
  // An absolute avatar URL is used as it is: it must come out escaped in its attribute.
  sql.prepare("UPDATE people SET avatar = ? WHERE id = 2").run(`https://img.example/a.png?x="><i data-hostile="people.avatar">`);
  sql.close();
  return db;
}

function listFiles(base: string): string[] {
  return readdirSync(base, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(base, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort();
}

beforeAll(() => {
  dir = makeTempDir("hostile");
  const summary = buildDist({ db: makeHostileSnapshot(), out: join(dir, "dist"), baseUrl: BASE_URL, progress: null });
  root = summary.buildDir;
  files = listFiles(root);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a snapshot whose every text column is hostile", () => {
  it("covers every text column of the contract, as free text or as a key", () => {
    const schema = new Database(":memory:");
    schema.exec(readFileSync(new URL("../../data/schema.sql", import.meta.url), "utf8"));
    const tables = schema.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    expect(tables.length).toBe(14);
    for (const table of tables) {
      const text = (schema.prepare(`SELECT name FROM pragma_table_info(?) WHERE type = 'TEXT'`).pluck().all(table) as string[]).sort();
      const covered = [...(FREE_TEXT[table] ?? []), ...(KEYS[table] ?? [])].filter((c) => !(table === "meta" && c === "key")).sort();
      expect(covered, table).toEqual(text.filter((c) => !(table === "meta" && c === "key")));
    }
    schema.close();
  });

  it("publishes every free-text column somewhere, but those no artefact shows by design", () => {
    const seen = new Set<string>();
    for (const path of files.filter((f) => !/\.(gz|bin)$/.test(f))) {
      const text = read(path);
      for (const pattern of [RAW_TAG, ESCAPED_TAG, JSON_TAG, URL_TAG]) for (const m of text.matchAll(all(pattern))) seen.add(m[1]!);
    }
    const free = Object.entries(FREE_TEXT).flatMap(([table, columns]) => columns.map((c) => `${table}.${c}`));
    expect(free.filter((c) => !seen.has(c)).sort()).toEqual([...NOT_PUBLISHED].sort());
  });

  it("writes HTML whose only elements are ours: data is escaped text, with no control character", () => {
    const pages = byExtension(".html");
    expect(pages.length).toBeGreaterThan(20);
    let escaped = 0;
    for (const path of pages) {
      const html = read(path);
      expect(html, path).not.toMatch(INJECTED);
      expect(html, path).not.toMatch(CONTROL);
      expect(checkHtml(html).errors, path).toEqual([]);
      if (ESCAPED_TAG.test(html)) escaped++;
    }
    expect(escaped).toBeGreaterThan(10);
  });

  it("writes SVG that is well-formed XML with the text escaped and no control character", () => {
    const images = byExtension(".svg");
    expect(images.some((path) => read(path).match(ESCAPED_TAG))).toBe(true);
    for (const path of images) {
      const svg = read(path);
      expect(XMLValidator.validate(svg), path).toBe(true);
      expect(svg, path).not.toMatch(INJECTED);
      expect(svg, path).not.toMatch(CONTROL);
    }
  });

  it("writes feeds whose every field a reader shows as HTML holds the text escaped", () => {
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", parseTagValue: false, cdataPropName: false });
    const feeds = byExtension(".rss", ".atom");
    expect(feeds.length).toBe(28);
    for (const path of feeds) {
      const xml = read(path);
      expect(XMLValidator.validate(xml), path).toBe(true);
      expect(xml, path).not.toMatch(CONTROL);
      // Every value as a reader gets it, after XML decoding; only an Atom person's name is text by definition.
      for (const [at, value] of walk(parser.parse(xml))) {
        if (at.endsWith("author.name")) continue;
        expect(value, `${path} ${at}`).not.toMatch(INJECTED);
      }
    }
    const channel = new XMLParser({ parseTagValue: false }).parse(read("rss/all.rss")).rss.channel;
    expect(channel.copyright).toMatch(ESCAPED_TAG);
  });

  it("writes CSV in which no cell starts a formula or holds a control character", () => {
    const dumps = byExtension(".csv");
    expect(dumps.length).toBeGreaterThanOrEqual(4);
    let hostileCells = 0;
    for (const path of dumps) {
      const { data, errors } = Papa.parse<string[]>(read(path), { skipEmptyLines: true });
      expect(errors, path).toEqual([]);
      for (const cell of data.flat()) {
        if (!/^-?\d+(\.\d+)?$/.test(cell)) expect(cell, path).not.toMatch(/^[=+\-@\t\r]/);
        expect(cell, path).not.toMatch(CONTROL);
        if (RAW_TAG.test(cell)) hostileCells++;
      }
    }
    expect(hostileCells).toBeGreaterThan(0);
  });

  it("writes JSON that parses, with data as exact text and markup in it escaped", () => {
    for (const path of byExtension(".json")) {
      const parsed = JSON.parse(read(path));
      for (const [at, value] of walk(parsed)) {
        // A string holding our own markup (a feed item's HTML, an example answer in openapi.json) must hold data escaped.
        if (TEMPLATE_TAG.test(value)) expect(value, `${path} ${at}`).not.toMatch(INJECTED);
      }
    }
    // A company card's name is the snapshot's text, control characters and all (JSON escapes them).
    const card = JSON.parse(read("api/company/zed-network.json"));
    expect(card.name).toBe(`${hostile("companies.name", 1)}Zed Network`);
  });

  it("keeps control characters out of the plain-text files", () => {
    for (const path of files.filter((f) => f.endsWith(".txt") || f.startsWith("_"))) expect(read(path), path).not.toMatch(CONTROL);
  });
});

/** Every string in a parsed document, with where it is. */
function* walk(value: unknown, at = ""): Generator<[string, string]> {
  if (typeof value === "string") yield [at, value];
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* walk(item, `${at}[${i}]`);
  else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) yield* walk(item, at ? `${at}.${key}` : key);
}
