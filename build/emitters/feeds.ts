/**
 * rss/ — the feeds: newly reported usernames and companies with rising complaints, as RSS 2.0
 * (`rss/all.rss`, served at /rss/all), Atom (`rss/all.atom`) and JSON Feed
 * (`rss/all.feed.json`), and the same per category under `rss/category/{category}.*`. The
 * extension-less RSS address needs one server route (server/routes/feeds.ts) or one static-host
 * rule (docs/operators.md "Static hosting").
 *
 * The newest usernames are read off the model's spammer table (feeds/entries.ts).
 */
import { CATEGORIES, getCategoryLabel, type Category } from "../../core/categories.ts";
import { DAY_MS } from "../../core/time.ts";
import type { EmitContext } from "../context.ts";
import { getCredit } from "../dump/credit.ts";
import { selectNewestSpammers, selectRisingCompanies, sortEntries, toCompanyEntry, toUsernameEntry } from "../feeds/entries.ts";
import { renderFeed } from "../feeds/render.ts";
import type { OutputFile } from "../writer/index.ts";
import { getRouteFile } from "../../core/routes/match.ts";

/** The files behind the three feeds of a category (null: all), from the route table. */
function getFeedFiles(category: Category | null): { rss: string; atom: string; json: string } {
  if (category === null) return { rss: getRouteFile("getFeedRss"), atom: getRouteFile("getFeedAtom"), json: getRouteFile("getFeedJson") };
  return { rss: getRouteFile("getCategoryFeedRss", { category }), atom: getRouteFile("getCategoryFeedAtom", { category }), json: getRouteFile("getCategoryFeedJson", { category }) };
}

export function* emitFeeds(ctx: EmitContext): Generator<OutputFile> {
  const { model, urls } = ctx;
  const newest = selectNewestSpammers(model.spammers);
  const credit = getCredit(ctx);
  const day0Ms = model.day0 * DAY_MS;
  for (const category of [null, ...CATEGORIES] as (Category | null)[]) {
    const entries = sortEntries([
      ...selectRisingCompanies(model.ranked, category).map((company) => toCompanyEntry(company, day0Ms, urls, credit)),
      ...newest(category).map((spammer) => toUsernameEntry(spammer, urls, credit)),
    ]);
    const scope = category === null ? "" : ` — ${getCategoryLabel(category)}`;
    const feed = renderFeed({
      title: `Newly reported usernames and rising companies${scope}`,
      description:
        `The newest reported usernames${category === null ? "" : ` with ${category} reports`} and the companies${category === null ? "" : ` in ${category}`} ` +
        "whose complaints rose week over week.",
      links: { home: urls.home(), rss: urls.rss(category), atom: urls.atom(category), json: urls.jsonFeed(category) },
      updatedMs: model.asOfMs,
      credit,
      entries,
    });
    const files = getFeedFiles(category);
    yield { path: files.rss, data: feed.rss };
    yield { path: files.atom, data: feed.atom };
    yield { path: files.json, data: feed.json };
  }
}
