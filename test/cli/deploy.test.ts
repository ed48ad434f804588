/**
 * `npm run deploy` on real builds of small real snapshots into real folders: a first deploy, an
 * identical rebuild (nothing copied), one more report for one username (only the files that
 * changed), a removed username (its files deleted after the rest), a deploy that dies half-way
 * and its re-run (the folder then equals the build byte for byte), and `--dry-run`.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildDist } from "../../build/build.ts";
import { deployBuild } from "../../cli/deploy/run-deploy.ts";
import { BASE_URL, createSnapshot, FIXTURE_SQL, isHistoryPath, makeTempDir } from "../helpers/fixture.ts";
import { runScript } from "../helpers/run-command.ts";

const dir = makeTempDir("deploy");
const dist = join(dir, "dist");
const www = join(dir, "www");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ONE_MORE_REPORT = `${FIXTURE_SQL}
INSERT INTO reports (id, username, category, company_id, person_id, reporter, confidence, created_at)
  VALUES (9001, 'solo_user', NULL, NULL, NULL, 'r9', 50, '2025-06-02T12:00:00Z');`;
const SOLO_REMOVED = `${FIXTURE_SQL}\nDELETE FROM reports WHERE username = 'solo_user';`;
const RECORD = "_static-host/deploy/";

function build(sql: string): Map<string, string> {
  const db = createSnapshot(dir, sql);
  buildDist({ db, out: dist, baseUrl: BASE_URL, progress: null });
  return listFiles(realpathSync(dist));
}

/** Every file under `root` by path, with its SHA-256; the deploy's own record left out. */
function listFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = relative(root, join(entry.parentPath, entry.name));
    if (!path.startsWith(RECORD)) files.set(path, createHash("sha256").update(readFileSync(join(root, path))).digest("hex"));
  }
  return files;
}

/** Paths of `next` that `previous` lacks or holds other bytes of. */
const getChanged = (previous: Map<string, string>, next: Map<string, string>) => [...next].filter(([path, hash]) => previous.get(path) !== hash).map(([path]) => path);

const deploy = (...extra: string[]) => runScript("cli/deploy.ts", ["--dist", dist, "--to", www, ...extra], { cwd: dir });

describe("npm run deploy", () => {
  let deployed = new Map<string, string>();

  it("copies a whole build into an empty folder, which then equals the build byte for byte", async () => {
    deployed = build(FIXTURE_SQL);
    const result = await deploy();
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^deployed to ${www}: ${deployed.size} copied \\(\\d+ data, \\d+ pages, \\d+ indexes, 1 manifest\\), 0 deleted, 0 unchanged\\n$`));
    expect(listFiles(www)).toEqual(deployed);
    expect(readdirSync(join(www, RECORD)).sort()).toEqual(["deployed.json"]);
  });

  it("copies nothing for an identical rebuild", async () => {
    expect(build(FIXTURE_SQL)).toEqual(deployed);
    const result = await deploy();
    expect(result.stdout).toBe(`deployed to ${www}: 0 copied, 0 deleted, ${deployed.size} unchanged\n`);
    expect(listFiles(www)).toEqual(deployed);
  });

  it("--dry-run prints the plan of one more report as JSON and changes nothing", async () => {
    const next = build(ONE_MORE_REPORT);
    const result = await deploy("--dry-run");
    expect(result.status).toBe(0);
    const plan = JSON.parse(result.stdout) as { copy: { path: string; reason: string }[]; remove: string[]; unchanged: number };
    expect(plan.copy.map((c) => c.path).sort()).toEqual(getChanged(deployed, next).sort());
    // Changed files, and the new publish's change files (named by its build id).
    expect(plan.copy.filter((c) => c.reason !== "changed" && !(c.reason === "new" && isHistoryPath(c.path)))).toEqual([]);
    expect(plan.remove).toEqual([]);
    expect(listFiles(www)).toEqual(deployed);
  });

  it("copies only the files one more report for one username changed", async () => {
    const next = build(ONE_MORE_REPORT);
    const changed = getChanged(deployed, next);
    expect(changed).toContain("api/check/solo_user.json");
    // A handful of data files and pages, and the change feed's (the new change files, their index and feeds).
    expect(changed.filter((path) => !isHistoryPath(path)).length).toBeLessThan(50);
    expect(changed.filter(isHistoryPath).length).toBeLessThan(25);
    const copied: string[] = [];
    const summary = deployBuild(dist, www, { onFile: (path, result) => result === "copied" && copied.push(path) });
    expect(copied.sort()).toEqual(changed.sort());
    expect(summary).toMatchObject({ inPlace: 0, removed: 0 });
    expect(listFiles(www)).toEqual(next);
    deployed = next;
  });

  it("deletes a removed username's files only after everything else is in place", () => {
    const next = build(SOLO_REMOVED);
    const gone = [...deployed.keys()].filter((path) => !next.has(path));
    expect(gone).toContain("api/check/solo_user.json");
    const presentDuringCopies = new Set<boolean>();
    const summary = deployBuild(dist, www, { onFile: () => presentDuringCopies.add(gone.every((path) => existsSync(join(www, path)))) });
    expect([...presentDuringCopies]).toEqual([true]);
    expect(summary.removed).toBe(gone.length);
    expect(listFiles(www)).toEqual(next);
    deployed = next;
  });

  it("finishes a deploy that died half-way when run again: the folder then equals the build", async () => {
    const next = build(ONE_MORE_REPORT);
    const changed = getChanged(deployed, next);
    let puts = 0;
    const dieAfterThree = () => {
      if (++puts === 3) throw new Error("killed half-way");
    };
    expect(() => deployBuild(dist, www, { onFile: dieAfterThree })).toThrow("killed half-way");
    expect(listFiles(www)).not.toEqual(next);
    expect(readdirSync(join(www, RECORD)).filter((name) => name.startsWith("pending-"))).toHaveLength(1);

    const result = await deploy();
    expect(result.stderr).toBe("");
    // The re-run trusts no file the dead deploy may have touched; the three it finished are found in place.
    const removed = [...deployed.keys()].filter((path) => !next.has(path)).length;
    const line = /^deployed to .*: (\d+) copied \(.*\), 3 already in place, (\d+) deleted, (\d+) unchanged\n$/.exec(result.stdout);
    expect(line?.slice(1).map(Number)).toEqual([changed.length - 3, removed, next.size - changed.length]);
    expect(listFiles(www)).toEqual(next);
    expect(readdirSync(join(www, RECORD)).sort()).toEqual(["deployed.json"]);
    deployed = next;
  });
});
