/**
 * A deployment under a path prefix, mounted as docs/operators.md "Base URL with a path" says: an outer nginx
 * location /spam-api/ strips the prefix and passes to the generated nginx block, which passes what
 * the files cannot answer to the live server. Every URL followed here goes through the prefix, as
 * a browser on the deployment would follow it.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderNginxServer } from "../../core/hosting/nginx.ts";
import { startServer, type RunningServer } from "../../server/listen.ts";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";
import { findNginx, getFreePort, startNginx, type RunningNginx } from "../helpers/nginx.ts";

const nginx = findNginx();
if (!nginx && process.env.CI === "true") throw new Error("nginx is not installed: .ci/run installs nginx-light; this test must not be skipped under CI");

describe.skipIf(!nginx)("a build under /spam-api behind a proxy that strips the prefix", () => {
  let built: BuiltFixture;
  let live: RunningServer;
  let front: RunningNginx;
  let base: string;

  beforeAll(async () => {
    const [frontPort, hostPort] = [await getFreePort(), await getFreePort()];
    base = `http://127.0.0.1:${frontPort}/spam-api`;
    built = buildFixture("base-path", undefined, { baseUrl: base });
    live = await startServer({ dist: built.dist, port: 0, host: "127.0.0.1" });
    const host = renderNginxServer({ root: built.dist, listen: `127.0.0.1:${hostPort}`, upstream: live.url.replace(/\/$/, ""), baseUrl: base });
    // The outer site, as an operator writes it: the trailing slash of proxy_pass replaces /spam-api/ by /.
    const outer = `server {\n  listen 127.0.0.1:${frontPort};\n  location /spam-api/ {\n    proxy_pass http://127.0.0.1:${hostPort}/;\n    proxy_set_header Host $http_host;\n  }\n}\n`;
    mkdirSync(join(built.dir, "nginx"));
    front = await startNginx(nginx!, join(built.dir, "nginx"), `${host}\n${outer}`, frontPort);
  }, 120_000);

  afterAll(async () => {
    front?.stop();
    await live?.close();
    built?.cleanup();
  });

  it("answers global search with urls that lead to the pages through the prefix", async () => {
    const answer = await (await fetch(`${base}/api/search/global?q=Alpha`)).json();
    const urls: string[] = answer.results.flatMap((group: { items: { url: string }[] }) => group.items.map((item) => item.url));
    expect(urls).toContain("/spam-api/company/alpha-leads");
    for (const url of urls) {
      const res = await fetch(new URL(url, base), { redirect: "manual" });
      await res.arrayBuffer();
      expect([url, res.status]).toEqual([url, 200]);
    }
  });

  it("redirects another spelling of a page to its canonical URL under the prefix, through both nginx layers", async () => {
    const res = await fetch(`${base}/company/Alpha%20Leads`, { redirect: "manual" });
    expect([res.status, res.headers.get("location")]).toEqual([301, `${base}/company/alpha-leads`]);
    const page = await fetch(res.headers.get("location")!);
    expect([page.status, await page.text()]).toEqual([200, expect.stringContaining(`<a href="${base}/companies">`)]);
  });

  it("links the next page of a list under the prefix, from the nginx block and from the live server", async () => {
    for (const path of ["/api/companies?limit=1", "/api/companies?limit=1&page=2&category=crypto"]) {
      const res = await fetch(`${base}${path}`);
      await res.arrayBuffer();
      const next = /<([^>]+)>; rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
      expect(next, path).toMatch(new RegExp(`^${base}/api/companies\\?`));
      expect((await fetch(next!)).status, next).toBe(200);
    }
  });

  it("sends the bare prefix to the home page", async () => {
    const res = await fetch(base, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(new URL(res.headers.get("location")!, base).href).toBe(`${base}/`);
    expect((await fetch(`${base}/`)).status).toBe(200);
  });
});
