/**
 * /openapi.json as a real server serves it: a valid OpenAPI 3.1 document (checked by a
 * maintained validator, @readme/openapi-parser), version 1.0.0, CC BY 4.0 for the data, one
 * operation per route of the table with its parameters, bounds, statuses and headers.
 */
import { validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES } from "../../core/routes/table.ts";
import type { Route } from "../../core/routes/types.ts";
import { startServer, type RunningServer } from "../../server/listen.ts";
import { BASE_URL, buildFixture, type BuiltFixture } from "../helpers/fixture.ts";

type Json = Record<string, any>;
const routes = ROUTES as readonly Route[];
let fixture: BuiltFixture;
let server: RunningServer;
let document: Json;

beforeAll(async () => {
  fixture = buildFixture("openapi");
  server = await startServer({ dist: fixture.dist, port: 0, host: "127.0.0.1" });
  const res = await fetch(new URL("/openapi.json", server.url));
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  document = (await res.json()) as Json;
});
afterAll(async () => {
  await server.close();
  fixture.cleanup();
});

const operation = (route: Route) => document.paths[route.path][route.method.toLowerCase()];

describe("/openapi.json", () => {
  it("validates as OpenAPI 3.1 with @readme/openapi-parser", async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
  });

  it("carries version 1.0.0, the CC BY 4.0 licence and this deployment's address", () => {
    expect(document.info.version).toBe("1.0.0");
    expect(document.info.license.url).toBe("https://creativecommons.org/licenses/by/4.0/");
    expect(document.servers).toEqual([{ url: BASE_URL }]);
  });

  it("has one operation per route of the table, and no other", () => {
    const ids = Object.values(document.paths as Json).flatMap((item) => Object.values(item as Json).map((op) => op.operationId as string));
    expect(ids.filter((id) => !id.endsWith("Preflight")).sort()).toEqual(routes.map((r) => r.id).sort());
  });

  it("states every parameter's bounds and defaults", () => {
    const companies = operation(routes.find((r) => r.id === "listCompanies")!);
    const limit = companies.parameters.find((p: Json) => p.name === "limit");
    expect(limit).toMatchObject({ in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 200, default: 50 } });
    const global = operation(routes.find((r) => r.id === "searchGlobal")!);
    expect(global.parameters.find((p: Json) => p.name === "q")).toMatchObject({ required: true, schema: { maxLength: 120 } });
    expect(global.parameters.find((p: Json) => p.name === "limit").schema).toMatchObject({ minimum: 1, maximum: 50 });
    const check = operation(routes.find((r) => r.id === "checkUsername")!);
    expect(check.parameters).toEqual([expect.objectContaining({ name: "identifier", in: "path", required: true })]);
  });

  it("documents every status with its headers: ETag and Cache-Control on GET answers, RateLimit on the limited ones, 405, 500 and the HTTP layer's refusals everywhere", () => {
    for (const route of routes) {
      const responses = operation(route).responses;
      expect(Object.keys(responses), route.id).toEqual(expect.arrayContaining(["200", "400", "405", "408", "413", "417", "431", "500"]));
      expect(Object.keys(responses["200"].headers), route.id).toEqual(expect.arrayContaining(["Cache-Control", "Access-Control-Allow-Origin", "RateLimit-Limit"]));
      if (route.method === "GET") expect(responses["200"].headers.ETag, route.id).toBeDefined();
      expect(responses["429"], route.id).toBeDefined();
    }
    const match = operation(routes.find((r) => r.id === "matchFingerprint")!);
    expect(Object.keys(match.responses).sort()).toEqual(["200", "400", "405", "408", "413", "415", "417", "422", "429", "431", "500", "501", "503"]);
    // The route's own 400 and the HTTP layer's are one entry, giving both reasons.
    expect(match.responses["400"].description).toMatch(/^The body is not readable JSON.*Also: Not a readable request/);
    expect(match.responses["408"].description).toContain("declared body");
    expect(match.responses["429"].headers["Retry-After"]).toBeDefined();
    expect(match.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/MatchRequest" });
  });

  it("shows a real answer of this build as each route's example, and the request that gave it", () => {
    const check = operation(routes.find((r) => r.id === "checkUsername")!);
    const { url } = check["x-example-request"];
    const example = check.responses["200"].content["application/json"].example;
    expect(example).toMatchObject({ found: true, url: `${BASE_URL}${url}` });
  });
});
