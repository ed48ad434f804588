import { describe, expect, it } from "vitest";
import { createLiveIndex, DEFAULT_LIVE_LIMITS, searchLive } from "../../core/search/live-index.ts";
import type { LiveCompany, LiveIndex } from "../../core/search/live-index.ts";
import { loadLiveIndex, serializeLiveIndex, serializeLiveIndexSections, toLiveIndexSource } from "../../core/search/live-index-format.ts";
import { createSubstringIndex, searchSubstrings } from "../../core/search/substring-index.ts";
import { buildGramPostings, forEachGram, forEachSubstringGram, seekPosting } from "../../core/search/gram-postings.ts";
import { UsernameCollector } from "../../core/search/ranked-usernames.ts";
import { formatRelativeTime } from "../../core/relative-time.ts";

const company = (name: string, reportsCount: number, extra: Partial<LiveCompany> = {}): LiveCompany => ({
  name, slug: name.toLowerCase().replace(/[^a-z0-9]+/g, "-"), aliases: [], domain: null, reportsCount, category: "crypto", lastReportMs: null, ...extra,
});

const COMPANIES: LiveCompany[] = [
  company("Binance", 500, { aliases: ["Бинанс"], domain: "https://www.binance.com" }),
  company("Binomo", 90, { domain: "binomo.com" }),
  company("Crypto Bin", 900),
  company("Robinhood", 90),
  company("Сбербанк", 300, { slug: "sberbank", aliases: ["Sber"], domain: "sberbank.ru" }),
  company("Ёлка Маркет", 1, { slug: "elka" }),
];
const PEOPLE = [
  { name: "Иван Петров", slug: "ivan-petrov", avatar: null, reportsCount: 3 },
  { name: "Pavel Binov", slug: "pavel-binov", avatar: "/a.png", reportsCount: 8 },
];
const SPAMMERS = [
  { username: "crypto_win", reportsCount: 28 },
  { username: "crypto_win_bot", reportsCount: 40 },
  { username: "crypto_winner", reportsCount: 40 },
  { username: "super_crypto_win", reportsCount: 99 },
  { username: "bin", reportsCount: 1 },
  { username: "binary_bot", reportsCount: 7 },
  { username: "robin", reportsCount: 300 },
  { username: "__proto__", reportsCount: 2 },
  { username: "constructor", reportsCount: 2 },
  { username: "ab", reportsCount: 5 },
];

const index = createLiveIndex({ companies: COMPANIES, people: PEOPLE, spammers: SPAMMERS });
const names = (index: LiveIndex, q: string) => {
  const r = searchLive(index, q);
  return { companies: r.companies.map((c) => c.name), people: r.people.map((p) => p.name), spammers: r.spammers.map((s) => s.username) };
};

describe("live search", () => {
  it("ranks exact > prefix > substring, then reports count, then name", () => {
    const r = searchLive(index, "bin");
    expect(r.companies.map((c) => [c.name, c.match])).toEqual([["Binance", "prefix"], ["Binomo", "prefix"], ["Crypto Bin", "substring"], ["Robinhood", "substring"]]);
    expect(r.spammers.map((s) => [s.username, s.match])).toEqual([["bin", "exact"], ["binary_bot", "prefix"], ["robin", "substring"]]);
    expect(r.people.map((p) => p.name)).toEqual(["Pavel Binov"]);
  });

  it("matches company aliases and domains, including pasted links", () => {
    expect(names(index, "бинанс").companies).toEqual(["Binance"]);
    expect(names(index, "https://www.Binance.com/en/x").companies).toEqual(["Binance"]);
    expect(names(index, "binance.com").companies).toEqual(["Binance"]);
    expect(names(index, "sber").companies).toEqual(["Сбербанк"]);
    expect(names(index, "елка").companies).toEqual(["Ёлка Маркет"]);
  });

  it("is case-insensitive and finds @usernames and t.me links", () => {
    expect(names(index, "BINANCE").companies).toEqual(["Binance"]);
    expect(names(index, "@Crypto_Win").spammers).toEqual(["crypto_win", "crypto_win_bot", "crypto_winner", "super_crypto_win"]);
    expect(names(index, "https://t.me/crypto_winner").spammers).toEqual(["crypto_winner"]);
    expect(names(index, "@__proto__").spammers).toEqual(["__proto__"]);
    expect(names(index, "петр").people).toEqual(["Иван Петров"]);
  });

  it("applies the caps it is given", () => {
    const r = searchLive(index, "crypto", { companies: 1, people: 0, spammers: 2 });
    expect(r.companies).toHaveLength(1);
    expect(r.people).toHaveLength(0);
    expect(r.spammers.map((s) => s.username)).toEqual(["crypto_win_bot", "crypto_winner"]);
    expect(DEFAULT_LIVE_LIMITS).toEqual({ companies: 7, people: 6, spammers: 4 });
  });

  it.each([
    ["empty", ""],
    ["one character", "b"],
    ["10 000 characters", "bin".repeat(3334)],
    ["regex metacharacters", "(.*)+$[\\"],
    ["__proto__", "__proto__"],
    ["constructor", "constructor"],
    ["control characters", "\u0000\u0001b\u001fin"],
    ["the boundary mark itself", "bi\u0001n"],
    ["emoji", "😀😀"],
    ["right-to-left text", "\u202eمرحبا"],
  ])("%s never throws and stays within the default caps", (_label, q) => {
    const r = searchLive(index, q);
    expect(r.companies.length).toBeLessThanOrEqual(7);
    expect(r.people.length).toBeLessThanOrEqual(6);
    expect(r.spammers.length).toBeLessThanOrEqual(4);
  });

  it("answers nothing to queries under two characters", () => {
    expect(searchLive(index, "b")).toEqual({ companies: [], people: [], spammers: [] });
    expect(searchLive(index, "@b")).toEqual({ companies: [], people: [], spammers: [] });
  });
});

describe("live index format", () => {
  it("round-trips through JSON + binary, also from an unaligned buffer", () => {
    const { json, binary } = serializeLiveIndex(index);
    expect(JSON.parse(json).format).toBe("live-search/1");
    const unaligned = new Uint8Array(binary.byteLength + 1).subarray(1);
    unaligned.set(binary);
    for (const loaded of [loadLiveIndex({ json, binary: Buffer.from(binary) }), loadLiveIndex({ json, binary: unaligned })]) {
      for (const q of ["bin", "бинанс", "@crypto_win", "ab", "петр", "https://www.binance.com"]) expect(searchLive(loaded, q)).toEqual(searchLive(index, q));
    }
  });

  it("is the same bytes laid out as sections (as the build writes it), and loads from them by spans", () => {
    const { json, binary } = serializeLiveIndex(index);
    const sections = serializeLiveIndexSections(index);
    expect(sections.json).toBe(json);
    expect(Buffer.concat(sections.sections.map((s) => Buffer.from(s.buffer, s.byteOffset, s.byteLength))).equals(Buffer.from(binary))).toBe(true);
    const source = toLiveIndexSource(sections);
    expect(source.size).toBe(binary.byteLength);
    // Spans that start and end inside a section, across several, and the whole.
    for (const [offset, length] of [[0, 1], [3, 17], [5, binary.byteLength - 9], [0, binary.byteLength], [binary.byteLength - 2, 2]] as const) {
      expect(Buffer.from(source.read(offset, length)).equals(Buffer.from(binary.subarray(offset, offset + length)))).toBe(true);
    }
    // A span inside one section is that section's own bytes, not a copy (the build loads its examples so).
    const first = sections.sections[0]!;
    expect(source.read(1, first.byteLength - 1).buffer).toBe(first.buffer);
    const loaded = loadLiveIndex(source);
    for (const q of ["bin", "бинанс", "@crypto_win", "ab", "петр"]) expect(searchLive(loaded, q)).toEqual(searchLive(index, q));
  });

  it("read by spans (as the server reads live.bin) answers as held, over lists read a chunk at a time", () => {
    // Lists of tens of thousands of postings, read a chunk at a time: "abc" and "bcd" are each in
    // 12 000 usernames, "abcd" in one of every 200 of the first ones, so its 50 best matches lie
    // across the first three chunks of its walk; other queries stop in the first.
    const spammers = [
      ...Array.from({ length: 12_000 }, (_, i) => ({ username: i % 200 === 0 ? `x${i}_abcd` : `x${i}_abc`, reportsCount: 100 })),
      ...Array.from({ length: 12_000 }, (_, i) => ({ username: `bcd_y${i}`, reportsCount: 50 })),
      ...Array.from({ length: 6_000 }, (_, i) => ({ username: `user_${(i * 7919) % 6_000}_${["spin", "bet", "crypto", "win"][i % 4]}`, reportsCount: 1 + (i % 17) })),
    ];
    const big = createLiveIndex({ companies: COMPANIES, people: PEOPLE, spammers });
    const { json, binary } = serializeLiveIndex(big);
    const reads: [number, number][] = [];
    const readBySpans = loadLiveIndex({
      json,
      size: binary.byteLength,
      read: (offset, length) => {
        reads.push([offset, length]);
        return Uint8Array.prototype.slice.call(binary, offset, offset + length);
      },
    });
    const header = JSON.parse(json) as { groups: { spammers: { arrays: { postings: [number, number] } } } };
    const [postingsAt, postingsLength] = header.groups.spammers.arrays.postings;
    expect(reads.some(([offset]) => offset === postingsAt), "the usernames' postings are not read at load").toBe(false);
    expect(searchLive(readBySpans, "abcd", { companies: 0, people: 0, spammers: 50 }).spammers).toHaveLength(50);
    for (const q of ["abcd", "bcd_", "abc", "_y1", "user", "spin", "_1", "12_", "user_2999_win", "win", "_bet", "ser_1", "zzz", "99"]) {
      expect(searchLive(readBySpans, q, { companies: 7, people: 6, spammers: 50 }), q).toEqual(searchLive(big, q, { companies: 7, people: 6, spammers: 50 }));
    }
    const postingReads = reads.filter(([offset]) => offset >= postingsAt && offset < postingsAt + postingsLength);
    expect(postingReads.length).toBeGreaterThan(0);
    expect(Math.max(...postingReads.map(([, length]) => length))).toBeLessThan(postingsLength);
  });

  it("works when empty", () => {
    const empty = loadLiveIndex(serializeLiveIndex(createLiveIndex({ companies: [], people: [], spammers: [] })));
    expect(searchLive(empty, "binance")).toEqual({ companies: [], people: [], spammers: [] });
  });

  it("rejects an unknown format and a truncated binary part", () => {
    const { json, binary } = serializeLiveIndex(index);
    expect(() => loadLiveIndex({ json: JSON.stringify({ format: "other" }), binary })).toThrow(/format/);
    expect(() => loadLiveIndex({ json, binary: binary.subarray(0, 16) })).toThrow(/truncated/);
  });
});

describe("gram postings", () => {
  const texts = ["binance", "бинанс", "a", "", "spam_bot 2024", "ёлка-палка", "😀x"];
  const owners = [0, 2, 4, 7];
  it.each([
    ["padded", { kind: "padded", pad: " " } as const, (text: string, mask: number, emit: (b: number) => void) => forEachGram(text, mask, emit, " ")],
    ["substring", { kind: "substring" } as const, forEachSubstringGram],
  ])("lists every %s gram of a text under its owner, once, in owner order", (_label, gramSet, grams) => {
    const table = buildGramPostings(texts, owners, 12, gramSet);
    for (let owner = 0; owner + 1 < owners.length; owner++) {
      for (let t = owners[owner]!; t < owners[owner + 1]!; t++) {
        grams(texts[t]!, (1 << 12) - 1, (bucket) => expect(table.postings[seekPosting(table, bucket, owner)]).toBe(owner));
      }
    }
    for (let b = 0; b < 1 << 12; b++) {
      for (let p = table.offsets[b]! + 1; p < table.offsets[b + 1]!; p++) expect(table.postings[p]!).toBeGreaterThan(table.postings[p - 1]!);
    }
  });
});

describe("substring index at scale", () => {
  // Many usernames sharing every gram of the query: the walks must still find the right ones.
  const usernames = Array.from({ length: 20_000 }, (_, i) => `user_${(i * 7919) % 20_000}_spam`);
  const texts = createSubstringIndex(usernames);

  it("finds prefix matches in rank order beyond the range scan", () => {
    const found = searchSubstrings(texts, "user_1", 4).map((m) => [usernames[m.record], m.kind]);
    expect(found).toEqual(usernames.map((u, i) => [u, i] as const).filter(([u]) => u.startsWith("user_1")).slice(0, 4).map(([u]) => [u, u === "user_1" ? "exact" : "prefix"]));
  });

  it("finds substring matches in rank order", () => {
    const expected = usernames.filter((u) => u.includes("99_s") && !u.startsWith("99_s")).slice(0, 3);
    expect(searchSubstrings(texts, "99_s", 3).map((m) => usernames[m.record])).toEqual(expected);
  });

  it("finds two-character matches through the bigram lists", () => {
    const expected = usernames.filter((u) => u.includes("77")).slice(0, 5);
    expect(searchSubstrings(texts, "77", 5).map((m) => usernames[m.record])).toEqual(expected);
  });
});

describe("usernames gathered for the live index", () => {
  const collect = (pairs: [string, number][]) => {
    const collector = new UsernameCollector();
    for (const [username, count] of pairs) collector.add(username, count);
    return collector.finish();
  };
  const PAIRS: [string, number][] = [["ab", 5], ["crypto_win", 28], ["robin", 300], ["bin", 1], ["binary_bot", 7], ["zz", 28], ["a", 28]];

  it("lays them out by reports desc, then username, with the username order beside", () => {
    const ranked = collect(PAIRS);
    const names = [...ranked.textStarts.subarray(0, -1)].map((start, r) => ranked.joined.slice(start, ranked.textStarts[r + 1]! - 1));
    expect(names).toEqual(["robin", "a", "crypto_win", "zz", "binary_bot", "ab", "bin"]);
    expect([...ranked.counts]).toEqual([300, 28, 28, 28, 7, 5, 1]);
    expect([...ranked.sortedTexts].map((r) => names[r])).toEqual([...names].sort());
  });

  it("gives the same layout whether usernames arrive sorted (as from the report pass) or not", () => {
    const sorted = [...PAIRS].sort(([a], [b]) => (a < b ? -1 : 1));
    expect(collect(sorted)).toEqual(collect(PAIRS));
  });

  it("ranks by a comparator when counts are too large for one numeric key", () => {
    const ranked = collect([["b", 4_000_000_000], ["a", 4_000_000_000], ["c", 1]]);
    expect(ranked.joined).toBe("\u0001a\u0001b\u0001c\u0001");
  });

  it("keeps a text that is not ASCII whole, arriving after ASCII ones (held a byte a code unit until then)", () => {
    const ranked = collect([["ab", 5], ["zz", 9], ["éa", 7], ["😀", 7], ["b", 1]]);
    expect(ranked.joined).toBe("\u0001zz\u0001éa\u0001😀\u0001ab\u0001b\u0001");
    expect([...ranked.textStarts]).toEqual([1, 4, 7, 10, 13, 15]);
    expect(collect([["b", 1], ["a", 2]]).joined).toBe("\u0001a\u0001b\u0001");
  });

  it("leaves out a username holding the boundary mark", () => {
    expect(collect([["bad\u0001name", 3], ["ok", 1]]).joined).toBe("\u0001ok\u0001");
  });
});

describe("relative time of a company's last complaint", () => {
  const now = Date.UTC(2026, 2, 11, 10, 0, 0);
  it.each([
    [Date.UTC(2026, 2, 11, 0, 0, 0), "today"],
    [Date.UTC(2026, 2, 12, 9, 0, 0), "today"],
    [Date.UTC(2026, 2, 10, 23, 59, 59), "yesterday"],
    [Date.UTC(2026, 2, 9, 12, 0, 0), "2 days ago"],
    [Date.UTC(2026, 1, 26, 0, 0, 0), "13 days ago"],
    [Date.UTC(2026, 1, 25, 0, 0, 0), "2 weeks ago"],
    [Date.UTC(2026, 0, 11, 0, 0, 0), "8 weeks ago"],
    [Date.UTC(2026, 0, 10, 0, 0, 0), "2 months ago"],
    [Date.UTC(2025, 2, 12, 0, 0, 0), "12 months ago"],
    [Date.UTC(2025, 2, 11, 0, 0, 0), "1 year ago"],
    [Date.UTC(2023, 2, 11, 0, 0, 0), "3 years ago"],
    [null, "no complaints yet"],
    [Number.NaN, "no complaints yet"],
  ])("%s is %j", (ms, text) => {
    expect(formatRelativeTime(ms, now)).toBe(text);
  });
});
