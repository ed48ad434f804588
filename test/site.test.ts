/**
 * The pages API URLs point at: every `url` and `page_url` in the built API files resolves on the
 * same deployment, and hostile names come out escaped.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../server/app.ts";
import { escapeMarkup } from "../core/escape.ts";
import { BASE_URL, buildFixture, type BuiltFixture } from "./helpers/fixture.ts";

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("site");
});
afterAll(() => fixture.cleanup());

function collectUrls(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) collectUrls(v, out);
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if ((key === "url" || key === "page_url") && typeof v === "string") out.add(v);
      else collectUrls(v, out);
    }
  }
}

describe("site pages", () => {
  it("resolve every url and page_url the API emits", async () => {
    const app = createApp({ dist: fixture.dist });
    const urls = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith(".json")) collectUrls(JSON.parse(readFileSync(path, "utf8")), urls);
      }
    };
    walk(join(fixture.dist, "api"));
    urls.add(`${BASE_URL}/companies`);
    expect(urls.size).toBeGreaterThan(10);
    for (const url of urls) {
      expect(url.startsWith(BASE_URL), url).toBe(true);
      const res = await app.request(url.slice(BASE_URL.length));
      expect(res.status, url).toBe(200);
      await res.arrayBuffer();
    }
  });

  it("serves a company page as escaped HTML", async () => {
    const app = createApp({ dist: fixture.dist });
    const res = await app.request("/company/bold-co");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toContain("<h1>&lt;b&gt;Bold &amp; &quot;Co&quot;&lt;/b&gt;</h1>");
    expect(html).not.toContain("<b>Bold");
    const list = await (await app.request("/companies")).text();
    expect(list).toContain('<a href="https://api.example.org/company/alpha-leads">Alpha Leads</a>');
    expect(list).toContain("&lt;b&gt;Bold");
  });

  it.each([
    ["a & b", "a &amp; b"],
    [`<x y="1">'`, "&lt;x y=&quot;1&quot;&gt;&#39;"],
    ["bell\u0007null\u0000tab\t", "bellnulltab\t"],
    ["🎰 \u202eevil", "🎰 \u202eevil"],
  ])("escapes %j", (text, escaped) => {
    expect(escapeMarkup(text)).toBe(escaped);
  });
});
