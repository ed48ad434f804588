/**
 * Global search's username group (`spammer`): every reported username, found as live search
 * finds it, through the live index's own arrays.
 */
import { describe, expect, it } from "vitest";
import { createGlobalSearchIndex } from "../../core/search/global-index.ts";
import type { GlobalSearchEntity } from "../../core/search/global-index.ts";
import { createGlobalSearcher } from "../../core/search/global-searcher.ts";
import type { GlobalSearchGroup } from "../../core/search/global-searcher.ts";
import { createLiveIndex, searchLive } from "../../core/search/live-index.ts";
import { loadLiveIndex, serializeLiveIndex } from "../../core/search/live-index-format.ts";

const ENTITIES: GlobalSearchEntity[] = [
  { type: "company", title: "Binance", url: "/company/binance", subtitle: "Company", keys: ["binance.com"], rank: 900 },
  { type: "chat", title: "Spin chat", url: "/chat/spin_chat", subtitle: "Chat", keys: ["spin_chat"], rank: 10 },
];
const SPAMMERS = [
  { username: "spin_official60", reportsCount: 12 },
  { username: "spin_official62", reportsCount: 30 },
  { username: "spin_official6", reportsCount: 3 },
  { username: "binance_support", reportsCount: 50 },
  { username: "real_binance", reportsCount: 7 },
  { username: "__proto__", reportsCount: 2 },
  { username: "a__b", reportsCount: 1 },
];

// As the server has it: the live index loaded from its files, its arrays shared with global search.
const live = loadLiveIndex(serializeLiveIndex(createLiveIndex({ companies: [], people: [], spammers: SPAMMERS })));
const searcher = createGlobalSearcher(createGlobalSearchIndex(ENTITIES), { usernames: live });
const spammers = (groups: GlobalSearchGroup[]) => groups.find((g) => g.type === "spammer");
const titles = (query: string) => spammers(searcher.search(query))?.items.map((i) => i.title) ?? [];

describe("global search: reported usernames", () => {
  it.each([
    ["with @", "@spin_official60"],
    ["without @", "spin_official60"],
    ["in capitals", "SPIN_OFFICIAL60"],
    ["as a t.me link", "https://t.me/spin_official60"],
  ])("finds a username %s, as its check result with its reports", (_label, query) => {
    expect(spammers(searcher.search(query))!.items[0]).toEqual({
      type: "spammer",
      title: "spin_official60",
      url: "/api/check/spin_official60",
      subtitle: "12 reports",
      match: "exact",
      score: expect.any(Number),
    });
  });

  it("finds a username typed on the Russian layout", () => {
    expect(titles("ызшт_щаашсшфд60")).toEqual(["spin_official60"]);
  });

  it("keeps underscores that folding would drop", () => {
    expect(titles("@__proto__")).toEqual(["__proto__"]);
    expect(titles("a__b")).toEqual(["a__b"]);
  });

  it("ranks the username itself, then usernames starting with the query, then containing it, each by reports", () => {
    expect(titles("spin_official6")).toEqual(["spin_official6", "spin_official62", "spin_official60"]);
    expect(spammers(searcher.search("spin_official6"))!.items.map((i) => i.match)).toEqual(["exact", "prefix", "prefix"]);
    expect(titles("binance")).toEqual(["binance_support", "real_binance"]);
    expect(spammers(searcher.search("binance"))!.items.map((i) => i.match)).toEqual(["prefix", "substring"]);
  });

  it("lists what live search lists, in the same order", () => {
    for (const query of ["spin", "official", "@spin_official62", "binance", "support", "proto", "__"]) {
      expect(titles(query), query).toEqual(searchLive(live, query).spammers.map((s) => s.username));
    }
  });

  it("offers no username a letter away: that is another account", () => {
    expect(titles("spin_official61")).toEqual([]);
    expect(titles("spin_oficial60")).toEqual([]);
  });

  it("caps the group at its limit and counts the matches before the cap", () => {
    const group = spammers(searcher.search("spin", { limitPerType: { spammer: 1 } }))!;
    expect(group.items.map((i) => i.title)).toEqual(["spin_official62"]);
    expect(group.count).toBe(3);
    expect(spammers(searcher.search("spin", { limitPerType: { spammer: 0 } }))).toBeUndefined();
  });

  it("is a group only when the searcher has the usernames", () => {
    expect(spammers(createGlobalSearcher(createGlobalSearchIndex(ENTITIES)).search("spin_official60"))).toBeUndefined();
  });
});
