/**
 * Redis going away, and not being there at all: the servers keep answering every request (the
 * limits counted in each server's memory meanwhile, the match cache skipped), say so once each,
 * and share again when Redis is back. Real redis-server, killed as a crash would kill it.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerOptions } from "../../server/listen.ts";
import { describeRedisUrl } from "../../server/redis-store.ts";
import { startClient, type Client } from "../helpers/client.ts";
import type { BuiltFixture } from "../helpers/fixture.ts";
import { buildFingerprintFixture, postMatch, type Answer } from "../helpers/fingerprint.ts";
import { getFreePort } from "../helpers/nginx.ts";
import { captureRedisLog, findRedisServer, startRedis } from "../helpers/redis.ts";

const redisServer = findRedisServer();
if (!redisServer && process.env.CI === "true") throw new Error("redis-server is not installed: .ci/run installs it; this test must not be skipped under CI");

const UNAVAILABLE = /^redis: 127\.0\.0\.1:\d+ is unavailable \(.+\); until it is back, this server counts rate limits in its own memory and does not cache match answers$/;

describe.skipIf(!redisServer)("servers whose Redis goes away", () => {
  let fixture: BuiltFixture;
  beforeAll(() => {
    fixture = buildFingerprintFixture("redis-outage");
  });
  afterAll(() => fixture?.cleanup());

  const start = (name: string, options: Partial<ServerOptions>) => startClient(name, { dist: fixture.dist, port: 0, host: "127.0.0.1", ...options });
  const post = (server: Client, n: number) => postMatch(server, { signals: { ja4: `outage-${n}` } });

  it("answer every request while Redis is killed under them, count per server meanwhile, and share again once it is back", async () => {
    const log = captureRedisLog();
    const redis = await startRedis(redisServer!, join(fixture.dir, "redis-killed"));
    const servers = [await start("A", { redisUrl: redis.url }), await start("B", { redisUrl: redis.url })] as const;
    const [a, b] = servers;
    let restarted = redis;
    try {
      const before: Answer[] = [];
      for (let n = 0; n < 20; n++) before.push(await post(servers[n % 2]!, n));
      expect(before.map((answer) => answer.headers.get("ratelimit-remaining"))).toEqual(Array.from({ length: 20 }, (_, n) => String(59 - n)));

      // Redis hangs with twenty requests waiting on it, then dies; twenty more come after.
      redis.pause();
      const during = Array.from({ length: 20 }, (_, n) => post(servers[n % 2]!, 20 + n));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await redis.kill();
      const answered = await Promise.all(during);
      const after: Record<string, Answer[]> = { A: [], B: [] };
      for (let n = 0; n < 20; n++) after[n % 2 ? "B" : "A"]!.push(await post(servers[n % 2]!, 40 + n));

      for (const answer of [...answered, ...after.A!, ...after.B!]) {
        expect(answer.status).toBe(200);
        expect(answer.body.match).toBeDefined();
        expect(answer.headers.get("ratelimit-limit")).toBe("60");
      }
      // Each server counts its own requests now: down by one per request to it, not per request to either.
      for (const answers of [after.A!, after.B!]) {
        const remaining = answers.map((answer) => Number(answer.headers.get("ratelimit-remaining")));
        expect(remaining).toEqual(remaining.map((_, n) => remaining[0]! - n));
      }
      // Once per server, however many requests met the outage.
      expect(log.warnings()).toHaveLength(2);
      for (const line of log.warnings()) expect(line).toMatch(UNAVAILABLE);

      restarted = await startRedis(redisServer!, join(fixture.dir, "redis-killed"), redis.port);
      const back = `redis: 127.0.0.1:${redis.port} is back; rate limits and the match cache are shared again`;
      for (let attempt = 0; attempt < 100 && log.info().filter((line) => line === back).length < 2; attempt++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(log.info().filter((line) => line === back)).toHaveLength(2);
      // The new Redis is empty: a new shared window.
      expect((await post(a, 60)).headers.get("ratelimit-remaining")).toBe("59");
      expect((await post(b, 61)).headers.get("ratelimit-remaining")).toBe("58");
      expect(log.warnings()).toHaveLength(2);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      await restarted.kill();
      log.restore();
    }
  }, 30_000);

  it("start without Redis when it does not answer, keep each server's own limit, and say so once", async () => {
    const log = captureRedisLog();
    const nobody = `redis://127.0.0.1:${await getFreePort()}`;
    const server = await start("alone", { redisUrl: nobody });
    try {
      // Matches are computed every time: there is no cache to share, and none is kept instead.
      const same = [await post(server, 0), await post(server, 0)];
      expect(same.map((answer) => [answer.status, answer.body.cached])).toEqual([[200, false], [200, false]]);
      const statuses: number[] = [];
      for (let n = 1; n < 59; n++) statuses.push((await post(server, n)).status);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect((await post(server, 60)).status).toBe(429);
      expect(log.warnings()).toHaveLength(1);
      expect(log.warnings()[0]).toMatch(UNAVAILABLE);
      expect(log.info()).toEqual([]);
    } finally {
      await server.close();
      log.restore();
    }
  });
});

describe("what the logs call Redis", () => {
  it.each([
    ["redis://user:secret@cache.internal:6380/2", "cache.internal:6380/2"],
    ["rediss://:secret@10.0.0.5", "10.0.0.5:6379"],
  ])("is %s by host, port and database, never by its password: %s", (url, name) => {
    expect(describeRedisUrl(url)).toBe(name);
  });
});
