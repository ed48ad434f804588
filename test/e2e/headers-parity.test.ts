/**
 * `_headers` agrees with the live server on every file of a build: for each path the manifest
 * lists, the headers the rules give (as Netlify and Cloudflare Pages apply them: every rule whose
 * pattern matches, `*` any run of characters, `:name` one path segment) equal what `npm run serve`
 * sends for that path, for each header the rules set, and Cache-Control is set for every file.
 *
 * The two hosts differ when two matching rules set the same header (Netlify's later rule wins,
 * Pages joins the values with a comma, and two Cache-Controls make one caches treat as stale), and
 * in how they read a path (Netlify's `/a/*` also matches `/a`): no path may get one header from two
 * rules as Pages reads them, nor two values of it as Netlify does.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { buildSampleDist, makeTempDir } from "../helpers/fixture.ts";
import { parseHeaderRules, type HeaderRule } from "../helpers/header-rules.ts";

type Rule = HeaderRule;

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/**
 * How each host reads a rule's path. Netlify's parser (netlify/build's headers-parser): segments
 * joined, `:name` one segment, a standalone `*` an optional rest (so `/a/*` matches `/a` too),
 * case-insensitive, a trailing slash optional. The plain reading (Cloudflare Pages as documented):
 * `*` any run of characters, `:name` one segment, nothing optional.
 */
const READINGS: Record<string, (pattern: string) => RegExp> = {
  netlify: (pattern) => {
    const parts = pattern.split("/").filter(Boolean).map((part) => (part.startsWith(":") ? "([^/]+)" : part === "*" ? "?(.*)" : escape(part).replace(/\*/g, "(.*)")));
    return new RegExp(`^/${parts.join("/")}/?$`, "iu");
  },
  plain: (pattern) => new RegExp(`^${pattern.split("/").map((segment) => (segment.startsWith(":") ? "[^/]+" : escape(segment).replace(/\*/g, ".*"))).join("/")}$`),
};

/** The headers a path gets under one reading (names lower-cased), each with every rule that set it and the values they set. */
function headersFor(rules: Rule[], read: (pattern: string) => RegExp, path: string): Map<string, { value: string; rules: string[]; values: string[] }> {
  const out = new Map<string, { value: string; rules: string[]; values: string[] }>();
  for (const rule of rules) {
    if (!read(rule.pattern).test(path)) continue;
    for (const [written, value] of Object.entries(rule.headers)) {
      const seen = out.get(written.toLowerCase());
      out.set(written.toLowerCase(), { value, rules: [...(seen?.rules ?? []), rule.pattern], values: [...(seen?.values ?? []), value] });
    }
  }
  return out;
}

let dir: string;
let dist: string;
let paths: string[];
let rules: Rule[];
beforeAll(() => {
  dir = makeTempDir("headers-parity");
  dist = buildSampleDist(dir, 600, { publishes: 2 });
  const manifest = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8")) as { files: { path: string }[] };
  // _headers and _redirects are the host's configuration, never served at their path.
  paths = ["manifest.json", ...manifest.files.map((f) => f.path).filter((p) => p !== "_headers" && p !== "_redirects")];
  rules = parseHeaderRules(readFileSync(join(dist, "_headers"), "utf8"));
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("_headers beside the live server", () => {
  it("reads the rules as the hosts do", () => {
    for (const read of Object.values(READINGS)) {
      expect(read("/api/check/:identifier").test("/api/check/spin_bot.json.gz")).toBe(true);
      expect(read("/api/check/:identifier").test("/api/check/a/b")).toBe(false);
      expect(read("/embed/*").test("/embed/badge/alpha.html")).toBe(true);
      expect(read("/openapi.json").test("/openapiXjson")).toBe(false);
    }
    expect(READINGS.netlify!("/dumps/*").test("/dumps")).toBe(true);
  });

  it("gives no path one header from two rules on Pages, which would join their values", () => {
    const twice: string[] = [];
    for (const path of paths) {
      for (const [name, { rules: from }] of headersFor(rules, READINGS.plain!, `/${path}`)) if (from.length > 1) twice.push(`/${path} ${name}: ${from.join(" and ")}`);
    }
    expect(twice).toEqual([]);
  });

  it("gives no path one header with two values on Netlify, where the later rule wins", () => {
    const conflicting: string[] = [];
    for (const path of paths) {
      for (const [name, { rules: from, values }] of headersFor(rules, READINGS.netlify!, `/${path}`)) {
        if (new Set(values).size > 1) conflicting.push(`/${path} ${name}: ${from.join(" and ")}`);
      }
    }
    expect(conflicting).toEqual([]);
  });

  it.each(Object.keys(READINGS))("gives every file the headers the live server sends for it (%s reading)", async (reading) => {
    const app = createApp({ dist, fingerprintRateLimit: 0 });
    const differ: string[] = [];
    let compared = 0;
    for (const path of paths) {
      const response = await app.request(`/${path}`);
      await response.arrayBuffer();
      // A file path that is also a route's URL (`/api/check/x.json`) is the route's on the live server.
      if (response.status !== 200) continue;
      compared++;
      const given = headersFor(rules, READINGS[reading]!, `/${path}`);
      if (!given.has("cache-control")) differ.push(`/${path}: no Cache-Control in _headers (live: ${response.headers.get("cache-control")})`);
      for (const [name, { value }] of given) {
        const live = response.headers.get(name);
        if (live !== value) differ.push(`/${path} ${name}: _headers ${JSON.stringify(value)}, live ${JSON.stringify(live)}`);
      }
    }
    expect(differ, `${differ.length} differences`).toEqual([]);
    // Most check files are route URLs too (`/api/check/x.json` is a 422 on the live server): hundreds remain.
    expect(compared).toBeGreaterThan(500);
  }, 120_000);
});
