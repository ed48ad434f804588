import { describe, expect, it } from "vitest";
import { SIGNAL_KEYS, createFingerprintIndex, createMatcher } from "../../core/fingerprint/index.ts";
import { verifyAgreement } from "../../bench/fingerprint-linear-scan.ts";
import { createQueries, createSyntheticProfiles } from "../../bench/fingerprint-matcher.ts";
import { createTestMatcher as matcherFor, createTestProfile as profile } from "../helpers/fingerprint.ts";

describe("createMatcher: unknown", () => {
  const matcher = matcherFor([profile({ ja4: "A" }), profile({ ja4: "H" }, { trust: "crowdsource", confirmations: 3 })]);

  it("answers unknown when no value matches a public profile", () => {
    expect(matcher.match({ ja4: "Z", webgl_renderer: "Y", user_agent: "x" })).toEqual({
      profile: null,
      confidence: 0,
      verdict: "unknown",
      basis: { fit: 0, evidence: 0, separation: 0 },
      decided_by: [],
      closest_other_kind: null,
      matched_signals: [],
      ignored_signals: ["user_agent"],
      signal_evidence: [],
      top_candidates: [],
    });
  });

  it("answers unknown when the only match is a profile that is not public", () => {
    expect(matcher.match({ ja4: "H" }).verdict).toBe("unknown");
  });

  it("answers unknown for no signals at all", () => {
    expect(matcher.match({}).verdict).toBe("unknown");
  });
});

describe("createMatcher: the 50-confirmation line", () => {
  const at49 = profile({ ja4: "shared", canvas_geom: "c49" }, { trust: "crowdsource", confirmations: 49, observations: 900 });
  const at50 = profile({ ja4: "shared", canvas_geom: "c50" }, { trust: "crowdsource", confirmations: 50, observations: 1 });
  const matcher = matcherFor([at49, at50]);

  it("never matches a crowd-sourced profile at 49 confirmations", () => {
    const own = matcher.match({ ja4: "shared", canvas_geom: "c49" });
    expect(own.profile?.id).toBe(at50.id);
    expect(own.top_candidates.map((c) => c.profile.id)).toEqual([at50.id]);
    expect(matcher.match({ canvas_geom: "c49" }).verdict).toBe("unknown");
  });

  it("matches one at 50", () => {
    const result = matcher.match({ ja4: "shared", canvas_geom: "c50" });
    expect(result.profile).toEqual({
      id: at50.id, label: at50.label, kind: "browser", name: at50.name, os_family: "windows", trust_level: "crowdsource", observations: 1,
    });
    expect(result.basis.fit).toBe(1);
  });

  it("keeps non-public profiles and confirmation counts out of the index", () => {
    const index = createFingerprintIndex([at49, at50]);
    const text = JSON.stringify(index);
    expect(index.profiles.map((p) => p.id)).toEqual([at50.id]);
    expect(text).not.toContain("c49");
    expect(text).not.toContain("confirmations");
  });
});

describe("createMatcher: ties and top candidates", () => {
  it("breaks ties by trust, then observations, then lower id", () => {
    const same = { ja4: "T" };
    const matcher = matcherFor([
      profile(same, { id: 7, trust: "crowdsource", confirmations: 80, observations: 9999 }),
      profile(same, { id: 6, trust: "community", observations: 5 }),
      profile(same, { id: 5, trust: "community", observations: 50 }),
      profile(same, { id: 4, trust: "canonical", observations: 1 }),
      profile(same, { id: 3, trust: "community", observations: 50 }),
    ]);
    const result = matcher.match({ ja4: "T" });
    expect(result.top_candidates.map((c) => c.profile.id)).toEqual([4, 3, 5, 6, 7]);
    expect(result.profile?.id).toBe(4);
  });

  it("lists at most five candidates, best first", () => {
    const profiles = [profile({ ja4: "C", ja3: "x" }, { observations: 1 })];
    for (let i = 0; i < 8; i++) profiles.push(profile({ ja4: "C", ja3: `y${i}` }, { observations: 100 - i }));
    const result = matcherFor(profiles).match({ ja4: "C", ja3: "x" });
    expect(result.top_candidates).toHaveLength(5);
    // Evidence 36 / 60 caps the first; the others fit 30 / 36 but matched only ja4: 30 / 60.
    expect(result.top_candidates[0]).toEqual({ profile: { id: profiles[0]!.id, label: profiles[0]!.label, kind: "browser", name: profiles[0]!.name }, confidence: 0.6, fit: 1 });
    expect(result.top_candidates.slice(1).map((c) => c.profile.id)).toEqual(profiles.slice(1, 5).map((p) => p.id));
    expect(result.top_candidates.slice(1).every((c) => c.fit === 0.83 && c.confidence === 0.5)).toBe(true);
  });

  it("matches any of several values a profile holds for one key", () => {
    const matcher = matcherFor([profile({ ja4: ["old", "new"], akamai_h2: "h2" })]);
    expect(matcher.match({ ja4: "new", akamai_h2: "h2" }).basis.fit).toBe(1);
    expect(matcher.match({ ja4: "old", akamai_h2: "h2" }).basis.fit).toBe(1);
  });
});

describe("createMatcher: keys and values are plain data", () => {
  const matcher = matcherFor([profile({ ja4: "__proto__", webgl_renderer: "constructor", fonts_hash: "toString" })]);

  it("lists unknown keys, even prototype names, as ignored, sorted by code point", () => {
    const signals = JSON.parse('{"toString":"1","__proto__":"2","constructor":"3","Zeta":"4","ja4":"none"}');
    const result = matcher.match(signals);
    expect(result.ignored_signals).toEqual(["Zeta", "__proto__", "constructor", "toString"]);
    expect(result.verdict).toBe("unknown");
    expect(({} as Record<string, unknown>)["2"]).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it("matches prototype names as values", () => {
    const result = matcher.match(JSON.parse('{"ja4":"__proto__","webgl_renderer":"constructor","fonts_hash":"toString"}'));
    expect(result.basis.fit).toBe(1);
    expect(result.matched_signals).toEqual(["ja4", "webgl_renderer", "fonts_hash"]);
  });

  it("lists matched and unmatched keys in SIGNAL_KEYS order", () => {
    const result = matcher.match({ fonts_hash: "toString", audio: "1", ja4: "__proto__", ja3: "x" });
    expect(result.matched_signals).toEqual(["ja4", "fonts_hash"]);
    expect(result.unmatched_signals).toEqual(["ja3", "audio"]);
  });

  it("treats a value that is not a string as sent but matching nothing", () => {
    const result = matcher.match({ ja4: 42, webgl_renderer: "constructor" } as unknown as Record<string, string>);
    expect(result.matched_signals).toEqual(["webgl_renderer"]);
    expect(result.unmatched_signals).toEqual(["ja4"]);
  });
});

describe("createMatcher: work follows the signals, not the library size", () => {
  const needle = [
    profile({ ja4: "n-ja4", webgl_renderer: "n-gl", canvas_geom: "n-cg" }, { id: 900_001 }),
    profile({ ja4: "n-ja4", webgl_renderer: "other", canvas_geom: "n-cg" }, { id: 900_002 }),
  ];
  const query = { ja4: "n-ja4", webgl_renderer: "n-gl", canvas_geom: "n-cg", user_agent: "x" };

  it("does the same lookups and scoring in a library of 10 and of 12 000", () => {
    const small = matcherFor([...needle, ...createSyntheticProfiles(8, 1)]);
    const large = matcherFor([...needle, ...createSyntheticProfiles(12_000, 1)]);
    expect(large.profileCount).toBeGreaterThan(100 * small.profileCount);
    const [a, b] = [small.match(query), large.match(query)];
    expect(b).toEqual(a);
    expect(large.getLastMatchStats()).toEqual(small.getLastMatchStats());
    expect(large.getLastMatchStats()).toEqual({ valueLookups: 3, pairLookups: 0, profilesScored: 2 });
  });

  it("reads a handful of profiles for a value that thousands share", () => {
    const common = Array.from({ length: 5000 }, (_, i) => profile({ ja4: "everyone", akamai_h2: `h2-${i % 3}` }, { observations: i }));
    const matcher = matcherFor(common);
    const result = matcher.match({ ja4: "everyone" });
    expect(result.top_candidates.map((c) => c.profile.id)).toEqual(common.slice(-5).reverse().map((p) => p.id));
    expect(matcher.getLastMatchStats().profilesScored).toBeLessThanOrEqual(10);
  });
});

describe("createMatcher agrees with the benchmark's linear scan", () => {
  it.each([
    [40, 11],
    [600, 12],
    [2500, 13],
  ])("on %i synthetic profiles (seed %i)", (size, seed) => {
    const profiles = createSyntheticProfiles(size, seed);
    expect(() => verifyAgreement(profiles, createQueries(profiles, 400, seed))).not.toThrow();
  });

  it("after a JSON round trip of the index", () => {
    const profiles = createSyntheticProfiles(300, 5);
    const index = createFingerprintIndex(profiles);
    const direct = createMatcher(index);
    const loaded = createMatcher(JSON.parse(JSON.stringify(index)));
    for (const query of createQueries(profiles, 200, 5)) expect(loaded.match(query)).toEqual(direct.match(query));
  });
});

describe("createMatcher: a malformed index fails at load", () => {
  const index = createFingerprintIndex([profile({ ja4: "A" }, { id: 1 })]);

  it.each([
    ["a wrong format", { ...index, format: "other" }],
    ["a profile without observations", { ...index, profiles: [{ ...index.profiles[0], observations: undefined }] }],
    ["an unknown key", { ...index, keys: [...SIGNAL_KEYS, "user_agent"] }],
    ["a weight that is not a positive integer", { ...index, weights: { ...index.weights, ja4: 0.5 } }],
    ["a posting naming an unknown profile", { ...index, postings: [["ja4", "A", [2]]] }],
    ["a value listed twice", { ...index, postings: [["ja4", "A", [1]], ["ja4", "A", [1]]] }],
  ])("rejects %s", (_, broken) => {
    expect(() => createMatcher(broken as typeof index)).toThrow(/fingerprint index/);
  });
});
