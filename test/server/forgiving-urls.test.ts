/**
 * URLs that forgive (issue 15): every route that takes a slug, a company or a username reads
 * another spelling of it as the JSON routes do (core/lookup.ts). Badges, cards, their endpoint
 * JSON and embeds answer the canonical resource's bytes; pages answer a 301 to the canonical URL.
 * What names nothing answers something an `<img>` or an iframe can show: the SVG "not found"
 * badge, the embeds' HTML page, the site's 404 page. In-process and over HTTP.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";
import { BASE_URL, buildFixture, type BuiltFixture } from "../helpers/fixture.ts";

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("forgiving-urls");
});
afterAll(() => fixture.cleanup());

const file = (path: string) => readFileSync(join(fixture.dist, path), "utf8");
const name = (text: string) => encodeURIComponent(text);

describe.each(CLIENT_KINDS)("URLs that forgive (%s)", (kind) => {
  let client: Client;
  beforeAll(async () => {
    client = await createClient(kind, fixture.dist);
  });
  afterAll(() => client.close());

  it.each([
    ["/api/badge/{}.svg", "api/badge/alpha-leads.svg", "image/svg+xml; charset=utf-8"],
    ["/api/badge/{}.json", "api/badge/alpha-leads.json", "application/json; charset=utf-8"],
    ["/api/card/{}.svg", "api/card/alpha-leads.svg", "image/svg+xml; charset=utf-8"],
    ["/embed/counter-dark/{}", "embed/counter-dark/alpha-leads.html", "text/html; charset=utf-8"],
  ])("answers %s by slug or name, any case or spaces, with the canonical file's bytes", async (template, path, type) => {
    const canonical = await client.fetch(template.replace("{}", "alpha-leads"));
    const etag = canonical.headers.get("etag");
    for (const spelling of ["ALPHA-LEADS", "Alpha%20Leads", "alpha%20leads", "%20Alpha-Leads%20"]) {
      const res = await client.fetch(template.replace("{}", spelling));
      expect([res.status, res.headers.get("content-type"), res.headers.get("cache-control")], spelling).toEqual([200, type, "public, max-age=300"]);
      expect(res.headers.get("etag"), spelling).toBe(etag);
      expect(await res.text(), spelling).toBe(file(path));
    }
  });

  it("finds a Cyrillic name in any case, and a name two companies share as the better-ranked one", async () => {
    expect(await (await client.fetch(`/api/badge/${name("БЕТА партнёры")}.svg`)).text()).toBe(file("api/badge/beta-partnery.svg"));
    // "Zed Network" (3 complaints) and "zed network" (2): the name finds the first, its slug the second.
    expect(await (await client.fetch(`/api/card/${name("ZED NETWORK")}.svg`)).text()).toBe(file("api/card/zed-network.svg"));
    expect(await (await client.fetch("/api/card/Zed-Network-2.svg")).text()).toBe(file("api/card/zed-network-2.svg"));
  });

  it.each(["SpinBit", "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "bad%20slug!", "..."])("answers the badge and card of %s, which names nothing, with the SVG not-found badge", async (key) => {
    for (const path of [`/api/badge/${key}.svg`, `/api/card/${key}.svg`]) {
      const res = await client.fetch(path);
      expect([res.status, res.headers.get("content-type"), res.headers.get("cache-control")], path).toEqual([404, "image/svg+xml; charset=utf-8", "no-store"]);
      expect(await res.text(), path).toBe(file("404.svg"));
    }
    const json = await client.fetch(`/api/badge/${key}.json`);
    expect([json.status, json.headers.get("content-type")]).toEqual([404, "application/problem+json; charset=utf-8"]);
    const embed = await client.fetch(`/embed/badge/${key}`);
    expect([embed.status, embed.headers.get("content-type")]).toEqual([404, "text/html; charset=utf-8"]);
    expect(embed.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await embed.text()).toBe(file("embed/404.html"));
  });

  it.each([
    ["/company/Alpha%20Leads", "/company/alpha-leads"],
    ["/company/ALPHA-LEADS?ref=readme", "/company/alpha-leads?ref=readme"],
    ["/company/%D0%B1%D0%B5%D1%82%D0%B0%20%D0%BF%D0%B0%D1%80%D1%82%D0%BD%D1%91%D1%80%D1%8B", "/company/beta-partnery"],
    ["/people/Ivan-Petrov", "/people/ivan-petrov"],
    ["/glossary/%20HOSTILE-TERM", "/glossary/hostile-term"],
    ["/videos/Formula-Video", "/videos/formula-video"],
    ["/video-channels/Spam-Watch-TV", "/video-channels/spam-watch-tv"],
    ["/channels/@SpamWatch_News", "/channels/spamwatch_news"],
    ["/chats/%40Traders_Chat", "/chats/traders_chat"],
    ["/blog/Hostile-Post", "/blog/hostile-post"],
  ])("redirects the page %s to its canonical URL %s, permanently", async (path, canonical) => {
    for (const method of ["GET", "HEAD"]) {
      const res = await client.fetch(path, { method, redirect: "manual" });
      expect([res.status, res.headers.get("location"), res.headers.get("cache-control")], method).toEqual([301, `${BASE_URL}${canonical}`, "public, max-age=300"]);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(await res.text()).toBe("");
    }
    const target = await client.fetch(canonical);
    expect([target.status, target.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
  });

  it.each(["/company/spinbit", "/company/SpinBit", "/people/nobody", "/chats/@nobody_chat", "/chats/bad%20name!", "/blog/%3Cscript%3E", "/video-channels/-x"])(
    "answers the page %s, which names nothing, with the site's HTML 404 page",
    async (path) => {
      const res = await client.fetch(path, { redirect: "manual" });
      expect([res.status, res.headers.get("content-type"), res.headers.get("cache-control")]).toEqual([404, "text/html; charset=utf-8", "no-store"]);
      expect(await res.text()).toBe(file("404.html"));
    },
  );

  it("still serves every canonical URL as it is, without a redirect", async () => {
    for (const path of ["/company/alpha-leads", "/chats/traders_chat", "/api/badge/alpha-leads.svg", "/embed/badge/alpha-leads"]) {
      expect((await client.fetch(path, { redirect: "manual" })).status, path).toBe(200);
    }
  });
});
