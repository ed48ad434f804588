/**
 * The live-search half of bench/search.ts: a million spammer usernames plus the companies and
 * people of the global corpus, measured beside a linear scan of the usernames (what a naive
 * `usernames.filter(u => u.includes(q))` route would do, with the same ranking).
 */
import type { GlobalSearchEntity } from "../core/search/global-index.ts";
import { createLiveIndex, searchLive } from "../core/search/live-index.ts";
import type { LiveCompany, LiveIndex, LivePerson } from "../core/search/live-index.ts";
import { loadLiveIndex, serializeLiveIndex } from "../core/search/live-index-format.ts";
import { normalizeUsernameQuery } from "../core/search/normalize.ts";
import { createBenchUsernames, createRandom } from "./search-corpus.ts";
import type { SearchBenchRow } from "./search.ts";
import type { SerializedLiveIndex } from "../core/search/live-index-format.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SEARCH_INDEX_FILES } from "../core/routes/table.ts";
import { loadLiveIndexFiles } from "../server/search-state.ts";

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const ms = (n: number) => `${fmt(n, n < 10 ? 3 : 1)} ms`;
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

/**
 * The rows, the serialised index (for the server-start measurement) and the index loaded from it
 * (for global search's username group). Queries are timed on the index as the server loads it
 * (server/search-state.ts: the usernames' postings read from live.bin as searches need them),
 * beside the same index held whole in memory.
 */
export async function runLiveSearchBench(options: { entities: readonly GlobalSearchEntity[]; usernames: number; workDir: string; log: (line: string) => void }): Promise<{ rows: SearchBenchRow[]; serialized: SerializedLiveIndex; live: LiveIndex }> {
  const rows: SearchBenchRow[] = [];
  const row = (metric: string, value: string, baseline = "", ratio = "", target = "") => rows.push({ metric, value, baseline, ratio, target });
  options.log(`generating ${options.usernames} usernames…`);
  const spammers = createBenchUsernames(options.usernames);
  const companies: LiveCompany[] = options.entities.filter((e) => e.type === "company").map((e) => ({
    name: e.title,
    slug: e.url,
    aliases: (e.keys ?? []).filter((k) => !k.includes(".")),
    domain: (e.keys ?? []).find((k) => k.includes(".")) ?? null,
    reportsCount: e.rank ?? 0,
    category: "other",
    lastReportMs: null,
  }));
  const people: LivePerson[] = options.entities.filter((e) => e.type === "person").map((e) => ({ name: e.title, slug: e.url, avatar: null, reportsCount: e.rank ?? 0 }));

  let start = performance.now();
  const built = createLiveIndex({ companies, people, spammers });
  const buildMs = performance.now() - start;
  const serialized = serializeLiveIndex(built);
  // Held: the whole binary part in memory, as the build and the tests have it.
  const held = loadLiveIndex({ json: serialized.json, binary: Buffer.from(serialized.binary) });
  // As the server gets it: from the files, the usernames' postings left in live.bin.
  const dir = join(options.workDir, "live-index");
  mkdirSync(join(dir, dirname(SEARCH_INDEX_FILES.liveBinary)), { recursive: true });
  writeFileSync(join(dir, SEARCH_INDEX_FILES.liveHeader), serialized.json);
  writeFileSync(join(dir, SEARCH_INDEX_FILES.liveBinary), serialized.binary);
  start = performance.now();
  const live = await loadLiveIndexFiles(dir);
  const loadMs = performance.now() - start;
  const stringBytes = [live.companyTexts, live.personTexts, live.spammerTexts].reduce((sum, g) => sum + g.joined.length * (/[^\u0000-\u00ff]/.test(g.joined) ? 2 : 1), 0);

  const queries = createLiveQueries(spammers.map((s) => s.username), companies, 600);
  const timeQueries = (index: LiveIndex) => {
    for (const q of queries) searchLive(index, q);
    const passes = [0, 1, 2, 3, 4].map(() => queries.map((q) => {
      const t = performance.now();
      searchLive(index, q);
      return performance.now() - t;
    }));
    return { times: [...passes[0]!].sort((a, b) => a - b), best: queries.map((_, i) => Math.min(...passes.map((pass) => pass[i]!))).sort((a, b) => a - b) };
  };
  const { times, best } = timeQueries(live);
  const heldTimes = timeQueries(held);
  for (const q of queries) if (JSON.stringify(searchLive(live, q)) !== JSON.stringify(searchLive(held, q))) throw new Error(`live search bench: ${q} answered differently from the files`);
  const names = spammers.map((s) => s.username);
  const counts = spammers.map((s) => s.reportsCount);
  const scanSample = queries.slice(0, 20);
  const scanTimes = scanSample.map((q) => {
    const t = performance.now();
    scanUsernames(names, counts, normalizeUsernameQuery(q), 4);
    return performance.now() - t;
  }).sort((a, b) => a - b);
  const ourScanSample = scanSample.map((q) => {
    const t = performance.now();
    searchLive(live, q);
    return performance.now() - t;
  }).sort((a, b) => a - b);

  row("live: usernames / companies / people", `${spammers.length} / ${companies.length} / ${people.length}`, "", "", "1 000 000 usernames");
  row("live: index build", ms(buildMs));
  row("live: serialised (binary + JSON)", `${fmt(serialized.binary.byteLength / 1e6, 1)} MB + ${fmt(serialized.json.length / 1e6, 1)} MB`);
  const postingBytes = (JSON.parse(serialized.json) as { groups: { spammers: { arrays: { postings: [number, number] } } } }).groups.spammers.arrays.postings[1];
  row("live: resident index (arrays + strings; the usernames' postings stay in live.bin)", `${fmt((serialized.binary.byteLength - postingBytes + stringBytes) / 1e6, 0)} MB`, `held whole: ${fmt((serialized.binary.byteLength + stringBytes) / 1e6, 0)} MB`, "", "≤ 300 MB");
  row("live: load (from the files)", ms(loadMs), "", "", "≤ 3 s");
  row(`live: p50 / p99 / max, ${queries.length} queries, first pass`, `${ms(percentile(times, 0.5))} / ${ms(percentile(times, 0.99))} / ${ms(times.at(-1)!)}`, `held: ${ms(percentile(heldTimes.times, 0.5))} / ${ms(percentile(heldTimes.times, 0.99))} / ${ms(heldTimes.times.at(-1)!)}`, "", "p99 ≤ 10 ms");
  row("  best of 5 passes per query", `${ms(percentile(best, 0.5))} / ${ms(percentile(best, 0.99))} / ${ms(best.at(-1)!)}`, `held: ${ms(percentile(heldTimes.best, 0.5))} / ${ms(percentile(heldTimes.best, 0.99))} / ${ms(heldTimes.best.at(-1)!)}`);
  row(`live: p50 on ${scanSample.length} queries`, ms(percentile(ourScanSample, 0.5)), `scan ${ms(percentile(scanTimes, 0.5))}`, `${fmt(percentile(scanTimes, 0.5) / percentile(ourScanSample, 0.5), 0)}×`);
  return { rows, serialized, live };
}

/** Username fragments (2–8 characters, anywhere), @handles, company names, prefixes and links. */
export function createLiveQueries(usernames: readonly string[], companies: readonly LiveCompany[], count: number): string[] {
  const random = createRandom(13);
  return Array.from({ length: count }, (_, i) => {
    const name = usernames[random.int(usernames.length)]!;
    const company = companies[random.int(companies.length)]!;
    switch (i % 6) {
      case 0: case 1: {
        const length = Math.min(name.length, 2 + random.int(7));
        const at = random.int(name.length - length + 1);
        return name.slice(at, at + length);
      }
      case 2: return `@${name}`;
      case 3: return company.name;
      case 4: return company.name.slice(0, 2 + random.int(4));
      default: return company.domain ? `https://www.${company.domain}/about` : company.name;
    }
  });
}

/** The baseline: every username tested, ranked exact > prefix > substring, then count, then name. */
export function scanUsernames(names: readonly string[], counts: readonly number[], q: string, limit: number): string[] {
  const found: { name: string; tier: number; count: number }[] = [];
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const at = name.indexOf(q);
    if (at === -1) continue;
    found.push({ name, tier: name === q ? 0 : at === 0 ? 1 : 2, count: counts[i]! });
  }
  found.sort((a, b) => a.tier - b.tier || b.count - a.count || (a.name < b.name ? -1 : 1));
  return found.slice(0, limit).map((f) => f.name);
}
