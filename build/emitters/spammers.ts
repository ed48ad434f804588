/**
 * The ranked spammer lists, overall and per category, page by page at the default limit of 50:
 * `api/spammers/page/{n}.json` and `api/spammers/category/{category}/page/{n}.json` (every
 * reported username is on a page: what a static host answers `?page=N` with, and what the server
 * reads a page beyond the top from), page 1 again under the default answer's name
 * (`api/spammers.json`, `…/category/{category}.json`), and the top 200 (`…/top.json`, the API's
 * largest limit, which the server loads to answer any limit within it from memory). Paths: the
 * route table.
 *
 * One pass over the model's ranking (row indexes, best first) renders each username once and
 * hands its JSON to its lists; a list holds one page and its top at a time, so memory does not
 * grow with the number of usernames.
 */
import { CATEGORIES, type Category } from "../../core/categories.ts";
import { getRouteFile } from "../../core/routes/match.ts";
import { LIST_LIMIT, LIST_TOP } from "../../core/routes/table.ts";
import type { EmitContext } from "../context.ts";
import type { OutputFile } from "../writer/index.ts";
import { createSpammerItemSerializer } from "../api-json/check.ts";

const CATEGORY_CODES = new Map<Category, number>(CATEGORIES.map((c, i) => [c, i]));
const NO_FILES: readonly OutputFile[] = [];

export function* emitSpammerLists({ model, urls }: EmitContext): Generator<OutputFile> {
  const lists = model.spammerLists;
  const overall = new ListPages(lists.total, {
    first: getRouteFile("listSpammers"),
    page: (page) => getRouteFile("getSpammerListPage", { page }),
    top: getRouteFile("getSpammerTop"),
  });
  const byCategory = CATEGORIES.map(
    (category) =>
      new ListPages(lists.byCategory.get(category)!.total, {
        first: getRouteFile("getSpammerCategory", { category }),
        page: (page) => getRouteFile("getSpammerCategoryPage", { category, page }),
        top: getRouteFile("getSpammerCategoryTop", { category }),
      }),
  );
  const serialize = createSpammerItemSerializer(urls);
  for (const spammer of model.spammers.viewsOf(lists.ranking)) {
    const item = serialize(spammer);
    yield* overall.add(item);
    for (const category of spammer.categories) yield* byCategory[CATEGORY_CODES.get(category)!]!.add(item);
  }
  for (const list of [overall, ...byCategory]) yield* list.finish();
}

interface ListFiles {
  /** Page 1 under the list's default answer's name. */
  first: string;
  page: (page: number) => string;
  top: string;
}

/** One list's pages as its items arrive in rank order: a page file every LIST_LIMIT.default items, and the top at the end. */
class ListPages {
  private items: string[] = [];
  private readonly top: string[] = [];
  private page = 0;
  private readonly pages: number;

  constructor(
    private readonly total: number,
    private readonly files: ListFiles,
  ) {
    this.pages = Math.ceil(total / LIST_LIMIT.default);
  }

  add(item: string): readonly OutputFile[] {
    if (this.top.length < LIST_TOP) this.top.push(item);
    this.items.push(item);
    return this.items.length === LIST_LIMIT.default ? this.flush() : NO_FILES;
  }

  /** The last page (page 1 of an empty list too: its answer exists) and the top. */
  finish(): OutputFile[] {
    const files = this.items.length > 0 || this.page === 0 ? this.flush() : [];
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
