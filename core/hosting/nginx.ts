/**
 * The nginx `server { }` block of a static host, generated from the route table. It must work in
 * a plain `http { }` without `mime.types`, so every location sets its own type, and it uses no
 * `map` (an http-level directive): locations, `if ($args ~ …)`, `set`, `rewrite`, `try_files`,
 * `return`, `error_page` and `add_header … always`.
 *
 * Never silently wrong (DESIGN "One contract for every URL"): a URL the files answer is the
 * file, byte for byte the live server's answer; anything else — another limit, a name lookup, a
 * repeated or percent-encoded parameter, a username with capitals, search, matching — gets the
 * 501 problem naming the live route, or goes to the live server when there is an upstream.
 * `$arg_x` is case-insensitive and undecoded in nginx, so queries are read from `$args` with
 * case-sensitive regexes, and any `%` in them is left to the live server.
 */
import { EMBED_CSP_HEADER } from "../embed-policy.ts";
import { renderPagedFileLines, renderQueryLinkLines } from "./nginx-links.ts";
import { formatCannotAnswer, formatProblem, NOT_FOUND_DETAIL } from "../routes/problem.ts";
import { BAD_REQUEST_FILE, EMBED_NOT_FOUND_FILE, NOT_FOUND_PAGE_FILE, ROUTES } from "../routes/table.ts";
import { escapeRegExp, listTemplateParams } from "../routes/templates.ts";
import { CACHE_CONTROL, MEDIA_TYPES, type CachePolicy, type Media, type PagedFile, type QueryForm, type Route } from "../routes/types.ts";
import { hasVariants } from "../routes/variants.ts";

export interface NginxOptions {
  /** The build to serve: a build folder, or the `dist` link (nginx resolves it per request, so a new build is served at once). */
  root: string;
  /** `listen` argument: `8080`, `127.0.0.1:8080`, `[::1]:8080`. */
  listen: string;
  /** The live server, for what the files cannot answer (e.g. `http://127.0.0.1:3000`). */
  upstream?: string;
  /** The build's base URL (its build-report.json): the lists' `Link` headers are absolute URLs from it. */
  baseUrl: string;
  /** Send the build's `.br` variants too: needs the brotli static module loaded (docs/operators.md "Compression"). */
  brotli?: boolean;
}

const routes = ROUTES as readonly Route[];

/** A constant nginx string: single-quoted; no `$` (nginx would read a variable), quote or backslash. */
function quote(text: string): string {
  if (/[$'\\]/.test(text)) throw new Error(`cannot put ${JSON.stringify(text)} into an nginx string`);
  return `'${text}'`;
}

/** The headers every answer of a location carries. */
function headers(cache: string, extra: Record<string, string> = {}): string[] {
  const all: Record<string, string> = {
    "Access-Control-Allow-Origin": "*",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": cache,
    ...extra,
  };
  return Object.entries(all).map(([name, value]) => `add_header ${name} "${value}" always;`);
}

function typed(media: Media): string[] {
  return ["types { }", `default_type "${MEDIA_TYPES[media]}";`];
}

function block(head: string, lines: string[], indent = "  "): string {
  return `${indent}${head} {\n${lines.map((l) => `${indent}  ${l}`).join("\n")}\n${indent}}`;
}

/**
 * Where a location's files may have precompressed variants: the `.gz` (and, with the module, the
 * `.br`) beside the file goes to a client that accepts it. `gzip_vary` (server-wide) adds
 * `Vary: Accept-Encoding` to every answer of a file that has a variant, whatever was asked.
 */
function precompressed(brotli: boolean | undefined): string[] {
  return ["gzip_static on;", ...(brotli ? ["brotli_static on;"] : [])];
}

const embedHeaders = (route: Route): Record<string, string> => (route.id === "getEmbed" ? { "Content-Security-Policy": EMBED_CSP_HEADER } : {});

/** The variable a path parameter is captured in. */
const variable = (name: string) => `p_${name}`;

/** A URL template as an anchored nginx regex, each parameter a named capture of its pattern. */
function toUrlRegex(route: Route, patterns: Record<string, string>, stripAt?: string): string {
  let source = "^";
  let last = 0;
  for (const match of route.path.matchAll(/\{([a-z_]+)\}/g)) {
    source += escapeRegExp(route.path.slice(last, match.index));
    const name = match[1]!;
    source += `${name === stripAt ? "@?" : ""}(?<${variable(name)}>${patterns[name] ?? "[^/]+"})`;
    last = match.index! + match[0].length;
  }
  return `${source}${escapeRegExp(route.path.slice(last))}$`;
}

/** A file template with nginx variables (`/api/badge/$p_slug.svg`). */
function toFileWithVariables(file: string, prefix = "p_"): string {
  return `/${file.replace(/\{([a-z_]+)\}/g, (_, name: string) => `\${${prefix}${name}}`)}`;
}

/** The named location that answers what the files cannot: the live server, or the 501 problem. */
function cannotAnswer(route: Route, upstream: string | undefined): string {
  if (upstream) {
    // A query route may have rewritten the URI to a form's file: the live server gets the route's
    // own path back (its arguments were never changed).
    const restore = route.static.kind === "query" ? [`rewrite ^ ${route.path} break;`] : [];
    return block(`location @live_${route.id}`, [...restore, `proxy_pass ${upstream};`, "proxy_set_header Host $http_host;"]);
  }
  return block(`location @live_${route.id}`, [...typed("problem"), ...headers(CACHE_CONTROL.none), `return 501 ${quote(formatCannotAnswer(route))};`]);
}

/** `return 418` is the house signal for "the files cannot answer": error_page sends it to @live_<id>. */
const handOff = (route: Route) => `error_page 418 = @live_${route.id};`;

function fileRouteLocations(route: Route & { static: { kind: "file" } }, options: NginxOptions): string[] {
  const { upstream, baseUrl } = options;
  const rule = route.static;
  const params = listTemplateParams(route.path);
  const file = toFileWithVariables(route.file!);
  const body: string[] = [...typed(route.media), ...headers(CACHE_CONTROL[route.cache], embedHeaders(route))];
  if (hasVariants(route)) body.push(...precompressed(options.brotli));
  const notFound = rule.notFound;
  if (notFound.kind === "json") {
    // The live server's JSON "not found" (check: 200 found:false; chat: 404), the parameter echoed:
    // its canonical pattern admits no quote or backslash.
    const text = notFound.body.replace(/\{([a-z_]+)\}/g, (_, name: string) => `$${variable(name)}`);
    if (route.media === "json") {
      body.push(`if (!-f $document_root${file}) {`, `  return ${notFound.status} '${text}';`, "}", `try_files ${file} =404;`);
    } else {
      // Another type than the route's own (the chat badge's JSON 404): its own location.
      body.push(`try_files ${file} @missing_${route.id};`);
    }
  } else if (notFound.kind === "live") {
    body.push(`try_files ${file} @live_${route.id};`);
  } else {
    // error_page (not a try_files fallback) keeps the 404 status for the page it serves.
    if (notFound.kind === "notFoundFile") body.push(`try_files ${file} =404;`, `error_page 404 @notfound_${route.id};`);
    else if (route.paged) body.push(...renderPagedFileLines(route as Route & { paged: PagedFile }, baseUrl));
    else body.push(`try_files ${file} @notfound;`);
  }
  const out: string[] = [];
  if (params.length === 0) {
    out.push(block(`location = ${route.path}`, body));
  } else {
    out.push(block(`location ~ "${toUrlRegex(route, rule.params ?? {}, rule.stripAt)}"`, body));
    // Non-canonical forms of a route whose canonical pattern is narrower than any segment: of its
    // lookup key when it has one (another style of embed is no other spelling, but a 404), else of every parameter.
    const key = route.lookup?.param;
    const spelled = Object.entries(rule.params ?? {}).filter(([name]) => key === undefined || name === key);
    const narrower = rule.differs && spelled.some(([, p]) => p !== "[^/]+");
    // Any segment but a precompressed variant's name (`1.json.br`): that is a file at its own path.
    const anySpelling = "[^/]+(?<!\\.gz)(?<!\\.br)";
    if (narrower) out.push(block(`location ~ "${toUrlRegex(route, key === undefined ? Object.fromEntries(params.map((name) => [name, anySpelling])) : { ...rule.params, [key]: anySpelling })}"`, [handOff(route), "return 418;"]));
    if (narrower || notFound.kind === "live") out.push(cannotAnswer(route, upstream));
  }
  if (notFound.kind === "notFoundFile") {
    const lines = [...typed(route.media), ...headers(CACHE_CONTROL.none, embedHeaders(route)), `try_files /${route.notFoundFile} =500;`];
    out.push(block(`location @notfound_${route.id}`, lines));
  }
  if (notFound.kind === "json" && route.media !== "json") {
    const text = notFound.body.replace(/\{([a-z_]+)\}/g, (_, name: string) => `$${variable(name)}`);
    out.push(block(`location @missing_${route.id}`, [...typed("json"), ...headers(CACHE_CONTROL[route.cache]), `return ${notFound.status} '${text}';`]));
  }
  return out;
}

/**
 * A query route: the query string as one probe (`limit=1:50|page=0:|slug=0:`, each declared
 * parameter present or not, with its raw value), each form a regex over it.
 */
function queryRouteLocation(route: Route & { static: { kind: "query" } }, options: NginxOptions): string[] {
  const { upstream, baseUrl } = options;
  const names = route.params.filter((p) => p.in === "query").map((p) => p.name);
  // A missing form file (a page past the end) is the live server's to answer too.
  const lines: string[] = [...typed(route.media), ...headers(CACHE_CONTROL[route.cache]), handOff(route), `error_page 404 = @live_${route.id};`];
  if (hasVariants(route)) lines.push(...precompressed(options.brotli));
  lines.push('if ($args ~ "%") {', "  return 418;", "}");
  for (const name of names) {
    const n = escapeRegExp(name);
    lines.push(`if ($args ~ "(^|&)${n}(=[^&]*)?&(.*&)?${n}(=|&|$)") {`, "  return 418;", "}");
    lines.push(`set $q_${name} "0:";`, `if ($args ~ "(?:^|&)${n}(?:=(?<qv_${name}>[^&]*))?(?:&|$)") {`, `  set $q_${name} "1:$qv_${name}";`, "}");
  }
  lines.push(`set $probe "${names.map((n) => `${n}=$q_${n}`).join("|")}";`);
  const links = renderQueryLinkLines(route, baseUrl);
  lines.push(...links.before);
  // `rewrite … break` inside an `if` (one of the uses of `if` nginx documents as safe): the
  // first matching form serves its file; no form is the live server's.
  for (const form of route.static.forms) {
    const inside = [...links.formLines(form), `rewrite ^ ${toFileWithVariables(form.file, "f_")} break;`];
    lines.push(`if ($probe ~ "${toFormRegex(names, form)}") {`, ...inside.map((l) => `  ${l}`), "}");
  }
  lines.push("return 418;");
  return [block(`location = ${route.path}`, lines), cannotAnswer(route, upstream)];
}

function toFormRegex(names: string[], form: QueryForm): string {
  const parts = names.map((name) => {
    if (name in form.when) return `${escapeRegExp(name)}=1:(?<f_${name}>${form.when[name]})`;
    const fallback = form.defaults?.[name];
    return fallback === undefined ? `${escapeRegExp(name)}=0:` : `${escapeRegExp(name)}=(?:0:|1:${escapeRegExp(fallback)})`;
  });
  return `^${parts.join("\\|")}$`;
}

/**
 * A page asked at its other form (`/docs/` for `/docs`, `/dumps` for `/dumps/`): a 301 to its own
 * form when the page's file is there, as the live server answers; anything else there is a 404.
 */
function otherSlashLocation(route: Route & { static: { kind: "file" } }, baseUrl: string): string | null {
  if (route.path === "/") return null;
  const toggle = (path: string) => (path.endsWith("/") ? path.slice(0, -1) : `${path}/`);
  const lines = headers(CACHE_CONTROL[route.cache]);
  if (listTemplateParams(route.path).length === 0) return block(`location = ${toggle(route.path)}`, [...lines, `return 301 ${baseUrl}${route.path}$is_args$args;`]);
  const regex = toUrlRegex(route, route.static.params ?? {}).replace(/\/?\$$/, "");
  const canonical = route.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => `\${${variable(name)}}`);
  return block(`location ~ "${route.path.endsWith("/") ? regex : `${regex}/`}$"`, [
    ...lines,
    `if (-f $document_root${toFileWithVariables(route.file!)}) {`,
    `  return 301 ${baseUrl}${canonical}$is_args$args;`,
    "}",
    "return 404;",
  ]);
}

function liveRouteLocation(route: Route, upstream: string | undefined): string[] {
  return [block(`location = ${route.path}`, [handOff(route), "return 418;"]), cannotAnswer(route, upstream)];
}

/** The whole `server { }` block. */
export function renderNginxServer(options: NginxOptions): string {
  const upstream = options.upstream?.replace(/\/+$/, "");
  const lines: string[] = [];
  for (const route of routes) {
    if (route.static.kind === "file") lines.push(...fileRouteLocations(route as Route & { static: { kind: "file" } }, { ...options, upstream }));
    else if (route.static.kind === "query") lines.push(...queryRouteLocation(route as Route & { static: { kind: "query" } }, { ...options, upstream }));
    else lines.push(...liveRouteLocation(route, upstream));
  }
  for (const route of routes) {
    if (route.static.kind !== "file" || route.media !== "html" || route.method !== "GET") continue;
    const location = otherSlashLocation(route as Route & { static: { kind: "file" } }, options.baseUrl.replace(/\/+$/, ""));
    if (location) lines.push(location);
  }
  const ownPathTypes = Object.entries(OWN_PATH_TYPES).map(([ext, media]) => `"${MEDIA_TYPES[media]}" ${ext};`);
  return `# Generated by \`npm run hosting -- nginx\` from the route table (core/routes/table.ts).
# Serves one build folder${upstream ? `; what the files cannot answer goes to ${upstream}` : "; what only the live server can answer gets a 501 problem naming its route"}.
server {
  listen ${options.listen};
  root ${options.root};
  server_tokens off;
  merge_slashes off;
  absolute_redirect off;
  # @notfound hands a browser on to the HTML page: a second error_page after the first.
  recursive_error_pages on;
  charset off;
  gzip_vary on;

${lines.join("\n")}

  # The embeds' 404 is an HTML page (an iframe shows a sentence, not JSON).
  location /embed/ {
${[...typed("html"), ...headers(CACHE_CONTROL.public, { "Content-Security-Policy": EMBED_CSP_HEADER }), ...precompressed(options.brotli), "try_files $uri =404;", "error_page 404 @embed404;"].map((l) => `    ${l}`).join("\n")}
    # A page's variant at its own path is a file typed by its extension, as the live server types it, not HTML.
    location ~ "\\.(gz|br)$" {
${[`types { "${MEDIA_TYPES.gzip}" gz; }`, `default_type "${MEDIA_TYPES.binary}";`, ...headers(CACHE_CONTROL.public, { "Content-Security-Policy": EMBED_CSP_HEADER }), "try_files $uri =404;", "error_page 404 @embed404;"].map((l) => `      ${l}`).join("\n")}
    }
  }
  location @embed404 {
${[...typed("html"), ...headers(CACHE_CONTROL.none, { "Content-Security-Policy": EMBED_CSP_HEADER }), `try_files /${EMBED_NOT_FOUND_FILE} =500;`].map((l) => `    ${l}`).join("\n")}
  }
  # A path that is no file: the site's HTML 404 page for a browser (outside /api/), else the problem.
  location @notfound {
${[
  ...typed("problem"),
  ...headers(CACHE_CONTROL.none),
  "error_page 418 =404 @notfound_page;",
  'set $html_404 "";',
  'if ($http_accept ~* "\\btext/html\\b") {',
  '  set $html_404 "1";',
  "}",
  'if ($uri ~ "^/api/") {',
  '  set $html_404 "";',
  "}",
  'if ($html_404) {',
  "  return 418;",
  "}",
  `return 404 ${quote(formatProblem(404, NOT_FOUND_DETAIL))};`,
].map((l) => `    ${l}`).join("\n")}
  }
  location @notfound_page {
${[...typed("html"), ...headers(CACHE_CONTROL.none), `try_files /${NOT_FOUND_PAGE_FILE} =500;`].map((l) => `    ${l}`).join("\n")}
  }
  # Host configuration is for Netlify-like hosts, never served.
  location ~ "^/_(headers|redirects)$" {
    return 404;
  }
  error_page 404 @notfound;
  # nginx refuses a path that does not decode before any location (a named location gets no
  # URI then): the build's problem document for it, as the live server answers.
  error_page 400 /${BAD_REQUEST_FILE};
  location = /${BAD_REQUEST_FILE} {
    internal;
${[...typed("problem"), ...headers(CACHE_CONTROL.none)].map((l) => `    ${l}`).join("\n")}
  }
  # Host configuration is for the host to read, never served.
  location ^~ /_static-host/ {
    internal;
  }
  # Every other file of the build at its own path; anything else is the problem+json 404.
  location / {
    types {
${ownPathTypes.map((l) => `      ${l}`).join("\n")}
    }
    default_type "${MEDIA_TYPES.binary}";
${[...headers(CACHE_CONTROL.public), ...precompressed(options.brotli)].map((l) => `    ${l}`).join("\n")}
    try_files $uri @notfound;
  }
}
`;
}

/** Types of files served at their own path (the live server's, server/files.ts). */
const OWN_PATH_TYPES: Record<string, Media> = { json: "json", svg: "svg", html: "html", csv: "csv", gz: "gzip", txt: "text", rss: "rss", atom: "atom", bin: "binary" };

export type { CachePolicy };
