/**
 * The OpenAPI 3.1 document, generated from the route table and its TypeBox schemas (so it says
 * what the code does). Schemas with an `$id` become `components/schemas` entries referenced by
 * `$ref`; every route gets the statuses it answers plus the ones every route can answer (304,
 * 405, 429 where a limit applies, 500), and the headers both servers send.
 */
import { MAX_RANGES } from "../http/range.ts";
import { TRANSPORT_PROBLEMS } from "./problem.ts";
import { ProblemSchema } from "./schemas.ts";
import { ROUTES } from "./table.ts";
import { CACHE_CONTROL, MEDIA_TYPES, type Route, type RouteResponse } from "./types.ts";

/** The API's version, and the package's (docs/operators.md, "Versions and upgrading": what each part of it promises). */
export const API_VERSION = "1.0.0";
const OPENAPI_VERSION = "3.1.0";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** A real answer of this build, shown as the example of a route's response. */
export interface RouteExample {
  /** The request, as a path with its query (`/api/companies?page=2`). */
  url: string;
  /** The POST body, when there is one. */
  body?: unknown;
  status: number;
  contentType: string;
  /** The response body: parsed JSON for JSON types, else text (cut to a few kilobytes). */
  response: unknown;
}

export interface OpenApiOptions {
  baseUrl: string;
  /** Attribution text of the data (meta.source). */
  source?: string;
  /** A real example per route id. */
  examples?: ReadonlyMap<string, RouteExample>;
}

const HEADERS: Record<string, JsonObject> = {
  "Cache-Control": { description: "`public, max-age=300` for data; `no-cache` for files describing the build; `no-store` for errors and POST answers.", schema: { type: "string" } },
  ETag: { description: "Strong validator of the body; send it back in If-None-Match for a 304.", schema: { type: "string" } },
  "Access-Control-Allow-Origin": { description: "`*`: any origin may read every answer.", schema: { type: "string", const: "*" } },
  "X-Content-Type-Options": { description: "`nosniff` on every answer.", schema: { type: "string", const: "nosniff" } },
  "RateLimit-Limit": { description: "Requests allowed per window: 60 for fingerprint matching; the operator's read limit on reads, when switched on (a bulk check counts each username it sends).", schema: { type: "integer" } },
  "RateLimit-Policy": { description: "The limit and its window in seconds, e.g. `60;w=60`.", schema: { type: "string" } },
  "RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" } },
  "RateLimit-Reset": { description: "Seconds until the window resets.", schema: { type: "integer" } },
  "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "integer" } },
  Allow: { description: "The methods this path answers.", schema: { type: "string" } },
  Location: { description: "The canonical URL of what was asked for by another spelling.", schema: { type: "string", format: "uri" } },
  "Last-Modified": { description: "Answers that are files of the build: the snapshot's `as_of` (the data is as of then); send it back in If-Range.", schema: { type: "string" } },
  "Accept-Ranges": { description: "`bytes`: answers that are files of the build take a Range (a broken download resumes), always of the file itself, never of a compressed form.", schema: { type: "string", const: "bytes" } },
  "Content-Range": { description: "The part sent (`bytes FIRST-LAST/SIZE`), or the file's size when no range fits (`bytes */SIZE`).", schema: { type: "string" } },
  Vary: { description: "`accept-encoding` on files the build also wrote compressed (`.br`, `.gz` beside them).", schema: { type: "string" } },
  "Content-Encoding": { description: "`br` or `gzip` when the client's Accept-Encoding takes the precompressed file; absent otherwise.", schema: { type: "string", enum: ["br", "gzip"] } },
  "Build-Id": { description: "The current publish's build id: the `since` of the next `/api/changes` (exposed to scripts of other origins, as ETag is).", schema: { type: "string", pattern: "^[0-9a-f]{16}$" } },
  "Content-Security-Policy": { description: "Embeds: no script, nothing fetched, framable by any site (`frame-ancestors *`).", schema: { type: "string" } },
  Link: {
    description: 'Pages of a ranked list (RFC 8288): `<…?page=3>; rel="next", <…?page=1>; rel="prev"`, absolute URLs of the list\'s query form; absent on a page without such neighbours.',
    schema: { type: "string" },
  },
};

/** A route whose answers are pages of a ranked list, and so carry `Link`. */
export const isPaged = (route: Route) => route.paged !== undefined || (route.static.kind === "query" && route.static.forms.some((f) => f.pages !== undefined));

export function createOpenApiDocument(options: OpenApiOptions): JsonObject {
  const components: Record<string, Json> = {};
  const paths: Record<string, JsonObject> = {};
  for (const route of ROUTES as readonly Route[]) {
    const operation = createOperation(route, components, options.examples?.get(route.id));
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: operation };
    if (route.method === "POST") paths[route.path]!.options = createPreflight(route);
  }
  const credit = options.source ? ` Data: ${options.source}.` : "";
  return {
    openapi: OPENAPI_VERSION,
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Spam-report and company-catalog API",
      version: API_VERSION,
      summary: "Public, read-only API over messenger spammer reports and a catalog of companies with complaints.",
      description:
        "Every answer is public: no keys, no registration. URLs in answers are absolute. Errors are RFC 9457 problem+json (`application/problem+json`) unless a route documents its own shape, those the HTTP layer answers before a route (malformed requests, timeouts, oversized headers) included. Query parameters a route does not take are ignored (a cache-busting `?v=2` is harmless); one it takes, given twice, is a 422 naming it. Every GET answer carries a strong ETag; If-None-Match answers 304. Text answers are UTF-8 and say so in their Content-Type (`application/json; charset=utf-8`); the media types below leave the parameter out. A file answers a Range with 206 and the bytes asked for (`Content-Range`). Every file of a build is also served at its own path in dist (see /manifest.json). On a static host (dist without the live server) each route answers as its description says; what the files cannot answer gets a 501 problem naming the live route." +
        credit,
      license: { name: "CC BY 4.0 (the data)", url: "https://creativecommons.org/licenses/by/4.0/" },
    },
    servers: [{ url: options.baseUrl.replace(/\/+$/, "") || "/" }],
    tags: [...new Set((ROUTES as readonly Route[]).map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      headers: HEADERS,
    },
  };
}

function createOperation(route: Route, components: Record<string, Json>, example: RouteExample | undefined): JsonObject {
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
  const staticNote = route.static.kind === "file" && !route.static.differs ? "" : `\n\nOn a static host: ${route.static.differs}`;
  const responses: Record<string, Json> = {};
  const common = { "Access-Control-Allow-Origin": ref("Access-Control-Allow-Origin"), "X-Content-Type-Options": ref("X-Content-Type-Options"), "Cache-Control": ref("Cache-Control") };
  // Reads carry them too when the operator switches the read limit on.
  const limited: Record<string, Json> = Object.fromEntries(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy"].map((h) => [h, ref(h)]));
  const csp: Record<string, Json> = route.id === "getEmbed" ? { "Content-Security-Policy": ref("Content-Security-Policy") } : {};
  const all: RouteResponse[] = [...route.responses, ...listCommonResponses(route)];
  for (const response of all) {
    const headers: Record<string, Json> = { ...common, ...limited, ...csp };
    if (route.method === "GET" && response.status < 400 && response.status !== 301) headers.ETag = ref("ETag");
    if (isPaged(route) && (response.status === 200 || response.status === 304)) headers.Link = ref("Link");
    if (response.status === 429) headers["Retry-After"] = ref("Retry-After");
    if (response.status === 405) headers.Allow = ref("Allow");
    if (response.status === 301) headers.Location = ref("Location");
    if (isFileAnswer(route) && [200, 206, 304].includes(response.status)) Object.assign(headers, fileHeaders(response.status));
    if (response.status === 416) headers["Content-Range"] = ref("Content-Range");
    if (response.status === 200 || response.status === 304) for (const name of route.headers ?? []) headers[name] = ref(name);
    const entry: JsonObject = { description: response.description, headers };
    // A 304 and a redirect have no body; a 206's is bytes of the 200's representation, not a
    // document of its own (typed as one, it would make every generated client's answer a union).
    if (response.status !== 304 && response.status !== 301 && response.status !== 206) {
      const media: JsonObject = { schema: response.schema ? hoist(response.schema, components) : mediaSchema(response.media) };
      if (example && example.status === response.status && example.contentType === MEDIA_TYPES[response.media]) media.example = example.response as Json;
      // The bare media type, as clients key answers by it; the charset is said once, in info.
      const key = toMediaKey(response.media);
      const existing = responses[String(response.status)] as JsonObject | undefined;
      if (existing) {
        const content = existing.content as JsonObject;
        // The same problem for another reason (a route's own 400 and the server's): one entry, both reasons.
        if (key in content) existing.description = `${String(existing.description)} Also: ${response.description}`;
        // Two shapes for one status (e.g. a 404 that is JSON on one route form, problem on another).
        else content[key] = media;
        continue;
      }
      entry.content = { [key]: media };
    }
    responses[String(response.status)] = entry;
  }
  const operation: JsonObject = {
    operationId: route.id,
    summary: route.summary,
    description: route.description + describeSource(route) + staticNote,
    tags: [route.tag],
    responses,
  };
  // The request of the example answers, so a client (and the contract test) can send it again.
  if (example) operation["x-example-request"] = { url: example.url, ...(example.body === undefined ? {} : { body: example.body as Json }) };
  if (route.params.length > 0) {
    operation.parameters = route.params.map((p) => ({
      name: p.name,
      in: p.in,
      required: p.in === "path" ? true : p.required === true,
      description: p.description,
      schema: hoist(p.schema, components),
    }));
  }
  if (route.body) {
    operation.requestBody = {
      required: true,
      description: `JSON, at most ${route.body.maxBytes} bytes.`,
      content: { "application/json": { schema: hoist(route.body.schema, components), ...(example?.body ? { example: example.body as Json } : {}) } },
    };
  }
  return operation;
}

/** The CORS preflight of a POST route (browsers send it before a JSON POST from another origin). */
function createPreflight(route: Route): JsonObject {
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
  return {
    operationId: `${route.id}Preflight`,
    summary: `CORS preflight of ${route.method} ${route.path}`,
    tags: [route.tag],
    responses: {
      "204": {
        description: "Allowed from any origin: the methods and the request headers a client may send.",
        headers: { Allow: ref("Allow"), "Access-Control-Allow-Origin": ref("Access-Control-Allow-Origin"), "Access-Control-Allow-Methods": ref("Allow"), "Access-Control-Allow-Headers": { description: "`content-type, if-none-match`", schema: { type: "string" } } },
      },
    },
  };
}

function describeSource(route: Route): string {
  if (route.file === null) return "\n\nComputed by the live server.";
  const more = route.queryFiles?.length ? ` (query forms: \`${route.queryFiles.join("`, `")}\`)` : "";
  return `\n\nFile in dist: \`${route.file}\`${more}. Cache-Control: \`${CACHE_CONTROL[route.cache]}\`.`;
}

/** The statuses a route answers besides its own: 304, ranges, what the HTTP layer refuses, limits, 500, a static host's 501. */
export function listCommonResponses(route: Route): RouteResponse[] {
  const problem = (status: number, description: string): RouteResponse => ({ status, description, media: "problem", schema: ProblemSchema });
  const list: RouteResponse[] = [];
  if (route.method === "GET") list.push({ status: 304, description: "Not modified: the If-None-Match tag is current.", media: route.media });
  if (isFileAnswer(route)) {
    list.push({ status: 206, description: "Partial content, when the answer is a file of the build and a Range asked for part of it (If-Range: only if the tag or date is still current): the bytes of the 200's representation that `Content-Range` names, or `multipart/byteranges` for several ranges.", media: route.media });
    list.push(problem(416, `Range not satisfiable: no range asked for starts within the file, or more than ${MAX_RANGES} ranges; \`Content-Range: bytes */SIZE\` gives the size.`));
  }
  // What the server answers before a request reaches the route (core/routes/problem.ts TRANSPORT_PROBLEMS); the connection then closes.
  const t = TRANSPORT_PROBLEMS;
  list.push(problem(400, `Not a readable request: ${t.malformed.detail} ${t.noHost.detail} Or a path whose percent-encoding does not decode.`));
  const body = route.body ? `, or the declared body within 20 s of the headers (\`--body-timeout\`)` : "";
  list.push(problem(408, `Too slow: the request headers did not arrive within 20 s of their first byte (the default of the operator's \`--headers-timeout\`)${body}.`));
  list.push(problem(413, t.chunkTooLarge.detail));
  list.push(problem(417, t.expectation.detail));
  list.push(problem(431, `${t.headersTooLarge.detail} (over 16 KiB).`));
  list.push(problem(405, "Method not allowed; `Allow` lists the methods."));
  if (route.rateLimit === "optional") list.push(problem(429, "Only when the operator switches the per-client read limit on: too many reads this minute."));
  list.push(problem(500, "The server failed; the error was logged."));
  if (route.static.kind !== "file" || route.static.differs) list.push(problem(501, "Static hosts only: the files cannot answer this request; `live_route` names the route of the live server that does."));
  return list;
}

/**
 * A GET answered (at least when found) by a file of the build: it takes ranges and has
 * Last-Modified. A route with query parameters is computed by the live server from its lists
 * (its files answer the static hosts' query forms), so it does not.
 */
export function isFileAnswer(route: Route): boolean {
  return route.method === "GET" && route.file !== null && !route.params.some((p) => p.in === "query");
}

function fileHeaders(status: number): Record<string, Json> {
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
  const headers: Record<string, Json> = { "Last-Modified": ref("Last-Modified"), Vary: ref("Vary") };
  if (status !== 304) headers["Accept-Ranges"] = ref("Accept-Ranges");
  if (status === 200) headers["Content-Encoding"] = ref("Content-Encoding");
  if (status === 206) headers["Content-Range"] = ref("Content-Range");
  return headers;
}

/** What readOpenApiExamples reads of an operation: its id, the example request, its answers' examples. */
interface ExampleOperation {
  operationId: string;
  "x-example-request"?: { url: string; body?: unknown };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

/**
 * The real examples a document carries, by route id: the inverse of `examples` above (each
 * operation's `x-example-request` and the answer shown under its response), so that a build's
 * answers can be read back from its openapi.json, the same ones its /docs page shows.
 */
export function readOpenApiExamples(document: { paths: Record<string, Record<string, ExampleOperation>> }): Map<string, RouteExample> {
  const routes = new Map((ROUTES as readonly Route[]).map((route) => [route.id, route]));
  const examples = new Map<string, RouteExample>();
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const request = operation["x-example-request"];
      const route = routes.get(operation.operationId);
      if (!request || !route) continue;
      const exampleOf = (response: RouteResponse) => operation.responses[String(response.status)]?.content?.[toMediaKey(response.media)]?.example;
      const shown = route.responses.find((response) => exampleOf(response) !== undefined);
      if (!shown) continue;
      examples.set(route.id, {
        url: request.url,
        ...(request.body === undefined ? {} : { body: request.body }),
        status: shown.status,
        contentType: MEDIA_TYPES[shown.media],
        response: exampleOf(shown),
      });
    }
  }
  return examples;
}

/** A response's media type as the document's content key: without its parameters (`charset=utf-8`). */
export const toMediaKey = (media: RouteResponse["media"]) => MEDIA_TYPES[media].split(";")[0]!;

/** A body schema for types without a JSON shape. */
function mediaSchema(media: RouteResponse["media"]): JsonObject {
  if (media === "gzip" || media === "binary") return { type: "string", contentMediaType: MEDIA_TYPES[media], contentEncoding: "binary" };
  return { type: "string", contentMediaType: MEDIA_TYPES[media].split(";")[0]! };
}

/**
 * A TypeBox schema as plain JSON with every `$id`'d subschema moved to components (one
 * definition, `$ref` everywhere else). TypeBox keeps its markers in symbols, which JSON drops.
 */
function hoist(schema: unknown, components: Record<string, Json>): Json {
  const walk = (node: unknown): Json => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node as Json;
    const { $id, ...rest } = node as Record<string, unknown>;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(rest)) out[key] = walk(value);
    if (typeof $id === "string") {
      if (!(String($id) in components)) components[$id] = out;
      return { $ref: `#/components/schemas/${$id}` };
    }
    return out;
  };
  return walk(JSON.parse(JSON.stringify(schema)));
}
