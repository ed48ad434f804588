/**
 * POST /api/fingerprint/match end to end: the fixture snapshot built into dist, matched by the
 * server, in-process and through a real listening server. Rate limits and the answer cache are
 * in fingerprint-limits.test.ts; what the build publishes in fingerprint-build.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBenchDist } from "../../bench/fingerprint-http.ts";
import { SIGNAL_KEYS, SIGNAL_WEIGHTS } from "../../core/fingerprint/index.ts";
import { readFingerprintLibrary } from "../../data/fingerprints/library.ts";
import { MAX_MATCH_BODY_BYTES } from "../../server/routes/fingerprint.ts";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";
import type { BuiltFixture } from "../helpers/fixture.ts";
import { BOUNDARY_PROFILE, BOUNDARY_SIGNALS, MATCH_PATH, buildFingerprintFixture, expectProblem, postMatch, streamBody } from "../helpers/fingerprint.ts";

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFingerprintFixture("fp-endpoint");
});
afterAll(() => fixture.cleanup());

describe.each(CLIENT_KINDS)("POST /api/fingerprint/match (%s)", (kind) => {
  let client: Client;
  // The limit has its own tests; here it would only get in the way of the many requests.
  beforeAll(async () => {
    client = await createClient(kind, fixture.dist, { fingerprintRateLimit: 0 });
  });
  afterAll(() => client.close());
  const match = (signals: unknown) => postMatch(client, { signals });

  describe("answers", () => {
    // The boundary profile (fixture: ja4 30, ja4_t 10, webgl_renderer 8, akamai_h2 20, canvas_geom 12)
    // shares no value with another profile, so no other kind competes: separation is 1 whenever
    // JA4 matches, and fit or evidence decide (core/fingerprint/confidence.ts).
    it.each([
      ["high at exactly 0.75 by fit", { ja4: "fx-ja4", akamai_h2: "fx-h2", ja4_t: "fx-ja4t", webgl_renderer: "other", canvas_geom: "other" }, 0.75, "high", { fit: 0.75, evidence: 1, separation: 1 }],
      ["medium at 0.74 by fit", { ja4: "fx-ja4", akamai_h2: "fx-h2", ja4_t: "other", webgl_renderer: "other" }, 0.74, "medium", { fit: 0.74, evidence: 0.83, separation: 1 }],
      ["medium at exactly 0.45 by fit", { ja4: "fx-ja4", akamai_h2: "other", canvas_geom: "other", audio: "x" }, 0.45, "medium", { fit: 0.45, evidence: 0.5, separation: 0.75 }],
      ["low at 0.44 by fit", { ja4: "fx-ja4", akamai_h2: "other", ja4_t: "other", webgl_renderer: "other" }, 0.44, "low", { fit: 0.44, evidence: 0.5, separation: 0.75 }],
      ["medium at 0.5 for one signal, however well it fits", { ja4: "fx-ja4" }, 0.5, "medium", { fit: 1, evidence: 0.5, separation: 0.75 }],
      ["high at 1", { akamai_h2: "fx-h2", ja4: "fx-ja4", ja4_t: "fx-ja4t", webgl_renderer: "fx-gl", canvas_geom: "fx-cg" }, 1, "high", { fit: 1, evidence: 1, separation: 1 }],
    ])("gives %s", async (_, signals, confidence, verdict, basis) => {
      const { status, headers, body } = await match(signals);
      expect(status).toBe(200);
      expect(headers.get("cache-control")).toBe("no-store");
      expect(headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(headers.get("access-control-allow-origin")).toBe("*");
      const sent = SIGNAL_KEYS.filter((key) => key in signals);
      const outcome = (key: string) => (signals[key as keyof typeof signals] === BOUNDARY_SIGNALS[key] ? "matched" : key in BOUNDARY_SIGNALS ? "contradicted" : "absent");
      const matched = sent.filter((key) => outcome(key) === "matched");
      expect(body).toEqual({
        match: {
          profile: BOUNDARY_PROFILE,
          confidence,
          verdict,
          basis,
          decided_by: matched,
          closest_other_kind: null,
          matched_signals: matched,
          unmatched_signals: sent.filter((key) => outcome(key) !== "matched"),
          ignored_signals: [],
          signal_evidence: sent.map((key) => ({
            key, weight: SIGNAL_WEIGHTS[key], outcome: outcome(key), profiles: outcome(key) === "matched" ? 1 : 0, other_kinds: 0,
          })),
          top_candidates: [{ profile: { id: 1, label: "Boundary browser", kind: "browser", name: "Boundary" }, confidence, fit: basis.fit }],
        },
        cached: false,
      });
    });

    it("answers unknown, with no unmatched list, when nothing matches, and lists unknown keys", async () => {
      const { status, body } = await match({ ja4: "nobody", user_agent: "curl/8", Zeta: "z" });
      expect(status).toBe(200);
      expect(body.match).toEqual({
        profile: null, confidence: 0, verdict: "unknown", basis: { fit: 0, evidence: 0, separation: 0 }, decided_by: [], closest_other_kind: null,
        matched_signals: [], ignored_signals: ["Zeta", "user_agent"], signal_evidence: [], top_candidates: [],
      });
    });

    it("never matches the crowd-sourced profile at 49 confirmations, and does at 50", async () => {
      expect((await match({ canvas_geom: "fx-c49" })).body.match.verdict).toBe("unknown");
      const own = (await match({ ja4: "fx-shared", canvas_geom: "fx-c49" })).body.match;
      expect(own.profile.id).toBe(3);
      expect(own.top_candidates.map((c: { profile: { id: number } }) => c.profile.id)).toEqual([3]);
      const at50 = (await match({ ja4: "fx-shared", canvas_geom: "fx-c50" })).body.match;
      expect(at50).toMatchObject({ profile: { id: 3, trust_level: "crowdsource", label: "Crowd at 50" }, basis: { fit: 1 } });
      expect(JSON.stringify(at50)).not.toContain("confirmations");
    });

    it("breaks ties by trust, then observations, then the lower id; five candidates at most", async () => {
      const { body } = await match({ akamai_h2: "fx-tie" });
      // 10 has the most observations, but crowd-sourced ranks below every community profile.
      expect(body.match.top_candidates.map((c: { profile: { id: number } }) => c.profile.id)).toEqual([13, 12, 14, 11, 15]);
      expect(body.match.profile).toMatchObject({ id: 13, trust_level: "canonical" });
    });

    it("accepts exactly 20 keys and 255-character values, and a charset on the content type", async () => {
      const signals: Record<string, string> = { ja4: "fx-ja4", ja3: "x".repeat(255) };
      for (let i = 0; i < 18; i++) signals[`extra_${String(i).padStart(2, "0")}`] = "v";
      const { status, body } = await postMatch(client, { signals }, { "content-type": "Application/JSON; charset=UTF-8" });
      expect(status).toBe(200);
      expect(body.match.ignored_signals).toHaveLength(18);
      expect(body.match.matched_signals).toEqual(["ja4"]);
    });

    it("treats __proto__ and constructor as plain unknown keys", async () => {
      const { status, body } = await postMatch(client, '{"signals":{"__proto__":"x","constructor":"y","ja4":"fx-ja4"}}');
      expect(status).toBe(200);
      expect(body.match).toMatchObject({ basis: { fit: 1 }, ignored_signals: ["__proto__", "constructor"] });
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    });
  });

  describe("refuses", () => {
    it.each([
      ["no content type", { "content-type": "" }],
      ["text/plain", { "content-type": "text/plain" }],
      ["a form", { "content-type": "application/x-www-form-urlencoded" }],
      ["another charset", { "content-type": "application/json; charset=latin1" }],
    ])("%s with 415", async (_, headers) => {
      const answer = await postMatch(client, { signals: { ja4: "fx-ja4" } }, headers);
      expectProblem(answer, 415);
      expect(answer.headers.get("accept-post")).toBe("application/json");
    });

    it("a body over 16 KiB by its Content-Length with 413", async () => {
      const body = JSON.stringify({ signals: { ja4: "fx-ja4" }, pad: "x".repeat(MAX_MATCH_BODY_BYTES) });
      expectProblem(await postMatch(client, body, { "content-length": String(body.length) }), 413);
    });

    it("a streamed body over 16 KiB, which declares no length, with 413", async () => {
      const res = await client.fetch(MATCH_PATH, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: streamBody(MAX_MATCH_BODY_BYTES + 1),
        duplex: "half",
      } as RequestInit);
      expectProblem({ status: res.status, headers: res.headers, body: await res.json() }, 413);
    });

    it("accepts a streamed body of exactly 16 KiB", async () => {
      const json = JSON.stringify({ signals: { ja4: "fx-ja4" } });
      const padded = new TextEncoder().encode(json.padEnd(MAX_MATCH_BODY_BYTES, " "));
      const res = await client.fetch(MATCH_PATH, { method: "POST", headers: { "content-type": "application/json" }, body: new Blob([padded]).stream(), duplex: "half" } as RequestInit);
      expect(res.status).toBe(200);
    });

    it.each([
      ["malformed JSON", '{"signals": {"ja4": "x",}'],
      ["an empty body", ""],
      ["bytes that are not UTF-8", new Uint8Array([0x7b, 0xff, 0x7d])],
    ])("%s with 400", async (_, body) => {
      const res = await client.fetch(MATCH_PATH, { method: "POST", headers: { "content-type": "application/json" }, body });
      expectProblem({ status: res.status, headers: res.headers, body: await res.json() }, 400);
    });

    it.each([
      ["a body that is not an object", "[1]", [["body", /JSON object/]]],
      ["a missing signals", '{"sig":{}}', [["signals", /required/]]],
      ["signals hidden under __proto__", '{"__proto__":{"signals":{"ja4":"fx-ja4"}}}', [["signals", /required/]]],
      ["signals as an array", '{"signals":["ja4"]}', [["signals", /not an array/]]],
      ["signals as null", '{"signals":null}', [["signals", /not null/]]],
      ["signals as a string", '{"signals":"ja4=x"}', [["signals", /not a string/]]],
      ["no signals at all", '{"signals":{}}', [["signals", /at least one/]]],
      ["an empty value", '{"signals":{"ja4":""}}', [["signals.ja4", /empty/]]],
      ["a 256-character value", `{"signals":{"ja4":"${"x".repeat(256)}"}}`, [["signals.ja4", /256 characters.*255/]]],
      ["a number", '{"signals":{"ja4":42}}', [["signals.ja4", /a string, not a number/]]],
      ["a bad __proto__ value", '{"signals":{"__proto__":{"ja4":"x"}}}', [["signals.__proto__", /not an object/]]],
      ["every bad field at once", '{"signals":{"ja4":"","audio":[],"ja3":"ok","x":null}}', [["signals.ja4", /empty/], ["signals.audio", /array/], ["signals.x", /null/]]],
    ])("%s with 422 naming the field", async (_, body, expected) => {
      const answer = await postMatch(client, body);
      expectProblem(answer, 422);
      expect(answer.body.errors).toEqual((expected as [string, RegExp][]).map(([name, detail]) => ({ name, in: "body", detail: expect.stringMatching(detail) })));
    });

    it("21 keys with 422, unknown keys counted, with the bad values named too", async () => {
      const signals: Record<string, string> = { ja4: "" };
      for (let i = 0; i < 20; i++) signals[`k${i}`] = "v";
      const answer = await postMatch(client, { signals });
      expectProblem(answer, 422);
      expect(answer.body.errors).toEqual([
        { name: "signals", in: "body", detail: expect.stringMatching(/21 keys; at most 20/) },
        { name: "signals.ja4", in: "body", detail: "must not be empty" },
      ]);
    });

    it.each(["GET", "HEAD", "PUT"])("%s with 405 and Allow", async (method) => {
      const res = await client.fetch(MATCH_PATH, { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST, OPTIONS");
      if (method !== "HEAD") expect(await res.json()).toMatchObject({ status: 405 });
    });
  });

  it("answers the CORS preflight of a cross-origin JSON POST", async () => {
    const res = await client.fetch(MATCH_PATH, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")!.split(", ")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")!.split(", ")).toContain("content-type");
  });
});

describe("the declared length", () => {
  it("refuses more than 16 KiB with 413 before reading the body", async () => {
    // In-process, where a request may say what it likes: the body is valid and tiny, so only
    // the header can have caused the 413 (over HTTP, Node holds a request to its length).
    const client = await createClient("in-process", fixture.dist);
    const answer = await postMatch(client, { signals: { ja4: "fx-ja4" } }, { "content-length": String(MAX_MATCH_BODY_BYTES + 1) });
    expectProblem(answer, 413);
  });
});

describe("the shipped library's real values over HTTP", () => {
  let built: ReturnType<typeof buildBenchDist>;
  let client: Client;
  beforeAll(async () => {
    built = buildBenchDist();
    client = await createClient("listening server", built.dist, { fingerprintRateLimit: 0 });
  });
  afterAll(async () => {
    await client.close();
    built.cleanup();
  });

  it("answers a JA4 that Chromium and three anti-detect browsers share with low confidence, and says why", async () => {
    const { body } = await postMatch(client, { signals: { ja4: "t13d1516h2_8daaf6152771_02713d6af862" } });
    expect(body.match).toMatchObject({
      profile: { kind: "browser" },
      confidence: 0.01,
      verdict: "low",
      basis: { fit: 1, evidence: 0.5, separation: 0 },
      decided_by: [],
      closest_other_kind: { profile: { kind: "antidetect" }, fit: 1 },
    });
    expect(body.match.top_candidates.every((c: { fit: number; confidence: number }) => c.fit === 1 && c.confidence === 0.01)).toBe(true);
  });

  it("answers an anti-detect browser's own signals with high confidence and the signals that decided it", async () => {
    const mimic = readFingerprintLibrary().profiles.find((p) => p.label === "Multilogin Mimic (Chromium)")!;
    const { body } = await postMatch(client, { signals: mimic.signals });
    expect(body.match).toMatchObject({
      profile: { id: mimic.id, kind: "antidetect" },
      verdict: "high",
      decided_by: ["ja4_t", "webgl_renderer", "canvas_geom", "canvas_text", "fonts_hash"],
      closest_other_kind: { profile: { kind: "browser" } },
    });
  });
});
