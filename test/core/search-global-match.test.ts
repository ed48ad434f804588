/**
 * The closeness rules of global search's order (core/search/global-match.ts), one case a row:
 * the word a prefix completes, and how many of a reader's edits a typo is from a name; and the
 * prefilter's readings of a misspelt name (core/search/global-candidates.ts).
 */
import { describe, expect, it } from "vitest";
import { createCandidateFinder } from "../../core/search/global-candidates.ts";
import { buildGlobalGrams } from "../../core/search/global-grams.ts";
import { createGlobalSearchIndex } from "../../core/search/global-index.ts";
import { COMPLETIONS, EXACT, FURTHER, NO_PREFIX, ONE_EDIT_START, ONE_EDIT_WORD, TEXT_PREFIX, WORD_PREFIX, getPrefixMatch, getTypoCloseness } from "../../core/search/global-match.ts";

describe("the word a prefix completes", () => {
  const cases: [string, string[], number, number][] = [
    ["lumo", ["lumo"], EXACT, 0],
    ["lumo", ["lumo agency"], TEXT_PREFIX, 0],
    ["lumo", ["lumo.com"], TEXT_PREFIX, 0],
    ["lumo", ["lumox pay"], TEXT_PREFIX, 1],
    ["lumo", ["lumoraxen"], TEXT_PREFIX, 2],
    ["lumo", ["old lumoraxen", "old lumo"], WORD_PREFIX, 0],
    ["lumo", ["lumoraxen", "old lumo"], TEXT_PREFIX, 2],
    ["lumo", ["palumo"], NO_PREFIX, 0],
  ];
  for (const [query, texts, kind, completion] of cases) {
    it(`${query} in ${texts.join(" / ")}: kind ${kind}, ${completion} letters or more to go`, () => {
      expect(getPrefixMatch(texts, 0, texts.length, query)).toBe(kind * COMPLETIONS + completion);
    });
  }
});

describe("how close a typo is", () => {
  const cases: [string, string, number][] = [
    ["lumo agncy", "lumo agency", ONE_EDIT_WORD], // left out
    ["lumo agenxy", "lumo agency", ONE_EDIT_WORD], // replaced
    ["lumo agenncy", "lumo agency", ONE_EDIT_WORD], // added
    ["finvxe", "finvex", ONE_EDIT_WORD], // neighbours swapped
    ["lumoagency", "lumo agency", ONE_EDIT_WORD], // space left out
    ["lumo age ncy", "lumo agency", ONE_EDIT_WORD], // space added
    ["lum oagency", "lumo agency", ONE_EDIT_WORD], // space moved
    ["luma ogency", "lumo agency", ONE_EDIT_WORD], // letters swapped across the space
    ["stnao", "stanocoin", ONE_EDIT_START],
    ["agnecy", "lumo agency", ONE_EDIT_WORD], // a word inside
    ["gency", "lumo agency", ONE_EDIT_WORD], // a word's first letter left out
    ["lmuo agnecy", "lumo agency", FURTHER],
    ["umo agency", "palumo agency", FURTHER], // inside a word
  ];
  for (const [query, text, closeness] of cases) {
    it(`${query} for ${text}: ${["one edit from whole words", "one edit from a word's start", "further"][closeness]}`, () => {
      expect(getTypoCloseness([text], 0, 1, query)).toBe(closeness);
    });
  }

  it("takes the closest of a document's texts", () => {
    expect(getTypoCloseness(["lumoraxen", "lumo agency"], 0, 2, "lumoagency")).toBe(ONE_EDIT_WORD);
  });
});

describe("the readings of a misspelt name's start", () => {
  const index = createGlobalSearchIndex(
    ["Warning investment investment wallet", "Review investment crypto airdrop", "Lumo Agency", "Lumox Pay"].map((title, i) => ({ type: "video", title, url: `/v/${i}`, subtitle: "" })),
  );
  const docType = new Uint8Array(index.titles.length);
  const norms = new Float64Array(index.texts.length).fill(1);
  const finder = createCandidateFinder(index, docType, norms, buildGlobalGrams(index));

  it("are the names' starts one edit from the query where it stops starting any", () => {
    expect(finder.getOneEditPrefixes("warning inbestment inv")).toEqual(["warning investment inv"]);
    expect(finder.getOneEditPrefixes("lum oagency")).toEqual(["lumo agency"]);
    expect(finder.getOneEditPrefixes("luma ogency")).toEqual(["lumo agency"]);
  });

  it("take a second edit further on when no reading one edit away starts a name", () => {
    expect(finder.getOneEditPrefixes("review invwstment crpto")).toEqual(["review investment crypto"]);
  });

  it("are none for a query that starts a name", () => {
    expect(finder.getOneEditPrefixes("lumo ag")).toEqual([]);
  });
});
