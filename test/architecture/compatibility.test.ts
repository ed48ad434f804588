/**
 * The compatibility policy (docs/operators.md, "Versions and upgrading"), enforced: the public surface of this major
 * version — every route, every documented field of every answer, every command's flags, the dump
 * columns and the snapshot contract — is recorded in test/fixtures/public-surface.json. A name
 * that disappears fails the suite unless the major version moved (and a new record starts); a new
 * one must be recorded (`UPDATE_SURFACE=1 npm test`), so that additions are deliberate.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SNAPSHOT_CONTRACT } from "../../build/snapshot/contract.ts";
import { COMPANY_COLUMNS, SPAMMER_COLUMNS } from "../../build/dump/columns.ts";
import { BENCH, BUILD, DEPLOY, FINGERPRINTS, HOSTING, SAMPLE, SERVE, START } from "../../cli/flag-table.ts";
import { API_VERSION, createOpenApiDocument } from "../../core/routes/openapi.ts";
import { ROUTES } from "../../core/routes/table.ts";

type Json = Record<string, unknown>;
interface Surface {
  major: number;
  routes: string[];
  fields: string[];
  flags: string[];
  dumpColumns: string[];
  snapshotContract: string[];
}

const RECORD = new URL("../fixtures/public-surface.json", import.meta.url);
const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

/** Every property path of a schema (`companies[].slug`), following references into the components. */
function listFields(schema: unknown, components: Record<string, Json>, prefix: string, seen: Set<string>, out: Set<string>): void {
  if (schema === null || typeof schema !== "object") return;
  const node = schema as Json;
  if (typeof node.$ref === "string") {
    const name = node.$ref.split("/").pop()!;
    if (seen.has(name)) return;
    return listFields(components[name], components, prefix, new Set([...seen, name]), out);
  }
  for (const key of ["anyOf", "oneOf", "allOf"]) for (const branch of (node[key] as unknown[] | undefined) ?? []) listFields(branch, components, prefix, seen, out);
  if (node.items) listFields(node.items, components, `${prefix}[]`, seen, out);
  for (const [name, value] of Object.entries((node.properties as Json | undefined) ?? {})) {
    out.add(`${prefix}.${name}`);
    listFields(value, components, `${prefix}.${name}`, seen, out);
  }
}

function readSurface(): Surface {
  const document = createOpenApiDocument({ baseUrl: "https://api.example.org" }) as { paths: Record<string, Record<string, Json>>; components: { schemas: Record<string, Json> } };
  const fields = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, response] of Object.entries((operation.responses as Record<string, Json>) ?? {})) {
        if (!status.startsWith("2")) continue;
        for (const [media, content] of Object.entries((response.content as Record<string, Json>) ?? {})) {
          listFields(content.schema, document.components.schemas, `${method.toUpperCase()} ${path} ${status} ${media}`, new Set(), fields);
        }
      }
    }
  }
  const commands = { SAMPLE, BUILD, SERVE, START, HOSTING, FINGERPRINTS, BENCH, DEPLOY };
  return {
    major: Number(API_VERSION.split(".")[0]),
    routes: ROUTES.map((r) => `${r.method} ${r.path}`).sort(),
    fields: [...fields].sort(),
    flags: Object.values(commands).flatMap((c) => Object.keys(c.flags as Json).map((flag) => `${c.name} --${flag}`)).sort(),
    dumpColumns: [...SPAMMER_COLUMNS.map((c) => `spammers.${c.name}`), ...COMPANY_COLUMNS.map((c) => `companies.${c.name}`)].sort(),
    snapshotContract: Object.entries(SNAPSHOT_CONTRACT).flatMap(([table, columns]) => columns.map((c) => `${table}.${c}`)).sort(),
  };
}

describe("the public surface", () => {
  const current = readSurface();
  if (process.env.UPDATE_SURFACE === "1") writeFileSync(RECORD, `${JSON.stringify(current, null, 2)}\n`);
  const recorded = JSON.parse(readFileSync(RECORD, "utf8")) as Surface;

  it("has one version: the package's is the API's (openapi.json info.version)", () => {
    expect(pkg.version).toBe(API_VERSION);
  });

  it.each(["routes", "fields", "flags", "dumpColumns", "snapshotContract"] as const)("keeps every one of its %s within the major version", (kind) => {
    if (current.major !== recorded.major) {
      expect.fail(`the major version moved (${recorded.major} → ${current.major}): record the new surface with UPDATE_SURFACE=1 and say what went in CHANGELOG.md`);
    }
    const now = new Set(current[kind]);
    expect(recorded[kind].filter((name) => !now.has(name)), `gone without a major version (docs/operators.md, "Versions and upgrading")`).toEqual([]);
    const known = new Set(recorded[kind]);
    expect(current[kind].filter((name) => !known.has(name)), "new: record it with UPDATE_SURFACE=1 (and in CHANGELOG.md)").toEqual([]);
  });
});
