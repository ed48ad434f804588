/**
 * One route's facts in words, for the Markdown reference (api-reference.ts): a parameter's type
 * and bounds, a body's schema name, the limits, how the path value is read and how a static host
 * answers. Each reads only the route table's entry, so the words change when the table does.
 */
import type { TSchema } from "@sinclair/typebox";
import { toCodeSpan as code, toMarkdownText } from "../markdown.ts";
import type { QueryForm, Route, RouteLookup } from "./types.ts";

/** The JSON Schema keywords the table's TypeBox schemas use (TypeBox's own markers are symbols). */
interface SchemaView {
  $id?: string;
  type?: string;
  const?: unknown;
  anyOf?: SchemaView[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
}

const view = (schema: TSchema) => schema as unknown as SchemaView;

export interface ValueFacts {
  type: string;
  /** Range, length, pattern or the values allowed, in words; `—` when any value of the type goes. */
  bounds: string;
  defaultValue: string;
}

export function describeValue(schema: TSchema): ValueFacts {
  const s = view(schema);
  const literals = s.anyOf?.every((branch) => branch.const !== undefined) ? s.anyOf.map((branch) => branch.const) : null;
  const bounds: string[] = [];
  if (literals) bounds.push(`one of ${literals.map((value) => code(String(value))).join(", ")}`);
  bounds.push(...describeRange(s.minimum, s.maximum, ""), ...describeRange(s.minLength, s.maxLength, " characters"));
  if (s.pattern !== undefined) bounds.push(`matches ${code(s.pattern)}`);
  return {
    type: literals ? typeof literals[0] : (s.type ?? "—"),
    bounds: bounds.join("; ") || "—",
    defaultValue: s.default === undefined ? "—" : code(String(s.default)),
  };
}

function describeRange(min: number | undefined, max: number | undefined, unit: string): string[] {
  if (min !== undefined && max !== undefined) return [`${min}..${max}${unit}`];
  if (max !== undefined) return [`at most ${max}${unit}`];
  // "at least 1 character", not "characters".
  if (min !== undefined) return [`at least ${min}${min === 1 ? unit.replace(/s$/, "") : unit}`];
  return [];
}

/** A body's schema by its component names (two for `CheckFound` or `CheckNotFound`); none when it has no name. */
export function listSchemaNames(schema: TSchema | undefined): string[] {
  if (schema === undefined) return [];
  const s = view(schema);
  if (s.$id !== undefined) return [s.$id];
  const names = (s.anyOf ?? []).map((branch) => listSchemaNames(branch as TSchema));
  return names.length > 0 && names.every((n) => n.length > 0) ? names.flat() : [];
}

export const formatBytes = (bytes: number) => (bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`);

/** What bounds a request beyond its parameters' types: the body's size, text lengths, the rate limit. */
export function describeLimits(route: Route): string[] {
  const limits: string[] = [];
  if (route.body) limits.push(`a body of at most ${formatBytes(route.body.maxBytes)} (${route.body.maxBytes.toLocaleString("en")} bytes)`);
  for (const param of route.params) {
    const max = view(param.schema).maxLength;
    if (max !== undefined) limits.push(`${code(param.name)} at most ${max} characters`);
  }
  if (route.rateLimit === "always") limits.push("a per-client rate limit, always on: `RateLimit-*` headers on every answer, a 429 with `Retry-After` past it");
  else {
    const units = route.rateUnits === "item" ? "each username of the body is one read, all taken in one step" : "one read per request";
    limits.push(`the operator's per-client read limit, only when switched on (\`--read-limit\`): ${units}`);
  }
  return limits;
}

const LOOKUP_READS: Record<RouteLookup["kind"], string> = {
  username: "a messenger username (trimmed, one leading `@` stripped, lower-cased)",
  slug: "a slug (trimmed, lower-cased)",
  company: "a company: its slug, else its exact name (trimmed, any case, Unicode)",
};

/** How the live server reads the path value that names the resource, and what another spelling gets. */
export function describeLookup(lookup: RouteLookup): string {
  const spelling = lookup.spelling === "redirect" ? "is a 301 to the canonical URL" : "is answered with the canonical resource's bytes";
  return `${code(lookup.param)} is read as ${LOOKUP_READS[lookup.kind]}; another spelling ${spelling}.`;
}

/** How a static host (dist alone) answers: one paragraph, then the query forms its files answer, if any. */
export function describeStaticRule(route: Route): { text: string; forms: string[] } {
  const rule = route.static;
  if (rule.kind === "live") return { text: toMarkdownText(rule.differs), forms: [] };
  if (rule.kind === "query") {
    return { text: `${toMarkdownText(rule.differs)} Its files answer these query forms, the first that fits:`, forms: rule.forms.map(describeQueryForm) };
  }
  const matching = Object.entries(rule.params ?? {}).map(([name, pattern]) => `${code(name)} matches ${code(pattern)}`);
  const when = matching.length > 0 ? ` when ${matching.join(" and ")}` : "";
  const strip = rule.stripAt === undefined ? "" : ` (one leading \`@\` of ${code(rule.stripAt)} stripped)`;
  // Without a path parameter the URL is one file, which every build writes: nothing can be missing.
  const missing = route.params.some((p) => p.in === "path") ? `; ${describeMissingFile(route, rule.notFound)}` : "";
  const differs = rule.differs === undefined ? "" : ` ${toMarkdownText(rule.differs)}`;
  return { text: `The file ${code(route.file ?? "")}${when}${strip}${missing}.${differs}`, forms: [] };
}

function describeMissingFile(route: Route, notFound: Extract<Route["static"], { kind: "file" }>["notFound"]): string {
  switch (notFound.kind) {
    case "problem":
      return "without a file, the 404 problem";
    case "live":
      return "without a file, the 501 problem naming the live route (or the live server's answer, when the host has one)";
    case "notFoundFile":
      return `without a file, a 404 with the build's ${code(route.notFoundFile ?? "")}, as on the live server`;
    case "json":
      return `a canonical value without a file: ${notFound.status} with ${code(notFound.body)}`;
  }
}

function describeQueryForm(form: QueryForm): string {
  const when = Object.entries(form.when).map(([name, pattern]) => `${code(name)} matching ${code(pattern)}`);
  const defaults = Object.entries(form.defaults ?? {}).map(([name, value]) => code(`${name}=${value}`));
  const condition = when.length > 0 ? when.join(" and ") : "no parameter";
  const allowed = defaults.length > 0 ? ` (${defaults.join(", ")} as if absent)` : "";
  return `${condition}${allowed}: ${code(form.file)}`;
}
