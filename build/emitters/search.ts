/**
 * The search indexes the server loads at start (DESIGN "Shape": the server never opens the
 * snapshot):
 *
 * - search/global.json: GET /api/search/global over the eight groups (companies, people,
 *   glossary, videos, video channels, chat channels, chats, blog posts), folded once here with
 *   the same core/search functions that fold queries; urls as paths below the base URL (the
 *   answer puts the base URL's path in front: site-relative, as the reference has them);
 *   search/global.bin, its n-gram postings (core/search/global-grams.ts), which the server
 *   would otherwise derive at every start.
 * - search/live.json + search/live.bin: GET /api/search over companies (name, aliases, website
 *   domain), people and every valid spammer username with its reports count; the header as
 *   JSON, the arrays as raw bytes (core/search/live-index-format.ts). Global search's ninth
 *   group, reported usernames, is answered from these same arrays (core/search/global-usernames.ts),
 *   so global.json holds no username and a server holds each once.
 *
 * Usernames are read off the model's spammer table into typed arrays
 * (core/search/ranked-usernames.ts): no object per username.
 */
import { buildGlobalGrams, serializeGlobalGrams } from "../../core/search/global-grams.ts";
import { createGlobalSearchIndex } from "../../core/search/global-index.ts";
import { createLiveIndex, type LiveCompany, type LivePerson } from "../../core/search/live-index.ts";
import { serializeLiveIndexSections } from "../../core/search/live-index-format.ts";
import { UsernameCollector } from "../../core/search/ranked-usernames.ts";
import { getAvatarUrl, type Urls } from "../../core/urls.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { Company, Person } from "../model/types.ts";
import type { OutputFile } from "../writer/index.ts";
import { listGlobalEntities } from "./search-entities.ts";

import { SEARCH_INDEX_FILES as SEARCH_FILES } from "../../core/routes/table.ts";

export function* emitSearchIndexes({ model, urls }: EmitContext): Generator<OutputFile> {
  // In a generator of its own, so that the global index is garbage before the live one is made.
  yield* emitGlobalIndex(model);
  const collector = new UsernameCollector();
  const spammers = model.spammers;
  for (let row = 0; row < spammers.size; row++) collector.add(spammers.username(row), spammers.reportsCount(row));
  const live = serializeLiveIndexSections(
    createLiveIndex({ companies: model.ranked.map(toLiveCompany), people: model.people.map((p) => toLivePerson(p, urls)), spammers: collector.finish() }),
  );
  yield { path: SEARCH_FILES.liveHeader, data: live.json };
  // Written section by section: the index's own arrays, never copied into one buffer as large as the file.
  yield { path: SEARCH_FILES.liveBinary, data: { byteLength: live.byteLength, chunks: () => live.sections } };
}

function* emitGlobalIndex(model: EmitContext["model"]): Generator<OutputFile> {
  const global = createGlobalSearchIndex(listGlobalEntities(model));
  yield { path: SEARCH_FILES.global, data: toJson(global) };
  yield { path: SEARCH_FILES.globalGrams, data: serializeGlobalGrams(buildGlobalGrams(global)) };
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

