import Fuse from "fuse.js";
import { describe, expect, it } from "vitest";
import { BitapPattern, NO_MATCH, scoreRecord } from "../../core/search/fuse-score.ts";
import { createScoredTopList } from "../../core/top-list.ts";
import { createGlobalSearchIndex } from "../../core/search/global-index.ts";
import type { GlobalSearchEntity, GlobalSearchIndex } from "../../core/search/global-index.ts";
import { createGlobalSearcher, GLOBAL_FUSE_OPTIONS } from "../../core/search/global-searcher.ts";
import type { FuseDocument, GlobalSearchGroup } from "../../core/search/global-searcher.ts";

const company = (title: string, rank: number, keys: string[] = [], slug = title.toLowerCase().replace(/\W+/g, "-")): GlobalSearchEntity => ({
  type: "company", title, url: `/company/${slug}`, subtitle: "Company", keys, rank,
});

const ENTITIES: GlobalSearchEntity[] = [
  company("Binance", 900, ["binance.com", "Бинанс"]),
  company("Binomo", 300, ["binomo.com"]),
  company("Bingo Cash", 40, ["bingo.cash"]),
  company("Bybit", 500, ["bybit.com"]),
  company("Сбербанк", 800, ["sberbank.ru", "Sber"], "sberbank"),
  company("Тинькофф", 600, ["tinkoff.ru"], "tinkoff"),
  company("Яндекс", 700, ["yandex.ru"], "yandex"),
  company("Kaspersky Lab", 100, ["kaspersky.com"]),
  company("Crypto Bin", 20),
  company("LeadBit", 60, ["leadbit.com"]),
  company("Alpha", 5, [], "alpha-2"),
  company("Alpha", 5, ["alpha.io"], "alpha-1"),
  { type: "person", title: "Иван Петров", url: "/person/ivan-petrov", subtitle: "Person", rank: 12 },
  { type: "person", title: "Pavel Durov", url: "/person/pavel-durov", subtitle: "Person", rank: 30 },
  { type: "person", title: "Maria Binova", url: "/person/maria-binova", subtitle: "Person", rank: 2 },
  { type: "glossary", title: "Cloaking", url: "/glossary/cloaking", subtitle: "Term" },
  { type: "glossary", title: "Арбитраж трафика", url: "/glossary/arbitrazh", subtitle: "Term" },
  { type: "video", title: "How to spot a fake recruiter in Telegram", url: "/video/fake-recruiter", subtitle: "Video", rank: 5000 },
  { type: "video", title: "Binance scam explained", url: "/video/binance-scam", subtitle: "Video", rank: 100 },
  { type: "video_channel", title: "Binance Academy TV", url: "/channel/binance-academy", subtitle: "Channel", rank: 10 },
  { type: "chat_channel", title: "Crypto Signals", url: "/chat-channel/crypto-signals", subtitle: "Channel", keys: ["@crypto_signals"], rank: 70 },
  { type: "chat", title: "Binance Russian Chat", url: "/chat/binance-ru", subtitle: "Chat", keys: ["@binance_ru"], rank: 50 },
  { type: "blog_post", title: "Ten signs a job offer is a scam", url: "/blog/ten-signs", subtitle: "Post" },
];

const index = createGlobalSearchIndex(ENTITIES);
const searcher = createGlobalSearcher(index);
const urls = (groups: GlobalSearchGroup[], type: string) => groups.find((g) => g.type === type)?.items.map((i) => i.url) ?? [];

describe("global search: labelled queries", () => {
  it.each([
    ["exact", "Binance", "company", "/company/binance"],
    ["exact, other case", "BINANCE", "company", "/company/binance"],
    ["prefix", "bin", "company", "/company/binance"],
    ["prefix of a later word", "academy", "video_channel", "/channel/binance-academy"],
    ["one typo (substitution)", "binanse", "company", "/company/binance"],
    ["one typo (deletion)", "binnce", "company", "/company/binance"],
    ["one typo (insertion)", "binnance", "company", "/company/binance"],
    ["transposition", "biannce", "company", "/company/binance"],
    ["two typos", "bimanse", "company", "/company/binance"],
    ["Cyrillic query, Latin name", "бинанс", "company", "/company/binance"],
    ["Cyrillic query with a typo, Latin name", "байбит", "company", "/company/bybit"],
    ["Latin query, Cyrillic name", "sberbank", "company", "/company/sberbank"],
    ["Latin query, Cyrillic name, other spelling", "tinkof", "company", "/company/tinkoff"],
    ["English spelling of a Cyrillic name", "yandex", "company", "/company/yandex"],
    ["wrong layout, prefix", "ишт", "company", "/company/binance"],
    ["wrong layout, whole word", "иштфтсу", "company", "/company/binance"],
    ["wrong layout with punctuation keys", "c,th,fyr", "company", "/company/sberbank"],
    ["domain", "binance.com", "company", "/company/binance"],
    ["domain of a Cyrillic name", "tinkoff.ru", "company", "/company/tinkoff"],
    ["@username", "@binance_ru", "chat", "/chat/binance-ru"],
    ["channel handle", "crypto_signals", "chat_channel", "/chat-channel/crypto-signals"],
    ["person, Cyrillic", "Иван Петров", "person", "/person/ivan-petrov"],
    ["person, transliterated", "ivan petrov", "person", "/person/ivan-petrov"],
    ["person, surname", "durov", "person", "/person/pavel-durov"],
    ["glossary, typo", "cloacking", "glossary", "/glossary/cloaking"],
    ["glossary, transliterated", "arbitrazh", "glossary", "/glossary/arbitrazh"],
    ["video, words from the middle", "fake recruiter", "video", "/video/fake-recruiter"],
  ])("%s: %j finds %s %s first", (_label, query, type, url) => {
    expect(urls(searcher.search(query), type)[0]).toBe(url);
  });

  it("ranks exact > prefix > fuzzy, then by rank", () => {
    const companies = searcher.search("bin").find((g) => g.type === "company")!;
    expect(companies.items.map((i) => i.title).slice(0, 3)).toEqual(["Binance", "Binomo", "Bingo Cash"]);
    expect(companies.items.slice(0, 3).map((i) => i.match)).toEqual(["prefix", "prefix", "prefix"]);
    expect(searcher.search("binance").find((g) => g.type === "company")!.items[0]!.match).toBe("exact");
  });

  it("breaks ties by rank, then title, then url, deterministically", () => {
    const alphas = searcher.search("alpha").find((g) => g.type === "company")!.items;
    expect(alphas.map((i) => i.url)).toEqual(["/company/alpha-1", "/company/alpha-2"]);
    expect(createGlobalSearcher(createGlobalSearchIndex([...ENTITIES].reverse())).search("alpha")).toEqual(searcher.search("alpha"));
  });
});

describe("global search: groups", () => {
  it("caps each group and counts matches before the cap", () => {
    const groups = searcher.search("binance", { limitPerType: { company: 1, video: 1 } });
    const companies = groups.find((g) => g.type === "company")!;
    expect(companies.items).toHaveLength(1);
    expect(companies.count).toBeGreaterThanOrEqual(1);
    expect(groups.find((g) => g.type === "video")!.items).toHaveLength(1);
    expect(groups.every((g) => g.items.length > 0 && g.count >= g.items.length)).toBe(true);
  });

  it("accepts limits as a Map and leaves out types capped at 0 and empty groups", () => {
    const groups = searcher.search("binance", { limitPerType: new Map([["company", 0]]), defaultLimit: 2 });
    expect(groups.find((g) => g.type === "company")).toBeUndefined();
    expect(groups.every((g) => g.items.length <= 2)).toBe(true);
  });
});

describe("global search: the index", () => {
  it("survives a JSON round trip unchanged", () => {
    const copy = JSON.parse(JSON.stringify(index)) as GlobalSearchIndex;
    expect(copy).toEqual(index);
    const revived = createGlobalSearcher(copy);
    for (const q of ["binanse", "бинанс", "ишт", "ivan petrov", "@binance_ru"]) expect(revived.search(q)).toEqual(searcher.search(q));
  });

  it("works when empty", () => {
    const empty = createGlobalSearcher(JSON.parse(JSON.stringify(createGlobalSearchIndex([]))) as GlobalSearchIndex);
    expect(empty.size).toBe(0);
    expect(empty.search("binance")).toEqual([]);
  });

  it("is built deterministically, whatever the input order", () => {
    expect(createGlobalSearchIndex([...ENTITIES].reverse())).toEqual(index);
  });
});

describe("global search: hostile and degenerate queries", () => {
  it.each([
    ["empty", ""],
    ["one character", "b"],
    ["blank", "   "],
    ["10 000 characters", "binance ".repeat(1250)],
    ["regex metacharacters", "(.*)+$[\\"],
    ["__proto__", "__proto__"],
    ["constructor", "constructor"],
    ["control characters", "\u0000\u0001bin\u001f"],
    ["emoji", "😀😀 binance 🚀"],
    ["right-to-left text", "\u202eمرحبا بالعالم"],
    ["lone surrogate", "bin\ud800ance"],
  ])("%s never throws and stays within the caps", (_label, query) => {
    const groups = searcher.search(query, { limitPerType: { __proto__: 3, company: 2 } as Record<string, number> });
    expect(Array.isArray(groups)).toBe(true);
    for (const group of groups) {
      expect(group.items.length).toBeLessThanOrEqual(group.type === "company" ? 2 : 5);
      expect(group.count).toBeGreaterThanOrEqual(group.items.length);
    }
  });

  it("answers nothing to queries under two characters", () => {
    expect(searcher.search("b")).toEqual([]);
    expect(searcher.search("!!")).toEqual([]);
  });
});

describe("global search at a few thousand entities", () => {
  // Near-duplicate names from a few syllables: many documents share most grams of any query.
  const syllables = "bi nan ce kra to vex lum zo mir tek sol ar ion pay coin tra de max no va сбер банк ти ко ли на".split(" ");
  let seed = 3;
  const next = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
  const entities: GlobalSearchEntity[] = [];
  const seen = new Set<string>();
  while (entities.length < 3000) {
    let title = "";
    for (let n = 2 + next(3); n > 0; n--) title += syllables[next(syllables.length)];
    if (seen.has(title)) continue;
    seen.add(title);
    const type = ["company", "person", "video", "chat"][entities.length % 4]!;
    entities.push({ type, title: title[0]!.toUpperCase() + title.slice(1), url: `/${type}/${entities.length}`, subtitle: type, rank: next(1000) });
  }
  const big = createGlobalSearcher(createGlobalSearchIndex(entities));

  it("finds the intended entity for one-typo queries", () => {
    let found = 0;
    const sample = entities.filter((_, i) => i % 60 === 0);
    for (const entity of sample) {
      const at = 1 + next(entity.title.length - 1);
      const typo = entity.title.slice(0, at) + entity.title.slice(at + 1);
      if (big.search(typo).find((g) => g.type === entity.type)?.items.some((i) => i.url === entity.url)) found++;
    }
    expect(found / sample.length).toBeGreaterThanOrEqual(0.9);
  });

  it("keeps every group within its cap and sorted", () => {
    for (const q of ["bi", "кра", "binance", "сбербанк", "tekvexion"]) {
      for (const group of big.search(q, { defaultLimit: 8 })) {
        expect(group.items.length).toBeLessThanOrEqual(8);
        // Typo matches go one edit from a whole word, one edit from a word's start, further; each by score.
        const fuzzy = group.items.filter((i) => i.match === "fuzzy").map((i) => i.score);
        expect(fuzzy.filter((score, i) => i > 0 && score < fuzzy[i - 1]!).length).toBeLessThanOrEqual(2);
      }
      for (const group of big.search(q, { defaultLimit: 8, rankBy: "fuse-score" })) {
        const scores = group.items.map((i) => i.score);
        expect(scores).toEqual([...scores].sort((a, b) => a - b));
      }
    }
  });
});

describe("prefilter top list", () => {
  it("keeps the k best offers, one per id, ties to the smaller id", () => {
    const top = createScoredTopList(3);
    for (const [id, value, tag] of [[5, 0.5, 0], [6, 0.7, 0], [5, 0.9, 1], [7, 0.1, 0], [9, 0.7, 2], [6, 0.2, 3], [8, 0.7, 4]] as const) top.offer(id, value, tag);
    const kept = () => Array.from({ length: top.size }, (_, k) => [top.idAt(k), top.tagAt(k)]);
    expect(kept()).toEqual([[5, 1], [6, 0], [8, 4]]);
    expect(top.floor()).toBe(0.7);
    top.reset(5);
    expect(kept()).toEqual([]);
    expect(top.floor()).toBe(-Infinity);
    for (let id = 0; id < 7; id++) top.offer(id, id % 3, 0);
    expect(kept().map(([id]) => id)).toEqual([2, 5, 1, 4, 0]);
  });
});

describe("fuse-score port", () => {
  // A small alphabet makes partial matches, ties and every bitap error level common.
  const alphabet = "abcde fgхя";
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const text = (max: number) => {
    let s = "";
    for (let n = 1 + Math.floor(random() * max); n > 0; n--) s += alphabet[Math.floor(random() * alphabet.length)];
    return s;
  };

  it("gives exactly fuse.js's record scores and matches", () => {
    for (let trial = 0; trial < 150; trial++) {
      const docs: FuseDocument[] = Array.from({ length: 25 }, (_, d) => ({ t: text(40), a: Array.from({ length: Math.floor(random() * 4) }, () => text(50)), d }));
      const query = (trial % 6 === 0 ? docs[0]!.t : text(trial % 5 === 0 ? 80 : 14)).trim();
      if (query.length === 0) continue; // fuse.js lists everything, unscored, for a blank query
      const expected = new Map(new Fuse(docs, GLOBAL_FUSE_OPTIONS).search(query).map((r) => [r.item.d, r.score]));
      const pattern = new BitapPattern(query, GLOBAL_FUSE_OPTIONS.threshold!);
      for (const doc of docs) {
        const score = scoreRecord(pattern, [doc.t, ...doc.a], [2 / 3, ...doc.a.map(() => 1 / 3)]);
        expect(score === NO_MATCH ? undefined : score).toBe(expected.get(doc.d));
      }
    }
  });

  it("gives exact and prefix matches the fuse.js score of the query that matched them", () => {
    const docs: FuseDocument[] = index.titles.map((_, d) => {
      const texts = index.texts.slice(index.textStarts[d], index.textStarts[d + 1]);
      return { t: texts[0] ?? "", a: texts.slice(1), d };
    });
    const fuse = new Fuse(docs, GLOBAL_FUSE_OPTIONS);
    let checked = 0;
    for (const query of ["binance", "bina", "sber", "yandex", "ivan", "бинанс"]) {
      const variants = searcher.getVariants(query).map((v) => ({ text: v.text, scores: new Map(fuse.search(v.text).map((r) => [r.item.d, r.score!])) }));
      for (const item of searcher.search(query).flatMap((g) => g.items)) {
        if (item.match === "fuzzy") continue;
        const d = index.urls.indexOf(item.url);
        const texts = index.texts.slice(index.textStarts[d], index.textStarts[d + 1]);
        // Any variant that starts one of the document's words, scored by fuse.js (1: no fuzzy match).
        const possible = variants.filter((v) => texts.some((t) => t.startsWith(v.text) || t.includes(` ${v.text}`))).map((v) => v.scores.get(d) ?? 1);
        expect(possible, `${query} → ${item.title}`).toContain(item.score);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });

  it("agrees with plain fuse.js on the best match of every labelled query", () => {
    const docs: FuseDocument[] = index.titles.map((_, d) => {
      const texts = index.texts.slice(index.textStarts[d], index.textStarts[d + 1]);
      return { t: texts[0] ?? "", a: texts.slice(1), d };
    });
    const fuse = new Fuse(docs, GLOBAL_FUSE_OPTIONS);
    for (const query of ["binanse", "bimanse", "бинанс", "sberbank", "yandex", "cloacking", "ivan petrov"]) {
      const best = new Map<number, number>();
      for (const variant of searcher.getVariants(query).filter((v) => v.kind !== "cyrillic")) {
        for (const r of fuse.search(variant.text)) if (!(best.get(r.item.d)! <= r.score!)) best.set(r.item.d, r.score!);
      }
      const [top] = [...best].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
      const ours = searcher.search(query, { rankBy: "fuse-score" }).flatMap((g) => g.items).sort((a, b) => a.score - b.score)[0];
      expect(ours?.url).toBe(index.urls[top![0]]);
      expect(ours?.score).toBe(top![1]);
    }
  });
});
