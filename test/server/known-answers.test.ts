/**
 * A URL answered once is answered again from where its answer is (server/known-answers.ts),
 * without its route: the second answer, and every negotiation of it (HEAD, If-None-Match,
 * Accept-Encoding, Range), must be what the route itself answers. The route's own answers come
 * from a server that remembers nothing (`rememberAnswers: false`) on the same build.
 */
import { realpathSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDist } from "../../build/build.ts";
import { ROUTES } from "../../core/routes/table.ts";
import { getHeldCost } from "../../server/file-store.ts";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";
import { BASE_URL, buildSampleDist, createSnapshot, makeTempDir, readExampleRequests } from "../helpers/fixture.ts";

let dir: string;
let dist: string;
let urls: string[];

beforeAll(() => {
  dir = makeTempDir("known-answers");
  dist = buildSampleDist(dir, 3000);
  const examples = readExampleRequests(dist);
  const gets = ROUTES.filter((route) => route.method === "GET").map((route) => examples.get(route.id)?.url);
  urls = [
    ...gets.filter((url): url is string => url !== undefined),
    // Other spellings (the canonical bytes, or a 301), names of nothing, and list queries that
    // differ only in their query string.
    "/api/check/@Admin",
    "/api/check/nobody_reported_this",
    "/api/check/not a username",
    "/api/badge/no-such-company.svg",
    "/company/NO-SUCH-COMPANY",
    "/api/companies?page=2",
    "/api/companies?page=3",
    "/api/companies?limit=7&page=2",
    "/api/spammers?page=2",
    "/api/spammers?page=2&category=crypto",
    "/api/spammers/page/2",
    "/dumps/spammers-latest.csv",
    "/manifest.json",
    "/no/such/file.json",
  ];
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a client can see of an answer, but the Date. */
async function describeAnswer(response: Response) {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== "date" && name !== "connection" && name !== "keep-alive") headers[name] = value;
  });
  // A multipart answer's boundary is random: the parts must be the same, not the separators.
  const boundary = /boundary=(\S+)/.exec(headers["content-type"] ?? "")?.[1];
  let body = Buffer.from(await response.arrayBuffer()).toString("base64");
  if (boundary) {
    headers["content-type"] = headers["content-type"]!.replace(boundary, "B");
    body = Buffer.from(body, "base64").toString("latin1").replaceAll(boundary, "B");
    delete headers["content-length"];
  }
  return { status: response.status, headers, body };
}

describe.each(CLIENT_KINDS)("a URL answered before (%s)", (kind) => {
  let remembering: Client;
  let route: Client;
  beforeAll(async () => {
    remembering = await createClient(kind, dist);
    route = await createClient(kind, dist, { rememberAnswers: false });
  });
  afterAll(async () => {
    await remembering.close();
    await route.close();
  });

  it("is answered again, and negotiated, exactly as its route answers it", async () => {
    for (const url of urls) {
      const first = await remembering.fetch(url, { redirect: "manual" });
      const etag = first.headers.get("etag") ?? '"none"';
      await first.arrayBuffer();
      const asks: [string, RequestInit][] = [
        ["again", {}],
        ["HEAD", { method: "HEAD" }],
        ["its ETag", { headers: { "if-none-match": etag } }],
        ["another ETag", { headers: { "if-none-match": '"other"' } }],
        ["brotli", { headers: { "accept-encoding": "gzip, br" } }],
        ["gzip only", { headers: { "accept-encoding": "gzip;q=1, br;q=0" } }],
        ["a range", { headers: { range: "bytes=0-9" } }],
        ["two ranges", { headers: { range: "bytes=20-29,0-9" } }],
        ["a range past the end", { headers: { range: "bytes=99999999-" } }],
      ];
      for (const [label, init] of asks) {
        const [again, fromRoute] = await Promise.all([remembering.fetch(url, { ...init, redirect: "manual" }), route.fetch(url, { ...init, redirect: "manual" })]);
        expect(await describeAnswer(again), `${url}, ${label}`).toEqual(await describeAnswer(fromRoute));
      }
    }
  });

  it("keeps the query: pages of a list are not one another", async () => {
    const ask = ["/api/companies?limit=20", "/api/companies?limit=20&page=2", "/api/companies?page=2&limit=7", "/api/companies?limit=20&page=2"];
    const pages = [];
    for (const url of ask) pages.push((await (await remembering.fetch(url)).json()) as { page: number; data: { slug: string }[] });
    expect(pages.map((p) => [p.page, p.data.length])).toEqual([
      [1, 20],
      [2, 20],
      [2, 7],
      [2, 20],
    ]);
    expect(pages[1]!.data[0]).not.toEqual(pages[0]!.data[0]);
  });
});

describe("known answers and the build", () => {
  it("are the build's own: a newly published build answers its own bytes at once", async () => {
    const local = makeTempDir("known-answers-publish");
    try {
      const first = createSnapshot(local, "INSERT INTO meta VALUES ('as_of', '2026-11-15T18:00:00Z'); INSERT INTO companies VALUES (1, 'Alpha', 'alpha', 'affiliate', NULL, '2026-01-01');");
      const dist = join(local, "dist");
      buildDist({ db: first, out: dist, baseUrl: BASE_URL, progress: null });
      const client = await createClient("in-process", dist);
      const name = async () => ((await (await client.fetch("/api/company/alpha")).json()) as { name: string }).name;
      expect(await name()).toBe("Alpha");
      expect(await name()).toBe("Alpha");
      const next = createSnapshot(local, "INSERT INTO meta VALUES ('as_of', '2026-11-15T18:00:00Z'); INSERT INTO companies VALUES (1, 'Alpha Two', 'alpha', 'affiliate', NULL, '2026-01-01');", "next.sqlite");
      buildDist({ db: next, out: dist, baseUrl: BASE_URL, progress: null });
      // The server looks for a new build at most every 250 ms.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await name()).toBe("Alpha Two");
      await client.close();
    } finally {
      rmSync(local, { recursive: true, force: true });
    }
  });

  it("point at bytes, which may leave memory: a file read again answers the same", async () => {
    const examples = readExampleRequests(dist);
    const [check, badge] = [examples.get("checkUsername")!.url, examples.get("getBadge")!.url];
    const cost = (file: string) => getHeldCost(file, statSync(join(realpathSync(dist), file)).size);
    const costs = [cost(`api/check/${check.split("/").pop()}.json`), cost(`api/badge/${badge.split("/").pop()}`)];
    // Room for either file, never both: each request below evicts the other's bytes.
    const budget = costs[0]! + costs[1]! - 1;
    expect(Math.max(...costs)).toBeLessThanOrEqual(budget);
    const client = await createClient("in-process", dist, { fileStore: { memoryBytes: budget, maxMemoryFileBytes: 4096, largeMemoryBytes: 0 } });
    const route = await createClient("in-process", dist, { rememberAnswers: false });
    for (const url of [check, badge, check, badge]) {
      const [answer, fromRoute] = await Promise.all([client.fetch(url), route.fetch(url)]);
      expect(await describeAnswer(answer), url).toEqual(await describeAnswer(fromRoute));
    }
  });

  it("are not used while a read limit counts every read", async () => {
    const client = await createClient("in-process", dist, { readRateLimit: 3 });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const res = await client.fetch("/api/check/admin");
      statuses.push([res.status, res.headers.get("ratelimit-remaining")]);
    }
    expect(statuses).toEqual([
      [200, "2"],
      [200, "1"],
      [200, "0"],
      [429, "0"],
    ]);
  });
});
