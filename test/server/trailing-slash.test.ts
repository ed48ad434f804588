/**
 * One form for each page, with or without a trailing slash as the route table writes it: the
 * other form is a 301 to it (when the page exists), and a path that is no file, asked by a
 * browser, is the site's HTML 404 page while an API client keeps problem+json. The generated
 * nginx block does the same (test/e2e/hosting-nginx.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { BASE_URL, buildFixture, type BuiltFixture } from "../helpers/fixture.ts";

let fixture: BuiltFixture;
let app: ReturnType<typeof createApp>;
beforeAll(() => {
  fixture = buildFixture("trailing-slash");
  app = createApp({ dist: fixture.dist, fingerprintRateLimit: 0 });
});
afterAll(() => fixture.cleanup());

const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

describe("trailing slashes", () => {
  it.each([
    ["/docs/", "/docs"],
    ["/companies/", "/companies"],
    ["/dumps", "/dumps/"],
    ["/company/alpha-leads/", "/company/alpha-leads"],
    ["/docs/?lang=en", "/docs?lang=en"],
  ])("%s is a 301 to %s", async (path, target) => {
    const response = await app.request(path);
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe(`${BASE_URL}${target}`);
    const followed = await app.request(target);
    expect(followed.status).toBe(200);
    expect(followed.headers.get("content-type")).toMatch(/^text\/html/);
  });

  it("answers each page at its own form, and redirects nothing that is no page", async () => {
    for (const path of ["/docs", "/companies", "/dumps/", "/company/alpha-leads", "/"]) expect((await app.request(path)).status, path).toBe(200);
    // A page that does not exist has no other form to go to; an API path is no page.
    for (const path of ["/company/no-such-company/", "/api/companies/", "/api/check/spam_king/"]) expect((await app.request(path)).status, path).toBe(404);
  });
});

describe("a path that is no file", () => {
  it("is the site's HTML 404 page for a browser, and problem+json for anyone else, whichever asks first", async () => {
    for (const order of [
      [BROWSER, {}],
      [{}, BROWSER],
    ]) {
      const path = `/no-such-page-${order[0] === BROWSER ? "a" : "b"}`;
      for (const headers of order) {
        const response = await app.request(path, { headers });
        expect(response.status).toBe(404);
        if (headers === BROWSER) {
          expect(response.headers.get("content-type")).toMatch(/^text\/html/);
          expect(response.headers.get("cache-control")).toBe("no-store");
          expect(await response.text()).toContain("<html");
        } else {
          expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
        }
      }
    }
  });

  it("stays problem+json under /api/ even for a browser", async () => {
    const response = await app.request("/api/no-such-route", { headers: BROWSER });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });
});
