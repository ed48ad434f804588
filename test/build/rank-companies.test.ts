/**
 * A username's companies, ranked from its reports' company ids (build/model/report-pass.ts): the
 * digit-by-digit path every build takes for plain ids gives what reading each part with Number
 * gives, for any text.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Catalog } from "../../build/model/catalog.ts";
import { rankCompanies, rankCompanyText } from "../../build/model/report-pass.ts";
import type { Company } from "../../build/model/types.ts";

// Ids 0–39, some of them sharing names, so that ties fall to the name and then the id; 40–49 are not in the catalog.
const companies = Array.from({ length: 40 }, (_, id) => ({ id, name: ["Alpha", "beta", "Gamma", "alpha"][id % 4]! + (id % 7 === 0 ? "" : ` ${id % 5}`) }) as Company);
const catalog = { companies, companyById: new Map(companies.map((c) => [c.id, c])) } as unknown as Catalog;
const companyIndex = new Map(companies.map((c, i) => [c.id, i]));
const rank = (text: string | null) => rankCompanies(text, companyIndex, catalog);

describe("rankCompanies", () => {
  it("ranks most-named first, ties by name then id, and skips ids the catalog lacks", () => {
    expect(rank(null)).toEqual([]);
    expect(rank("")).toEqual([]);
    expect(rank("3")).toEqual([3]);
    expect(rank("45,45")).toEqual([]);
    // 1 twice, then 0 and 4 once each: "Alpha" (0) before "Alpha 4" (4).
    expect(rank("4,1,0,1,45")).toEqual([1, 0, 4]);
  });

  it("equals Number's reading of every part, whatever the text", () => {
    const part = fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 0, max: 49 }).map(String) },
      fc.constantFrom("", "007", " 5", "5 ", "-3", "1e1", "0x1f", "abc", "3.0", "12345678901234567", "9007199254740993"),
    );
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 40 }), (parts) => {
        const text = parts.join(",");
        // No text (no report names a company) is no company, as before any id is read.
        expect(rank(text)).toEqual(text === "" ? [] : rankCompanyText(text, companyIndex, catalog));
      }),
      { numRuns: 2000 },
    );
  });

  it("ranks a username naming more than sixteen companies as the general path does", () => {
    const text = Array.from({ length: 60 }, (_, i) => String((i * 7) % 40)).join(",");
    expect(rank(text)).toHaveLength(40);
    expect(rank(text)).toEqual(rankCompanyText(text, companyIndex, catalog));
  });
});
