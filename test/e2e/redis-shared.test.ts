/**
 * Two servers behind one load balancer (DESIGN "More than one server"), each a real listening
 * server with its own process state, sharing a real redis-server: one fingerprint limit per
 * client, not one per server; one read throttle; one answer cache, per build. Each test is its own
 * client (X-Forwarded-For, as from the load balancer), so their windows never meet.
 */
import { realpathSync } from "node:fs";
import { basename, join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildDist } from "../../build/build.ts";
import type { ServerOptions } from "../../server/listen.ts";
import { startClient, type Client } from "../helpers/client.ts";
import { BASE_URL, createSnapshot, type BuiltFixture } from "../helpers/fixture.ts";
import { FINGERPRINT_FIXTURE_SQL, buildFingerprintFixture, expectProblem, postMatch, type Answer } from "../helpers/fingerprint.ts";
import { captureRedisLog, findRedisServer, startRedis, type RedisLog, type RunningRedis } from "../helpers/redis.ts";

const redisServer = findRedisServer();
if (!redisServer && process.env.CI === "true") throw new Error("redis-server is not installed: .ci/run installs it; this test must not be skipped under CI");

describe.skipIf(!redisServer)("two servers sharing Redis", () => {
  let fixture: BuiltFixture;
  let redis: RunningRedis;
  /** The test's own look into Redis. */
  let inspect: Redis;
  let log: RedisLog;
  let servers: Client[] = [];

  beforeAll(async () => {
    fixture = buildFingerprintFixture("redis-shared");
    redis = await startRedis(redisServer!, join(fixture.dir, "redis"));
    inspect = new Redis(redis.url);
    log = captureRedisLog();
  }, 60_000);
  afterAll(async () => {
    log?.restore();
    inspect?.disconnect();
    await redis?.kill();
    fixture?.cleanup();
  });
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });

  const startPair = async (options: Partial<ServerOptions> = {}) => {
    const start = (name: string) => startClient(name, { dist: fixture.dist, port: 0, host: "127.0.0.1", trustProxy: true, redisUrl: redis.url, ...options });
    servers = [await start("A"), await start("B")];
    return servers as [Client, Client];
  };
  const from = (address: string) => ({ "x-forwarded-for": address });

  it("without Redis, give one client the limit on each server: 70 matches over two, all answered", async () => {
    const [a, b] = await startPair({ redisUrl: undefined });
    const answers = await Promise.all(Array.from({ length: 70 }, (_, n) => postMatch(n % 2 ? b : a, { signals: { ja4: `memory-${n}` } }, from("198.51.100.1"))));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(70);
    // Each server counted its own 35: 59 down to 25, on both.
    for (const parity of [0, 1]) {
      const remaining = answers.filter((_, n) => n % 2 === parity).map((answer) => Number(answer.headers.get("ratelimit-remaining")));
      expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 35 }, (_, n) => 25 + n));
    }
  });

  it("give one client 60 matches a minute over both: 70 at once are exactly 60 × 200 and 10 × 429", async () => {
    const [a, b] = await startPair();
    expect(log.info()).toEqual(expect.arrayContaining([`redis: rate limits and the match cache are shared through 127.0.0.1:${redis.port}`]));
    const answers = await Promise.all(Array.from({ length: 70 }, (_, n) => postMatch(n % 2 ? b : a, { signals: { ja4: `shared-${n}` } }, from("198.51.100.2"))));
    const allowed = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect([allowed.length, refused.length]).toEqual([60, 10]);
    // One count, taken atomically: every remaining value from 59 down to 0 exactly once.
    expect(allowed.map((answer) => Number(answer.headers.get("ratelimit-remaining"))).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, n) => n));
    for (const answer of answers) expectRateLimitHeaders(answer);
    for (const answer of refused) {
      expectProblem(answer, 429);
      expect(answer.headers.get("ratelimit-remaining")).toBe("0");
      expect(answer.headers.get("retry-after")).toBe(answer.headers.get("ratelimit-reset"));
    }
    expect(log.warnings()).toEqual([]);
  });

  it("continue one client's count from one server to the other", async () => {
    const [a, b] = await startPair();
    const remaining = [];
    for (const server of [a, b, a, b]) remaining.push((await postMatch(server, { signals: { ja4: "alternating" } }, from("198.51.100.3"))).headers.get("ratelimit-remaining"));
    expect(remaining).toEqual(["59", "58", "57", "56"]);
  });

  it("end a client's window when Redis expires it, whatever the servers' clocks say", async () => {
    const [a, b] = await startPair({ fingerprintRateLimit: 2 });
    const client = from("198.51.100.4");
    for (const server of [a, b]) expect((await postMatch(server, { signals: { ja4: "window" } }, client)).status).toBe(200);
    const key = "spamcheck:limit:match:198.51.100.4";
    await inspect.pexpire(key, 7_500);
    const refused = await postMatch(b, { signals: { ja4: "window" } }, client);
    expect(refused.status).toBe(429);
    expect([refused.headers.get("ratelimit-reset"), refused.headers.get("retry-after")]).toEqual(["8", "8"]);
    // The window is over when its key is gone: a new one starts at the next request.
    await inspect.pexpire(key, 1);
    while ((await inspect.exists(key)) === 1) await new Promise((resolve) => setTimeout(resolve, 5));
    const fresh = await postMatch(a, { signals: { ja4: "window" } }, client);
    expect([fresh.status, fresh.headers.get("ratelimit-remaining"), fresh.headers.get("ratelimit-reset")]).toEqual([200, "1", "60"]);
  });

  it("share the operator's read limit too", async () => {
    const [a, b] = await startPair({ readRateLimit: 3 });
    const statuses = [];
    for (const server of [a, b, a, b]) statuses.push((await server.fetch("/api/companies?limit=1", { headers: from("198.51.100.5") })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("take a bulk check's usernames from the shared read limit in one step: of two checks of 40 at once, one fits", async () => {
    const [a, b] = await startPair({ readRateLimit: 60 });
    const client = from("198.51.100.8");
    const bulk = (server: Client, count: number) =>
      server.fetch("/api/check", { method: "POST", headers: { ...client, "content-type": "application/json" }, body: JSON.stringify({ usernames: Array.from({ length: count }, (_, i) => `user_${i}`) }) });
    const answers = await Promise.all([bulk(a, 40), bulk(b, 40)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 429]);
    // The refused one took nothing: 20 are left on both servers, and 20 more fit exactly.
    expect(answers.map((answer) => answer.headers.get("ratelimit-remaining"))).toEqual(["20", "20"]);
    expect(await inspect.get("spamcheck:limit:read:198.51.100.8")).toBe("40");
    const rest = await bulk(b, 20);
    expect([rest.status, rest.headers.get("ratelimit-remaining")]).toEqual([200, "0"]);
    expect((await bulk(a, 1)).status).toBe(429);
    for (const answer of [...answers, rest]) await answer.arrayBuffer();
  });

  it("serve an answer one server computed from the other, for this build only", async () => {
    const [a, b] = await startPair();
    const signals = { ja4: "fx-ja4", user_agent: "shared-cache" };
    const first = await postMatch(a, { signals }, from("198.51.100.6"));
    expect(first.body.cached).toBe(false);
    expect(await postMatch(b, { signals }, from("198.51.100.7"))).toMatchObject({ status: 200, body: { match: first.body.match, cached: true } });
    const build = basename(realpathSync(fixture.dist));
    const keys = await inspect.keys("spamcheck:match:*");
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key.startsWith(`spamcheck:match:${build}:`)).toBe(true);
    expect(await inspect.pttl(keys[0]!)).toBeGreaterThan(0);
  });

  it("never serve a newly published build an answer computed over the previous one", async () => {
    const local = buildFingerprintFixture("redis-rebuild");
    try {
      const start = (name: string) => startClient(name, { dist: local.dist, port: 0, host: "127.0.0.1", redisUrl: redis.url, fingerprintRateLimit: 0 });
      const [a, b] = (servers = [await start("A"), await start("B")]);
      const signals = { ja4: "fx-ja4", user_agent: "rebuild" };
      await postMatch(a!, { signals });
      expect((await postMatch(b!, { signals })).body.cached).toBe(true);
      const next = createSnapshot(local.dir, FINGERPRINT_FIXTURE_SQL.replace("'Test fixture'", "'Rebuilt'"), "next.sqlite");
      buildDist({ db: next, out: local.dist, baseUrl: BASE_URL, progress: null });
      for (const server of servers) await waitForSource(server, "Rebuilt");
      expect((await postMatch(b!, { signals })).body).toMatchObject({ match: { profile: { id: 1 } }, cached: false });
      expect((await postMatch(a!, { signals })).body.cached).toBe(true);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      servers = [];
      local.cleanup();
    }
  });
});

/** A server looks for a new build at most every 250 ms, when asked something. */
async function waitForSource(server: Client, source: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    if ((await (await server.fetch("/build-report.json")).json()).source === source) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${server.name} did not load the build of ${source}`);
}

function expectRateLimitHeaders(answer: Answer): void {
  expect(answer.headers.get("ratelimit-limit")).toBe("60");
  expect(answer.headers.get("ratelimit-policy")).toBe("60;w=60");
  const reset = Number(answer.headers.get("ratelimit-reset"));
  expect(reset >= 1 && reset <= 60).toBe(true);
  expect(answer.headers.get("access-control-expose-headers")).toContain("Retry-After");
}
