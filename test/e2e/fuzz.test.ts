/**
 * Property-based tests (fast-check) against a real listening server on a built fixture: every
 * route of the table gets hostile path values, encodings, methods, query strings and bodies.
 * Whatever is sent, the server never answers 5xx, never answers an error under /api/ with anything
 * but JSON (or, for an image that names nothing, the build's constant SVG "not found" badge, which
 * an `<img>` can show), never serves a file from outside dist, never mirrors markup into a body that is not
 * JSON, and always sends nosniff and CORS. The query-parameter policy (docs/decisions.md "Decisions") holds on
 * every route: a parameter the route does not take is ignored, one it takes given twice is a 422
 * naming it. Runs are bounded in count and time; a failure prints the seed and the shrunk case.
 */
import fc from "fast-check";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_FOUND_BADGE_FILE, ROUTES } from "../../core/routes/table.ts";
import type { Route } from "../../core/routes/types.ts";
import { startServer, type RunningServer } from "../../server/listen.ts";
import { buildFixture, readExampleRequests, type BuiltFixture } from "../helpers/fixture.ts";
import { sendRaw, type RawResponse } from "../helpers/raw-http.ts";
import { HOSTILE_NAMES, MARKUP, bodyArb, queryArb, segmentArb } from "../helpers/hostile.ts";

const routes = ROUTES as readonly Route[];
/** Per property: at most this many runs, and no run started after this many milliseconds. */
const RUNS = { perRoute: 25, free: 300, bodies: 150 } as const;
const TIME_LIMIT_MS = 4000;
/** Bytes that must never be served: files beside dist, and files of the machine. */
const SECRETS = ["FUZZ-SECRET-OUTSIDE-DIST", "root:x:0:0", '"name": "spamcheck-api"'];

let fixture: BuiltFixture;
let server: RunningServer;
/** Requests sent per property (route id, or the property's name), and answers by status class: docs/benchmarks.md's figures. */
const tally = { sent: new Map<string, number>(), byClass: new Map<string, number>() };
let examples: Map<string, { url: string; body?: unknown }>;
/** The one SVG an /api/ error may be: the badge of a name that names nothing. */
let notFoundBadge: string;
beforeAll(async () => {
  fixture = buildFixture("fuzz");
  notFoundBadge = readFileSync(join(fixture.dist, NOT_FOUND_BADGE_FILE), "utf8");
  examples = readExampleRequests(fixture.dist);
  for (const dir of [fixture.dir, join(fixture.dir, ".dist-builds")]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "secret.txt"), SECRETS[0]!);
    writeFileSync(join(dir, "secret.json"), JSON.stringify({ secret: SECRETS[0] }));
  }
  server = await startServer({ dist: fixture.dist, port: 0, host: "127.0.0.1", fingerprintRateLimit: 0 });
});
afterAll(async () => {
  await server?.close();
  fixture.cleanup();
  const perRoute = routes.map((route) => tally.sent.get(route.id) ?? 0);
  const total = [...tally.sent.values()].reduce((a, b) => a + b, 0);
  console.log(
    `fuzz: ${total} hostile requests; ${Math.min(...perRoute)}–${Math.max(...perRoute)} for each of the ${routes.length} routes, ` +
      `${tally.sent.get("free") ?? 0} paths outside the table, ${tally.sent.get("bodies") ?? 0} POST bodies; ` +
      `answers by status class ${JSON.stringify(Object.fromEntries(tally.byClass))}`,
  );
});

interface Sent {
  method: string;
  target: string;
  body?: Uint8Array;
  contentType?: string;
}

/** One request on its own connection, the bytes exactly as given. */
async function send({ method, target, body, contentType }: Sent): Promise<RawResponse | null> {
  const headers = [`Host: fuzz`, "Connection: close", ...(contentType ? [`Content-Type: ${contentType}`] : []), ...(body ? [`Content-Length: ${body.length}`] : [])];
  const head = Buffer.from(`${method} ${target} HTTP/1.1\r\n${headers.join("\r\n")}\r\n\r\n`, "latin1");
  const { response } = await sendRaw(server.url, body ? Buffer.concat([head, body]) : head);
  const statusClass = response ? `${Math.floor(response.status / 100)}xx` : "none";
  tally.byClass.set(statusClass, (tally.byClass.get(statusClass) ?? 0) + 1);
  return response;
}

/** What is wrong with the answer to `sent`, or null. The properties below hold for every request. */
function checkAnswer(sent: Sent, response: RawResponse | null, markup: readonly string[] = MARKUP): string | null {
  if (!response) return "no answer";
  if (response.status >= 500) return `status ${response.status}: ${response.body.slice(0, 200)}`;
  if (response.headers["x-content-type-options"] !== "nosniff") return "no nosniff";
  if (response.headers["access-control-allow-origin"] !== "*") return "no CORS";
  const type = response.headers["content-type"] ?? "";
  const path = safePathname(sent.target);
  const badge = response.status === 404 && type.startsWith("image/svg+xml") && response.body === notFoundBadge;
  if (path.startsWith("/api/") && response.status >= 400 && !type.includes("json") && !badge) return `an /api/ error as ${type}`;
  const leaked = SECRETS.find((s) => response.body.includes(s));
  if (leaked) return `served ${JSON.stringify(leaked)}`;
  if (!type.includes("json")) {
    const mirrored = markup.find((m) => response.body.includes(m));
    if (mirrored) return `mirrored ${JSON.stringify(mirrored)} into ${type}`;
  }
  return null;
}

/** The path the server sees once dot segments are resolved (what decides /api/). */
function safePathname(target: string): string {
  try {
    return new URL(target, "http://fuzz").pathname;
  } catch {
    return target;
  }
}

/** A request as a failure report shows it: the target and the body cut short (a body can be 40 KB). */
function describeSent(sent: Sent): string {
  const body = sent.body ? ` body ${sent.body.length} bytes: ${JSON.stringify(Buffer.from(sent.body.subarray(0, 60)).toString("latin1"))}` : "";
  return `${sent.method} ${sent.target.slice(0, 300)}${sent.contentType ? ` (${sent.contentType})` : ""}${body}`;
}

async function assertNothingWrong(arb: fc.Arbitrary<Sent>, numRuns: number, label: string): Promise<void> {
  const printable = arb.map((sent) => Object.assign(sent, { [fc.toStringMethod]: () => describeSent(sent) }));
  await fc.assert(
    fc.asyncProperty(printable, async (sent) => {
      tally.sent.set(label, (tally.sent.get(label) ?? 0) + 1);
      const wrong = checkAnswer(sent, await send(sent));
      if (wrong) throw new Error(`${describeSent(sent)}: ${wrong}`);
    }),
    { numRuns, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
  );
}

/** A request target for `route` with every path parameter drawn from `segment`, and a query. */
function routeTargetArb(route: Route): fc.Arbitrary<string> {
  const names = route.params.filter((p) => p.in === "query").map((p) => p.name);
  const parts = route.path.split(/(\{[a-z_]+\})/).map((part) => (part.startsWith("{") ? segmentArb : fc.constant(part)));
  return fc.tuple(fc.tuple(...parts), queryArb([...names, ...HOSTILE_NAMES])).map(([path, query]) => path.join("") + query);
}

describe("hostile requests", () => {
  it.each(routes.map((r) => [r.id, r] as const))("%s: hostile path values, methods, query strings and bodies", async (_, route) => {
    const arb = fc.record({
      method: fc.constantFrom(route.method, route.method, "HEAD", "OPTIONS", "DELETE", "PROPFIND"),
      target: routeTargetArb(route),
      body: fc.option(bodyArb, { nil: undefined }),
      contentType: fc.option(fc.constantFrom("application/json", "text/plain", "application/json; charset=latin1"), { nil: undefined }),
    });
    await assertNothingWrong(arb.filter((s) => s.method !== "HEAD"), RUNS.perRoute, route.id);
  });

  it("paths outside the table: dot segments, encoded slashes and dots, NUL, bad UTF-8, host files", async () => {
    const arb = fc.record({
      method: fc.constant("GET"),
      target: fc.tuple(fc.array(segmentArb, { minLength: 1, maxLength: 6 }), queryArb(HOSTILE_NAMES)).map(([segments, query]) => `/${segments.join("/")}${query}`),
    });
    await assertNothingWrong(arb, RUNS.free, "free");
  });

  it("bodies for the POST routes: deep, huge, wrong types, not UTF-8, another content type", async () => {
    const posts = routes.filter((r) => r.method === "POST");
    const arb = fc.record({
      method: fc.constant("POST"),
      target: fc.constantFrom(...posts.map((r) => r.path)),
      body: bodyArb,
      contentType: fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded"),
    });
    await assertNothingWrong(arb, RUNS.bodies, "bodies");
  });

  it("would notice what it looks for (the checks are wired)", () => {
    const sent = { method: "GET", target: "/api/x" };
    const answer = (status: number, type: string, body: string): RawResponse => ({ status, headers: { "content-type": type, "x-content-type-options": "nosniff", "access-control-allow-origin": "*" }, body });
    expect(checkAnswer(sent, answer(500, "application/problem+json", "{}"))).toMatch(/status 500/);
    expect(checkAnswer(sent, answer(404, "text/html", "<p>"))).toMatch(/an \/api\/ error/);
    expect(checkAnswer(sent, answer(404, "image/svg+xml; charset=utf-8", `${notFoundBadge}<!-- -->`))).toMatch(/an \/api\/ error/);
    expect(checkAnswer(sent, answer(404, "image/svg+xml; charset=utf-8", notFoundBadge))).toBeNull();
    expect(checkAnswer(sent, answer(200, "application/json", SECRETS[0]!))).toMatch(/served/);
    expect(checkAnswer({ method: "GET", target: "/x" }, answer(200, "text/html", `<b>${MARKUP[0]}</b>`))).toMatch(/mirrored/);
    expect(checkAnswer(sent, null)).toBe("no answer");
  });
});

describe("the query-parameter policy, on every route that takes a query", () => {
  const withQuery = routes.filter((r) => r.params.some((p) => p.in === "query"));
  const exampleOf = (route: Route) => examples.get(route.id)?.url ?? route.path;
  const join = (url: string, query: string) => (url.includes("?") ? `${url}&${query.slice(1)}` : query ? `${url}${query}` : url);

  it.each(withQuery.map((r) => [r.id, r] as const))("%s: a parameter it takes, given twice, is a 422 naming it", async (_, route) => {
    const names = route.params.filter((p) => p.in === "query").map((p) => p.name);
    const value = fc.stringMatching(/^[a-z0-9]{0,8}$/);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), value, value, async (name, a, b) => {
        const target = join(exampleOf(route), `?${name}=${a}&${name}=${b}`);
        const response = await send({ method: route.method, target, ...postBody(route) });
        expect(response?.status, target).toBe(422);
        expect(JSON.parse(response!.body).errors, target).toContainEqual({ name, in: "query", detail: "must be given at most once" });
      }),
      { numRuns: 20, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
    );
  });

  it.each(routes.map((r) => [r.id, r] as const))("%s: parameters it does not take are ignored, `__proto__` and repeats included", async (_, route) => {
    const known = new Set(route.params.filter((p) => p.in === "query").map((p) => p.name));
    const example = exampleOf(route);
    const expected = await send({ method: route.method, target: example, ...postBody(route) });
    const unknownNames = HOSTILE_NAMES.filter((n) => !known.has(n));
    await fc.assert(
      fc.asyncProperty(queryArb(unknownNames, { encode: true }), async (query) => {
        const target = join(example, query);
        // A request line past Node's 16 KiB of head is the HTTP layer's 431 (test/e2e/errors.test.ts), before any route reads a parameter.
        fc.pre(target.length < 15 * 1024);
        const response = await send({ method: route.method, target, ...postBody(route) });
        // Compared whole, reported short: a difference names the request and the two statuses.
        const same = response?.status === expected?.status && withoutCacheFlag(response?.body) === withoutCacheFlag(expected?.body);
        expect(same, `${target}: ${response?.status} ${response?.body.slice(0, 160)} | without it: ${expected?.status}`).toBe(true);
      }),
      { numRuns: 15, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
    );
  });

  /** The route's example body (the fixture has no public fingerprint profile, so a plain one then). */
  function postBody(route: Route): Partial<Sent> {
    const body = examples.get(route.id)?.body ?? { signals: { ja4: "t13d1516h2_8daaf6152771_02713d6af862" } };
    return route.method === "POST" ? { body: Buffer.from(JSON.stringify(body)), contentType: "application/json" } : {};
  }
});

/** A match answer says whether it came from the cache: the one field a repeated request changes. */
function withoutCacheFlag(body: string | undefined): string | undefined {
  return body?.replace(/,"cached":(true|false)\}$/, "}");
}
