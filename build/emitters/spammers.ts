/**
 * The spammer top lists: api/spammers.json (the default page, limit 50), api/spammers/top.json
 * and api/spammers/category/{category}.json (200 each, the API's maximum limit), each with the
 * `total` of its set. The server answers every `limit` from these without touching the disk.
 */
import { CATEGORIES } from "../../core/categories.ts";
import { getSpammerItem, type SpammerItem } from "../../core/spammer-item.ts";
import type { Urls } from "../../core/urls.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { Spammer } from "../model.ts";
import type { OutputFile } from "../writer.ts";
import { renderCheckResult } from "./check.ts";

export const DEFAULT_SPAMMER_LIMIT = 50;

export function renderSpammerItem(spammer: Spammer, urls: Urls): SpammerItem {
  return getSpammerItem(renderCheckResult(spammer, urls));
}

export function* emitSpammerLists({ model, urls }: EmitContext): Generator<OutputFile> {
  const lists = model.spammerListsReady;
  const top = lists.top.map((s) => renderSpammerItem(s, urls));
  yield { path: "api/spammers.json", data: toJson({ data: top.slice(0, DEFAULT_SPAMMER_LIMIT), total: lists.total }) };
  yield { path: "api/spammers/top.json", data: toJson({ data: top, total: lists.total }) };
  for (const category of CATEGORIES) {
    const list = lists.byCategory.get(category)!;
    yield {
      path: `api/spammers/category/${category}.json`,
      data: toJson({ data: list.top.map((s) => renderSpammerItem(s, urls)), total: list.total }),
    };
  }
}
