/**
 * The order a deploy puts files in place, so that a reader who follows a link from a file that
 * has just changed never reaches a file that is not there yet: what is linked to goes before what
 * links to it. The route table says which is which, through the file's route:
 *
 * 1. `data`: the file of one thing — a username, a company, a chat, a dump week — in any format
 *    but HTML (a route whose path names one thing: a parameter other than a page or a category).
 *    Nothing links *from* these to a file of the same deploy that could be missing.
 * 2. `pages`: the HTML page of one thing; pages link to each other and to the data above.
 * 3. `indexes`: everything that lists or points at many files — the lists and their pages,
 *    category lists and feeds, the search and fingerprint indexes, the dump's datapackage,
 *    `index.html`, the docs, `openapi.json`, the host rules, and any file the table does not know.
 * 4. `manifest`: `manifest.json` last, so it never names a file the folder does not hold yet.
 */
import { classifyFile } from "../routes/match.ts";
import { getRoute } from "../routes/table.ts";
import type { Route } from "../routes/types.ts";

export const DEPLOY_TIERS = ["data", "pages", "indexes", "manifest"] as const;
export type DeployTier = (typeof DEPLOY_TIERS)[number];

/** The build's own manifest: not listed in itself, copied after every file it lists. */
export const MANIFEST_FILE = getRoute("getManifest").file!;

/** Path parameters that pick a slice of a list, not one thing: their files are indexes. */
const LIST_PARAMS = new Set(["page", "category"]);

export function getDeployTier(path: string): DeployTier {
  if (path === MANIFEST_FILE) return "manifest";
  const known = classifyFile(path);
  if (known === null || !("route" in known) || !isOneThing(known.route)) return "indexes";
  return known.route.media === "html" ? "pages" : "data";
}

function isOneThing(route: Route): boolean {
  const names = route.params.filter((p) => p.in === "path").map((p) => p.name);
  return names.length > 0 && names.every((name) => !LIST_PARAMS.has(name));
}
