/**
 * The `Link` header (RFC 8288) of the ranked lists' pages in the nginx block: the same value the
 * live server sends (core/routes/page-links.ts formats both), made with nginx's own means — no
 * `map`, no arithmetic, no script module:
 *
 * - the neighbouring page numbers come from regexes over the page's digits (a page is
 *   `[1-9][0-9]{0,8}`): the last digit that is not a 9 goes up by one and the 9s after it become
 *   0s, or down by one with 0s becoming 9s;
 * - a next page exists when its file does (`if (-f …)`), or the marker the build writes in its
 *   place where a spammer list goes on past its page files (the page is the live server's):
 *   the build's own answer to "is this the last page", right when `--root` is the `dist` link
 *   and a new build is published; a previous page exists when this one is not the first;
 * - each rel is its own `add_header Link`, empty when there is no such page (nginx then sends
 *   nothing). Two Link fields are one list (RFC 9110 §5.3): what a client reads equals the live
 *   server's one field.
 *
 * The base URL is the build's (`build-report.json`): regenerate the block when it changes.
 */
import { formatPageLink, getListPageUrl } from "../routes/page-links.ts";
import { LIST_LIMIT, SPAMMER_PAGE_BEYOND_SUFFIX, type RouteId } from "../routes/table.ts";
import type { PagedFile, QueryForm, Route } from "../routes/types.ts";

/** The page number's digits: at most nine, no leading zero (CANONICAL.page of the table). */
const MAX_DIGITS = 9;

/** A nginx double-quoted string: the text as it is, but for `"`; the base URL must hold no `$`, quote or backslash. */
function checkBase(base: string): string {
  if (/[$"'\\\s]/.test(base)) throw new Error(`cannot put the base URL ${JSON.stringify(base)} into an nginx string`);
  return base;
}

const linkValue = (url: string, rel: "next" | "prev") => `"${formatPageLink(url, rel).replaceAll('"', '\\"')}"`;

/** `$pg_next` and `$pg_prev` from the page number in `$pg` (prev empty on page 1). */
function computeNeighbours(): string[] {
  const lines = ['set $pg_next_head "";', 'set $pg_next_tail "";', 'set $pg_prev_head "";', 'set $pg_prev_tail "";'];
  for (let digit = 0; digit <= 8; digit++) lines.push(`if ($pg ~ "^(?<pg_lead>[0-9]*)${digit}9*$") {`, `  set $pg_next_head "\${pg_lead}${digit + 1}";`, "}");
  lines.push('if ($pg ~ "^9+$") {', '  set $pg_next_head "1";', "}");
  for (let digit = 1; digit <= 9; digit++) lines.push(`if ($pg ~ "^(?<pg_lead>[0-9]*)${digit}0*$") {`, `  set $pg_prev_head "\${pg_lead}${digit - 1}";`, "}");
  // 10 → 09: a lead of nothing and a 1 leave a 0 that is no digit of the page before.
  lines.push('if ($pg_prev_head = "0") {', '  set $pg_prev_head "";', "}");
  for (let n = 1; n <= MAX_DIGITS; n++) {
    lines.push(`if ($pg ~ "9{${n}}$") {`, `  set $pg_next_tail "${"0".repeat(n)}";`, "}");
    lines.push(`if ($pg ~ "0{${n}}$") {`, `  set $pg_prev_tail "${"9".repeat(n)}";`, "}");
  }
  lines.push('set $pg_next "${pg_next_head}${pg_next_tail}";', 'set $pg_prev "${pg_prev_head}${pg_prev_tail}";');
  return lines;
}

/** A template with `{name}` as the nginx variable `prefix` + name, and `{page}` as `page`. */
function toNginx(template: string, prefix: string, page: string): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => (name === "page" ? page : `\${${prefix}${name}}`));
}

/** Sets `$<next>` and `$<prev>` to the link values of a page in `$pg` of the list `list` with `query`, whose next file is `nextFile`. */
function setLinks(base: string, list: RouteId, query: Record<string, string>, nextFile: string, names: { next: string; prev: string; hasPrev: boolean }): string[] {
  const url = (page: string) => getListPageUrl(base, { list, query }, page);
  const next = linkValue(url("${pg_next}"), "next");
  // The next page's file, or its marker: a spammer list goes on past its page files (on the live server).
  const lines = [`set $${names.next} "";`];
  for (const file of [nextFile, `${nextFile}${SPAMMER_PAGE_BEYOND_SUFFIX}`]) lines.push(`if (-f "$document_root/${file}") {`, `  set $${names.next} ${next};`, "}");
  lines.push(`set $${names.prev} "";`);
  if (names.hasPrev) lines.push("if ($pg_prev) {", `  set $${names.prev} ${linkValue(url("${pg_prev}"), "prev")};`, "}");
  return lines;
}

const ADD_LINKS = ["add_header Link $link_next always;", "add_header Link $link_prev always;"];

/**
 * A paged file route (`/api/spammers/category/{category}/page/{page}`): the links, then the file
 * by `rewrite … break` — not `try_files`, which nginx skips in a location where an `if` matched.
 * Path parameters are the location's `p_` captures.
 */
export function renderPagedFileLines(route: Route & { paged: PagedFile }, baseUrl: string): string[] {
  const base = checkBase(baseUrl);
  const { paged } = route;
  const query = Object.fromEntries(Object.entries(paged.query).map(([name, value]) => [name, toNginx(value, "p_", "")]));
  const fixed = !paged.page.includes("{");
  // A fixed first page of `limit` items ends where default-limit file limit/50 ends; its next page starts one file later.
  const nextFile = toNginx(paged.pages, "p_", fixed ? String((Number(paged.page) * paged.limit) / LIST_LIMIT.default + 1) : "${pg_next}");
  const lines = [`set $pg ${fixed ? `"${paged.page}"` : "$p_page"};`, ...(fixed ? ['set $pg_next "2";', 'set $pg_prev "";'] : computeNeighbours())];
  lines.push(...setLinks(base, paged.list as RouteId, query, nextFile, { next: "link_next", prev: "link_prev", hasPrev: !fixed }));
  return [...lines, ...ADD_LINKS, `rewrite ^ /${toNginx(route.file!, "p_", "$p_page")} break;`];
}

/**
 * A list route's query location: the links of every form that has page files, computed from the
 * probe's raw values (`$qv_<name>`) before the forms, since the form that matches ends the
 * rewrite directives with `rewrite … break`. `formLines(form)` goes inside that form's `if`.
 */
export function renderQueryLinkLines(route: Route & { static: { kind: "query" } }, baseUrl: string): { before: string[]; formLines: (form: QueryForm) => string[] } {
  const base = checkBase(baseUrl);
  const forms = route.static.forms.filter((form) => form.pages !== undefined);
  if (forms.length === 0) return { before: [], formLines: () => [] };
  const before = ['set $pg "1";', 'if ($args ~ "(?:^|&)page=(?<pg_given>[1-9][0-9]{0,8})(?:&|$)") {', "  set $pg $pg_given;", "}", ...computeNeighbours()];
  const keys = new Map<QueryForm, number>();
  const seen = new Map<string, number>();
  for (const form of forms) {
    const names = Object.keys(form.when).filter((name) => name !== "page");
    const key = `${form.pages}|${names.join(",")}`;
    if (!seen.has(key)) {
      const k = seen.size;
      seen.set(key, k);
      const query = Object.fromEntries(names.map((name) => [name, `\${qv_${name}}`]));
      before.push(...setLinks(base, route.id as RouteId, query, toNginx(form.pages!, "qv_", "${pg_next}"), { next: `link_next_${k}`, prev: `link_prev_${k}`, hasPrev: true }));
    }
    keys.set(form, seen.get(key)!);
  }
  before.push('set $link_next "";', 'set $link_prev "";', ...ADD_LINKS);
  return {
    before,
    formLines: (form) => {
      const k = keys.get(form);
      return k === undefined ? [] : [`set $link_next $link_next_${k};`, `set $link_prev $link_prev_${k};`];
    },
  };
}
