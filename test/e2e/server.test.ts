/**
 * The server around the data: files with the right headers, conditional requests, methods,
 * unknown routes, path safety, picking up a new build without a restart, and graceful shutdown.
 */
import { spawn } from "node:child_process";
import { readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BAD_ENCODING_DETAIL, formatProblem } from "../../core/routes/problem.ts";
import { createApp } from "../../server/app.ts";
import { FAULT_DETAIL } from "../../server/errors.ts";
import { FIXTURE_SQL, BASE_URL, buildFixture, createSnapshot, makeTempDir, type BuiltFixture } from "../helpers/fixture.ts";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("server");
});
afterAll(() => fixture.cleanup());

describe.each(CLIENT_KINDS)("files and protocol (%s)", (kind) => {
  let client: Client;
  beforeAll(async () => {
    client = await createClient(kind, fixture.dist);
  });
  afterAll(() => client.close());

  it("serves any file of dist with its content type, nosniff and a strong ETag", async () => {
    const res = await client.fetch("/api/companies/all.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(await res.text()).toBe(readFileSync(join(fixture.dist, "api/companies/all.json"), "utf8"));
  });

  it("serves extension-less paths the way a static host does (`.json` added)", async () => {
    const res = await client.fetch("/api/spammers/category/forex");
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).total).toBe(2);
  });

  it("answers If-None-Match with 304 and no body, for files and computed answers", async () => {
    for (const path of ["/manifest.json", "/api/companies?limit=2", "/api/check/spam_king", "/api/check/nobody"]) {
      const first = await client.fetch(path);
      const etag = first.headers.get("etag")!;
      const again = await client.fetch(path, { headers: { "if-none-match": `W/"other", ${etag}` } });
      expect(again.status, path).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(await again.text()).toBe("");
    }
  });

  it("marks the manifest no-cache and API files five minutes", async () => {
    expect((await client.fetch("/manifest.json")).headers.get("cache-control")).toBe("no-cache");
    expect((await client.fetch("/api/widget/alpha-leads")).headers.get("cache-control")).toBe("public, max-age=300");
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const get = await client.fetch("/api/company/alpha-leads");
    const head = await client.fetch("/api/company/alpha-leads", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(get.headers.get("etag"));
    expect(head.headers.get("content-length")).toBe(String((await get.arrayBuffer()).byteLength));
    expect(await head.text()).toBe("");
  });

  it.each([
    ["POST", "/api/companies"],
    ["DELETE", "/api/check/spam_king"],
    ["PUT", "/manifest.json"],
    ["PATCH", "/api/widget/alpha-leads"],
  ])("answers %s %s with 405, Allow and problem+json", async (method, path) => {
    const res = await client.fetch(path, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    expect(await res.json()).toMatchObject({ status: 405, title: "Method Not Allowed" });
  });

  it("answers OPTIONS with the allowed methods", async () => {
    const res = await client.fetch("/api/widget/alpha-leads", { method: "OPTIONS", headers: { origin: "https://x.example", "access-control-request-method": "GET" } });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it.each(["/nope", "/api/nope/deeper", "/api/check/", "/.dist-builds/x", "/%2e%2e/%2e%2e/etc/passwd", "/api/..%2f..%2fpackage.json"])(
    "answers %s with a JSON 404",
    async (path) => {
      const res = await client.fetch(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/(problem\+)?json/);
      const body = (await res.json()) as any;
      expect(body.status ?? 404).toBe(404);
    },
  );

  it.each(["/%E0%A4%A", "/api/check/%ZZ", "/api/badge/%.svg"])("answers %s, whose percent-encoding does not decode, with our problem+json 400", async (path) => {
    for (const method of ["GET", "DELETE", "OPTIONS"]) {
      const res = await client.fetch(path, { method });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
      expect(await res.text()).toBe(formatProblem(400, BAD_ENCODING_DETAIL));
    }
  });

  it.each([
    ["a file", "/manifest.json", {}, 200],
    ["a computed answer", "/api/companies?limit=1", {}, 200],
    ["a revalidated answer", "/api/companies?limit=1", { headers: { "if-none-match": "*" } }, 304],
    ["a route's own problem", "/api/companies?limit=0", {}, 422],
    ["the unknown-path 404", "/nope", {}, 404],
    ["a refused method", "/api/companies", { method: "DELETE" }, 405],
    ["the preflight", "/api/fingerprint/match", { method: "OPTIONS" }, 204],
    ["a path that does not decode", "/%ZZ", {}, 400],
  ] as const)("puts CORS and nosniff on every answer: %s", async (_, path, init, status) => {
    const res = await client.fetch(path, init);
    expect(res.status).toBe(status);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("describes the API at /openapi.json (the root is the build's landing page)", async () => {
    const res = await client.fetch("/openapi.json");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const body = (await res.json()) as any;
    expect(body.info.version).toBe("1.0.0");
    expect(body.servers).toEqual([{ url: BASE_URL }]);
    expect(Object.keys(body.paths)).toContain("/api/check/{identifier}");
    expect(body.paths["/api/fingerprint/match"].post.operationId).toBe("matchFingerprint");
  });
});

describe.each(CLIENT_KINDS)("a fault (%s)", (kind) => {
  it("reaches the client as our problem+json 500 with CORS and nosniff, and only the log hears what it was", async () => {
    // A build whose report is not JSON: every request fails while loading it.
    const dir = makeTempDir("fault");
    writeFileSync(join(dir, "build-report.json"), "{");
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const client = await createClient(kind, dir);
    try {
      for (const [path, init] of [["/api/companies", {}], ["/manifest.json", { method: "HEAD" }], ["/api/fingerprint/match", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }]] as const) {
        const res = await client.fetch(path, init);
        expect(res.status).toBe(500);
        expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
        expect(res.headers.get("access-control-allow-origin")).toBe("*");
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        expect(await res.text()).toBe(init.method === "HEAD" ? "" : formatProblem(500, FAULT_DETAIL));
      }
      expect(logged).toHaveBeenCalledTimes(3);
      expect(logged.mock.calls[0]![0]).toBeInstanceOf(SyntaxError);
    } finally {
      await client.close();
      logged.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a new build", () => {
  it("is picked up without a restart and without a failed request", async () => {
    const local = buildFixture("reload");
    try {
      const loaded: string[] = [];
      const app = createApp({ dist: local.dist, onBuildLoaded: (build) => loaded.push(`${build.id} ${build.asOf} ${build.counts.usernames}`) });
      const before = (await (await app.request("/build-report.json")).json()) as any;
      expect(before.source).toBe("Test fixture");
      let failures = 0;
      let running = true;
      const hammer = (async () => {
        let n = 0;
        while (running) {
          const res = await app.request(n++ % 2 ? "/api/companies?limit=1" : "/api/check/spam_king");
          if (res.status !== 200) failures++;
          await res.arrayBuffer();
          // A file held in memory is answered without I/O: let the build's exit event through.
          await new Promise((r) => setImmediate(r));
        }
        return n;
      })();
      const sql = FIXTURE_SQL.replace("'Test fixture'", "'Rebuilt'");
      // The build runs in its own process, as an operator's would, while requests keep coming.
      const next = createSnapshot(local.dir, sql, "next.sqlite");
      const build = spawn(process.execPath, ["--import", "tsx", "cli/build.ts", "--db", next, "--out", local.dist, "--base-url", BASE_URL], {
        cwd: new URL("../..", import.meta.url),
        stdio: "ignore",
      });
      expect(await new Promise((resolve) => build.on("exit", resolve))).toBe(0);
      await new Promise((r) => setTimeout(r, 400));
      running = false;
      expect(await hammer).toBeGreaterThan(10);
      expect(failures).toBe(0);
      const after = (await (await app.request("/build-report.json")).json()) as any;
      expect(after.source).toBe("Rebuilt");
      // Each build is announced once, when the server starts serving it.
      const id = () => basename(realpathSync(local.dist));
      expect(loaded).toEqual([`${local.summary.buildId} ${before.as_of} ${before.counts.usernames}`, `${id()} ${after.as_of} ${after.counts.usernames}`]);
    } finally {
      local.cleanup();
    }
  });
});

describe("npm run serve", () => {
  it("prints its URL, serves, and exits cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, ["cli/launch.mjs", "serve", "--dist", fixture.dist, "--port", "0", "--host", "127.0.0.1"], {
      cwd: new URL("../..", import.meta.url),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stderr.on("data", (d) => (output += d));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d) => {
        output += d;
        const m = /at (http:\/\/\S+)/.exec(output);
        if (m) resolve(m[1]!);
      });
      child.on("exit", () => reject(new Error(`server exited: ${output}`)));
    });
    const res = await fetch(new URL("/api/check/spam_king", url));
    await vi.waitFor(() => expect(output).toContain(`serve: loaded build ${fixture.summary.buildId}: as of 2026-03-11T10:00:00Z, 6 usernames, `));
    expect(res.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain("SIGTERM");
  });
});
