/**
 * The spammer top lists, overall and per category: the default answer (limit 50: the file a
 * static host answers `/api/spammers` and `?category=X` with) and the top 200 (the API's maximum
 * limit, which the server loads to answer every `limit` without touching the disk), each with
 * the `total` of its set. Paths: the route table.
 */
import { CATEGORIES } from "../../core/categories.ts";
import { getRouteFile } from "../../core/routes/match.ts";
import type { SpammerList } from "../../core/routes/schemas.ts";
import { LIST_LIMIT, LIST_TOP } from "../../core/routes/table.ts";
import type { SpammerItem } from "../../core/spammer-item.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { OutputFile } from "../writer/index.ts";
import { renderSpammerItem } from "../api-json/check.ts";


export function* emitSpammerLists({ model, urls }: EmitContext): Generator<OutputFile> {
  const lists = model.spammerLists;
  const top = lists.top.map((s) => renderSpammerItem(s, urls));
  yield* emitList(top, lists.total, getRouteFile("listSpammers"), getRouteFile("getSpammerTop"));
  for (const category of CATEGORIES) {
    const list = lists.byCategory.get(category)!;
    const items = list.top.map((s) => renderSpammerItem(s, urls));
    yield* emitList(items, list.total, getRouteFile("getSpammerCategory", { category }), getRouteFile("getSpammerCategoryTop", { category }));
  }
}

/** The default answer (the answer to `?category=X` on a static host too) and the top the server answers any limit from. */
function* emitList(top: SpammerItem[], total: number, defaultFile: string, topFile: string): Generator<OutputFile> {
  const list = (data: SpammerItem[]): SpammerList => ({ data, total });
  yield { path: defaultFile, data: toJson(list(top.slice(0, LIST_LIMIT.default))) };
  yield { path: topFile, data: toJson(list(top.slice(0, LIST_TOP))) };
}
