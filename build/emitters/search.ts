/**
 * The search indexes the server loads at start (DESIGN "Shape": the server never opens the
 * snapshot):
 *
 * - search/global.json: GET /api/search/global over the eight groups (companies, people,
 *   glossary, videos, video channels, chat channels, chats, blog posts), folded once here with
 *   the same core/search functions that fold queries; urls site-relative (reference).
 * - search/live.json + search/live.bin: GET /api/search over companies (name, aliases, website
 *   domain), people and every valid spammer username with its reports count; the header as
 *   JSON, the arrays as raw bytes (core/search/live-index-format.ts).
 *
 * Usernames come from the one report pass through an observer registered in `prepare`, kept in
 * typed arrays (core/search/ranked-usernames.ts): no second pass, no object per username.
 */
import { createGlobalSearchIndex } from "../../core/search/global-index.ts";
import { createLiveIndex, type LiveCompany, type LivePerson } from "../../core/search/live-index.ts";
import { serializeLiveIndex } from "../../core/search/live-index-format.ts";
import { UsernameCollector } from "../../core/search/ranked-usernames.ts";
import { getAvatarUrl, type Urls } from "../../core/urls.ts";
import { toJson, type EmitContext } from "../context.ts";
import { BuildError } from "../errors.ts";
import type { Company, Model, Person } from "../model.ts";
import type { OutputFile } from "../writer.ts";
import { listGlobalEntities } from "./search-entities.ts";

export { SEARCH_INDEX_FILES as SEARCH_FILES } from "../../core/routes/table.ts";
import { SEARCH_INDEX_FILES as SEARCH_FILES } from "../../core/routes/table.ts";

/** One collector per build (per model), filled during the report pass. */
const collectors = new WeakMap<Model, UsernameCollector>();

export function prepareSearchIndexes({ model }: EmitContext): void {
  const collector = new UsernameCollector();
  collectors.set(model, collector);
  model.observeSpammers((spammer) => collector.add(spammer.username, spammer.reportsCount));
}

export function* emitSearchIndexes({ model, urls }: EmitContext): Generator<OutputFile> {
  const collector = collectors.get(model);
  if (collector === undefined) throw new BuildError("the search emitter's prepare() did not run before the report pass");
  collectors.delete(model);
  yield { path: SEARCH_FILES.global, data: toJson(createGlobalSearchIndex(listGlobalEntities(model))) };
  const live = serializeLiveIndex(
    createLiveIndex({ companies: model.ranked.map(toLiveCompany), people: model.people.map((p) => toLivePerson(p, urls)), spammers: collector.finish() }),
  );
  yield { path: SEARCH_FILES.liveHeader, data: live.json };
  yield { path: SEARCH_FILES.liveBinary, data: live.binary };
}

function toLiveCompany(company: Company): LiveCompany {
  return {
    name: company.name,
    slug: company.slug,
    aliases: company.aliases,
    domain: company.website,
    reportsCount: company.reportsCount,
    category: company.category,
    lastReportMs: company.lastReportMs,
  };
}

function toLivePerson(person: Person, urls: Urls): LivePerson {
  return { name: person.name, slug: person.slug, avatar: getAvatarUrl(person.avatar, person.slug, urls), reportsCount: person.reportsCount };
}

