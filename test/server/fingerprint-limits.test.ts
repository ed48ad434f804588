/**
 * What POST /api/fingerprint/match remembers, and for how long: the per-client rate limit (60
 * a minute, fixed windows) and the 5-minute answer cache, with Date faked so that minutes pass
 * at once; in-process and through a real listening server. Also: a build with no index.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { buildDist } from "../../build/build.ts";
import { createApp } from "../../server/app.ts";
import { createMatchCache } from "../../server/fingerprint-matching.ts";
import { createRateLimiter, getClientKey } from "../../server/rate-limit.ts";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";
import { BASE_URL, buildFixture, createSnapshot, type BuiltFixture } from "../helpers/fixture.ts";
import { FINGERPRINT_FIXTURE_SQL, MATCH_PATH, buildFingerprintFixture, expectProblem, postMatch } from "../helpers/fingerprint.ts";

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFingerprintFixture("fp-limits");
});
afterAll(() => fixture.cleanup());

// Only Date: timers stay real, so sockets and the server's own timeouts behave as ever.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-03-11T10:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

describe.each(CLIENT_KINDS)("limits and cache (%s)", (kind) => {
  let client: Client;
  beforeEach(async () => {
    client = await createClient(kind, fixture.dist);
  });
  afterEach(() => client.close());

  it("allows 60 requests a minute, then answers 429 with Retry-After until the window ends", async () => {
    for (let n = 1; n <= 60; n++) {
      // Errors count as much as matches: the limit is on requests, not on answers.
      const answer = await postMatch(client, n % 10 === 0 ? "{" : { signals: { ja4: `fx-${n}` } });
      expect(answer.status).toBe(n % 10 === 0 ? 400 : 200);
      expect(answer.headers.get("ratelimit-limit")).toBe("60");
      expect(answer.headers.get("ratelimit-remaining")).toBe(String(60 - n));
      // The window started at the first request; half a second passes between requests.
      expect(answer.headers.get("ratelimit-reset")).toBe(String(Math.ceil(60 - (n - 1) / 2)));
      vi.advanceTimersByTime(500);
    }
    const refused = await postMatch(client, { signals: { ja4: "fx-ja4" } });
    expectProblem(refused, 429);
    // 30 s of the window have gone by.
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("ratelimit-reset")).toBe("30");
    expect(refused.headers.get("access-control-expose-headers")).toContain("Retry-After");

    vi.advanceTimersByTime(29_000);
    expect((await postMatch(client, { signals: { ja4: "fx-ja4" } })).status).toBe(429);
    vi.advanceTimersByTime(1_000);
    const again = await postMatch(client, { signals: { ja4: "fx-ja4" } });
    expect(again.status).toBe(200);
    expect(again.headers.get("ratelimit-remaining")).toBe("59");
    expect(again.headers.get("ratelimit-reset")).toBe("60");
  });

  it("leaves reads and preflights unthrottled by default", async () => {
    for (let n = 0; n < 61; n++) await postMatch(client, { signals: { ja4: "fx-ja4" } });
    const read = await client.fetch("/api/companies?limit=1");
    expect(read.status).toBe(200);
    expect(read.headers.get("ratelimit-limit")).toBeNull();
    expect((await client.fetch(MATCH_PATH, { method: "OPTIONS" })).status).toBe(204);
  });

  it("answers the same signals in any key order from the cache for 5 minutes", async () => {
    const signals = { ja4: "fx-ja4", ja4_t: "other", user_agent: "cache-test" };
    const first = await postMatch(client, { signals });
    expect(first.body.cached).toBe(false);
    const reordered = await postMatch(client, { signals: { user_agent: "cache-test", ja4_t: "other", ja4: "fx-ja4" } });
    expect(reordered.body).toEqual({ match: first.body.match, cached: true });
    expect(reordered.headers.get("cache-control")).toBe("no-store");
    expect((await postMatch(client, { signals: { ...signals, ja4_t: "another" } })).body.cached).toBe(false);

    vi.advanceTimersByTime(5 * 60_000 - 1);
    expect((await postMatch(client, { signals })).body.cached).toBe(true);
    vi.advanceTimersByTime(1);
    const expired = await postMatch(client, { signals });
    expect(expired.body).toEqual({ match: first.body.match, cached: false });
  });
});

describe("client addresses", () => {
  it("counts every in-process request as one client, and trusts X-Forwarded-For only when told to", async () => {
    const post = (app: ReturnType<typeof createApp>, from: string) =>
      app.request(MATCH_PATH, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": from }, body: '{"signals":{"ja4":"x"}}' });
    const direct = createApp({ dist: fixture.dist, fingerprintRateLimit: 2 });
    const proxied = createApp({ dist: fixture.dist, fingerprintRateLimit: 2, trustProxy: true });
    const statuses = async (app: ReturnType<typeof createApp>) => {
      const result: number[] = [];
      for (const from of ["203.0.113.1", "203.0.113.2", "203.0.113.3", "198.51.100.7, 203.0.113.1"]) result.push((await post(app, from)).status);
      return result;
    };
    expect(await statuses(direct)).toEqual([200, 200, 429, 429]);
    // The last entry is the one our proxy added; what the client put before it is ignored.
    expect(await statuses(proxied)).toEqual([200, 200, 200, 200]);
    expect((await post(proxied, "198.51.100.7, 203.0.113.1")).status).toBe(429);
  });

  it.each([
    [undefined, null, false, "local"],
    ["203.0.113.9", "198.51.100.1", false, "203.0.113.9"],
    ["10.0.0.1", "198.51.100.1, 192.0.2.4", true, "192.0.2.4"],
    ["::ffff:203.0.113.9", null, false, "203.0.113.9"],
    ["2001:db8:0:12:a:b:c:d", null, false, "2001:db8:0:12/64"],
    ["2001:db8::1", null, false, "2001:db8:0:0/64"],
  ] as const)("keys socket %s with X-Forwarded-For %s (trusted: %s) as %s", (socket, forwarded, trust, key) => {
    expect(getClientKey(socket, forwarded, trust)).toBe(key);
  });
});

describe("memory bounds", () => {
  it("forgets windows that have ended, and tracks at most maxClients", () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 1, maxClients: 3, now: () => now });
    for (const client of ["a", "b", "c"]) limiter.take(client);
    expect(limiter.take("a").allowed).toBe(false);
    // A fourth client pushes out the oldest window ("a"), which then starts afresh.
    limiter.take("d");
    expect(limiter.clients).toBe(3);
    now = 30_000;
    expect(limiter.take("a").allowed).toBe(true);
    // A minute after the start, b, c and d have ended; a's window, begun at 30 s, has not.
    now = 60_000;
    limiter.take("e");
    expect(limiter.clients).toBe(2);
    expect(limiter.take("a").allowed).toBe(false);
  });

  it("evicts the least recently used answer, by count and by size, and expires them", () => {
    // Not 0: lru-cache reads an entry stored at time 0 as one without expiry (a real clock never reads 0).
    let now = 1;
    // An answer's size is its JSON length.
    const cache = createMatchCache({ maxEntries: 2, maxSize: 10, ttlMs: 1000, now: () => now });
    cache.set("a", "AAAA");
    cache.set("b", "BBBB");
    expect(cache.get("a")).toBe("AAAA");
    cache.set("c", "CCCC"); // over both bounds: "b" was used least recently
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual(["AAAA", undefined, "CCCC"]);
    cache.set("big", "X".repeat(11));
    expect(cache.get("big")).toBeUndefined();
    now = 1000;
    expect(cache.get("a")).toBe("AAAA");
    now = 1001;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(1);
  });
});

describe("the operator's read limit", () => {
  it("throttles GETs per client when switched on, apart from the fingerprint limit", async () => {
    const app = createApp({ dist: fixture.dist, readRateLimit: 2, fingerprintRateLimit: 1 });
    const statuses = [];
    for (let n = 0; n < 3; n++) statuses.push((await app.request("/api/companies?limit=1")).status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await app.request("/api/check/spam_king");
    expect(refused.headers.get("ratelimit-limit")).toBe("2");
    expect(refused.headers.get("retry-after")).toBe("60");
    const post = () => app.request(MATCH_PATH, { method: "POST", headers: { "content-type": "application/json" }, body: '{"signals":{"ja4":"x"}}' });
    expect((await post()).headers.get("ratelimit-limit")).toBe("1");
    expect((await post()).status).toBe(429);
    vi.advanceTimersByTime(60_000);
    expect((await app.request("/api/companies?limit=1")).status).toBe(200);
  });
});

describe("a new build", () => {
  it("starts with an empty answer cache", async () => {
    vi.useRealTimers();
    const local = buildFingerprintFixture("fp-rebuild");
    try {
      const client = await createClient("in-process", local.dist);
      const signals = { ja4: "fx-ja4" };
      await postMatch(client, { signals });
      expect((await postMatch(client, { signals })).body.cached).toBe(true);
      const next = createSnapshot(local.dir, FINGERPRINT_FIXTURE_SQL.replace("'Test fixture'", "'Rebuilt'"), "next.sqlite");
      buildDist({ db: next, out: local.dist, baseUrl: BASE_URL, progress: null });
      // The server looks for a new build at most every 250 ms.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await (await client.fetch("/build-report.json")).json()).source).toBe("Rebuilt");
      const after = await postMatch(client, { signals });
      expect(after.body).toMatchObject({ match: { profile: { id: 1 }, basis: { fit: 1 } }, cached: false });
    } finally {
      local.cleanup();
    }
  });
});

describe("a build without a fingerprint index", () => {
  it("still loads, serves reads, and answers the match with 503", async () => {
    const old = buildFixture("fp-missing");
    try {
      rmSync(join(old.summary.buildDir, "fingerprint/index.json"));
      const app = createApp({ dist: old.dist });
      expect((await app.request("/api/companies?limit=1")).status).toBe(200);
      const res = await app.request(MATCH_PATH, { method: "POST", headers: { "content-type": "application/json" }, body: '{"signals":{"ja4":"x"}}' });
      expectProblem({ status: res.status, headers: res.headers, body: await res.json() }, 503);
      expect(res.headers.get("ratelimit-limit")).toBe("60");
    } finally {
      old.cleanup();
    }
  });
});
