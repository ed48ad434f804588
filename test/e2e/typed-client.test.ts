/**
 * A typed client, as a third party makes one: openapi-typescript generates types from the served
 * /openapi.json, a program calls every JSON route through openapi-fetch and holds each `data` as
 * the route's documented 200 type, and `tsc --strict` must accept it — a media type keyed with its
 * charset, or a 206 typed as a body, once made `data` a union no client could use. The same calls
 * are then sent to the listening server and must answer 200 with a body.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import createClient from "openapi-fetch";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../server/listen.ts";
import { buildSampleDist, makeTempDir } from "../helpers/fixture.ts";
import { collectOutput, ROOT } from "../helpers/run-command.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Call {
  method: "GET" | "POST";
  path: string;
  /** The call's options, as TypeScript source and as a value. */
  options: { params?: { path?: Record<string, unknown>; query?: Record<string, unknown> }; body?: unknown };
  /** The documented 200 type, as TypeScript source. */
  type: string;
}

let dir: string;
let server: RunningServer;
let document: Json;

beforeAll(async () => {
  dir = makeTempDir("typed-client");
  const dist = buildSampleDist(dir, 600);
  server = await startServer({ dist, port: 0, host: "127.0.0.1", fingerprintRateLimit: 0 });
  document = (await (await fetch(new URL("/openapi.json", server.url))).json()) as Json;
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (dir) spawnSync("rm", ["-rf", dir]);
});

/** Every operation whose 200 is a JSON document with a schema: its call, with values the example request (or the schema) gives. */
function listJsonCalls(doc: Json): Call[] {
  const calls: Call[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const method of ["get", "post"] as const) {
      const op = item[method];
      const schema = op?.responses?.["200"]?.content?.["application/json"]?.schema;
      if (!schema) continue;
      const example = op["x-example-request"] ? new URL(op["x-example-request"].url, "http://example") : null;
      const values: { path?: Record<string, unknown>; query?: Record<string, unknown> } = {};
      const names = [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
      const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[a-z_]+\}/g, "([^/]+?)")}$`);
      const inPath = example ? pattern.exec(example.pathname) : null;
      for (const param of (op.parameters ?? []) as Json[]) {
        if (param.in === "query" && !param.required) continue;
        const fromExample = param.in === "query" ? example?.searchParams.get(param.name) : inPath && decodeURIComponent(inPath[names.indexOf(param.name) + 1]!);
        const value = toValue(param.schema, fromExample ?? undefined);
        (values[param.in as "path" | "query"] ??= {})[param.name] = value;
      }
      const body = method === "post" ? op["x-example-request"]?.body : undefined;
      calls.push({ method: method.toUpperCase() as Call["method"], path, options: { ...(Object.keys(values).length ? { params: values } : {}), ...(body ? { body } : {}) }, type: toType(schema) });
    }
  }
  return calls;
}

/** A value of a parameter's schema (the example's where it has one). */
function toValue(schema: Json, example: string | undefined): unknown {
  const resolved = schema.$ref ? document.components.schemas[schema.$ref.split("/").pop()] : schema;
  const literal = resolved.const ?? resolved.anyOf?.[0]?.const ?? resolved.enum?.[0];
  if (literal !== undefined) return literal;
  if (resolved.type === "integer" || resolved.type === "number") return Number(example ?? 1);
  return example ?? "alpha";
}

/** The TypeScript type of a documented schema: its component, a union of them, or unknown. */
function toType(schema: Json): string {
  if (schema.$ref) return `components["schemas"][${JSON.stringify(schema.$ref.split("/").pop())}]`;
  if (schema.anyOf?.every((s: Json) => s.$ref)) return schema.anyOf.map(toType).join(" | ");
  return "unknown";
}

function renderProgram(calls: Call[]): string {
  const lines = [
    'import createClient from "openapi-fetch";',
    'import type { components, paths } from "./schema";',
    "",
    'const client = createClient<paths>({ baseUrl: "http://127.0.0.1" });',
    "",
    "export async function callEveryJsonRoute(): Promise<void> {",
  ];
  for (const call of calls) {
    lines.push("  {");
    lines.push(`    const { data, error } = await client.${call.method}(${JSON.stringify(call.path)}, ${JSON.stringify(call.options)});`);
    lines.push("    if (error) throw new Error(String(error));");
    lines.push(`    const answer: ${call.type} | undefined = data;`);
    lines.push("    void answer;");
    lines.push("  }");
  }
  lines.push("}", "");
  return lines.join("\n");
}

describe("a client generated from /openapi.json (openapi-typescript, openapi-fetch)", () => {
  it("compiles under tsc --strict with every JSON route's data as its documented 200 type", async () => {
    const calls = listJsonCalls(document);
    expect(calls.length).toBeGreaterThan(20);
    expect(calls.filter((c) => c.type === "unknown").map((c) => c.path)).toEqual([]);
    const project = join(dir, "client");
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, "schema.d.ts"), astToString(await openapiTS(document as never)));
    writeFileSync(join(project, "client.ts"), renderProgram(calls));
    const compilerOptions = {
      strict: true,
      noEmit: true,
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      skipLibCheck: false,
      types: [],
      lib: ["ES2022", "DOM"],
      // The client package of this checkout, wherever the generated project sits.
      paths: { "openapi-fetch": [join(ROOT, "node_modules/openapi-fetch")] },
    };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["client.ts"] }));
    // Not spawnSync: a blocked event loop keeps the fetch client's idle connection past the
    // server's keep-alive timeout, and the next test's first request then meets a closed socket.
    const tsc = await collectOutput(spawn(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", project], { stdio: ["ignore", "pipe", "pipe"] }));
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  }, 120_000);

  it("answers each of those calls with 200 and a body", async () => {
    const client = createClient<Record<string, any>>({ baseUrl: server.url }); // eslint-disable-line @typescript-eslint/no-explicit-any
    const failed: string[] = [];
    for (const call of listJsonCalls(document)) {
      const { data, response } = await (client as any)[call.method](call.path, call.options); // eslint-disable-line @typescript-eslint/no-explicit-any
      if (response.status !== 200 || data === undefined) failed.push(`${call.method} ${call.path}: ${response.status}`);
    }
    expect(failed).toEqual([]);
  });
});
