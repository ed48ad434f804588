/**
 * Every error the server can give, on every route of the table, has one shape: RFC 9457
 * problem+json (DESIGN "Errors"), `X-Content-Type-Options: nosniff` and CORS, with a status the
 * route's OpenAPI operation documents for problem+json. That includes what the HTTP layer answers
 * before h3 sees a request (a malformed message, a missing Host, oversized headers, a refused
 * `Expect`, a broken chunked body, the timeouts), sent here over bare sockets to a real server.
 */
import { Value } from "@sinclair/typebox/value";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenApiDocument, toMediaKey } from "../../core/routes/openapi.ts";
import { formatProblem, TRANSPORT_PROBLEMS } from "../../core/routes/problem.ts";
import { ProblemSchema } from "../../core/routes/schemas.ts";
import { ROUTES } from "../../core/routes/table.ts";
import { fillTemplate } from "../../core/routes/templates.ts";
import { MEDIA_TYPES, type Route } from "../../core/routes/types.ts";
import { startServer, type RunningServer } from "../../server/listen.ts";
import { BASE_URL, buildFixture, readExampleRequests, type BuiltFixture } from "../helpers/fixture.ts";
import { openRawConnection, sendRaw, type RawResponse } from "../helpers/raw-http.ts";

const routes = ROUTES as readonly Route[];
const document = createOpenApiDocument({ baseUrl: BASE_URL }) as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };

let fixture: BuiltFixture;
let server: RunningServer;
let examples: Map<string, { url: string; body?: unknown }>;
beforeAll(async () => {
  fixture = buildFixture("errors");
  examples = readExampleRequests(fixture.dist);
  server = await startServer({ dist: fixture.dist, port: 0, host: "127.0.0.1", fingerprintRateLimit: 0, timeouts: { headersMs: 300, bodyMs: 300 } });
});
afterAll(async () => {
  await server?.close();
  fixture.cleanup();
});

/** A request target for the route: its example, or its template filled with a plausible value. */
function targetOf(route: Route): string {
  const example = examples.get(route.id)?.url;
  if (example) return example;
  const params = Object.fromEntries(route.params.filter((p) => p.in === "path").map((p) => [p.name, "x"]));
  return fillTemplate(route.path, params, true);
}

/** What is wrong with an error answer of `route`, or null when it has the one shape and is documented. */
function checkProblem(route: Route, response: RawResponse | Response, body: string, status: number): string | null {
  const header = (name: string) => (response instanceof Response ? response.headers.get(name) : (response.headers[name] ?? null));
  if (response.status !== status) return `status ${response.status}, expected ${status}: ${body.slice(0, 120)}`;
  if (header("content-type") !== MEDIA_TYPES.problem) return `content type ${header("content-type")}`;
  if (header("x-content-type-options") !== "nosniff") return "no nosniff";
  if (header("access-control-allow-origin") !== "*") return "no CORS";
  const problem = JSON.parse(body) as unknown;
  if (!Value.Check(ProblemSchema, problem) || problem.status !== status) return `not a problem of status ${status}: ${body}`;
  const documented = document.paths[route.path]![route.method.toLowerCase()]!.responses[String(status)];
  if (!documented?.content?.[toMediaKey("problem")]) return `status ${status} is not documented as problem+json`;
  return null;
}

const head = (route: Route, extra = "") => `${route.method} ${targetOf(route)} HTTP/1.1\r\nHost: x\r\n${extra}`;

/** The HTTP layer's refusals, each as raw bytes, with the problem it must give. */
const REFUSALS: [string, (route: Route) => string, { status: number; detail: string }][] = [
  ["a header line without a colon", (r) => head(r, "Not a header\r\n\r\n"), TRANSPORT_PROBLEMS.malformed],
  ["HTTP/1.1 without Host", (r) => `${r.method} ${targetOf(r)} HTTP/1.1\r\n\r\n`, TRANSPORT_PROBLEMS.noHost],
  ["headers over 16 KiB", (r) => head(r, `X-Big: ${"a".repeat(20_000)}\r\n\r\n`), TRANSPORT_PROBLEMS.headersTooLarge],
  ["an Expect other than 100-continue", (r) => head(r, "Expect: a-teapot\r\n\r\n"), TRANSPORT_PROBLEMS.expectation],
  ["a chunk extension over Node's bound", (r) => head(r, `Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n1;${"e".repeat(20_000)}\r\n`), TRANSPORT_PROBLEMS.chunkTooLarge],
  ["a chunk size that is no number", (r) => head(r, "Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"), TRANSPORT_PROBLEMS.malformed],
];

describe.each(routes.map((r) => [r.id, r] as const))("%s: every error is problem+json, nosniff, CORS, documented", (_, route) => {
  it.each(REFUSALS)("%s", async (_label, request, problem) => {
    const { response } = await sendRaw(server.url, request(route));
    expect(response, "an answer before the connection closed").not.toBeNull();
    expect(checkProblem(route, response!, response!.body, problem.status)).toBeNull();
    expect(response!.body).toBe(formatProblem(problem.status, problem.detail));
  });

  it("a method the route does not answer, and a path that does not decode", async () => {
    const problems: (string | null)[] = [];
    const wrongMethod = await fetch(new URL(targetOf(route), server.url), { method: route.method === "GET" ? "DELETE" : "PUT" });
    problems.push(checkProblem(route, wrongMethod, await wrongMethod.text(), 405));
    const segments = route.path.split("/");
    const param = segments.findIndex((s) => s.includes("{"));
    if (param > 0) {
      const target = targetOf(route).split("?")[0]!.split("/");
      target[param] = "%E0%A4%A";
      const undecodable = await fetch(new URL(target.join("/"), server.url));
      problems.push(checkProblem(route, undecodable, await undecodable.text(), 400));
    }
    expect(problems.filter(Boolean)).toEqual([]);
  });
});

describe("the timeouts, on every route at once", () => {
  it("answer headers that stop arriving with the 408 problem", async () => {
    const answers = await Promise.all(routes.map(async (route) => ({ route, ...(await sendRaw(server.url, head(route))) })));
    const wrong = answers.map(({ route, response }) => response && checkProblem(route, response, response.body, 408));
    expect(wrong.filter(Boolean)).toEqual([]);
    expect(answers.every((a) => a.response?.body === formatProblem(408, TRANSPORT_PROBLEMS.headersTimeout.detail))).toBe(true);
  });

  it("answer a declared body that stops arriving with the 408 problem, on each route that reads one", async () => {
    const withBody = routes.filter((r) => r.body);
    expect(withBody.length).toBeGreaterThan(0);
    for (const route of withBody) {
      const connection = await openRawConnection(server.url);
      connection.write(head(route, "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"));
      const response = await connection.readResponse();
      expect(checkProblem(route, response, response.body, 408)).toBeNull();
      expect(response.body).toBe(formatProblem(408, TRANSPORT_PROBLEMS.bodyTimeout.detail));
    }
  });
});
