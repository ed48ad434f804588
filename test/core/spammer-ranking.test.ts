import { describe, expect, it } from "vitest";
import { CATEGORIES, type Category } from "../../core/categories.ts";
import { openSpammerRanking, serializeSpammerRanking, type RankingSource } from "../../core/spammer-ranking.ts";

const code = (category: Category) => CATEGORIES.indexOf(category);
const RANKED = [
  { username: "spam_king", categories: [code("gambling"), code("crypto")] },
  { username: "a", categories: [code("crypto")] },
  { username: "x_" + "y".repeat(62), categories: [] },
  { username: "bonus_bot", categories: [code("gambling")] },
  { username: "z9", categories: [code("crypto"), code("gambling")] },
];

/** The file as the server reads it: by spans, each a copy, every read recorded. */
function readBySpans(bytes: Uint8Array) {
  const reads: [number, number][] = [];
  const source: RankingSource = {
    size: bytes.byteLength,
    read: (offset, length) => {
      reads.push([offset, length]);
      return bytes.slice(offset, offset + length);
    },
  };
  return { source, reads };
}

describe("the spammer ranking file", () => {
  const bytes = serializeSpammerRanking(RANKED);

  it("gives back every list in order, any span of it, cut to its end", () => {
    const ranking = openSpammerRanking(readBySpans(bytes).source);
    const all = RANKED.map((r) => r.username);
    expect(ranking.count()).toBe(5);
    expect(ranking.usernames(undefined, 0, 5)).toEqual(all);
    expect(ranking.usernames(undefined, 1, 3)).toEqual(all.slice(1, 3));
    expect(ranking.usernames(undefined, 4, 50)).toEqual(["z9"]);
    expect(ranking.usernames(undefined, 5, 9)).toEqual([]);
    expect(ranking.count("crypto")).toBe(3);
    expect(ranking.usernames("crypto", 0, 10)).toEqual(["spam_king", "a", "z9"]);
    expect(ranking.usernames("gambling", 1, 2)).toEqual(["bonus_bot"]);
    expect(ranking.count("adult")).toBe(0);
    expect(ranking.usernames("adult", 0, 10)).toEqual([]);
  });

  it("reads a page's spans only, never the whole file", () => {
    const { source, reads } = readBySpans(bytes);
    const ranking = openSpammerRanking(source);
    reads.length = 0;
    ranking.usernames(undefined, 1, 3);
    expect(reads.length).toBe(2);
    expect(Math.max(...reads.map(([, length]) => length))).toBeLessThan(bytes.byteLength / 4);
  });

  it("is the same bytes for the same ranking, and empty when nobody is ranked", () => {
    expect(Buffer.from(serializeSpammerRanking(RANKED)).equals(Buffer.from(bytes))).toBe(true);
    const empty = openSpammerRanking(readBySpans(serializeSpammerRanking([])).source);
    expect([empty.count(), empty.usernames(undefined, 0, 50)]).toEqual([0, []]);
  });

  it("refuses a truncated file and another format", () => {
    expect(() => openSpammerRanking(readBySpans(bytes.subarray(0, 40)).source)).toThrow(/truncated/);
    const other = serializeSpammerRanking(RANKED);
    const headerLength = new DataView(other.buffer).getUint32(0, true);
    const header = new TextDecoder().decode(other.subarray(4, 4 + headerLength)).replace("spammer-ranking/1", "spammer-ranking/9");
    other.set(new TextEncoder().encode(header), 4);
    expect(() => openSpammerRanking(readBySpans(other).source)).toThrow(/format/);
  });
});
