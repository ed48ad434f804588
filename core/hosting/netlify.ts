/**
 * `_headers` and `_redirects` for Netlify and Cloudflare Pages (the same two formats), generated
 * from the route table. These hosts match paths with `*` (anything after) and `:name` (one
 * segment) and queries by listed parameters only, so they are coarser than nginx:
 *
 * - `_redirects` rewrites each extension-less URL to its file (`/rss/all` → `/rss/all.rss`),
 *   maps the query forms the files answer, and sends what they cannot answer — a computed route,
 *   a parameter no file answers — to a 501 problem document the build writes beside them
 *   (`/_static-host/cannot-answer/{route id}.json`, listed first so it wins over a form).
 * - `_headers` gives every path CORS and nosniff, each route's Cache-Control, its media type
 *   where the file's extension does not say it (JSON Feed) and the embeds' CSP.
 *
 * What these hosts cannot do (lower-case a username, tell a missing page of a list from a page,
 * reject a repeated parameter) the docs list per route as "On a static host"; nginx does more
 * (core/hosting/nginx.ts), and only nginx is proven against the live server in the tests.
 */
import { CATEGORIES } from "../categories.ts";
import { EMBED_CSP_HEADER } from "../embed-policy.ts";
import { BAD_ENCODING_DETAIL, formatCannotAnswer, formatProblem } from "../routes/problem.ts";
import { BAD_REQUEST_FILE, CANNOT_ANSWER_FILE, ROUTES } from "../routes/table.ts";
import { fillTemplate, listTemplateParams } from "../routes/templates.ts";
import { CACHE_CONTROL, MEDIA_TYPES, type Route } from "../routes/types.ts";

const routes = ROUTES as readonly Route[];


/** The problem documents static hosts answer with: each route's 501, and the 400 of a path that does not decode. */
export function getStaticHostProblemFiles(): { path: string; data: string }[] {
  return [
    { path: BAD_REQUEST_FILE, data: formatProblem(400, BAD_ENCODING_DETAIL) },
    ...routes.filter(needsCannotAnswer).map((route) => ({ path: fillTemplate(CANNOT_ANSWER_FILE, { id: route.id }), data: formatCannotAnswer(route) })),
  ];
}

const needsCannotAnswer = (route: Route) => route.static.kind !== "file";

/** A template as a Netlify path: a whole-segment parameter is `:name`, a partial one makes the rest `*`. */
function toHostPath(template: string): string {
  const segments = template.split("/");
  const out: string[] = [];
  for (const segment of segments) {
    if (!segment.includes("{")) out.push(segment);
    else if (/^\{[a-z_]+\}$/.test(segment)) out.push(`:${segment.slice(1, -1)}`);
    else return [...out, "*"].join("/");
  }
  return out.join("/");
}

export function renderRedirects(): string {
  const lines = ["# Generated from the route table (core/routes/table.ts). First match wins."];
  for (const route of routes) {
    const cannot = `/${fillTemplate(CANNOT_ANSWER_FILE, { id: route.id })}`;
    if (route.static.kind === "live") {
      lines.push(`${route.path} ${cannot} 501`);
    } else if (route.static.kind === "query") {
      const answerable = new Set(route.static.forms.flatMap((f) => Object.keys(f.when)));
      // A parameter no form answers, then the forms (most specific first), then the default.
      for (const param of route.params) if (param.in === "query" && !answerable.has(param.name)) lines.push(`${route.path} ${param.name}=:value ${cannot} 501`);
      for (const form of [...route.static.forms].reverse()) {
        const names = Object.keys(form.when);
        const query = names.map((n) => `${n}=:${n}`).join(" ");
        lines.push(`${route.path}${query ? ` ${query}` : ""} /${form.file.replace(/\{([a-z_]+)\}/g, ":$1")} 200`);
      }
    } else if (route.file !== null && `/${route.file}` !== route.path && !toHostPath(route.path).includes("*")) {
      // An extension-less URL: its file (a URL with text around a parameter is its file already).
      lines.push(`${toHostPath(route.path)} /${route.file.replace(/\{([a-z_]+)\}/g, ":$1")} 200`);
    }
  }
  return `${lines.join("\n")}\n`;
}

export function renderHeaders(): string {
  const blocks = new Map<string, Record<string, string>>();
  const add = (path: string, headers: Record<string, string>) => blocks.set(path, { ...(blocks.get(path) ?? {}), ...headers });
  // Cache-Control per route, not on `/*`: these hosts join the values of every matching rule.
  add("/*", { "Access-Control-Allow-Origin": "*", "X-Content-Type-Options": "nosniff" });
  for (const route of routes) {
    if (route.file === null) continue;
    add(toHostPath(route.path), { "Cache-Control": CACHE_CONTROL[route.cache] });
    if (route.id === "getEmbed") add("/embed/*", { "Content-Security-Policy": EMBED_CSP_HEADER });
    // The file's extension names another type (`.feed.json` is JSON): say it per file.
    if (route.media === "feedJson") {
      const categories = listTemplateParams(route.path).includes("category") ? CATEGORIES : [null];
      for (const category of categories) add(category === null ? route.path : fillTemplate(route.path, { category }), { "Content-Type": MEDIA_TYPES.feedJson });
    }
  }
  add(`/${CANNOT_ANSWER_FILE.replace("{id}.json", "*")}`, { "Content-Type": MEDIA_TYPES.problem, "Cache-Control": CACHE_CONTROL.none });
  const lines = ["# Generated from the route table (core/routes/table.ts)."];
  for (const [path, headers] of blocks) {
    lines.push(path, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`));
  }
  return `${lines.join("\n")}\n`;
}
