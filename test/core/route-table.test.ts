/**
 * The route table is the one owner of what a URL is: every file a build writes is known to it,
 * every route and support file it lists is written by a build, the server answers exactly its
 * routes, and its templates are consistent with their parameters.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyFile, getRouterPattern } from "../../core/routes/match.ts";
import { formatProblem, NOT_FOUND_DETAIL } from "../../core/routes/problem.ts";
import { ROUTES, SUPPORT_FILES, HOST_CONFIG_FILES } from "../../core/routes/table.ts";
import { listTemplateParams } from "../../core/routes/templates.ts";
import { listVariantEncodings, parseVariantPath } from "../../core/routes/variants.ts";
import type { Route } from "../../core/routes/types.ts";
import { createApp, HANDLERS } from "../../server/app.ts";
import { buildSampleDist, makeTempDir, readExampleRequests } from "../helpers/fixture.ts";
import { MEDIA_TYPES } from "../../core/routes/types.ts";

const routes = ROUTES as readonly Route[];
let dir: string;
let dist: string;
let files: string[];
let sizes: Map<string, number>;

// A sample with several pages of every list (60 companies, 3 000 usernames): the fixture has one.
beforeAll(() => {
  dir = makeTempDir("route-table");
  dist = buildSampleDist(dir, 3000);
  const manifest = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8")) as { files: { path: string; size: number }[] };
  files = [...manifest.files.map((f) => f.path), "manifest.json"];
  sizes = new Map(manifest.files.map((f) => [f.path, f.size]));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the route table", () => {
  it("knows every file the build writes, or it is a variant the rule gives a file it knows", () => {
    expect(files.filter((path) => classifyFile(path) === null && !isAllowedVariant(path, sizes))).toEqual([]);
    expect(files.some((path) => classifyFile(path) === null)).toBe(true);
  });

  it("admits a variant only of a compressible file of the right size", () => {
    const made = new Map([["api/companies.json", 4096], ["search/live.bin", 4096], ["api/spammers.json", 10], ["no/such.json", 4096]]);
    const allowed = (path: string) => isAllowedVariant(path, made);
    expect(["api/companies.json.gz", "api/companies.json.br"].filter(allowed)).toHaveLength(2);
    expect(["search/live.bin.gz", "search/live.bin.br", "api/spammers.json.br", "no/such.json.gz", "api/none.json.gz"].filter(allowed)).toEqual([]);
  });

  it("lists no route or support file the build does not write", () => {
    const written = new Set(files.filter((path) => classifyFile(path) !== null).map((path) => {
      const known = classifyFile(path)!;
      return "support" in known ? known.support : known.route.id;
    }));
    const routeIds = routes.filter((r) => r.file !== null).map((r) => r.id);
    expect(routeIds.filter((id) => !written.has(id))).toEqual([]);
    expect(SUPPORT_FILES.map((s) => s.file).filter((f) => !written.has(f))).toEqual([]);
  });

  it("has unique ids and one operation per path and method", () => {
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
    expect(new Set(routes.map((r) => `${r.method} ${r.path}`)).size).toBe(routes.length);
  });

  it.each(routes.map((r) => [r.id, r] as const))("%s: declares exactly the path parameters of its template, and its file uses the same", (_, route) => {
    const inPath = listTemplateParams(route.path).sort();
    expect(route.params.filter((p) => p.in === "path").map((p) => p.name).sort()).toEqual(inPath);
    if (route.file !== null) expect(listTemplateParams(route.file).sort()).toEqual(inPath);
    for (const file of route.queryFiles ?? []) {
      const queryNames = route.params.filter((p) => p.in === "query").map((p) => p.name);
      for (const name of listTemplateParams(file)) expect(queryNames).toContain(name);
    }
  });
});

/** A precompressed variant (core/routes/variants.ts) of a file the table knows, which the rule gives that encoding at its size. */
function isAllowedVariant(path: string, sizeOf: ReadonlyMap<string, number>): boolean {
  const variant = parseVariantPath(path);
  const size = variant ? sizeOf.get(variant.original) : undefined;
  if (!variant || size === undefined || classifyFile(variant.original) === null) return false;
  return listVariantEncodings(variant.original, size).includes(variant.encoding);
}

describe("the server and the table", () => {
  it("has a handler only for routes of the table, and every computed route has one", () => {
    const ids = new Set(routes.map((r) => r.id));
    expect(Object.keys(HANDLERS).filter((id) => !ids.has(id))).toEqual([]);
    const computed = routes.filter((r) => r.file === null).map((r) => r.id);
    expect(computed.filter((id) => !(id in HANDLERS))).toEqual([]);
  });

  it("registers patterns the router can hold (one parameter per segment)", () => {
    for (const route of routes) expect(getRouterPattern(route)).not.toMatch(/[{}]/);
  });

  it("answers every route's example with the route's own media type, not the unknown-path 404", async () => {
    const app = createApp({ dist, fingerprintRateLimit: 0 });
    const examples = readExampleRequests(dist);
    // Written after the examples are taken (the docs themselves, the manifest, the report): requested as they are.
    const noExample = ["getOpenApi", "getManifest", "getBuildReport", "getDocs"];
    expect(routes.filter((r) => !examples.has(r.id)).map((r) => r.id)).toEqual(noExample);
    const wrong: string[] = [];
    for (const route of routes) {
      const example = examples.get(route.id) ?? { url: route.path };
      const init = route.method === "POST" ? { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(example.body) } : {};
      const res = await app.request(example.url, init);
      const type = res.headers.get("content-type");
      if (res.status !== 200 || type !== MEDIA_TYPES[route.media]) wrong.push(`${route.id} ${example.url}: ${res.status} ${type}`);
      await res.arrayBuffer();
    }
    expect(wrong).toEqual([]);
  });

  it("answers a path outside the table that is no file with the one problem+json 404", async () => {
    const res = await createApp({ dist }).request("/no/such/thing");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    expect(await res.text()).toBe(formatProblem(404, NOT_FOUND_DETAIL));
  });

  it("never serves the host configuration files", async () => {
    const app = createApp({ dist });
    for (const file of HOST_CONFIG_FILES) expect((await app.request(`/${file}`)).status).toBe(404);
  });
});
