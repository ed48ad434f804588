/**
 * The one rule by which a path value names a resource (core/lookup.ts): a username, a slug, a
 * company by slug or exact name. Table-driven, bad inputs included.
 */
import { describe, expect, it } from "vitest";
import { CANONICAL_SLUG, findCompanyPosition, indexCompanies, isPathSlug, normalizeKey } from "../../core/lookup.ts";

describe("normalizeKey", () => {
  it.each([
    ["username", "@Traders_Chat", "traders_chat"],
    ["username", "  spam_king ", "spam_king"],
    ["username", "@@twice", null],
    ["username", "bad name", null],
    ["username", "", null],
    ["username", "x".repeat(65), null],
    ["slug", "Ivan-Petrov", "ivan-petrov"],
    ["slug", " hostile-post ", "hostile-post"],
    ["slug", "V1.2_Beta", "v1.2_beta"],
    ["slug", "a+b", null],
    ["slug", ".hidden", null],
    ["slug", "a/b", null],
    ["slug", "", null],
    ["slug", "Ünïcode", null],
  ] as const)("reads the %s %j as %j", (kind, value, expected) => {
    expect(normalizeKey(kind, value)).toBe(expected);
  });

  it("gives slugs the canonical form a static host can match, and only path slugs", () => {
    const canonical = new RegExp(`^(?:${CANONICAL_SLUG})$`);
    for (const slug of ["alpha-leads", "a", "x.y-z", "a_b", "0"]) expect([canonical.test(slug), isPathSlug(slug)]).toEqual([true, true]);
    for (const slug of ["Alpha", "-a", "a b", "_a", "x".repeat(129)]) expect(canonical.test(slug)).toBe(false);
  });
});

describe("company lookups", () => {
  // In ranking order: a name shared by two finds the better-ranked one.
  const ranked = [
    { slug: "zed-network", name: "Zed Network" },
    { slug: "beta-partnery", name: "Бета Партнёры" },
    { slug: "zed-network-2", name: "zed network" },
    { slug: "spinbit", name: "Other" },
    { slug: "other-co", name: "SpinBit" },
  ];
  const index = indexCompanies(ranked);

  it.each([
    ["zed-network", 0],
    ["ZED-NETWORK-2", 2],
    ["Zed Network", 0],
    ["  zed network ", 0],
    ["БЕТА ПАРТНЁРЫ", 1],
    // A slug wins over another company's name.
    ["SpinBit", 3],
    ["other", 3],
    ["nobody", null],
    ["", null],
  ] as const)("finds %j at %j", (value, position) => {
    expect(findCompanyPosition(index, value)).toBe(position);
  });
});
