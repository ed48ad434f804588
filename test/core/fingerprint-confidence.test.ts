/**
 * Fit, confidence and verdict (core/fingerprint/confidence.ts): each reading at the verdict
 * thresholds, the best candidate of another kind, and the verdicts the shipped library's real
 * values get.
 */
import { describe, expect, it } from "vitest";
import { createFingerprintIndex, createMatcher, getFitHundredths, getVerdict } from "../../core/fingerprint/index.ts";
import { createQueries } from "../../bench/fingerprint-matcher.ts";
import { readFingerprintLibrary, toProfilesWithSignals } from "../../data/fingerprints/library.ts";
import { createTestMatcher as matcherFor, createTestProfile as profile } from "../helpers/fingerprint.ts";

describe("getVerdict", () => {
  it.each([
    [0, "unknown"],
    [0.01, "low"],
    [0.44, "low"],
    [0.45, "medium"],
    [0.74, "medium"],
    [0.75, "high"],
    [1, "high"],
  ] as const)("reads %s as %s", (confidence, verdict) => {
    expect(getVerdict(confidence)).toBe(verdict);
  });
});

describe("getFitHundredths", () => {
  it("rounds an exact half up, computed on integers", () => {
    expect(getFitHundredths(149, 51, 0)).toBe(75); // 0.745
    expect(getFitHundredths(74, 26, 0)).toBe(74);
    expect(getFitHundredths(45, 55, 0)).toBe(45);
    expect(getFitHundredths(44, 56, 0)).toBe(44);
  });

  it("charges an absent key half of a contradicted one", () => {
    expect(getFitHundredths(30, 60, 0)).toBe(33);
    expect(getFitHundredths(30, 0, 60)).toBe(50);
  });

  it("is 0 only when nothing matched", () => {
    expect(getFitHundredths(0, 50, 0)).toBe(0);
    expect(getFitHundredths(1, 1_000_000, 0)).toBe(1);
  });
});

describe("createMatcher: verdict boundaries of each reading, end to end", () => {
  // The confidence is the smallest of fit, evidence and separation (core/fingerprint/confidence.ts);
  // each case below holds the other two at 1 or above the one it tests.
  it.each([
    // ja4 and akamai_h2 match, ja3 and webgl_renderer contradict: fit = (ja4 + h2) / all four.
    [{ ja4: 75, akamai_h2: 74, ja3: 26, webgl_renderer: 25 }, 0.75, "high"],
    [{ ja4: 37, akamai_h2: 37, ja3: 13, webgl_renderer: 13 }, 0.74, "medium"],
    [{ ja4: 23, akamai_h2: 22, ja3: 28, webgl_renderer: 27 }, 0.45, "medium"],
    [{ ja4: 22, akamai_h2: 22, ja3: 28, webgl_renderer: 28 }, 0.44, "low"],
  ] as const)("fit: %o gives %s (%s)", (weights, confidence, verdict) => {
    const matcher = matcherFor([profile({ ja4: "A", akamai_h2: "H", ja3: "B", webgl_renderer: "G" })], weights);
    const result = matcher.match({ ja4: "A", akamai_h2: "H", ja3: "other", webgl_renderer: "other" });
    expect(result).toMatchObject({ confidence, verdict, basis: { fit: confidence }, decided_by: ["ja4", "akamai_h2"], closest_other_kind: null });
    expect(result.basis.evidence).toBeGreaterThan(confidence);
    expect(result.matched_signals).toEqual(["ja4", "akamai_h2"]);
    expect(result.unmatched_signals).toEqual(["ja3", "webgl_renderer"]);
  });

  it.each([
    // Both keys match, JA4 has the largest weight: evidence = (ja4 + h2) / (2 · ja4).
    [{ ja4: 200, akamai_h2: 98 }, 0.75, "high"],
    [{ ja4: 200, akamai_h2: 96 }, 0.74, "medium"],
  ] as const)("evidence: %o gives %s (%s)", (weights, confidence, verdict) => {
    const matcher = matcherFor([profile({ ja4: "A", akamai_h2: "H" })], weights);
    expect(matcher.match({ ja4: "A", akamai_h2: "H" })).toMatchObject({ confidence, verdict, basis: { fit: 1, evidence: confidence, separation: 1 } });
  });

  it.each([
    // Only ja4 is sent and ja3, unsent, weighs most: evidence = ja4 / (2 · ja3).
    [{ ja4: 90, ja3: 100 }, 0.45, "medium"],
    [{ ja4: 88, ja3: 100 }, 0.44, "low"],
  ] as const)("evidence: %o gives %s (%s)", (weights, confidence, verdict) => {
    const matcher = matcherFor([profile({ ja4: "A" })], weights);
    expect(matcher.match({ ja4: "A" })).toMatchObject({ confidence, verdict, basis: { fit: 1, evidence: confidence } });
  });

  it.each([
    // A bot agrees on ja4 and akamai_h2 and contradicts canvas_geom: separation = cg / (4/3 · ja4).
    [100, "other", 0.75, "high"],
    [99, "other", 0.74, "medium"],
    [60, "other", 0.45, "medium"],
    [59, "other", 0.44, "low"],
    // A rival that lacks canvas_geom is half as far apart: 100 / 2 / (4/3 · 100) = 0.375.
    [100, null, 0.38, "low"],
  ] as const)("separation: canvas_geom weight %i, rival's canvas %s gives %s (%s)", (canvas, rivalCanvas, confidence, verdict) => {
    const rival = profile({ ja4: "A", akamai_h2: "H", ...(rivalCanvas ? { canvas_geom: rivalCanvas } : {}) }, { kind: "bot", observations: 9 });
    const answer = profile({ ja4: "A", akamai_h2: "H", canvas_geom: "C" }, { observations: 1 });
    const matcher = matcherFor([rival, answer], { ja4: 100, akamai_h2: 100, canvas_geom: canvas });
    const result = matcher.match({ ja4: "A", akamai_h2: "H", canvas_geom: "C" });
    expect(result).toMatchObject({ profile: { id: answer.id }, confidence, verdict, basis: { fit: 1, evidence: 1, separation: confidence }, decided_by: ["canvas_geom"] });
    expect(result.closest_other_kind).toEqual({ profile: { id: rival.id, label: rival.label, kind: "bot", name: rival.name }, fit: expect.any(Number) });
  });

  it("charges a key the profile lacks half of its weight", () => {
    const matcher = matcherFor([profile({ ja4: "A" })], { ja4: 30, ja3: 60 });
    expect(matcher.match({ ja4: "A", ja3: "anything" }).basis.fit).toBe(0.5);
  });
});

describe("createMatcher: the best candidate of another kind", () => {
  it("is never told apart with more than 0.01 when it fits as well, and decided by nothing", () => {
    const browser = profile({ ja4: "T", akamai_h2: "H" }, { observations: 50 });
    const antidetect = profile({ ja4: "T", akamai_h2: "H" }, { kind: "antidetect", observations: 5 });
    const result = matcherFor([browser, antidetect]).match({ ja4: "T", akamai_h2: "H" });
    expect(result).toMatchObject({ profile: { id: browser.id }, confidence: 0.01, verdict: "low", basis: { fit: 1, evidence: 0.83, separation: 0 }, decided_by: [] });
    expect(result.closest_other_kind).toMatchObject({ profile: { id: antidetect.id, kind: "antidetect" }, fit: 1 });
    expect(result.top_candidates.map((c) => [c.profile.id, c.fit, c.confidence])).toEqual([[browser.id, 1, 0.01], [antidetect.id, 1, 0.01]]);
  });

  it("does not count a profile of the same kind as a rival", () => {
    const chrome = profile({ ja4: "T", akamai_h2: "H", webgl_renderer: "intel" }, { observations: 50 });
    const chromeOtherGpu = profile({ ja4: "T", akamai_h2: "H", webgl_renderer: "nvidia" }, { observations: 5 });
    const result = matcherFor([chrome, chromeOtherGpu]).match({ ja4: "T", akamai_h2: "H" });
    expect(result).toMatchObject({ confidence: 0.83, verdict: "high", closest_other_kind: null, decided_by: ["ja4", "akamai_h2"] });
    expect(result.top_candidates.map((c) => c.confidence)).toEqual([0.83, 0.83]);
  });

  it("gives a candidate of another kind the confidence it would have as the answer", () => {
    const bot = profile({ ja4: "T", akamai_h2: "H", webgl_renderer: "swiftshader" }, { kind: "bot" });
    const chrome = profile({ ja4: "T", akamai_h2: "H", webgl_renderer: "intel" });
    const result = matcherFor([bot, chrome]).match({ ja4: "T", akamai_h2: "H", webgl_renderer: "swiftshader" });
    // 58 sent, chrome contradicts 8 of them: fit 50/58; as the answer it would trail the bot.
    expect(result.top_candidates).toEqual([
      { profile: expect.objectContaining({ id: bot.id }), fit: 1, confidence: 0.2 },
      { profile: expect.objectContaining({ id: chrome.id }), fit: 0.86, confidence: 0.01 },
    ]);
    expect(result).toMatchObject({ confidence: 0.2, verdict: "low", decided_by: ["webgl_renderer"], basis: { separation: 0.2 } });
  });

  it("is found far below the top five of a value thousands share, reading a handful", () => {
    const browsers = Array.from({ length: 3000 }, (_, i) => profile({ ja4: "everyone", akamai_h2: `h2-${i % 3}` }, { observations: 10 + i }));
    const antidetect = profile({ ja4: "everyone" }, { kind: "antidetect", observations: 0, trust: "community" });
    const matcher = matcherFor([...browsers, antidetect]);
    const result = matcher.match({ ja4: "everyone" });
    expect(result.closest_other_kind).toMatchObject({ profile: { id: antidetect.id }, fit: 1 });
    expect(result).toMatchObject({ confidence: 0.01, verdict: "low" });
    expect(matcher.getLastMatchStats().profilesScored).toBeLessThanOrEqual(10);
  });
});


describe("verdicts on the shipped library's real values", () => {
  const library = readFingerprintLibrary();
  const profiles = toProfilesWithSignals(library);
  const matcher = createMatcher(createFingerprintIndex(profiles));
  const signalsOf = (id: number) => library.profiles.find((p) => p.id === id)!.signals;
  const CHROMIUM_JA4 = "t13d1516h2_8daaf6152771_02713d6af862"; // FoxIO: Chromium 120-132, and three anti-detect browsers
  const CHROME_JA4 = "t13d1516h2_8daaf6152771_d8a2da3f94cd";
  const CHROME_H2 = "1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p";
  const CURL_JA4 = "t13d3112h2_e8f1e7e78f70_b26ce05bbdd6";

  it("reads one JA4 that a browser and anti-detect browsers share as a tie: low, decided by nothing", () => {
    const result = matcher.match({ ja4: CHROMIUM_JA4 });
    expect(result).toMatchObject({
      profile: { label: "Chromium 120-132 on Windows", kind: "browser" },
      confidence: 0.01,
      verdict: "low",
      basis: { fit: 1, evidence: 0.5, separation: 0 },
      decided_by: [],
      closest_other_kind: { profile: { label: "GoLogin Orbita", kind: "antidetect" }, fit: 1 },
      signal_evidence: [{ key: "ja4", weight: 30, outcome: "matched", profiles: 4, other_kinds: 3 }],
    });
    expect(result.top_candidates.map((c) => [c.profile.kind, c.fit, c.confidence])).toEqual([
      ["browser", 1, 0.01], ["antidetect", 1, 0.01], ["antidetect", 1, 0.01], ["antidetect", 1, 0.01],
    ]);
  });

  it("counts, per signal, the profiles of other kinds that share Chrome's JA4 and HTTP/2 values", () => {
    const result = matcher.match({ ja4: CHROME_JA4, akamai_h2: CHROME_H2 });
    expect(result).toMatchObject({ verdict: "low", basis: { fit: 1, evidence: 0.83, separation: 0 }, closest_other_kind: { fit: 1 } });
    expect(result.signal_evidence).toEqual([
      { key: "ja4", weight: 30, outcome: "matched", profiles: 15, other_kinds: 7 },
      { key: "akamai_h2", weight: 20, outcome: "matched", profiles: 21, other_kinds: 11 },
    ]);
  });

  it("holds a JA4 no other kind shares to medium on its own, and needs more evidence for high", () => {
    expect(matcher.match({ ja4: CURL_JA4 })).toMatchObject({
      profile: { name: "curl" }, confidence: 0.5, verdict: "medium", basis: { fit: 1, evidence: 0.5, separation: 0.75 }, decided_by: ["ja4"], closest_other_kind: null,
    });
    expect(matcher.match(signalsOf(401))).toMatchObject({ profile: { name: "curl" }, confidence: 0.93, verdict: "high", decided_by: ["ja4", "ja3", "akamai_h2"] });
  });

  it("tells Chrome from a Selenium Windows VM by WebGL and canvas only: medium", () => {
    const result = matcher.match(signalsOf(101));
    expect(result).toMatchObject({
      profile: { label: "Chrome on Windows (Intel graphics)" },
      confidence: 0.5,
      verdict: "medium",
      basis: { fit: 1, evidence: 1, separation: 0.5 },
      decided_by: ["webgl_renderer", "canvas_geom"],
      closest_other_kind: { profile: { label: "Selenium ChromeDriver on a Windows VM", kind: "bot" }, fit: 0.82 },
    });
  });

  it("tells an anti-detect browser from the browser it is built on when page signals differ: high", () => {
    expect(matcher.match(signalsOf(201))).toMatchObject({
      profile: { label: "Multilogin Mimic (Chromium)", kind: "antidetect" },
      confidence: 1,
      verdict: "high",
      decided_by: ["ja4_t", "webgl_renderer", "canvas_geom", "canvas_text", "fonts_hash"],
      closest_other_kind: { profile: { label: "Chromium 120-132 on Windows", kind: "browser" }, fit: 0.53 },
    });
  });

  it("never says high on a tie across kinds, and confidence is always the smallest reading", () => {
    for (const query of createQueries(profiles, 1500, 41)) {
      const result = matcher.match(query);
      const { fit, evidence, separation } = result.basis;
      expect(result.confidence).toBe(result.profile ? Math.max(0.01, Math.min(fit, evidence, separation)) : 0);
      if (result.closest_other_kind?.fit === fit) expect(result.verdict, JSON.stringify(query)).not.toBe("high");
      if (result.matched_signals.length === 1) expect(result.confidence).toBeLessThanOrEqual(0.5);
    }
  });
});
