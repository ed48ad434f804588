/**
 * Matching concrete paths against the table: which route a URL is, which route or support file a
 * dist file belongs to, and the router pattern the server registers a route under.
 */
import { ROUTES, SUPPORT_FILES, getRoute, type RouteId } from "./table.ts";
import { compileTemplate, createFiller, escapeRegExp, fillTemplate } from "./templates.ts";
import type { Route, RouteParam } from "./types.ts";

interface Compiled {
  route: Route;
  url: (path: string) => Record<string, string> | null;
  file: ((path: string) => Record<string, string> | null) | null;
  queryFiles: ((path: string) => Record<string, string> | null)[];
}

/**
 * What a path parameter's segment may hold, from its schema: an enum its values, an integer its
 * digits, anything else any text. So `/rss/category/crypto.atom` is the Atom feed of `crypto`,
 * not the RSS feed of a category named `crypto.atom`.
 */
function getParamPattern(param: RouteParam): string {
  const schema = param.schema as { anyOf?: { const?: unknown }[]; type?: string };
  if (schema.anyOf?.every((s) => typeof s.const === "string")) return schema.anyOf.map((s) => escapeRegExp(String(s.const))).join("|");
  if (schema.type === "integer") return "[0-9]+";
  return "[^/]+";
}

const COMPILED: Compiled[] = ROUTES.map((route: Route) => ({
  route,
  url: compileTemplate(route.path, Object.fromEntries(route.params.filter((p) => p.in === "path").map((p) => [p.name, getParamPattern(p)]))),
  file: route.file === null ? null : compileTemplate(route.file),
  queryFiles: (route.queryFiles ?? []).map((t) => compileTemplate(t)),
}));

export type UrlMatch = { route: Route; params: Record<string, string> };

/**
 * A matcher over some routes of the table (all by default): the first whose template matches a
 * URL path (not decoded) for the method (HEAD as GET), with its parameters decoded; else null.
 */
export function createUrlMatcher(routes: readonly Route[] = ROUTES): (method: string, pathname: string) => UrlMatch | null {
  const compiled = COMPILED.filter((c) => routes.includes(c.route));
  return (method, pathname) => {
    const wanted = method === "HEAD" ? "GET" : method;
    for (const { route, url } of compiled) {
      if (route.method !== wanted) continue;
      const params = url(pathname);
      if (params) return { route, params: decodeParams(params) };
    }
    return null;
  };
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      decoded[name] = value;
    }
  }
  return decoded;
}

const SUPPORT_MATCHERS = SUPPORT_FILES.map((s) => ({ file: s.file as string, match: compileTemplate(s.file) }));

/** What a dist file is: a route's file, a query form's file, or a support file; null when the table does not know it. */
export function classifyFile(path: string): { route: Route; params: Record<string, string> } | { support: string } | null {
  // A route's own file first: `api/companies/page/2.json` is getCompanyListPage's file, and also
  // the file of a query form of listCompanies.
  for (const { route, file } of COMPILED) {
    const params = file?.(path);
    if (params) return { route, params };
  }
  for (const { route, queryFiles } of COMPILED) {
    const params = queryFiles.map((m) => m(path)).find((p) => p !== null);
    if (params) return { route, params };
  }
  const support = SUPPORT_MATCHERS.find((s) => s.match(path) !== null);
  return support ? { support: support.file } : null;
}

/**
 * The h3 (rou3) pattern a route registers under: a segment that is one parameter becomes
 * `:name`; a segment with a parameter and text (`{slug}.svg`) becomes a parameter too, and the
 * route's own template decides (several routes can share one pattern, e.g. the three feeds).
 */
export function getRouterPattern(route: Route): string {
  let n = 0;
  return route.path
    .split("/")
    .map((segment) => (segment.includes("{") ? `:p${n++}` : segment))
    .join("/");
}

/** A one-parameter file template of the table as a fast filler, for emitters that write many files. */
export function createFileFiller(id: RouteId): (value: string | number) => string {
  const file = getRoute(id).file;
  if (file === null) throw new Error(`${id} has no file`);
  return createFiller(file);
}

/** The dist file of a route for these parameters (values as they are: a file name is the decoded segment). */
export function getRouteFile(id: RouteId, params: Readonly<Record<string, string | number>> = {}): string {
  const file = getRoute(id).file;
  if (file === null) throw new Error(`${id} has no file`);
  return fillTemplate(file, params);
}

/** What every file of a one-file-per-thing route starts with (`api/check/` for the check files). */
export function getRouteFilePrefix(id: RouteId): string {
  const file = getRoute(id).file;
  if (file === null || !file.includes("{")) throw new Error(`${id} has no file per value`);
  return file.slice(0, file.indexOf("{"));
}

/** The site-relative URL of a route for these parameters (each value percent-encoded). */
export function getRoutePath(id: RouteId, params: Readonly<Record<string, string | number>> = {}): string {
  return fillTemplate(getRoute(id).path, params, true);
}
