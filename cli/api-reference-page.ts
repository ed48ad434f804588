/**
 * docs/api-reference.md as `npm run docs:api` writes it and its test compares it: the route table
 * rendered with a real answer for each route the sample has one for. The answers are a small
 * sample build's, made the same way every time: the generator of `npm run sample` with a fixed
 * seed, scale and as-of, the shipped fingerprint library loaded as `npm run fingerprints -- import`
 * loads it (so the fingerprint match answers a profile, not `unknown`), built in memory on the
 * page's base URL and read back from the build's openapi.json, the answers its /docs shows.
 * Nothing of the machine gets in: no clock, and the temporary folder's path is in no answer.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildInMemory } from "../build/build.ts";
import { REFERENCE_BASE_URL, renderApiReference } from "../core/routes/api-reference.ts";
import { getRouteFile } from "../core/routes/match.ts";
import { readOpenApiExamples, type RouteExample } from "../core/routes/openapi.ts";
import { importFingerprintLibrary } from "../data/fingerprints/import.ts";
import { DEFAULT_AS_OF } from "../data/sample/defaults.ts";
import { generateSample } from "../data/sample/generate.ts";

/**
 * The sample behind the page's answers: the sample command's seed and as-of, at the smallest
 * round scale whose company list has a second page (the table's example asks for page 2: more
 * than 50 companies with reports, 56 here); the sample and its build take about a second.
 */
export const REFERENCE_SAMPLE = { scale: 3000, seed: "1", asOf: DEFAULT_AS_OF } as const;

/** The page, with the sample build's answers. */
export function renderReferencePage(): string {
  return renderApiReference({ examples: readReferenceExamples() });
}

/** Each route's real answer in the sample build, by route id; the temporary folder goes afterwards. */
export function readReferenceExamples(): Map<string, RouteExample> {
  const dir = mkdtempSync(join(tmpdir(), "spamcheck-api-reference-"));
  try {
    const db = join(dir, "sample.sqlite");
    generateSample({ ...REFERENCE_SAMPLE, out: db });
    const snapshot = new Database(db);
    try {
      importFingerprintLibrary(snapshot);
    } finally {
      snapshot.close();
    }
    const { files } = buildInMemory({ db, baseUrl: REFERENCE_BASE_URL, progress: null });
    const document = files.get(getRouteFile("getOpenApi"));
    if (!document) throw new Error(`the sample build wrote no ${getRouteFile("getOpenApi")}`);
    return readOpenApiExamples(JSON.parse(document.toString("utf8")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
