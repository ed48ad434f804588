/**
 * The search benchmark measures what it claims: its corpus is the same on every run, its typo
 * queries are real typos of existing entities that the searcher finds, and its live-search
 * baseline (a linear scan) gives the very answers the index gives, so the speed-up compares
 * equal work. Small scale here; `npm run bench -- --only search` runs it at full scale.
 */
import { describe, expect, it } from "vitest";
import { createBenchEntities, createBenchUsernames, createRandom } from "../../bench/search-corpus.ts";
import { QUERY_KINDS, createBenchQueries } from "../../bench/search-queries.ts";
import { createLiveQueries, scanUsernames } from "../../bench/search-live.ts";
import { createGlobalSearchIndex } from "../../core/search/global-index.ts";
import { createGlobalSearcher } from "../../core/search/global-searcher.ts";
import { createLiveIndex, searchLive } from "../../core/search/live-index.ts";
import { normalizeUsernameQuery } from "../../core/search/normalize.ts";

const entities = createBenchEntities(5000);

describe("the search benchmark's corpus and queries", () => {
  it("are the same on every run, with titles unique within a type", () => {
    expect(createBenchEntities(5000)).toEqual(entities);
    const keys = entities.map((e) => `${e.type}:${e.title.toLowerCase()}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(entities.map((e) => e.type)).size).toBe(8);
  });

  it("label each typo query with an entity that exists, and alter its name", () => {
    const queries = createBenchQueries(entities, 20, createRandom(7));
    expect(queries).toHaveLength(20 * QUERY_KINDS.length);
    const byUrl = new Map(entities.map((e) => [e.url, e]));
    for (const q of queries) {
      const entity = byUrl.get(q.url);
      expect(entity?.type).toBe(q.type);
      expect(q.query.toLowerCase()).not.toBe(entity!.title.toLowerCase());
    }
  });

  it("are found by the searcher in the top 5 for at least nine typo queries in ten", () => {
    const searcher = createGlobalSearcher(createGlobalSearchIndex(entities));
    const queries = createBenchQueries(entities, 20, createRandom(7));
    const found = queries.filter((q) => searcher.search(q.query).find((g) => g.type === q.type)?.items.slice(0, 5).some((i) => i.url === q.url));
    expect(found.length / queries.length).toBeGreaterThanOrEqual(0.9);
  });
});

describe("the live-search baseline", () => {
  it("answers every benchmark query exactly as the index does", () => {
    const spammers = createBenchUsernames(20_000);
    const companies = entities.filter((e) => e.type === "company").map((e) => ({
      name: e.title, slug: e.url, aliases: [], domain: e.keys?.[0] ?? null, reportsCount: e.rank ?? 0, category: "other", lastReportMs: null,
    }));
    const index = createLiveIndex({ companies, people: [], spammers });
    const names = spammers.map((s) => s.username);
    const counts = spammers.map((s) => s.reportsCount);
    for (const query of createLiveQueries(names, companies, 120)) {
      expect(searchLive(index, query).spammers.map((s) => s.username), query).toEqual(scanUsernames(names, counts, normalizeUsernameQuery(query), 4));
    }
  });
});
