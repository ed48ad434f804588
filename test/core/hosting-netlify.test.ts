/**
 * `_headers` and `_redirects` (Netlify, Cloudflare Pages), parsed as those hosts read them: every
 * route of the table has its rule, every rule points at a file the build writes, and what the
 * files cannot answer points at the route's 501 problem, not at a default page.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCannotAnswer } from "../../core/routes/problem.ts";
import { CANNOT_ANSWER_FILE, ROUTES } from "../../core/routes/table.ts";
import { fillTemplate } from "../../core/routes/templates.ts";
import { CACHE_CONTROL, MEDIA_TYPES, type Route } from "../../core/routes/types.ts";
import { foldHeaderRules, renderHeaders, renderRedirects } from "../../core/hosting/netlify.ts";
import { parseHeaderRules } from "../helpers/header-rules.ts";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";

const routes = ROUTES as readonly Route[];

interface Rule {
  from: string;
  query: Record<string, string>;
  to: string;
  status: number;
}

function parseRedirects(text: string): Rule[] {
  return text
    .split("\n")
    .filter((line) => line.trim() && !line.startsWith("#"))
    .map((line) => {
      const parts = line.trim().split(/\s+/);
      const status = Number(parts.pop());
      const to = parts.pop()!;
      const [from, ...query] = parts as [string, ...string[]];
      return { from, to, status, query: Object.fromEntries(query.map((q) => q.split("=") as [string, string])) };
    });
}

let fixture: BuiltFixture;
beforeAll(() => (fixture = buildFixture("netlify")));
afterAll(() => fixture.cleanup());

describe("_redirects", () => {
  const rules = parseRedirects(renderRedirects());

  it("is the file the build writes", () => {
    expect(readFileSync(join(fixture.dist, "_redirects"), "utf8")).toBe(renderRedirects());
  });

  it("sends every computed route to its 501 problem, which the build writes", () => {
    for (const route of routes.filter((r) => r.static.kind === "live")) {
      const rule = rules.find((r) => r.from === route.path)!;
      expect(rule, route.id).toBeDefined();
      expect(rule.status).toBe(501);
      expect(readFileSync(join(fixture.dist, rule.to), "utf8")).toBe(formatCannotAnswer(route));
    }
  });

  it("lists a query parameter no file answers before the forms the files answer", () => {
    for (const route of routes.filter((r) => r.static.kind === "query")) {
      const mine = rules.filter((r) => r.from === route.path);
      const lastCannot = mine.map((r) => r.status).lastIndexOf(501);
      const firstForm = mine.findIndex((r) => r.status === 200);
      expect(lastCannot, route.id).toBeGreaterThanOrEqual(0);
      expect(lastCannot).toBeLessThan(firstForm);
      expect(mine.at(-1)!.query, "the default form comes last").toEqual({});
      expect(mine.filter((r) => r.status === 501).every((r) => r.to === `/${fillTemplate(CANNOT_ANSWER_FILE, { id: route.id })}`)).toBe(true);
    }
  });

  it("rewrites every extension-less URL to the route's file, which exists in the build for a real key", () => {
    for (const rule of rules.filter((r) => r.status === 200 && Object.keys(r.query).length === 0)) {
      const route = routes.find((r) => r.file !== null && `/${r.file.replace(/\{([a-z_]+)\}/g, ":$1")}` === rule.to);
      expect(route, rule.from).toBeDefined();
    }
    const check = rules.find((r) => r.from === "/api/check/:identifier")!;
    const username = readFileSync(join(fixture.dist, "manifest.json"), "utf8").match(/"api\/check\/([a-z0-9_]+)\.json"/)![1]!;
    expect(readFileSync(join(fixture.dist, check.to.replace(":identifier", username)), "utf8")).toContain(`"username":"${username}"`);
    expect(rules.find((r) => r.from === "/rss/all")!.to).toBe("/rss/all.rss");
  });
});

describe("_headers", () => {
  const blocks = new Map(parseHeaderRules(renderHeaders()).map((rule) => [rule.pattern, rule.headers]));

  it("gives every path CORS and nosniff, and no path two Cache-Controls through /*", () => {
    expect(blocks.get("/*")).toEqual({ "Access-Control-Allow-Origin": "*", "X-Content-Type-Options": "nosniff" });
  });

  it("gives every file route its Cache-Control", () => {
    expect(blocks.get("/api/badge/*")!["Cache-Control"]).toBe(CACHE_CONTROL.public);
    expect(blocks.get("/openapi.json")!["Cache-Control"]).toBe(CACHE_CONTROL.revalidate);
    // The URL /api/check/:identifier is one of the paths of the file rule /api/check/* (api/check/{identifier}.json).
    expect(blocks.get("/api/check/*")!["Cache-Control"]).toBe(CACHE_CONTROL.public);
    expect(blocks.has("/api/check/:identifier")).toBe(false);
  });

  it("leaves out a rule a wider one already covers with the same value, and refuses two values for a path", () => {
    const cache = (value: string) => ({ "Cache-Control": value });
    expect(foldHeaderRules([{ path: "/dumps/*", headers: cache("a") }, { path: "/dumps/index.json", headers: cache("a") }, { path: "/dumps", headers: cache("a") }]).map((r) => r.path)).toEqual(["/dumps/*", "/dumps"]);
    expect(foldHeaderRules([{ path: "/x/:id", headers: cache("a") }, { path: "/x/:id/*", headers: cache("a") }, { path: "/x/:id/y", headers: cache("a") }]).map((r) => r.path)).toEqual(["/x/:id", "/x/:id/*"]);
    expect(() => foldHeaderRules([{ path: "/dumps/*", headers: cache("a") }, { path: "/dumps/index.json", headers: cache("b") }])).toThrow(/two values/);
  });

  it("says the JSON Feed type and the embeds' policy, which the extensions do not", () => {
    expect(blocks.get("/rss/all.feed.json")!["Content-Type"]).toBe(MEDIA_TYPES.feedJson);
    expect(blocks.get("/rss/category/crypto.feed.json")!["Content-Type"]).toBe(MEDIA_TYPES.feedJson);
    expect(blocks.get("/embed/*")!["Content-Security-Policy"]).toContain("frame-ancestors *");
  });
});
