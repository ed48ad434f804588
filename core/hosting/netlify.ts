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
 * - What is no file under /api/ is the problem+json 404 (`_static-host/not-found.json`); a page
 *   that is not there is the host's own 404 page, the site's `404.html`. A page's other form
 *   (`/docs/`) answers the page: a 301 between the forms would loop on these hosts.
 *
 * What these hosts cannot do (lower-case a username, tell a missing page of a list from a page,
 * reject a repeated parameter) the docs list per route as "On a static host"; nginx does more
 * (core/hosting/nginx.ts), and only nginx is proven against the live server in the tests.
 */
import { CATEGORIES } from "../categories.ts";
import { EMBED_CSP_HEADER } from "../embed-policy.ts";
import { BAD_ENCODING_DETAIL, formatCannotAnswer, formatProblem, NOT_FOUND_DETAIL } from "../routes/problem.ts";
import { BAD_REQUEST_FILE, CANNOT_ANSWER_FILE, HOST_CONFIG_FILES, HOST_CONFIG_PREFIX, NOT_FOUND_PROBLEM_FILE, ROUTES, SUPPORT_FILES } from "../routes/table.ts";
import { fillTemplate, listTemplateParams } from "../routes/templates.ts";
import { CACHE_CONTROL, MEDIA_TYPES, type Route } from "../routes/types.ts";
import { VARIANT_SUFFIX } from "../routes/variants.ts";

const routes = ROUTES as readonly Route[];


/** The problem documents static hosts answer with: each route's 501, and the 400 of a path that does not decode. */
export function getStaticHostProblemFiles(): { path: string; data: string }[] {
  return [
    { path: BAD_REQUEST_FILE, data: formatProblem(400, BAD_ENCODING_DETAIL) },
    { path: NOT_FOUND_PROBLEM_FILE, data: formatProblem(404, NOT_FOUND_DETAIL) },
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
  // Last, and only where no file is (a rule without `!` never shadows one): what is no file under
  // /api/ is the problem+json 404, where the host would send its HTML 404 page to every client.
  // Pages need no rule: the host's own 404.html is the site's. Nor can a page's other form be a
  // 301 here, as on the live server and nginx: these hosts match a rule with or without a trailing
  // slash, so a rule from one form to the other would loop; both forms answer the page.
  lines.push(`/api/* /${NOT_FOUND_PROBLEM_FILE} 404`);
  return `${lines.join("\n")}\n`;
}

export function renderHeaders(): string {
  const rules: HeaderRule[] = [];
  const add = (path: string, headers: Record<string, string>) => rules.push({ path, headers });
  // Cache-Control per path, not on `/*`: these hosts join the values of every matching rule.
  add("/*", { "Access-Control-Allow-Origin": "*", "X-Content-Type-Options": "nosniff" });
  for (const route of routes) {
    if (route.file === null) continue;
    const cache = { "Cache-Control": CACHE_CONTROL[route.cache] };
    // The URL, and the file behind it at its own path (with its precompressed siblings), as the live server serves both.
    add(toHostPath(route.path), cache);
    for (const path of withVariants(toHostPath(`/${route.file}`))) add(path, cache);
    if (route.id === "getEmbed") add("/embed/*", { "Content-Security-Policy": EMBED_CSP_HEADER });
    // The file's extension names another type (`.feed.json` is JSON): say it per file.
    if (route.media === "feedJson") {
      const categories = listTemplateParams(route.path).includes("category") ? CATEGORIES : [null];
      for (const category of categories) add(category === null ? route.path : fillTemplate(route.path, { category }), { "Content-Type": MEDIA_TYPES.feedJson });
    }
  }
  // The files no route names, served at their own path like any file of the build.
  for (const { file } of SUPPORT_FILES) {
    if (HOST_CONFIG_FILES.includes(file) || file.startsWith(HOST_CONFIG_PREFIX)) continue;
    for (const path of withVariants(toHostPath(`/${file}`))) add(path, { "Cache-Control": CACHE_CONTROL.public });
  }
  add(`/${CANNOT_ANSWER_FILE.replace("{id}.json", "*")}`, { "Content-Type": MEDIA_TYPES.problem, "Cache-Control": CACHE_CONTROL.none });
  add(`/${NOT_FOUND_PROBLEM_FILE}`, { "Content-Type": MEDIA_TYPES.problem, "Cache-Control": CACHE_CONTROL.none });
  const blocks = new Map<string, Record<string, string>>();
  for (const rule of foldHeaderRules(rules)) blocks.set(rule.path, { ...(blocks.get(rule.path) ?? {}), ...rule.headers });
  const lines = ["# Generated from the route table (core/routes/table.ts)."];
  for (const [path, headers] of blocks) {
    lines.push(path, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`));
  }
  return `${lines.join("\n")}\n`;
}

interface HeaderRule {
  path: string;
  headers: Record<string, string>;
}

/** A fixed file path and its precompressed siblings; a pattern (`:name`, `*`) already matches them. */
function withVariants(path: string): string[] {
  if (path.includes(":") || path.includes("*")) return [path];
  return [path, ...Object.values(VARIANT_SUFFIX).map((suffix) => `${path}${suffix}`)];
}

/**
 * Each header of each path from one rule only. Netlify lets a later rule win where two set the
 * same header of a path, Cloudflare Pages joins their values with a comma (two Cache-Controls
 * make one that caches treat as stale), so a rule whose every path a wider rule already gives
 * the same header is left out: `/dumps/index.json` under `/dumps/*`, `/rss/category/:category`
 * under `/rss/category/*`. A wider rule is a prefix of segments ending in `*`. Two rules that would
 * give a path different values are an error in the table, not something a host could settle.
 */
export function foldHeaderRules(rules: readonly HeaderRule[]): HeaderRule[] {
  const out: HeaderRule[] = [];
  for (const [index, rule] of rules.entries()) {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(rule.headers)) {
      const wider = rules.find((other, at) => at !== index && other.headers[name] !== undefined && (covers(other.path, rule.path) || (other.path === rule.path && at < index)));
      if (wider && wider.headers[name] !== value) throw new Error(`_headers: ${rule.path} and ${wider.path} give ${name} two values (${value}; ${wider.headers[name]})`);
      if (!wider) headers[name] = value;
    }
    if (Object.keys(headers).length > 0) out.push({ path: rule.path, headers });
  }
  return out;
}

/** Whether every path `narrow` matches is matched by `wide`, a prefix ending in `*`. */
function covers(wide: string, narrow: string): boolean {
  if (wide === narrow || !wide.endsWith("/*")) return false;
  const prefix = wide.slice(0, -2).split("/");
  const segments = narrow.split("/");
  // Deeper only: on Pages `/a/*` does not match `/a`, so a rule for `/a` itself stays (on Netlify,
  // where it does, the later of two rules with the same value wins and nothing is joined).
  if (segments.length <= prefix.length) return false;
  return prefix.every((segment, i) => segment === segments[i] || (segment.startsWith(":") && !segments[i]!.includes("*")));
}
