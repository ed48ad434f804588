/**
 * The ranked spammer lists, overall and per category:
 * - the whole order in one file, `api/spammers/ranking.bin` (core/spammer-ranking.ts), from
 *   which the live server answers any page beyond the top it holds;
 * - the first pages at the default limit of 50 (`--list-pages`, 20 by default):
 *   `api/spammers/page/{n}.json` and `api/spammers/category/{category}/page/{n}.json`, what a
 *   static host answers `?page=N` with, and an empty `…/page/{n}.json.live` where a list goes
 *   on past them (a static host's Link rel=next then says there is a next page, as the live
 *   server's does); page 1 again under the default answer's name (`api/spammers.json`,
 *   `…/category/{category}.json`); and the top 200 (`…/top.json`, the API's largest limit,
 *   which the server loads to answer any limit within it from memory). Paths: the route table.
 *
 * Deeper pages have no file: one more report moves a username up past every username between
 * its old place and its new one, and with a file for every page a deploy of that one change
 * copied every page in between (thousands). The top pages still shift, but a username rarely
 * enters the top 1 000.
 *
 * One pass over the model's ranking (row indexes, best first) renders each username once and
 * hands its JSON to its lists; a list holds one page and its top at a time.
 */
import { CATEGORIES, type Category } from "../../core/categories.ts";
import { getRouteFile } from "../../core/routes/match.ts";
import { LIST_LIMIT, LIST_TOP, SPAMMER_PAGE_BEYOND_SUFFIX, SPAMMER_RANKING_FILE } from "../../core/routes/table.ts";
import { serializeSpammerRanking, type RankedUsername } from "../../core/spammer-ranking.ts";
import type { EmitContext } from "../context.ts";
import type { OutputFile } from "../writer/index.ts";
import { createSpammerItemSerializer } from "../api-json/check.ts";

const CATEGORY_CODES = new Map<Category, number>(CATEGORIES.map((c, i) => [c, i]));
const NO_FILES: readonly OutputFile[] = [];

export function* emitSpammerLists({ model, urls, listPages }: EmitContext): Generator<OutputFile> {
  const lists = model.spammerLists;
  const overall = new ListPages(lists.total, listPages, {
    first: getRouteFile("listSpammers"),
    page: (page) => getRouteFile("getSpammerListPage", { page }),
    top: getRouteFile("getSpammerTop"),
  });
  const byCategory = CATEGORIES.map(
    (category) =>
      new ListPages(lists.byCategory.get(category)!.total, listPages, {
        first: getRouteFile("getSpammerCategory", { category }),
        page: (page) => getRouteFile("getSpammerCategoryPage", { category, page }),
        top: getRouteFile("getSpammerCategoryTop", { category }),
      }),
  );
  const serialize = createSpammerItemSerializer(urls);
  for (const spammer of model.spammers.viewsOf(lists.ranking)) {
    // A username goes on the lists that still take items; past their pages and top, the
    // ranking file has the rest, and it need not be rendered at all.
    let wanted = !overall.full;
    for (const category of spammer.categories) wanted ||= !byCategory[CATEGORY_CODES.get(category)!]!.full;
    if (!wanted) {
      // Once every list is full, the rest of the ranking (a million rows, the first few
      // thousand of which fill them) would only be read to be skipped.
      if (byCategory.every((list) => list.full)) break;
      continue;
    }
    const item = serialize(spammer);
    yield* overall.add(item);
    for (const category of spammer.categories) yield* byCategory[CATEGORY_CODES.get(category)!]!.add(item);
  }
  for (const list of [overall, ...byCategory]) yield* list.finish();
  yield { path: SPAMMER_RANKING_FILE, data: serializeSpammerRanking(listRankedUsernames(model)) };
}

function* listRankedUsernames(model: EmitContext["model"]): Generator<RankedUsername> {
  const { spammers } = model;
  for (const row of model.spammerLists.ranking) yield { username: spammers.username(row), categories: spammers.categoryIndexes(row) };
}

interface ListFiles {
  /** Page 1 under the list's default answer's name. */
  first: string;
  page: (page: number) => string;
  top: string;
}

/**
 * One list's first pages as its items arrive in rank order: a page file every LIST_LIMIT.default
 * items up to `maxPages` (and the marker of the page after, when the list goes on), and the top.
 */
class ListPages {
  private items: string[] = [];
  private readonly top: string[] = [];
  private page = 0;
  private readonly pages: number;
  private readonly maxPages: number;

  constructor(
    private readonly total: number,
    maxPages: number,
    private readonly files: ListFiles,
  ) {
    this.pages = Math.ceil(total / LIST_LIMIT.default);
    // Page 1 always: it is also the list's default answer (`api/spammers.json`).
    this.maxPages = Math.max(1, maxPages);
  }

  /** Every page file and the top are made: later items change nothing here. */
  get full(): boolean {
    return this.page >= Math.min(this.maxPages, this.pages) && this.top.length >= Math.min(LIST_TOP, this.total);
  }

  add(item: string): readonly OutputFile[] {
    if (this.top.length < LIST_TOP) this.top.push(item);
    if (this.page >= this.maxPages) return NO_FILES;
    this.items.push(item);
    return this.items.length === LIST_LIMIT.default ? this.flush() : NO_FILES;
  }

  /** The last page written (page 1 of an empty list too: its answer exists), the marker past them, and the top. */
  finish(): OutputFile[] {
    const files = (this.items.length > 0 || this.page === 0) && this.page < this.maxPages ? this.flush() : [];
    if (this.pages > this.page) files.push({ path: `${this.files.page(this.page + 1)}${SPAMMER_PAGE_BEYOND_SUFFIX}`, data: "" });
    files.push({ path: this.files.top, data: formatListPage(this.top, this.total, 1, Math.ceil(this.total / LIST_TOP)) });
    return files;
  }

  private flush(): OutputFile[] {
    const page = ++this.page;
    const data = formatListPage(this.items, this.total, page, this.pages);
    this.items = [];
    const files = [{ path: this.files.page(page), data }];
    if (page === 1) files.push({ path: this.files.first, data });
    return files;
  }
}

/** The same bytes as `toJson({ data, total, page, pages })` (SpammerList), from items already JSON. */
export function formatListPage(items: readonly string[], total: number, page: number, pages: number): string {
  return `{"data":[${items.join(",")}],"total":${total},"page":${page},"pages":${pages}}`;
}
