/**
 * The Markdown reference's parts: a parameter's facts in words, the Markdown helpers (cells, code,
 * GitHub's anchors), and the example of a route — the table's request, a placeholder where the
 * table has none, and a real answer cut to its first lines when one is given, as a build's
 * openapi.json carries it.
 */
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { createAnchorSlugger, toCodeBlock, toCodeSpan, toMarkdownText, toTableCell } from "../../core/markdown.ts";
import { EXAMPLE_ANSWER_LINES, renderApiReference } from "../../core/routes/api-reference.ts";
import { createOpenApiDocument, readOpenApiExamples, type RouteExample } from "../../core/routes/openapi.ts";
import { describeValue, listSchemaNames } from "../../core/routes/route-facts.ts";
import { CheckFoundSchema, CheckNotFoundSchema } from "../../core/routes/schemas.ts";

/** One route's section of a page, from its heading to the next. */
function getSection(page: string, heading: string): string {
  const start = page.indexOf(`\n### \`${heading}\`\n`);
  expect(start, `no section ${heading}`).toBeGreaterThan(-1);
  const end = page.indexOf("\n### ", start + 1);
  return page.slice(start + 1, end === -1 ? undefined : end);
}

describe("a parameter in words", () => {
  it.each([
    [Type.Integer({ minimum: 1, maximum: 200, default: 50 }), { type: "integer", bounds: "1..200", defaultValue: "`50`" }],
    [Type.Integer({ minimum: 1 }), { type: "integer", bounds: "at least 1", defaultValue: "—" }],
    [Type.String({ maxLength: 120 }), { type: "string", bounds: "at most 120 characters", defaultValue: "—" }],
    [Type.String({ minLength: 1 }), { type: "string", bounds: "at least 1 character", defaultValue: "—" }],
    [Type.String({ pattern: "^[0-9a-f]{16}$" }), { type: "string", bounds: "matches `^[0-9a-f]{16}$`", defaultValue: "—" }],
    [Type.Union([Type.Literal("spammers"), Type.Literal("companies")], { default: "spammers" }), { type: "string", bounds: "one of `spammers`, `companies`", defaultValue: "`spammers`" }],
    [Type.String(), { type: "string", bounds: "—", defaultValue: "—" }],
  ])("%j reads as its type, bounds and default", (schema, facts) => {
    expect(describeValue(schema)).toEqual(facts);
  });

  it("names a body's schema by its components, a union by each", () => {
    expect(listSchemaNames(Type.Union([CheckFoundSchema, CheckNotFoundSchema]))).toEqual(["CheckFound", "CheckNotFound"]);
    expect(listSchemaNames(Type.String())).toEqual([]);
    expect(listSchemaNames(undefined)).toEqual([]);
  });
});

describe("Markdown", () => {
  it("keeps a table cell on one line and its pipes escaped, inside code too", () => {
    expect(toTableCell("`spam protection | protected`\nor not")).toBe("`spam protection \\| protected` or not");
  });

  it("escapes a tag outside code spans only", () => {
    expect(toMarkdownText("so an `<img>` shows a sentence, not <img>")).toBe("so an `<img>` shows a sentence, not &lt;img>");
  });

  it("fences code with more backticks than it holds", () => {
    expect(toCodeSpan("a`b")).toBe("`` a`b ``");
    expect(toCodeBlock("```\nx", "sh")).toBe("````sh\n```\nx\n````");
  });

  it("gives headings GitHub's anchors, a repeat numbered", () => {
    const slug = createAnchorSlugger();
    expect(["`GET /api/check/{identifier}`", "`GET /`", "Open data", "Open data", "`GET /dumps/{name}.csv.gz`"].map(slug)).toEqual([
      "get-apicheckidentifier",
      "get-",
      "open-data",
      "open-data-1",
      "get-dumpsnamecsvgz",
    ]);
  });
});

describe("a route's example", () => {
  const page = renderApiReference();

  it("is the table's request, on the reference's base URL", () => {
    expect(getSection(page, "GET /api/companies")).toContain("```sh\ncurl -i 'https://api.example.org/api/companies?page=2'\n```");
    expect(getSection(page, "POST /api/fingerprint/match")).toContain(
      `curl -i -X POST 'https://api.example.org/api/fingerprint/match' -H 'content-type: application/json' -d '{"signals":{"ja4":"t13d1516h2_8daaf6152771_d8a2da3f94cd"}}'`,
    );
  });

  it("names what to fill in where the table has no example", () => {
    const section = getSection(page, "GET /api/changes");
    expect(section).toContain("**Example** (the route table has none: `SINCE` stands for a value to fill in)");
    expect(section).toContain("curl -i 'https://api.example.org/api/changes?since=SINCE'");
  });

  it("shows no answer when none is given: the table has requests only", () => {
    expect(page).not.toContain("Answer (");
  });

  it("shows a given answer, a long one by its first lines", () => {
    const companies = Array.from({ length: 40 }, (_, i) => ({ name: `Company ${i}`, count: 40 - i }));
    const examples = new Map<string, RouteExample>([
      ["getCompanyListAll", { url: "/api/companies/all", status: 200, contentType: "application/json; charset=utf-8", response: { data: companies } }],
      ["getDumpLicense", { url: "/dumps/LICENSE.txt", status: 200, contentType: "text/plain; charset=utf-8", response: "CC BY 4.0\nCredit: the source.\n" }],
      ["checkUsernames", { url: "/api/check", body: { usernames: ["o'neil"] }, status: 200, contentType: "application/json; charset=utf-8", response: { results: [] } }],
    ]);
    const withAnswers = renderApiReference({ examples });
    const lines = JSON.stringify({ data: companies }, null, 2).split("\n");
    const long = getSection(withAnswers, "GET /api/companies/all");
    expect(long).toContain(`Answer (200, \`application/json; charset=utf-8\`, its first ${EXAMPLE_ANSWER_LINES} of ${lines.length} lines):`);
    expect(long).toContain(`\`\`\`json\n${lines.slice(0, EXAMPLE_ANSWER_LINES).join("\n")}\n…\n\`\`\``);
    // A file's last newline makes no empty line in the block.
    expect(getSection(withAnswers, "GET /dumps/LICENSE.txt")).toContain("Answer (200, `text/plain; charset=utf-8`):\n\n```\nCC BY 4.0\nCredit: the source.\n```");
    // The shell quoting holds a quote of the body.
    expect(getSection(withAnswers, "POST /api/check")).toContain(`-d '{"usernames":["o'\\''neil"]}'`);
  });

  it("takes the answers a build's openapi.json carries as they were given to it", () => {
    const examples = new Map<string, RouteExample>([
      ["getDumpLicense", { url: "/dumps/LICENSE.txt", status: 200, contentType: "text/plain; charset=utf-8", response: "CC BY 4.0\n" }],
      ["checkUsernames", { url: "/api/check", body: { usernames: ["spam_bot"] }, status: 200, contentType: "application/json; charset=utf-8", response: { results: [] } }],
    ]);
    const document = JSON.parse(JSON.stringify(createOpenApiDocument({ baseUrl: "https://api.example.org", examples })));
    expect(readOpenApiExamples(document)).toEqual(examples);
    expect(readOpenApiExamples(JSON.parse(JSON.stringify(createOpenApiDocument({ baseUrl: "https://api.example.org" }))))).toEqual(new Map());
  });
});
