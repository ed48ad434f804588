import { describe, expect, it } from "vitest";
import {
  describeQueryVariants,
  foldText,
  getQueryVariants,
  MAX_QUERY_VARIANTS,
  normalizeSearchQuery,
  normalizeUsernameQuery,
  stripQueryDecorations,
  swapKeyboardLayout,
  toCyrillic,
  toLatin,
} from "../../core/search/normalize.ts";
import { getWordwiseLatinVariant, getWordwiseLayoutVariant } from "../../core/search/query-repair.ts";

describe("foldText", () => {
  it.each([
    ["Binance", "binance"],
    ["«Бинанс»", "бинанс"],
    ["Ёлка-Палка", "елка-палка"],
    ["Мой  Йогурт!!", "мой йогурт"],
    ["ЙОД и ИОД", "йод и иод"],
    ["Café Crème", "cafe creme"],
    ["Łódź Straße", "lodz strasse"],
    ["binance.com", "binance.com"],
    ["Coca-Cola, Inc.", "coca-cola inc"],
    ["__proto__", "proto"],
    ["spam_bot", "spam_bot"],
    ["a - b", "a b"],
    ["zero\u200bwidth\u200djoined", "zerowidthjoined"],
    ["\u202eRTL\u202c", "rtl"],
    ["😀 emoji 😀", "emoji"],
    ["ｆｕｌｌｗｉｄｔｈ", "fullwidth"],
    ["tab\tand\nnewline", "tab and newline"],
    ["", ""],
    ["!!!", ""],
  ])("folds %j to %j", (input, folded) => {
    expect(foldText(input)).toBe(folded);
  });

  it("is idempotent", () => {
    for (const text of ["Ёлка-Палка", "Coca-Cola, Inc.", "__proto__", "Café", "ﬁ ligature"]) {
      expect(foldText(foldText(text))).toBe(foldText(text));
    }
  });
});

describe("transliteration", () => {
  it.each([
    ["Бинанс", "binans"],
    ["Сбербанк", "sberbank"],
    ["Тинькофф", "tinkoff"],
    ["Ёлка", "elka"],
    ["Binance", "binance"],
  ])("toLatin(%j) is %j", (input, latin) => {
    expect(toLatin(input)).toBe(latin);
  });

  it.each([
    ["binance", "бинанс"],
    ["Yandex", "яндекс"],
    ["sberbank", "сбербанк"],
    ["shchuka", "щука"],
    ["crypto", "крипто"],
    ["Ivan Petrov", "иван петров"],
  ])("toCyrillic(%j) is %j", (input, cyrillic) => {
    expect(toCyrillic(input)).toBe(cyrillic);
  });
});

describe("swapKeyboardLayout", () => {
  it.each([
    ["ишт", "bin"],
    ["bin", "ишт"],
    ["иштфтсу", "binance"],
    ["c,th,fyr", "сбербанк"],
    ["ЫИУКИФТЛ", "sberbank"],
    ["[jhjij", "хорошо"],
    ["`krf", "ёлка"],
  ])("reads %j as %j", (typed, meant) => {
    expect(swapKeyboardLayout(typed)).toBe(meant);
  });

  it("round-trips letters both ways", () => {
    expect(swapKeyboardLayout(swapKeyboardLayout("spam bot"))).toBe("spam bot");
    expect(swapKeyboardLayout(swapKeyboardLayout("спам бот"))).toBe("спам бот");
  });
});

describe("getQueryVariants", () => {
  it("lists the folded query first, then other-script and wrong-layout readings", () => {
    expect(getQueryVariants("Бинанс")).toEqual(["бинанс", "binans", ",byfyc"].map(foldText));
    expect(describeQueryVariants("binanse")).toEqual([
      { text: "binanse", kind: "typed" },
      { text: "бинанс", kind: "cyrillic" },
      { text: "иштфтыу", kind: "layout" },
    ]);
    expect(getQueryVariants("ишт")).toContain("bin");
  });

  it("drops duplicates and empties, and stays bounded", () => {
    expect(getQueryVariants("12345")).toEqual(["12345"]);
    expect(getQueryVariants("")).toEqual([]);
    expect(getQueryVariants("!!!")).toEqual([]);
    for (const q of ["a", "Сбербанк онлайн", "x".repeat(10_000), "__proto__", "😀"]) {
      const variants = getQueryVariants(q);
      expect(variants.length).toBeLessThanOrEqual(MAX_QUERY_VARIANTS);
      expect(new Set(variants).size).toBe(variants.length);
    }
  });

  it("repairs words typed with different layouts when the other reading is likelier", () => {
    const known = new Set(["tiex", "сеть", "сергей", "смирнов", "stataqutek"]);
    const plausibility = (word: string) => (known.has(word) ? 1 : 0);
    expect(getWordwiseLayoutVariant("ешуч сеть", plausibility)).toBe("tiex сеть");
    expect(getWordwiseLayoutVariant("cthutq cvbhyjd stataqutek", plausibility)).toBe("сергей смирнов stataqutek");
    expect(getWordwiseLayoutVariant("tiex сеть", plausibility)).toBeUndefined();
    expect(getWordwiseLayoutVariant("ешуч", plausibility)).toBeUndefined();
  });

  it("spells each Cyrillic word the likeliest Latin way", () => {
    const corpus = ["spot", "payout", "wallet", "crypto", "bot"];
    // A stand-in for the n-gram table: the share of the word's trigrams found in the corpus.
    const plausibility = (word: string) => {
      const padded = ` ${word} `;
      let hits = 0;
      for (let i = 0; i + 2 < padded.length; i++) if (corpus.some((w) => ` ${w} `.includes(padded.slice(i, i + 3)))) hits++;
      return hits / Math.max(1, padded.length - 2);
    };
    expect(getWordwiseLatinVariant("спот паиоут бот валлет срипто", plausibility)).toBe("spot payout bot wallet crypto");
    expect(getWordwiseLatinVariant("binance", plausibility)).toBeUndefined();
  });
});

describe("live-search query normalisation", () => {
  it.each([
    ["https://www.Binance.com/en/x", "binance.com"],
    ["http://binance.com:8080/path?q=1#frag", "binance.com"],
    ["www.binance.com", "binance.com"],
    ["binance.com/ru", "binance.com"],
    ["t.me/Spam_Bot", "spam_bot"],
    ["https://t.me/s/channel_name", "channel_name"],
    ["@Spam_Bot", "spam_bot"],
    ["  Binance  ", "binance"],
    ["Сбер Банк", "сбер банк"],
    ["AT&T", "at t"],
    ["", ""],
  ])("%j becomes %j", (query, normalized) => {
    expect(normalizeSearchQuery(query)).toBe(normalized);
  });

  it("strips decorations without folding, for the global searcher to fold its own way", () => {
    expect(stripQueryDecorations("  https://www.Binance.com/en  ")).toBe("Binance.com");
    expect(stripQueryDecorations("@Traders_Chat")).toBe("Traders_Chat");
    expect(stripQueryDecorations("c,th,fyr")).toBe("c,th,fyr");
    expect(stripQueryDecorations("Spam Watch / news")).toBe("Spam Watch / news");
  });

  it("keeps underscores for username lookups", () => {
    expect(normalizeUsernameQuery("@__Proto__")).toBe("__proto__");
    expect(normalizeUsernameQuery("https://t.me/Spam_Bot")).toBe("spam_bot");
    expect(normalizeSearchQuery("@__Proto__")).toBe("proto");
  });

  it("never throws on hostile input", () => {
    for (const q of ["(.*)+$", "[", "\\", "\u0000\u0001\u001f", "%00", "\u202e", "x".repeat(10_000), "http://", "://", "@", "@@", "t.me/"]) {
      expect(typeof normalizeSearchQuery(q)).toBe("string");
      expect(typeof normalizeUsernameQuery(q)).toBe("string");
    }
  });
});
