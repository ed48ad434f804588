/**
 * docs/api-reference.md, generated from the route table like /openapi.json and /docs: every
 * route, grouped by tag in table order, with its parameters, media type, Cache-Control, answers
 * and errors, limits, how a static host answers it, a `curl` line and the answer it gets. A pure
 * function of the table and the answers it is given (no clock; the committed page's answers are
 * a small sample build's, made the same way every time by cli/api-reference-page.ts), so a test
 * compares the committed page with a fresh rendering and the page cannot drift; `npm run docs:api`
 * writes it. Plain Markdown (headings, lists, tables) that reads the same on any git host.
 */
import { createAnchorSlugger, toCodeBlock, toCodeSpan as code, toMarkdownText, toTable } from "../markdown.ts";
import { createOpenApiDocument, isPaged, listCommonResponses, toMediaKey, type RouteExample } from "./openapi.ts";
import { describeLimits, describeLookup, describeStaticRule, describeValue, formatBytes, listSchemaNames } from "./route-facts.ts";
import { ROUTES } from "./table.ts";
import { fillTemplate } from "./templates.ts";
import { CACHE_CONTROL, MEDIA_TYPES, type ExampleKeys, type ExampleRequest, type Route, type RouteResponse } from "./types.ts";

/** The page's place in the repository (written by `npm run docs:api`, compared by its test). */
export const API_REFERENCE_FILE = "docs/api-reference.md";
export const REFERENCE_BASE_URL = "https://api.example.org";

/**
 * The keys the example requests are filled with where no answer is given (a request with an
 * answer is the answering build's own). Illustrative: the names the other guides use, so a
 * reader meets the same company everywhere.
 */
export const REFERENCE_KEYS: ExampleKeys = {
  username: "some_username",
  companySlug: "alpha-leads",
  companyName: "Alpha Leads",
  chatUsername: "traders_chat",
  personSlug: "ivan-petrov",
  glossarySlug: "affiliate-network",
  videoSlug: "spam-waves-explained",
  videoChannelSlug: "spam-watch-tv",
  chatChannelUsername: "spamwatch_news",
  blogSlug: "spam-waves-in-march",
  searchWord: "alpha",
  dumpWeek: "2026-W46",
  // A public JA4 of Chrome on Windows, from the shipped profile library.
  signals: { ja4: "t13d1516h2_8daaf6152771_d8a2da3f94cd" },
};

/** An example answer longer than this is shown by its first lines: enough to see the shape. */
export const EXAMPLE_ANSWER_LINES = 24;

export interface ApiReferenceOptions {
  /**
   * Real answers by route id (a build's, as its /docs has them), each shown with the request that
   * got it instead of the table's illustrative one. Without them the page shows requests only.
   */
  examples?: ReadonlyMap<string, RouteExample>;
}

const COMMON_HEADING = "Answers every route can give";

/** What the page reads of the OpenAPI document: its versions, what every answer shares, the header meanings. */
interface DocumentView {
  openapi: string;
  info: { version: string; description: string };
  components: { headers: Record<string, { description: string }> };
}
const routeHeading = (route: Route) => `\`${route.method} ${route.path}\``;
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

export function renderApiReference(options: ApiReferenceOptions = {}): string {
  const routes = ROUTES as readonly Route[];
  const document = createOpenApiDocument({ baseUrl: REFERENCE_BASE_URL }) as unknown as DocumentView;
  const byTag = new Map<string, Route[]>();
  for (const route of routes) byTag.set(route.tag, [...(byTag.get(route.tag) ?? []), route]);
  // Every heading's anchor, in page order: the host numbers a repeated one by its place.
  const slug = createAnchorSlugger();
  slug("API reference");
  slug("Contents");
  const common = `#${slug(COMMON_HEADING)}`;
  const anchors = new Map<string, string>();
  for (const [tag, tagged] of byTag) {
    anchors.set(`tag:${tag}`, slug(tag));
    for (const route of tagged) anchors.set(route.id, slug(routeHeading(route)));
  }
  const contents = [`- [${COMMON_HEADING}](${common})`];
  for (const [tag, tagged] of byTag) {
    contents.push(`- [${tag}](#${anchors.get(`tag:${tag}`)!})`);
    for (const route of tagged) contents.push(`  - [${routeHeading(route)}](#${anchors.get(route.id)!}): ${toMarkdownText(route.summary.replace(/\.$/, ""))}`);
  }
  const sections = [...byTag].map(([tag, tagged]) => [`## ${tag}`, ...tagged.map((route) => renderRoute(route, document, common, options.examples?.get(route.id)))].join("\n\n"));
  return `${[renderIntroduction(document, (options.examples?.size ?? 0) > 0), "## Contents", contents.join("\n"), renderCommonAnswers(routes, document), ...sections].join("\n\n")}\n`;
}

function renderIntroduction(document: DocumentView, answered: boolean): string {
  const keys = [code(REFERENCE_KEYS.companySlug!), code(REFERENCE_KEYS.username!), code(REFERENCE_KEYS.chatUsername!)];
  return `# API reference

<!-- Generated from core/routes/table.ts by \`npm run docs:api\`: edit the table, then regenerate. -->

Every public URL of the API and the site, generated from the route table (\`core/routes/table.ts\`),
the source of \`/openapi.json\` (OpenAPI ${document.openapi}, version ${document.info.version}) and of the \`/docs\` page.
Do not edit this page: change the table and run \`npm run docs:api\`; a test fails while the two
disagree. [Using the API](api.md) says how the table, the document and the tests fit together.

${answered ? ANSWERED_EXAMPLES : `The examples use the base \`${REFERENCE_BASE_URL}\` and illustrative keys (the company ${keys[0]},
the username ${keys[1]}, the chat ${keys[2]}); \`/docs\` on a deployment shows a real answer of its
build for each route.`}`;
}

const ANSWERED_EXAMPLES = `The examples use the base \`${REFERENCE_BASE_URL}\`. Each request and its answer (a long one by its
first lines) are those of a small sample build that \`npm run docs:api\` makes for this page, from
the sample generator's synthetic data and the shipped fingerprint profiles; a route without an
answer is one whose files a build writes with or after its \`/docs\`. \`/docs\` on a deployment shows a
real answer of its own build for each route.`;

/** The statuses listCommonResponses adds, each with its meaning (and a route's variant of it, named). */
function renderCommonAnswers(routes: readonly Route[], document: DocumentView): string {
  const meanings = new Map<number, { media: RouteResponse["media"]; variants: Map<string, Route[]> }>();
  for (const route of routes) {
    for (const response of listCommonResponses(route)) {
      const entry = meanings.get(response.status) ?? { media: response.media, variants: new Map<string, Route[]>() };
      entry.variants.set(response.description, [...(entry.variants.get(response.description) ?? []), route]);
      meanings.set(response.status, entry);
    }
  }
  const rows = [...meanings].sort(([a], [b]) => a - b).map(([status, { media, variants }]) => {
    // The meaning most routes share first; a variant names its routes.
    const [usual, ...others] = [...variants].sort(([, a], [, b]) => b.length - a.length);
    const meaning = [toMarkdownText(usual![0]), ...others.map(([text, few]) => `On ${few.map((r) => code(`${r.method} ${r.path}`)).join(", ")}: ${toMarkdownText(text)}`)];
    return [String(status), meaning.join(" "), media === "problem" ? code(toMediaKey("problem")) : "—"];
  });
  return `## ${COMMON_HEADING}

${toMarkdownText(document.info.description)}

Besides its own answers, each route can give some of these; its section lists which.

${toTable(["Status", "Meaning", "Body"], rows)}`;
}

function renderRoute(route: Route, document: DocumentView, common: string, example: RouteExample | undefined): string {
  const description = route.description.startsWith(route.summary) ? route.description.slice(route.summary.length).trim() : route.description;
  const parts = [`### ${routeHeading(route)}`, `**${toMarkdownText(sentence(route.summary))}** ${toMarkdownText(description)}`.trim(), renderFacts(route, document)];
  if (route.params.length > 0) parts.push("**Parameters**", renderParameters(route));
  if (route.body) parts.push(`**Request body:** \`application/json\`, schema ${listSchemaNames(route.body.schema).map((n) => code(n)).join(" or ")}, at most ${formatBytes(route.body.maxBytes)}.`);
  const answers = route.responses.filter((r) => r.media !== "problem");
  const errors = route.responses.filter((r) => r.media === "problem");
  parts.push("**Answers**", toTable(["Status", "Meaning", "Body"], answers.map((r) => [String(r.status), toMarkdownText(r.description), describeBody(r)])));
  if (errors.length > 0) parts.push(`**Errors** (${code(toMediaKey("problem"))})`, toTable(["Status", "Meaning"], errors.map((r) => [String(r.status), toMarkdownText(r.description)])));
  const shared = listCommonResponses(route);
  const statuses = (list: RouteResponse[]) => list.map((r) => r.status).sort((a, b) => a - b).join(", ");
  const sharedAnswers = shared.filter((r) => r.media !== "problem");
  const sharedErrors = `errors ${statuses(shared.filter((r) => r.media === "problem"))}`;
  parts.push(`Also the [answers every route can give](${common}) that apply here: ${sharedAnswers.length > 0 ? `${statuses(sharedAnswers)}; ` : ""}${sharedErrors}.`);
  parts.push(renderExample(route, example));
  return parts.join("\n\n");
}

function renderFacts(route: Route, document: DocumentView): string {
  const headers = [...(route.headers ?? []), ...(isPaged(route) ? ["Link"] : [])].map((name) => `${code(name)}: ${toMarkdownText(document.components.headers[name]!.description)}`);
  const source = route.file === null ? "computed by the live server" : `the build's file ${code(route.file)}${route.queryFiles ? `, and for query forms ${route.queryFiles.map((f) => code(f)).join(", ")}` : ""}`;
  const staticRule = describeStaticRule(route);
  const facts = [
    `- **Content-Type:** ${code(MEDIA_TYPES[route.media])}`,
    `- **Cache-Control:** ${code(CACHE_CONTROL[route.cache])}`,
    `- **Answered from:** ${source}`,
    ...(route.lookup ? [`- **Path value:** ${describeLookup(route.lookup)}`] : []),
    ...(headers.length > 0 ? [`- **Headers of its own:** ${headers.join(" ")}`] : []),
    `- **Limits:** ${describeLimits(route).join("; ")}.`,
    `- **Static host:** ${staticRule.text}`,
    ...staticRule.forms.map((form) => `  - ${form}`),
  ];
  if (route.method === "POST") facts.push(`- **CORS preflight:** \`OPTIONS ${route.path}\` answers 204 to any origin, naming the methods and request headers allowed.`);
  return facts.join("\n");
}

function renderParameters(route: Route): string {
  const rows = route.params.map((param) => {
    const value = describeValue(param.schema);
    const required = param.in === "path" || param.required === true ? "yes" : "no";
    return [code(param.name), param.in, value.type, value.bounds, required, value.defaultValue, toMarkdownText(param.description)];
  });
  return toTable(["Name", "In", "Type", "Bounds", "Required", "Default", "Meaning"], rows);
}

function describeBody(response: RouteResponse): string {
  // A 304 and a redirect carry no body (the OpenAPI document gives them none either).
  if (response.status === 304 || response.status === 301) return "—";
  const names = listSchemaNames(response.schema);
  return `${code(toMediaKey(response.media))}${names.length > 0 ? `, schema ${names.map((n) => code(n)).join(" or ")}` : ""}`;
}

function renderExample(route: Route, example: RouteExample | undefined): string {
  const fromTable = route.example(REFERENCE_KEYS);
  const request: ExampleRequest = fromTable ?? toPlaceholderRequest(route);
  const query = new URLSearchParams(request.query ?? {}).toString();
  const url = example ? example.url : `${fillTemplate(route.path, request.params ?? {}, true)}${query ? `?${query}` : ""}`;
  const body = example ? example.body : request.body;
  const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
  const curl =
    route.method === "POST"
      ? `curl -i -X POST ${quote(REFERENCE_BASE_URL + url)} -H 'content-type: application/json' -d ${quote(JSON.stringify(body ?? {}))}`
      : `curl -i ${quote(REFERENCE_BASE_URL + url)}`;
  const placeholders = [...Object.values(request.params ?? {}), ...Object.values(request.query ?? {})].map((value) => code(value));
  const title = fromTable === null && !example ? `**Example** (the route table has none: ${placeholders.join(", ")} stands for a value to fill in)` : "**Example**";
  return [title, toCodeBlock(curl, "sh"), ...(example ? [renderAnswer(example)] : [])].join("\n\n");
}

/** A request for a route whose table entry has no example: each required value as its name in capitals. */
function toPlaceholderRequest(route: Route): ExampleRequest {
  const values = (where: "path" | "query") =>
    Object.fromEntries(route.params.filter((p) => p.in === where && (where === "path" || p.required === true)).map((p) => [p.name, p.name.toUpperCase()]));
  return { params: values("path"), query: values("query") };
}

function renderAnswer(example: RouteExample): string {
  // A text file's last newline would show as an empty line in the block.
  const text = typeof example.response === "string" ? example.response.replace(/\n$/, "") : JSON.stringify(example.response, null, 2);
  const lines = text.split("\n");
  const cut = lines.length > EXAMPLE_ANSWER_LINES;
  const shown = cut ? [...lines.slice(0, EXAMPLE_ANSWER_LINES), "…"] : lines;
  const note = cut ? `, its first ${EXAMPLE_ANSWER_LINES} of ${lines.length} lines` : "";
  const language = typeof example.response === "string" ? "" : "json";
  return `Answer (${example.status}, ${code(example.contentType)}${note}):\n\n${toCodeBlock(shown.join("\n"), language)}`;
}
