/** Every other path: a file of the build (exact, `.json` or `.html` added, or a folder's index.html). */
import { findStaticFile, readBuildFile, sendFile } from "../files.ts";
import { sendJson, sendProblem } from "../respond.ts";
import type { RouteContext } from "./context.ts";

export async function serveBuildFile({ request, url, state }: RouteContext): Promise<Response> {
  const file = await findStaticFile(state.root, url.pathname);
  if (file) return sendFile(request, file.path, file.body);
  // An iframe shows an HTML answer, not JSON: the build's embed/404.html (build/emitters/embeds.ts).
  const embedNotFound = url.pathname.startsWith("/embed/") ? await readBuildFile(state.root, "embed/404.html") : null;
  if (embedNotFound) return sendFile(request, "embed/404.html", embedNotFound, undefined, 404);
  if (url.pathname === "/" || url.pathname === "/api" || url.pathname === "/api/") return sendJson(request, describeApi(state.urls.base, state.asOf));
  return sendProblem(request, 404, `Nothing is published at ${url.pathname}.`);
}

/** The root answer when the build has no landing page: where to go from here. */
function describeApi(base: string, asOf: string) {
  return {
    name: "Spam-report and company-catalog API",
    as_of: asOf,
    license: "CC BY 4.0",
    endpoints: [
      `${base}/api/check/{username}`,
      `${base}/api/companies?limit=&page=&slug=`,
      `${base}/api/spammers?limit=&username=&category=`,
      `${base}/api/company/{slug}`,
      `${base}/api/widget/{slug}`,
      `${base}/api/search?q=`,
      `${base}/api/search/global?q=&limit=`,
      `${base}/api/badge/{slug}.svg`,
      `${base}/api/card/{slug}.svg`,
      `${base}/embed/{style}/{slug}`,
      `${base}/api/chat/{username}/status`,
      `${base}/api/chat/{username}/badge.svg`,
      `${base}/api/detection-rules`,
      `${base}/api/fingerprint/match`,
      `${base}/rss/all`,
      `${base}/dumps/datapackage.json`,
    ],
    docs: `${base}/docs`,
    manifest: `${base}/manifest.json`,
  };
}
