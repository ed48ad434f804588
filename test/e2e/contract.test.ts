/**
 * The contract: every route of the table, sent to a real listening server on a sample build
 * with valid input and with input for each documented error, answers a status the served
 * /openapi.json documents for it, with a documented content type and a body that validates
 * against the documented schema (Ajv, JSON Schema 2020-12). An undocumented status, type or
 * field fails. Every documented status of every route is exercised, except 500 (a server fault),
 * 501 (a static host's answer, proven by the nginx test) and the HTTP layer's refusals before a
 * route (test/e2e/errors.test.ts sends those to every route).
 */
import { cpSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toExampleBody } from "../../build/examples.ts";
import { isFileAnswer } from "../../core/routes/openapi.ts";
import { TRANSPORT_PROBLEMS } from "../../core/routes/problem.ts";
import { FINGERPRINT_INDEX_FILE, ROUTES, SEARCH_INDEX_FILES, SPAMMER_RANKING_FILE } from "../../core/routes/table.ts";
import { fillTemplate } from "../../core/routes/templates.ts";
import type { Route } from "../../core/routes/types.ts";
import { startServer, type RunningServer } from "../../server/listen.ts";
import { buildSampleDist, makeTempDir, readExampleRequests } from "../helpers/fixture.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const routes = ROUTES as readonly Route[];

type Json = Record<string, any>;
interface Sent {
  route: Route;
  label: string;
  status: number;
  contentType: string | null;
  headers: Headers;
  body: string;
}

let dir: string;
let servers: { main: RunningServer; limited: RunningServer; noIndex: RunningServer };
let openapi: Json;
let ajv: Ajv2020;
const validators = new Map<string, ValidateFunction>();
const exercised = new Map<string, Set<number>>();
let examples: Map<string, { url: string; body?: unknown; undocumented?: true }>;
/** Publishes the change feed no longer keeps. */
let expired: string[];

beforeAll(async () => {
  dir = makeTempDir("contract");
  // Four publishes, the last keeping two: the change feed has an expired one (its 410).
  const dist = buildSampleDist(dir, 3000, { publishes: 4, keep: 2 });
  expired = (JSON.parse(readFileSync(join(dist, "dumps/changes/expired.json"), "utf8")) as { builds: string[] }).builds;
  // A copy without the search and fingerprint indexes and the spammer ranking: what a build of an older version serves.
  const noIndex = join(dir, "no-index");
  cpSync(realpathSync(dist), noIndex, { recursive: true });
  for (const file of [...Object.values(SEARCH_INDEX_FILES), FINGERPRINT_INDEX_FILE, SPAMMER_RANKING_FILE, "dumps/changes/index.json"]) rmSync(join(noIndex, file));
  servers = {
    main: await startServer({ dist, port: 0, host: "127.0.0.1", fingerprintRateLimit: 0 }),
    limited: await startServer({ dist, port: 0, host: "127.0.0.1", fingerprintRateLimit: 1, readRateLimit: 1 }),
    noIndex: await startServer({ dist: noIndex, port: 0, host: "127.0.0.1" }),
  };
  openapi = (await (await fetch(new URL("/openapi.json", servers.main.url))).json()) as Json;
  ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  // The document's components as one schema resource, so `$ref`s resolve as they do in the document.
  ajv.addSchema(JSON.parse(JSON.stringify({ $id: "api", $defs: openapi.components.schemas }).replaceAll('"#/components/schemas/', '"api#/$defs/')));
  examples = readExampleRequests(dist);
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(servers ?? {}).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

function operationOf(route: Route): Json {
  return openapi.paths[route.path][route.method.toLowerCase()];
}

function validatorFor(schema: Json): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) validators.set(key, (validate = ajv.compile(JSON.parse(key.replaceAll('"#/components/schemas/', '"api#/$defs/')))));
  return validate;
}

/** What the document says is wrong with an answer, or null when it matches. */
function checkAnswer(sent: Sent): string | null {
  const documented = operationOf(sent.route).responses[String(sent.status)];
  if (!documented) return `status ${sent.status} is not documented`;
  if (sent.status === 304) return null;
  // A part of a file is bytes of it, not a document of its own.
  if (sent.status === 206) return sent.headers.get("content-range") ? null : "a 206 without Content-Range";
  if (sent.status === 301) return sent.headers.get("location") ? null : "a 301 without Location";
  // The document keys bodies by bare media type and says once that text is UTF-8: the header must.
  const bare = (sent.contentType ?? "").split(";")[0]!;
  const binary = bare === "application/gzip" || bare === "application/octet-stream";
  if (sent.contentType !== (binary ? bare : `${bare}; charset=utf-8`)) return `Content-Type ${sent.contentType} is not ${bare} as the document says it (UTF-8 text)`;
  const media = documented.content?.[bare];
  if (!media) return `content type ${sent.contentType} is not documented for ${sent.status} (documented: ${Object.keys(documented.content ?? {}).join(", ")})`;
  if (!sent.contentType!.includes("json")) return null;
  const validate = validatorFor(media.schema);
  if (!validate(JSON.parse(sent.body))) return `body does not match: ${ajv.errorsText(validate.errors)}`;
  return null;
}

async function send(server: RunningServer, route: Route, label: string, url: string, init: RequestInit = {}): Promise<Sent> {
  // A redirect is an answer to check, not to follow (its Location is on the build's base URL).
  const res = await fetch(new URL(url, server.url), { redirect: "manual", ...init });
  const sent = { route, label, status: res.status, contentType: res.headers.get("content-type"), headers: res.headers, body: await res.text() };
  if (!exercised.has(route.id)) exercised.set(route.id, new Set());
  exercised.get(route.id)!.add(sent.status);
  return sent;
}

const postJson = (body: string, type = "application/json"): RequestInit => ({ method: "POST", headers: { "content-type": type }, body });

/** The requests for each documented error of a route: [label, url, init, expected status]. */
function errorRequests(route: Route, exampleUrl: string): [string, string, RequestInit, number][] {
  const out: [string, string, RequestInit, number][] = [];
  const statuses = new Set(route.responses.map((r) => r.status));
  const pathWith = (value: string) => fillTemplate(route.path, Object.fromEntries(route.params.filter((p) => p.in === "path").map((p) => [p.name, value])), true);
  if (statuses.has(404) && route.id !== "listChanges") out.push(["unknown key", pathWith(route.id === "getEmbed" ? "zz_no_such" : "zz_no_such_key"), {}, 404]);
  if (route.id === "checkUsername") out.push(["malformed username", "/api/check/bad%20name!", {}, 422]);
  if (route.id === "getChatStatus" || route.id === "getChatBadge") out.push(["malformed username", pathWith("bad name!"), {}, 422]);
  // Another spelling of a page's key (the last segment): the 301 to the canonical URL.
  if (statuses.has(301)) out.push(["another spelling", exampleUrl.replace(/[^/]+$/, (key) => `%20${key.toUpperCase()}`), {}, 301]);
  if (route.id === "checkUsernames") {
    out.push(["not JSON", exampleUrl, postJson("{"), 400]);
    out.push(["too large", exampleUrl, postJson(JSON.stringify({ usernames: ["x".repeat(17 * 1024)] })), 413]);
    out.push(["too many usernames", exampleUrl, postJson(JSON.stringify({ usernames: Array.from({ length: 101 }, (_, i) => `user_${i}`) })), 413]);
    out.push(["not application/json", exampleUrl, postJson("{}", "text/plain"), 415]);
    for (const body of [[], {}, { usernames: "admin" }, { usernames: [] }, { usernames: ["admin", 7] }]) out.push([`body ${JSON.stringify(body)}`, exampleUrl, postJson(JSON.stringify(body)), 422]);
  }
  if (route.id === "listCompanies") {
    for (const q of ["limit=0", "limit=abc", "page=0", "page=1&page=2"]) out.push([q, `${route.path}?${q}`, {}, 422]);
  }
  if (route.id === "listSpammers") {
    for (const q of ["limit=201", "category=nope", "username=bad%20name!", "limit=1&limit=2", "page=0", "page=abc"]) out.push([q, `${route.path}?${q}`, {}, 422]);
  }
  if (route.id === "listChanges") {
    for (const q of ["", "?since=xyz", "?since=0123456789ABCDEF", `?${exampleUrl.split("?")[1]}&dataset=people`, `?${exampleUrl.split("?")[1]}&since=0123456789abcdef`]) out.push([`query ${q}`, `${route.path}${q}`, {}, 422]);
    out.push(["a publish never made", `${route.path}?since=0123456789abcdef`, {}, 404]);
    out.push(["an expired publish", `${route.path}?since=${expired[0]}`, {}, 410]);
  }
  if (route.id === "searchLive") for (const q of ["", `?q=${"a".repeat(201)}`]) out.push([`q ${q.length}`, `${route.path}${q}`, {}, 422]);
  if (route.id === "searchGlobal") for (const q of ["", "?q=alpha&limit=0", `?q=${"a".repeat(121)}`]) out.push([`q ${q.length}`, `${route.path}${q}`, {}, 422]);
  if (route.id === "matchFingerprint") {
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"]));
    out.push(["not JSON", exampleUrl, postJson("{"), 400]);
    out.push(["empty body", exampleUrl, postJson(""), 400]);
    out.push(["too large", exampleUrl, postJson(JSON.stringify({ signals: { ja4: "x".repeat(17 * 1024) } })), 413]);
    out.push(["not application/json", exampleUrl, postJson("{}", "text/plain"), 415]);
    for (const body of [{}, { signals: [] }, { signals: {} }, { signals: many }, { signals: { ja4: "x".repeat(256) } }, { signals: { ja4: 1 } }]) {
      out.push([`body ${JSON.stringify(body).slice(0, 30)}`, exampleUrl, postJson(JSON.stringify(body)), 422]);
    }
  }
  return out;
}

describe("every route against the served OpenAPI document", () => {
  it.each(routes.map((r) => [r.id, r] as const))("%s: valid input and each documented error", async (_, route) => {
    const example = examples.get(route.id) ?? { url: route.path };
    const init: RequestInit = route.method === "POST" ? postJson(JSON.stringify(example.body)) : {};
    const problems: string[] = [];
    const record = (sent: Sent, expected: number) => {
      const wrong = sent.status !== expected ? `expected ${expected}, got ${sent.status}` : checkAnswer(sent);
      if (wrong) problems.push(`${sent.label}: ${wrong}`);
    };

    const ok = await send(servers.main, route, "example", example.url, init);
    record(ok, 200);
    // The docs' example is this very answer (shown the way the docs show it).
    const documented = operationOf(route).responses["200"].content[ok.contentType!.split(";")[0]!]?.example;
    if (examples.has(route.id) && !example.undocumented) {
      const size = Number(ok.headers.get("content-length"));
      expect(documented, "the example in /openapi.json").toEqual(toExampleBody(route, ok.body, size));
    }
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    expect(ok.headers.get("cache-control")).toBeTruthy();
    if (route.method === "GET") {
      const etag = ok.headers.get("etag");
      expect(etag, "ETag on a GET 200").toBeTruthy();
      record(await send(servers.main, route, "If-None-Match", example.url, { headers: { "if-none-match": etag! } }), 304);
      // An answer that is a file of the build takes ranges: a part, and one past its end.
      expect(ok.headers.get("accept-ranges") === "bytes", "Accept-Ranges where the document says the answer is a file").toBe(isFileAnswer(route));
      if (isFileAnswer(route)) {
        const identity = { "accept-encoding": "identity" };
        const size = Number((await fetch(new URL(example.url, servers.main.url), { method: "HEAD", headers: identity })).headers.get("content-length"));
        record(await send(servers.main, route, "Range", example.url, { headers: { ...identity, range: "bytes=0-0" } }), 206);
        record(await send(servers.main, route, "Range past the end", example.url, { headers: { ...identity, range: `bytes=${size + 1}-` } }), 416);
      }
    }
    record(await send(servers.main, route, "wrong method", example.url, { method: route.method === "GET" ? "DELETE" : "PUT" }), 405);
    for (const [label, url, requestInit, expected] of errorRequests(route, example.url)) record(await send(servers.main, route, label, url, requestInit), expected);

    // The limited server: one request a minute, used up first; then this route answers 429.
    await fetch(new URL(route.method === "POST" ? "/api/companies" : "/api/fingerprint/match", servers.limited.url), route.method === "POST" ? {} : postJson("{}"));
    await send(servers.limited, route, "first on the limited server", example.url, init);
    const limited = await send(servers.limited, route, "over the limit", example.url, init);
    record(limited, 429);
    expect(limited.headers.get("retry-after")).toBeTruthy();
    expect(limited.headers.get("ratelimit-limit")).toBe("1");

    // The spammer list lacks its ranking only past the top 200 it answers from its top files.
    const needsIndex = route.id === "listSpammers" ? "/api/spammers?page=5" : example.url;
    if (route.responses.some((r) => r.status === 503)) record(await send(servers.noIndex, route, "no index in the build", needsIndex, init), 503);
    for (const h of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "ratelimit-policy"]) expect(limited.headers.get(h), h).not.toBeNull();

    expect(problems).toEqual([]);
  });

  it("exercised every documented status of every route (but 500, the static hosts' 501, and the HTTP layer's refusals: test/e2e/errors.test.ts)", () => {
    const missing: string[] = [];
    const transport = new Set<number>(Object.values(TRANSPORT_PROBLEMS).map((p) => p.status));
    for (const route of routes) {
      const own = new Set(route.responses.map((r) => r.status));
      for (const status of Object.keys(operationOf(route).responses).map(Number)) {
        if (status === 500 || status === 501 || (transport.has(status) && !own.has(status))) continue;
        if (!exercised.get(route.id)?.has(status)) missing.push(`${route.id} ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("fails a body with a field the document does not have, or a missing one (the validator is wired)", () => {
    const route = routes.find((r) => r.id === "getCompany")!;
    const schema = operationOf(route).responses["200"].content["application/json"].schema;
    const card = JSON.parse(readFileSync(join(dir, "dist", "api", "company", `${examples.get("getCompany")!.url.split("/").pop()}.json`), "utf8"));
    expect(validatorFor(schema)(card)).toBe(true);
    expect(validatorFor(schema)({ ...card, extra: 1 })).toBe(false);
    const { week_trend: _, ...withoutTrend } = card;
    expect(validatorFor(schema)(withoutTrend)).toBe(false);
    expect(validatorFor(schema)({ ...card, category: "not-a-category" })).toBe(false);
  });
});
