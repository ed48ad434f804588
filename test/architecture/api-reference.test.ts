/**
 * The API reference that cannot drift: docs/api-reference.md is committed, and must be exactly
 * what `npm run docs:api` renders now — the route table (core/routes/table.ts) with the answers
 * of the same small sample build (cli/api-reference-page.ts). A route added, a bound or a
 * description changed in the table, or an answer the build now gives differently, fails here
 * until the page is regenerated; and every route of the table has its section and its line in
 * the contents.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readReferenceExamples } from "../../cli/api-reference-page.ts";
import { API_REFERENCE_FILE, renderApiReference } from "../../core/routes/api-reference.ts";
import type { RouteExample } from "../../core/routes/openapi.ts";
import { ROUTES } from "../../core/routes/table.ts";

const ROOT = join(import.meta.dirname, "../..");
const committed = readFileSync(join(ROOT, API_REFERENCE_FILE), "utf8");

/**
 * Routes no build's /docs has an answer for, and so neither has the page: the change feed's
 * files are written after the docs (they are named by the build id), and the build's
 * descriptions of itself are written with or after them.
 */
const UNANSWERED = [
  ...["getChangesFeedRss", "getChangesFeedAtom", "getChangesFeedJson", "getDataPackage", "getChangeIndex", "getChangeFile", "getChangeFileGzip", "getChangeExpired", "listChanges"],
  ...["getOpenApi", "getManifest", "getBuildReport", "getDocs"],
];

/** Where two texts first part, as the lines a reader compares and the section they are in (a whole-page diff would bury it). */
function findFirstDifference(page: string, fresh: string): string | null {
  if (page === fresh) return null;
  const a = page.split("\n");
  const b = fresh.split("\n");
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  const section = b.slice(0, at + 1).findLast((text) => text.startsWith("#"));
  return `line ${at + 1}${section ? ` (in ${JSON.stringify(section)})` : ""}:\n  committed: ${JSON.stringify(a[at] ?? "(end of page)")}\n  fresh:     ${JSON.stringify(b[at] ?? "(end of page)")}`;
}

describe("docs/api-reference.md", () => {
  let examples: Map<string, RouteExample>;
  beforeAll(() => {
    examples = readReferenceExamples();
  });

  it("is what the route table and the sample build's answers render now", () => {
    const difference = findFirstDifference(committed, renderApiReference({ examples }));
    if (difference) {
      expect.fail(
        `${API_REFERENCE_FILE} is out of date with the route table (core/routes/table.ts) or the answers of the sample build (cli/api-reference-page.ts) from ${difference}\n` +
          "Regenerate it with `npm run docs:api` and commit the page.",
      );
    }
  });

  it("shows the sample build's answer for every route a build's /docs can show", () => {
    // A route missing here lost its answer: the sample no longer has what the table's example asks for.
    expect(ROUTES.map((route) => route.id).filter((id) => !examples.has(id))).toEqual(UNANSWERED);
    const match = examples.get("matchFingerprint")?.response as { match: { profile: { label: string } } | null };
    expect(match.match?.profile.label, "the fingerprint example matches a shipped profile").toBe("Chrome on Windows (Intel graphics)");
  });

  it("has a section for every route of the table, headed by its method and path template", () => {
    const headings = committed.split("\n").filter((line) => line.startsWith("### "));
    const expected = ROUTES.map((route) => `### \`${route.method} ${route.path}\``);
    expect(expected.filter((heading) => !headings.includes(heading)), "routes without a section").toEqual([]);
    // One section each, and none for a route the table no longer has.
    expect([...headings].sort()).toEqual([...expected].sort());
  });

  it("lists every route in its contents, linked to the route's section", () => {
    const missing = ROUTES.filter((route) => !new RegExp(`^  - \\[\`${escape(`${route.method} ${route.path}`)}\`\\]\\(#[^)]+\\): `, "m").test(committed));
    expect(missing.map((route) => `${route.method} ${route.path}`)).toEqual([]);
  });

  it("renders the same page every time from the same answers (no clock)", () => {
    // Across runs and machines, the first test is the check: the committed page was made by another process.
    expect(renderApiReference({ examples })).toBe(renderApiReference({ examples }));
  });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
