/**
 * A reader of the served folder during a deploy (docs/operators.md "Deploy"): every file of the old build
 * answers until the new one is wholly in place, every file read is one build's bytes or the
 * other's (never half of one), a changed index appears only after every file of the new build
 * it could name, and a static host (the generated nginx block) never serves the deploy's record.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDist } from "../../build/build.ts";
import { deployBuild } from "../../cli/deploy/run-deploy.ts";
import { getDeployTier } from "../../core/deploy/tiers.ts";
import { renderNginxServer } from "../../core/hosting/nginx.ts";
import { generateSample } from "../../data/sample/generate.ts";
import { BASE_URL, isHistoryPath, makeTempDir } from "../helpers/fixture.ts";
import { findNginx, getFreePort, startNginx } from "../helpers/nginx.ts";
import { getCommandEnv, ROOT, TSX } from "../helpers/run-command.ts";

const dir = makeTempDir("deploy-readers");
const dist = join(dir, "dist");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Listing = Map<string, string>;
let before: Listing;
let after: Listing;

/** Builds a sample (a different seed changes nearly every file, drops some and adds others) and lists its manifest. */
function buildSample(seed: string): Listing {
  const db = join(dir, `sample-${seed}.sqlite`);
  generateSample({ scale: 1000, seed, out: db, asOf: "2026-11-15T18:00:00Z" });
  buildDist({ db, out: dist, baseUrl: BASE_URL, progress: null });
  const manifest = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8")) as { files: { path: string; sha256: string }[] };
  const listing = new Map(manifest.files.map((f) => [f.path, f.sha256]));
  listing.set("manifest.json", hash(readFileSync(join(dist, "manifest.json"))));
  return listing;
}

const hash = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function readHash(path: string): string | null {
  try {
    return hash(readFileSync(path));
  } catch {
    return null;
  }
}

/**
 * One pass over every path of either build, in an order that lets each read judge the ones after
 * it: files the new build drops first (once one is gone, every copy is done), then the indexes
 * (once one is new, every data file and page must be), then the rest. Fails on the first wrong
 * read; returns whether the pass saw the folder between the two builds.
 */
function checkFolder(www: string): boolean {
  const paths = [...new Set([...before.keys(), ...after.keys()])];
  const rank = (p: string) => (!after.has(p) ? 0 : ["indexes", "manifest"].includes(getDeployTier(p)) ? 1 : 2);
  paths.sort((a, b) => rank(a) - rank(b));
  let copiesDone = false;
  let indexesNew = false;
  const seen = { old: 0, new: 0 };
  const fail = (path: string, why: string) => expect.fail(`${path} ${why}`);
  for (const path of paths) {
    const [old, next] = [before.get(path), after.get(path)];
    const mustBeNew = next !== undefined && (copiesDone || (indexesNew && rank(path) === 2));
    const found = readHash(join(www, path));
    if (found === null) {
      if (old !== undefined && next !== undefined) fail(path, "is in both builds and missing");
      if (next === undefined) copiesDone = true;
      else if (mustBeNew) fail(path, "is missing though a file that may only follow it is in place");
      continue;
    }
    if (found !== old && found !== next) fail(path, "holds bytes of neither build");
    if (mustBeNew && found !== next) fail(path, "is not yet the new build's though a file that may only follow it is in place");
    if (old !== next) seen[found === next ? "new" : "old"]++;
    if (rank(path) === 1 && found === next && old !== next) indexesNew = true;
  }
  return seen.old > 0 && seen.new > 0;
}

describe("reading the served folder during a deploy", () => {
  const www = join(dir, "www");
  beforeAll(() => {
    before = buildSample("1");
    deployBuild(dist, www);
    after = buildSample("2");
  }, 180_000);

  it("never misses a file of either build nor reads half of one, while npm run deploy runs", async () => {
    const child = spawn(process.execPath, ["--import", TSX, join(ROOT, "cli/deploy.ts"), "--dist", dist, "--to", www], { cwd: dir, env: getCommandEnv(), stdio: "ignore" });
    let status: number | null | undefined;
    child.on("exit", (code) => (status = code));
    let between = 0;
    // Bounded: a pass is a few thousand reads, and the deploy ends within a few hundred of them.
    for (let pass = 0; pass < 2000 && status === undefined; pass++) {
      if (checkFolder(www)) between++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    while (status === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(status).toBe(0);
    expect(between, "no pass caught the deploy half-way").toBeGreaterThan(0);
    checkFolder(www);
    for (const [path, sha256] of after) expect(readHash(join(www, path)), path).toBe(sha256);
  }, 120_000);

  it("keeps the folder whole after each file it puts in place", () => {
    const back = join(dir, "www-back");
    [before, after] = [after, before];
    deployBuild(realpathSync(dist), back);
    const older = buildSample("1");
    // The same files, but for the change feed, which now follows the publish of sample 2.
    const content = (files: Map<string, string>) => [...files].filter(([path]) => !isHistoryPath(path));
    expect(content(older)).toEqual(content(after));
    [before, after] = [before, older];
    let between = 0;
    let puts = 0;
    // Every 100th file: a pass reads every file of both builds.
    deployBuild(dist, back, { onFile: () => void (++puts % 100 === 0 && checkFolder(back) && between++) });
    expect(between).toBeGreaterThan(0);
    checkFolder(back);
  }, 120_000);
});

const nginx = findNginx();
if (!nginx && process.env.CI === "true") throw new Error("nginx is not installed: .ci/run installs nginx-light; this test must not be skipped under CI");

describe.skipIf(!nginx)("the deploy's record on a static host", () => {
  it("is never served by the generated nginx block; the build's files are", async () => {
    const www = join(dir, "www-nginx");
    deployBuild(dist, www);
    const port = await getFreePort();
    const server = await startNginx(nginx!, join(dir, "nginx"), renderNginxServer({ root: www, listen: `127.0.0.1:${port}`, baseUrl: BASE_URL }), port);
    try {
      for (const path of ["_static-host/deploy/deployed.json", "_static-host/deploy/lock", "_static-host/deploy/"]) {
        expect((await fetch(`${server.url}/${path}`)).status, path).toBe(404);
      }
      const manifest = await fetch(`${server.url}/manifest.json`);
      expect(manifest.status).toBe(200);
      expect(hash(Buffer.from(await manifest.arrayBuffer()))).toBe(after.get("manifest.json"));
    } finally {
      server.stop();
    }
  }, 60_000);
});
