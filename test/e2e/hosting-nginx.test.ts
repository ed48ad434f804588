/**
 * The generated nginx block on real nginx, compared with the live server on the same build:
 * every route of the table, and every query and path parameter of each (defaults, valid
 * values, invalid, repeated, unknown, percent-encoded, other spellings). A difference fails
 * unless nginx answers the 501 "cannot answer" problem of a route whose table entry says a
 * static host answers it differently — never the default page with 200.
 *
 * The sample has several pages of every list (120 companies, 6 000 usernames), so a mapping
 * that ignores `page` or `limit` shows.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderNginxServer } from "../../core/hosting/nginx.ts";
import { getPageLinkHeader } from "../../core/routes/page-links.ts";
import { formatCannotAnswer, formatProblem, NOT_FOUND_DETAIL } from "../../core/routes/problem.ts";
import { createUrlMatcher } from "../../core/routes/match.ts";
import { ROUTES } from "../../core/routes/table.ts";
import type { Route } from "../../core/routes/types.ts";
import { hasVariants, MAX_VARIANT_SIZE, MIN_VARIANT_SIZE } from "../../core/routes/variants.ts";
import { startServer, type RunningServer } from "../../server/listen.ts";
import { BASE_URL, buildSampleDist, makeTempDir, readExampleRequests } from "../helpers/fixture.ts";
import { findBrotliModule, findNginx, getFreePort, startNginx, type RunningNginx } from "../helpers/nginx.ts";

const routes = ROUTES as readonly Route[];
/** Pages tried on every paged route: carries, the sample's last overall page (120) and the one after it. */
const PAGES = ["1", "2", "3", "9", "10", "11", "19", "20", "99", "100", "101", "119", "120", "121"];
const COMPARED_HEADERS = ["content-type", "cache-control", "access-control-allow-origin", "x-content-type-options", "content-security-policy", "link"];
const nginx = findNginx();
if (!nginx && process.env.CI === "true") throw new Error("nginx is not installed: .ci/run installs nginx-light; this test must not be skipped under CI");
const brotliModule = findBrotliModule();
if (nginx && !brotliModule && process.env.CI === "true") throw new Error("nginx's brotli static module is not installed: .ci/run installs libnginx-mod-http-brotli-static");

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: Buffer;
}

async function get(base: string, path: string): Promise<Answer> {
  const res = await fetch(base + path, { redirect: "manual" });
  const headers = Object.fromEntries(COMPARED_HEADERS.map((h) => [h, res.headers.get(h)]));
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** Status, the compared headers, and the body (JSON compared parsed). */
function isSame(a: Answer, b: Answer): boolean {
  if (a.status !== b.status || !COMPARED_HEADERS.every((h) => a.headers[h] === b.headers[h])) return false;
  if (b.headers["content-type"]?.includes("json") && a.body.length > 0 && b.body.length > 0) {
    return JSON.stringify(JSON.parse(a.body.toString())) === JSON.stringify(JSON.parse(b.body.toString()));
  }
  return a.body.equals(b.body);
}

/** A GET with exactly this Accept-Encoding (none when empty), the body as it came: fetch would decode it. */
function getRaw(base: string, path: string, acceptEncoding: string, extra: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = { ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}), ...extra };
    request(base + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers as Record<string, string | undefined>, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

describe.skipIf(!nginx)("the generated nginx block on real nginx", () => {
  let dir: string;
  let root: string;
  let live: RunningServer;
  let host: RunningNginx;
  /** The same block with the live server as upstream: what the files cannot answer goes there. */
  let proxied: RunningNginx;
  let examples: Map<string, string>;
  /** Some categories with their number of pages. */
  let categoryPages: [string, number][];

  beforeAll(async () => {
    dir = makeTempDir("nginx");
    const dist = buildSampleDist(dir, 6000);
    root = realpathSync(dist);
    const port = await getFreePort();
    mkdirSync(join(dir, "nginx"));
    // The dist link, as the README tells operators: nginx follows it to the build per request.
    // With the brotli module where it is installed: every comparison below then also proves the
    // variants decode to the live server's answer (fetch asks for gzip and br, and decodes them).
    const brotli = brotliModule !== null;
    host = await startNginx(nginx!, join(dir, "nginx"), renderNginxServer({ root: dist, listen: `127.0.0.1:${port}`, baseUrl: BASE_URL, brotli }), port, { modules: brotli ? [brotliModule] : [] });
    live = await startServer({ dist, port: 0, host: "127.0.0.1" });
    const proxiedPort = await getFreePort();
    mkdirSync(join(dir, "nginx-upstream"));
    const upstream = live.url.replace(/\/$/, "");
    proxied = await startNginx(nginx!, join(dir, "nginx-upstream"), renderNginxServer({ root, listen: `127.0.0.1:${proxiedPort}`, upstream, baseUrl: BASE_URL }), proxiedPort);
    examples = new Map([...readExampleRequests(dist)].map(([id, request]) => [id, request.url]));
    categoryPages = ["crypto", "gambling"].map((c) => [c, (JSON.parse(readFileSync(join(root, `api/spammers/category/${c}.json`), "utf8")) as { pages: number }).pages]);
  }, 120_000);

  afterAll(async () => {
    host?.stop();
    proxied?.stop();
    await live?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The requests tried for a route: its example and every variant of its parameters. */
  function variants(route: Route): string[] {
    const example = examples.get(route.id) ?? route.path;
    const [path, query = ""] = example.split("?");
    const out = new Set([example]);
    const segments = path!.split("/");
    const templateSegments = route.path.split("/");
    templateSegments.forEach((segment, i) => {
      if (!segment.includes("{")) return;
      const value = segments[i]!;
      const swap = (v: string) => [...segments.slice(0, i), v, ...segments.slice(i + 1)].join("/");
      const affix = segment.replace(/\{[a-z_]+\}/, "\u0000").split("\u0000") as [string, string];
      const bare = value.slice(affix[0].length, value.length - affix[1].length);
      for (const other of [`zz_no_such_${i}`, `@${bare}`, bare.toUpperCase(), "bad%20name!", `${bare}.json`, "%E0%A4%A"]) out.add(swap(`${affix[0]}${other}${affix[1]}`) + (query ? `?${query}` : ""));
      // A page of a list: its neighbours' numbers carry over digits (9 → 10, 100 → 99), and the last page has no next.
      if (segment === "{page}") for (const page of PAGES) out.add(swap(page));
    });
    const values: Record<string, string[]> = { limit: ["50", "10", "200", "0", "abc"], page: [...PAGES, "0", "-1", "01", "abc"], category: ["crypto", "other", "nope", "CRYPTO"], slug: ["x"], username: ["admin", "@Admin"], q: ["alpha", "a", ""] };
    for (const param of route.params.filter((p) => p.in === "query")) {
      for (const value of values[param.name] ?? ["x"]) out.add(`${path}?${param.name}=${encodeURIComponent(value)}`);
      out.add(`${path}?${param.name}=2&${param.name}=3`);
      out.add(`${path}?${param.name}`);
      out.add(`${path}?${param.name.toUpperCase()}=2`);
      out.add(`${path}?${param.name.slice(0, -1)}%${param.name.charCodeAt(param.name.length - 1).toString(16)}=2`);
    }
    out.add(`${path}?unknown=1`);
    if (route.params.some((p) => p.name === "page")) out.add(`${path}?page=2&unknown=1&limit=50`);
    if (route.params.some((p) => p.name === "page") && route.params.some((p) => p.name === "category")) {
      // Each category's last page and the one after it, where only that category's page files tell whether there is a next.
      for (const [category, last] of categoryPages) {
        for (const page of ["2", "3", "10", String(last - 1), String(last), String(last + 1)]) out.add(`${path}?category=${category}&page=${page}`).add(`${path}?page=${page}&limit=50&category=${category}`);
      }
    }
    return [...out];
  }

  it.each(routes.map((r) => [r.id, r] as const))("%s: answers every variant like the live server, or says it cannot", async (_, route) => {
    const differences: string[] = [];
    for (const url of variants(route)) {
      const [fromHost, fromLive] = await Promise.all([get(host.url, url), get(live.url.replace(/\/$/, ""), url)]);
      if (isSame(fromHost, fromLive)) continue;
      const declared = route.static.kind !== "file" || route.static.differs !== undefined;
      const cannot = fromHost.status === 501 && fromHost.body.toString() === formatCannotAnswer(route) && fromHost.headers["content-type"] === "application/problem+json; charset=utf-8";
      if (declared && cannot) continue;
      differences.push(`${url}: nginx ${fromHost.status} ${fromHost.headers["content-type"]} ${fromHost.body.toString().slice(0, 80)} | live ${fromLive.status} ${fromLive.headers["content-type"]} ${fromLive.body.toString().slice(0, 80)}`);
    }
    expect(differences).toEqual([]);
  });

  it.each(routes.map((r) => [r.id, r] as const))("%s: with --upstream, answers every variant exactly like the live server", async (_, route) => {
    const differences: string[] = [];
    for (const url of variants(route)) {
      const [fromHost, fromLive] = await Promise.all([get(proxied.url, url), get(live.url.replace(/\/$/, ""), url)]);
      if (!isSame(fromHost, fromLive)) differences.push(`${url}: nginx ${fromHost.status} ${fromHost.body.toString().slice(0, 80)} | live ${fromLive.status} ${fromLive.body.toString().slice(0, 80)}`);
    }
    expect(differences).toEqual([]);
  });

  it("answers unknown paths with the problem+json 404, unknown embed styles, pages and chat badges with their own 404 file, like the live server", async () => {
    // (An unknown company under a known style may be a name only the live server can look up: getEmbed's 501.)
    const pages = ["/people/zz-none", "/glossary/zz-none", "/blog/zz-none", "/chats/zz_none", "/channels/zz_none", "/api/chat/zz_none/badge.svg"];
    for (const url of ["/no/such/thing", "/api/nothing", "/embed/sideways/x", "/embed/BADGE/x", "/_headers", ...pages]) {
      const [fromHost, fromLive] = await Promise.all([get(host.url, url), get(live.url.replace(/\/$/, ""), url)]);
      expect([fromHost.status, fromHost.headers], url).toEqual([fromLive.status, fromLive.headers]);
      expect(fromHost.body.equals(fromLive.body), url).toBe(true);
    }
    expect((await get(host.url, "/no/such/thing")).body.toString()).toBe(formatProblem(404, NOT_FOUND_DETAIL));
    expect((await get(host.url, "/people/zz-none")).headers["content-type"]).toBe("text/html; charset=utf-8");
    expect((await get(host.url, "/api/chat/zz_none/badge.svg")).headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
  });

  it("answers a page's other form with a 301 to it, and a missing page asked by a browser with the HTML 404 page, like the live server", async () => {
    const browser = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
    const ask = async (base: string, url: string, headers: Record<string, string> = {}) => {
      const res = await fetch(base + url, { redirect: "manual", headers });
      const body = Buffer.from(await res.arrayBuffer());
      // A 301's body and its type are nginx's own short HTML page; clients read the Location.
      const compared = res.status === 301 ? COMPARED_HEADERS.filter((h) => h !== "content-type") : COMPARED_HEADERS;
      return { status: res.status, location: res.headers.get("location"), headers: Object.fromEntries(compared.map((h) => [h, res.headers.get(h)])), body: res.status === 301 ? null : body };
    };
    const liveBase = live.url.replace(/\/$/, "");
    const redirects = ["/docs/", "/companies/", "/dumps", "/companies/page/2/", "/docs/?x=1"];
    const missing = ["/company/zz-none/", "/no/such/thing", "/no/such/thing/", "/dumps/nothing.csv", "/api/nothing", "/api/companies/"];
    for (const url of [...redirects, ...missing]) {
      for (const headers of [{}, browser]) {
        const [fromHost, fromLive] = await Promise.all([ask(host.url, url, headers), ask(liveBase, url, headers)]);
        expect(fromHost, `${url} ${JSON.stringify(headers)}`).toEqual(fromLive);
      }
    }
    expect((await ask(host.url, "/docs/")).location).toBe(`${BASE_URL}/docs`);
    expect((await ask(host.url, "/dumps")).location).toBe(`${BASE_URL}/dumps/`);
    expect((await ask(host.url, "/no/such/thing", browser)).headers["content-type"]).toBe("text/html; charset=utf-8");
    expect((await ask(host.url, "/api/nothing", browser)).headers["content-type"]).toBe("application/problem+json; charset=utf-8");
  });

  it.each(routes.map((r) => [r.id, r] as const))("%s: sends a precompressed variant exactly where the build wrote one", async (_, route) => {
    const url = examples.get(route.id) ?? route.path;
    const plain = await getRaw(host.url, url, "");
    const fromLive = await getRaw(live.url.replace(/\/$/, ""), url, "");
    if (plain.status !== 200 || !plain.body.equals(fromLive.body)) return; // not a file nginx answers (the comparisons above say why)
    const size = plain.body.byteLength;
    // A route's files have variants when the rule gives them some at their size (text of 1 KiB always gains).
    const expected = hasVariants(route) && size >= MIN_VARIANT_SIZE && size < MAX_VARIANT_SIZE;
    expect(plain.headers["content-encoding"], "asked for nothing").toBeUndefined();
    expect(plain.headers.vary, "Vary on a file with variants, whatever was asked").toBe(expected ? "Accept-Encoding" : undefined);
    for (const [encoding, decode] of [["gzip", gunzipSync], ...(brotliModule ? [["br", brotliDecompressSync] as const] : [])] as const) {
      const answer = await getRaw(host.url, url, encoding);
      expect([answer.status, answer.headers["content-type"]], encoding).toEqual([200, plain.headers["content-type"]]);
      expect(answer.headers["content-encoding"], encoding).toBe(expected ? encoding : undefined);
      expect(answer.headers.vary, encoding).toBe(expected ? "Accept-Encoding" : undefined);
      if (!expected) continue;
      expect(decode(answer.body).equals(fromLive.body), `${encoding} decodes to the live answer`).toBe(true);
      // Each encoding is its own representation: its own strong ETag, and a 304 for it alone.
      expect(answer.headers.etag).not.toBe(plain.headers.etag);
      expect((await getRaw(host.url, url, encoding, { "if-none-match": answer.headers.etag! })).status).toBe(304);
      expect((await getRaw(host.url, url, encoding, { "if-none-match": plain.headers.etag! })).status).toBe(200);
    }
  });

  it("prefers brotli where both are accepted, and serves a variant at its own path as the live server does", async () => {
    const manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8")) as { files: { path: string }[] };
    // Paths no route's URL matches (a route's own rules, and their declared differences, are the tests' above).
    const matchRoute = createUrlMatcher();
    const variants = manifest.files.map((f) => f.path).filter((p) => /\.(json|html|svg)\.(gz|br)$/.test(p) && matchRoute("GET", `/${p}`) === null);
    expect(variants.length).toBeGreaterThan(0);
    for (const path of variants.filter((_, i) => i % Math.ceil(variants.length / 20) === 0)) {
      const [fromHost, fromLive] = await Promise.all([getRaw(host.url, `/${path}`, ""), getRaw(live.url.replace(/\/$/, ""), `/${path}`, "")]);
      expect([fromHost.status, fromHost.headers["content-type"], fromHost.headers["content-encoding"]], path).toEqual([fromLive.status, fromLive.headers["content-type"], undefined]);
      expect(fromHost.body.equals(fromLive.body), path).toBe(true);
    }
    if (brotliModule) expect((await getRaw(host.url, "/docs", "gzip, br")).headers["content-encoding"]).toBe("br");
  });

  it("maps ?page=N to that page, not to page 1", async () => {
    const page3 = await get(host.url, "/api/companies?page=3");
    expect(page3.status).toBe(200);
    expect(JSON.parse(page3.body.toString()).page).toBe(3);
    expect(page3.body.equals((await get(live.url.replace(/\/$/, ""), "/api/companies?page=3")).body)).toBe(true);
  });

  it("counts pages up and down in the Link header across every carry up to page 1 001, in both forms", async () => {
    // A root with nothing but 1 001 spammer page files: nginx's digit arithmetic against core's numbers.
    const pagesRoot = join(dir, "pages-root");
    mkdirSync(join(pagesRoot, "api/spammers/page"), { recursive: true });
    for (let page = 1; page <= 1001; page++) writeFileSync(join(pagesRoot, `api/spammers/page/${page}.json`), "{}");
    writeFileSync(join(pagesRoot, "api/spammers.json"), "{}");
    const port = await getFreePort();
    mkdirSync(join(dir, "nginx-pages"));
    const pagesHost = await startNginx(nginx!, join(dir, "nginx-pages"), renderNginxServer({ root: pagesRoot, listen: `127.0.0.1:${port}`, baseUrl: BASE_URL }), port);
    try {
      const wrong: string[] = [];
      for (let page = 1; page <= 1001; page++) {
        const expected = getPageLinkHeader(BASE_URL, { list: "listSpammers", query: {} }, page, 1001);
        for (const url of [`/api/spammers/page/${page}`, `/api/spammers?page=${page}`]) {
          const link = (await get(pagesHost.url, url)).headers.link ?? null;
          if (link !== expected) wrong.push(`${url}: ${link} instead of ${expected}`);
        }
      }
      expect(wrong).toEqual([]);
    } finally {
      pagesHost.stop();
    }
  });
});

describe("npm run hosting", () => {
  const run = (...args: string[]) => spawnSync(process.execPath, ["--import", "tsx", "cli/hosting.ts", ...args], { encoding: "utf8", cwd: join(import.meta.dirname, "../..") });

  it.each([
    [["apache", "--root", ".", "--listen", "80"], "unknown target"],
    [["nginx", "--root", import.meta.dirname, "--listen", "80"], "is not a build"],
    [["nginx", "--listen", "80"], "--root is required"],
    [["nginx", "--root", ".", "--listen", "80", "--bogus"], "unknown flag --bogus"],
    [["nginx", "--root", "test/fixtures/broken-report", "--listen", "80"], "build-report.json cannot be read"],
  ])("refuses %j with one line and exit 2", (args, message) => {
    const result = run(...args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(message);
  });

  it("answers --help without side effects", () => {
    const result = run("--help");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("npm run hosting -- nginx --root DIR --listen ADDR");
  });
});
