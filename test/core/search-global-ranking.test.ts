/**
 * Global search's two orders: inside a group an exact or prefix match always comes before a
 * fuzzy one, even where the prefilter has many look-alikes to step over; and the groups go by
 * their best match, then in the fixed type order.
 */
import { describe, expect, it } from "vitest";
import { createGlobalSearchIndex } from "../../core/search/global-index.ts";
import type { GlobalSearchEntity } from "../../core/search/global-index.ts";
import { createGlobalSearcher } from "../../core/search/global-searcher.ts";
import { createLiveIndex } from "../../core/search/live-index.ts";

const entity = (type: string, title: string, rank: number): GlobalSearchEntity => ({
  type, title, url: `/${type}/${title.toLowerCase().replace(/\W+/g, "-")}`, subtitle: type, rank,
});
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("global search: exact and prefix matches before fuzzy ones, in every group", () => {
  // Sixty better-ranked look-alikes have a word starting "pa" and "pay" inside a word; twenty of
  // the lowest rank have a word starting with "pay": the first in the glossary, the second in videos.
  const searcher = createGlobalSearcher(
    createGlobalSearchIndex([
      ...range(60).map((i) => entity("glossary", `Panda sopay ${i}`, 1000 + i)),
      ...range(20).map((i) => entity("glossary", `Payline ${i}`, i)),
      ...range(60).map((i) => entity("video", `Panda sopay ${i}`, 1000 + i)),
      ...range(20).map((i) => entity("video", `Old payline ${i}`, i)),
    ]),
  );
  const group = (type: string, limit: number, found = searcher) => found.search("pay", { limitPerType: { [type]: limit } }).find((g) => g.type === type)!;

  it("lists a group's best-ranked texts starting with the query, however many others hold it", () => {
    expect(group("glossary", 5).items.map((i) => i.title)).toEqual([19, 18, 17, 16, 15].map((i) => `Payline ${i}`));
    expect(group("glossary", 5).items.every((i) => i.match === "prefix")).toBe(true);
  });

  it("lists a group's best-ranked words starting with the query the same way", () => {
    expect(group("video", 5).items.map((i) => i.title)).toEqual([19, 18, 17, 16, 15].map((i) => `Old payline ${i}`));
    expect(group("video", 5).items.every((i) => i.match === "word-prefix")).toBe(true);
  });

  it("fills the rest of the cap with fuzzy matches only after every prefix match", () => {
    const items = group("glossary", 25).items;
    expect(items.slice(0, 20).every((i) => i.match === "prefix")).toBe(true);
    expect(items.slice(20).every((i) => i.match === "fuzzy")).toBe(true);
  });

  it("finds a group's texts starting with the query among thousands of others that do", () => {
    // Over 4 096 texts start with "pay" (the most read whole): videos' text prefixes, the lowest
    // ranked, must still come before their better-ranked word prefixes.
    const crowded = createGlobalSearcher(
      createGlobalSearchIndex([
        ...range(4200).map((i) => entity("glossary", `Payline term ${i}`, i)),
        ...range(100).map((i) => entity("video", `Old payline ${i}`, 1000 + i)),
        ...range(10).map((i) => entity("video", `Payline video ${i}`, i)),
      ]),
    );
    const videos = group("video", 5, crowded).items;
    expect(videos.map((i) => i.title)).toEqual([9, 8, 7, 6, 5].map((i) => `Payline video ${i}`));
    expect(group("glossary", 3, crowded).items.map((i) => i.title)).toEqual([4199, 4198, 4197].map((i) => `Payline term ${i}`));
  });
});

describe("global search: the order of the groups", () => {
  const index = createGlobalSearchIndex([
    entity("company", "Spark Media", 900),
    entity("company", "Sparta Ads", 100),
    entity("glossary", "Spam bot", 0),
    entity("video", "Spam waves", 5),
    entity("chat", "Spamless chat", 3),
  ]);
  const live = createLiveIndex({ companies: [], people: [], spammers: [{ username: "spam", reportsCount: 4 }, { username: "spark_media", reportsCount: 9 }] });
  const searcher = createGlobalSearcher(index, { usernames: live });
  const order = (query: string) => searcher.search(query).map((g) => `${g.type}: ${g.items[0]!.match}`);

  it("puts a group whose best item matches better first: `spam` lists the glossary's Spam bot above companies that only resemble it", () => {
    expect(order("spam")).toEqual(["spammer: exact", "glossary: prefix", "video: prefix", "chat: prefix", "company: fuzzy"]);
  });

  it("keeps the fixed type order between groups whose best items match equally well", () => {
    // `spa` is a letter short of the glossary's and the videos' best words (spam), two or more
    // short of the others' (spark, spamless, spark_media): the word nearest in length first.
    expect(order("spa")).toEqual(["glossary: prefix", "video: prefix", "company: prefix", "chat: prefix", "spammer: prefix"]);
    expect(order("spark_media")).toEqual(["spammer: exact", "company: fuzzy"]);
  });

  it("ranks a match of the query as typed above a match of one of its readings", () => {
    // "ызфь" is "spam" typed on the Russian layout: the same matches, each through a variant.
    expect(order("ызфь")).toEqual(order("spam"));
    expect(searcher.search("ызфь")[0]!.items[0]!.title).toBe("spam");
  });

  it("keeps the fixed order when ranking by fuse.js score alone (the bench's comparison with plain fuse.js)", () => {
    expect(searcher.search("spam", { rankBy: "fuse-score" }).map((g) => g.type)).toEqual(["company", "glossary", "video", "chat", "spammer"]);
  });
});

describe("global search: the word a prefix completes, before rank", () => {
  // Forty better-ranked names merely start with "lumo"; Lumo Agency's first word is "lumo", Lumox
  // Pay's a letter longer. Inside a name too: "Old lumo" beside forty better-ranked "Old lumoraxen".
  const searcher = createGlobalSearcher(
    createGlobalSearchIndex([
      ...range(40).map((i) => entity("company", `Lumoraxen ${i}`, 1000 + i)),
      entity("company", "Lumovista Group", 900),
      entity("company", "Lumox Pay", 2),
      entity("company", "Lumo Agency", 1),
      ...range(40).map((i) => entity("video", `Old lumoraxen ${i}`, 1000 + i)),
      entity("video", "Old lumo", 0),
    ]),
  );
  const titles = (query: string, type: string, rankBy?: "fuse-score") => searcher.search(query, { rankBy }).find((g) => g.type === type)!.items.map((i) => i.title);

  it("lists a name whose word is the query, then one a letter longer, then longer ones by rank", () => {
    expect(titles("lumo", "company")).toEqual(["Lumo Agency", "Lumox Pay", "Lumoraxen 39", "Lumoraxen 38", "Lumoraxen 37"]);
  });

  it("does the same for a word inside a name, however many better-ranked words start with the query", () => {
    expect(titles("lumo", "video")[0]).toBe("Old lumo");
    expect(titles("lumoraxen 3", "company").slice(0, 2)).toEqual(["Lumoraxen 3", "Lumoraxen 39"]);
  });
});

describe("global search: a transposition or a moved space is one typo", () => {
  // Each query is one reader's edit from the last, lowest-ranked name and two from the others,
  // which fuse.js scores the same (it counts a swap as two errors) and so ranks first.
  const cases: [string, string[]][] = [
    ["finvxe tv", ["Finvace TV", "Finde TV", "Fince TV", "Finvex TV"]],
    ["lum oagency", ["Lum Oagenda", "Lumo Agency"]],
    ["luma ogency", ["Luma Ogenda", "Lumo Agency"]],
  ];
  for (const [query, names] of cases) {
    it(`lists ${names.at(-1)} first for "${query}"`, () => {
      const searcher = createGlobalSearcher(createGlobalSearchIndex(names.map((name, i) => entity("company", name, 100 - i))));
      const titles = (rankBy?: "fuse-score") => searcher.search(query, { rankBy })[0]!.items.map((i) => i.title);
      expect(titles()[0]).toBe(names.at(-1));
      expect(titles("fuse-score").at(-1)).toBe(names.at(-1));
    });
  }

  it("finds a swap in a short word that fuse.js's threshold turns away (two errors in four letters)", () => {
    const searcher = createGlobalSearcher(createGlobalSearchIndex([entity("company", "Exka", 0), entity("company", "Tekvi", 5)]));
    expect(searcher.search("ekxa")[0]!.items.map((i) => i.title)).toEqual(["Exka"]);
    expect(searcher.search("ekxa", { rankBy: "fuse-score" })).toEqual([]);
  });
});
