/**
 * POST /api/check: many usernames at once, each answered exactly as GET /api/check/{identifier}
 * answers it, in the order sent; bad bodies as problem+json; and, with the read limit on, each
 * username counted as one read, taken all at once or not at all. In-process and over HTTP.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "../../server/rate-limit.ts";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";
import { expectProblem, type Answer } from "../helpers/fingerprint.ts";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("bulk-check");
});
afterAll(() => fixture.cleanup());

async function postCheck(client: Client, body: unknown, headers: Record<string, string> = {}): Promise<Answer & { text: string }> {
  const res = await client.fetch("/api/check", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null, text };
}

describe.each(CLIENT_KINDS)("POST /api/check (%s)", (kind) => {
  let client: Client;
  beforeAll(async () => {
    client = await createClient(kind, fixture.dist);
  });
  afterAll(() => client.close());

  it("answers each username in the order sent, duplicates and integer-like ones included, each as the GET route does", async () => {
    const usernames = ["@Spam_King", "123", "quiet", " Nobody_Here ", "bad name!", "spam_king", "x".repeat(65), "@", "7"];
    const answer = await postCheck(client, { usernames });
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((r: { identifier: string }) => r.identifier)).toEqual(usernames);
    for (const [i, identifier] of usernames.entries()) {
      const item = answer.body.results[i];
      const get = await client.fetch(`/api/check/${encodeURIComponent(identifier)}`);
      const body = await get.json();
      if (get.status === 200) expect(item, identifier).toEqual({ identifier, result: body });
      else expect(item, identifier).toEqual({ identifier, error: { status: 422, title: "Unprocessable Content", detail: body.errors[0].detail } });
    }
    // The found results are the check files' own bytes, put in as they are.
    expect(answer.text).toContain(`"result":${readFileSync(join(fixture.dist, "api/check/spam_king.json"), "utf8")}`);
    expect(answer.body.results[1].result).toEqual({ found: false, username: "123", reports_count: 0 });
  });

  it("is never cached, carries no ETag, and any origin may read it", async () => {
    const answer = await postCheck(client, { usernames: ["quiet"] });
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("etag")).toBeNull();
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers the CORS preflight, and a GET with 405 naming POST", async () => {
    const preflight = await client.fetch("/api/check", { method: "OPTIONS", headers: { origin: "https://bot.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("content-type");
    const get = await client.fetch("/api/check");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it.each([
    ["not JSON", "{", 400, "not valid JSON"],
    ["an empty body", "", 400, "empty"],
    ["no usernames", {}, 422, "usernames: is required"],
    ["an empty list", { usernames: [] }, 422, "at least one"],
    ["a list of numbers", { usernames: ["a", 2] }, 422, "usernames[1]: must be a string, not a number"],
    ["101 usernames", { usernames: Array.from({ length: 101 }, (_, i) => `user_${i}`) }, 413, "at most 100"],
    ["a body over 16 KiB", { usernames: ["x".repeat(16 * 1024)] }, 413, "at most 16384 bytes"],
  ])("refuses %s with a %i problem", async (_, body, status, detail) => {
    const answer = await postCheck(client, body);
    expectProblem(answer, status);
    expect(answer.body.detail).toContain(detail);
  });

  it("refuses a body not declared as JSON with 415", async () => {
    const res = await client.fetch("/api/check", { method: "POST", headers: { "content-type": "text/plain" }, body: '{"usernames":["a"]}' });
    expect(res.status).toBe(415);
  });
});

describe.each(CLIENT_KINDS)("POST /api/check under the read limit (%s)", (kind) => {
  let client: Client;
  beforeAll(async () => {
    client = await createClient(kind, fixture.dist, { readRateLimit: 5, trustProxy: true });
  });
  afterAll(() => client.close());
  const from = (address: string) => ({ "x-forwarded-for": address });
  const remaining = (answer: Answer) => answer.headers.get("ratelimit-remaining");

  it("counts each username as one read, taken all at once or not at all", async () => {
    const client1 = from("198.51.100.10");
    const first = await postCheck(client, { usernames: ["quiet", "tie1", "quiet"] }, client1);
    expect([first.status, remaining(first)]).toEqual([200, "2"]);
    const refused = await postCheck(client, { usernames: ["a", "b", "c"] }, client1);
    expectProblem(refused, 429);
    // A refused request takes nothing: the two reads left are still there.
    expect([remaining(refused), refused.headers.get("retry-after")]).toEqual(["2", refused.headers.get("ratelimit-reset")]);
    expect(refused.body.detail).toContain("this request counts 3, and 2 are left");
    const rest = await postCheck(client, { usernames: ["a", "b"] }, client1);
    expect([rest.status, remaining(rest)]).toEqual([200, "0"]);
    expect((await client.fetch("/api/check/quiet", { headers: client1 })).status).toBe(429);
  });

  it("refuses more usernames than the whole limit with 413, counting the request as one", async () => {
    const client2 = from("198.51.100.11");
    const tooMany = await postCheck(client, { usernames: ["a", "b", "c", "d", "e", "f"] }, client2);
    expectProblem(tooMany, 413);
    expect(tooMany.body.detail).toContain("at most 5 a minute");
    expect([remaining(tooMany), tooMany.headers.get("retry-after")]).toEqual(["4", null]);
    const bad = await postCheck(client, { usernames: [] }, client2);
    expect([bad.status, remaining(bad)]).toEqual([422, "3"]);
    const get = await client.fetch("/api/check/quiet", { headers: client2 });
    expect([get.status, get.headers.get("ratelimit-remaining")]).toEqual([200, "2"]);
  });
});

describe("the memory limiter", () => {
  it("takes several units in one step, all or none", () => {
    const limiter = createRateLimiter({ limit: 5, now: () => 0 });
    expect(limiter.take("a", 3)).toMatchObject({ allowed: true, remaining: 2 });
    expect(limiter.take("a", 3)).toMatchObject({ allowed: false, remaining: 2 });
    expect(limiter.take("a", 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take("a")).toMatchObject({ allowed: false, remaining: 0 });
    expect(limiter.take("b", 5)).toMatchObject({ allowed: true, remaining: 0 });
  });
});
