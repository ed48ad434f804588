/**
 * The publishes' feed (rss/changes.*): one entry per retained publish, saying what it changed and
 * linking its change files, so that a feed reader or a webhook relay hears of every publish.
 */
import { escapeMarkup as e } from "../../core/escape.ts";
import { countNoun } from "../../core/format.ts";
import type { ChangePublish } from "../../core/routes/changes-schema.ts";
import type { Urls } from "../../core/urls.ts";
import type { Credit } from "../dump/credit.ts";
import type { FeedEntry } from "./entries.ts";

const describe = ({ added, updated, removed }: ChangePublish["spammers"], noun: string) =>
  `${countNoun(added, noun)} added, ${updated} updated, ${removed} removed`;

export function renderChangeEntry(publish: ChangePublish, urls: Urls, credit: Credit): FeedEntry {
  const link = urls.changeFile(`${publish.build}.csv`);
  const files = publish.files.map((file) => `<li><a href="${e(file.url)}">${e(file.name)}</a> (${countNoun(file.rows, "row")}, ${file.bytes} bytes)</li>`).join("");
  const html = [
    `<p>Publish ${e(publish.build)}, as of ${e(publish.as_of)}, relative to ${e(publish.previous ?? "nothing")}: ` +
      `${describe(publish.spammers, "username")}; ${describe(publish.companies, "company")}.</p>`,
    `<ul>${files}</ul>`,
    `<p>Or in one request: <a href="${e(`${urls.changes()}?since=${publish.previous ?? ""}`)}">${e(urls.changes())}?since=${e(publish.previous ?? "")}</a>.</p>`,
    `<p><small>${e(credit.line)}</small></p>`,
  ].join("");
  return {
    id: link,
    link,
    dateMs: Date.parse(publish.as_of),
    title: `Publish ${publish.build}: ${describe(publish.spammers, "username")}`,
    html,
    categories: [],
  };
}
