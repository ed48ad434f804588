/**
 * The deploy plan from manifests alone (core/deploy/plan.ts): what is copied, in which order,
 * what is deleted, and what a deploy that died leaves for the next one to finish.
 */
import { describe, expect, it } from "vitest";
import { planDeploy, type ManifestFile } from "../../core/deploy/plan.ts";
import { getDeployTier } from "../../core/deploy/tiers.ts";

const file = (path: string, version = "a"): ManifestFile => ({ path, size: version.length, sha256: version.repeat(64).slice(0, 64) });

const OLD = [
  file("api/check/alice.json"),
  file("api/check/bob.json"),
  file("api/company/acme.json"),
  file("company/acme.html"),
  file("api/spammers.json"),
  file("api/companies/page/2.json"),
  file("search/live.bin"),
  file("index.html"),
  file("manifest.json"),
];

const paths = (files: readonly { path: string }[]) => files.map((f) => f.path);

describe("the deploy plan", () => {
  it("copies every file of a first deploy, data before pages before indexes, the manifest last", () => {
    const plan = planDeploy([...OLD].reverse(), { deployed: null });
    expect(paths(plan.copy)).toEqual([
      "api/company/acme.json",
      "api/check/bob.json",
      "api/check/alice.json",
      "company/acme.html",
      "index.html",
      "search/live.bin",
      "api/companies/page/2.json",
      "api/spammers.json",
      "manifest.json",
    ]);
    expect(plan.copy.every((c) => c.reason === "new")).toBe(true);
    expect(plan).toMatchObject({ remove: [], unchanged: 0 });
  });

  it("copies nothing for an identical build", () => {
    expect(planDeploy(OLD, { deployed: OLD })).toEqual({ copy: [], remove: [], unchanged: OLD.length });
  });

  it("copies only the files whose bytes changed, with why", () => {
    const next = OLD.map((f) => (["api/check/bob.json", "api/spammers.json", "manifest.json"].includes(f.path) ? file(f.path, "b") : f));
    const plan = planDeploy(next, { deployed: OLD });
    expect(plan.copy.map((c) => [c.path, c.tier, c.reason])).toEqual([
      ["api/check/bob.json", "data", "changed"],
      ["api/spammers.json", "indexes", "changed"],
      ["manifest.json", "manifest", "changed"],
    ]);
    expect(plan).toMatchObject({ remove: [], unchanged: OLD.length - 3 });
  });

  it("deletes the files of a removed username, after copying what changed with it", () => {
    const next = OLD.filter((f) => f.path !== "api/check/bob.json").map((f) => (f.path === "api/spammers.json" ? file(f.path, "b") : f));
    const plan = planDeploy(next, { deployed: OLD });
    expect(paths(plan.copy)).toEqual(["api/spammers.json"]);
    expect(plan.remove).toEqual(["api/check/bob.json"]);
  });

  it("after a deploy that died, copies again every file it may have touched and deletes what it may have added", () => {
    const half = [...OLD.map((f) => (f.path === "api/check/alice.json" ? file(f.path, "b") : f)), file("api/check/carol.json")];
    const next = [...OLD.filter((f) => f.path !== "api/check/bob.json"), file("api/check/dave.json")];
    const plan = planDeploy(next, { deployed: OLD, interrupted: [half] });
    expect(plan.copy.map((c) => [c.path, c.reason])).toEqual([
      ["api/check/alice.json", "unsettled"],
      ["api/check/dave.json", "new"],
    ]);
    // bob: the build dropped it; carol: only the dead deploy ever had it.
    expect(plan.remove).toEqual(["api/check/bob.json", "api/check/carol.json"]);
  });

  it("finishes a deploy that died when the same build is deployed again: only what changed, none settled twice", () => {
    const next = OLD.map((f) => (f.path === "index.html" ? file(f.path, "b") : f));
    const plan = planDeploy(next, { deployed: OLD, interrupted: [next] });
    expect(plan.copy.map((c) => [c.path, c.reason])).toEqual([["index.html", "unsettled"]]);
    expect(plan.unchanged).toBe(OLD.length - 1);
  });

  it("treats a file a dead deploy may have deleted as unsettled", () => {
    const dead = OLD.filter((f) => f.path !== "company/acme.html");
    const plan = planDeploy(OLD, { deployed: OLD, interrupted: [dead] });
    expect(plan.copy.map((c) => [c.path, c.reason])).toEqual([["company/acme.html", "unsettled"]]);
  });

  it.each(["/etc/passwd", "../x.json", "a//b.json", "a/./b", "a\\b", ""])("refuses a manifest naming %j", (path) => {
    expect(() => planDeploy([file(path)], { deployed: null })).toThrow(/not a path inside the folder/);
    expect(() => planDeploy([], { deployed: [file(path)] })).toThrow(/not a path inside the folder/);
  });

  it("refuses a build that lists a file twice", () => {
    expect(() => planDeploy([file("a.json"), file("a.json", "b")], { deployed: null })).toThrow(/lists a.json twice/);
  });
});

describe("deploy tiers", () => {
  it.each([
    ["api/check/alice.json", "data"],
    ["api/badge/acme.svg", "data"],
    ["dumps/2026-W46.csv.gz", "data"],
    ["company/acme.html", "pages"],
    ["embed/card/acme.html", "pages"],
    ["api/companies/page/3.json", "indexes"],
    ["api/spammers/category/crypto.json", "indexes"],
    ["rss/category/crypto.rss", "indexes"],
    ["rss/all.rss", "indexes"],
    ["search/global.json", "indexes"],
    ["dumps/datapackage.json", "indexes"],
    ["openapi.json", "indexes"],
    ["_redirects", "indexes"],
    ["something/unknown.txt", "indexes"],
    ["manifest.json", "manifest"],
  ])("%s is %s", (path, tier) => {
    expect(getDeployTier(path)).toBe(tier);
  });
});
