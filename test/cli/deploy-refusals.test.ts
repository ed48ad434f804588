/**
 * What `npm run deploy` refuses, each in one `error:` line and before it writes anything: a
 * `--to` that is the build, inside it, among the builds, above it, or a file (usage errors, exit
 * 2), and a state it cannot deploy from or into (no build yet, a record it cannot read, another
 * deploy under way: exit 1).
 */
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDist } from "../../build/build.ts";
import { BASE_URL, createSnapshot, makeTempDir } from "../helpers/fixture.ts";
import { runScript } from "../helpers/run-command.ts";

const dir = makeTempDir("deploy-refusals");
const dist = join(dir, "dist");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  buildDist({ db: createSnapshot(dir), out: dist, baseUrl: BASE_URL, progress: null });
  writeFileSync(join(dir, "a-file"), "not a folder");
});

const deploy = (args: string[]) => runScript("cli/deploy.ts", args, { cwd: dir });

/** The project folder's entries and the builds', to show a refusal wrote nothing. */
const listPlaces = () => [readdirSync(dir).sort(), readdirSync(join(dir, ".dist-builds")).sort()];

describe("npm run deploy refuses", () => {
  it.each([
    ["the dist link itself", ["--to", "dist"], /--to dist is inside the build it would deploy/],
    ["a folder inside the build", ["--to", "dist/api/new"], /--to dist\/api\/new is inside the build it would deploy/],
    ["the builds folder", ["--to", ".dist-builds"], /--to \.dist-builds is inside .*\.dist-builds, where the builds live/],
    ["a new folder among the builds", ["--to", ".dist-builds/www"], /where the builds live/],
    ["the folder holding dist", ["--to", "."], /--to \. holds the build itself/],
    ["an ancestor of dist", ["--to", "/"], /--to \/ holds the build itself/],
    ["a file", ["--to", "a-file"], /--to a-file is a file, not a folder/],
    ["no --to", [], /--to is required: npm run deploy -- --to DIR/],
    ["an unknown flag", ["--to", "www", "--bogus"], /unknown flag --bogus; .*--dry-run/],
  ])("%s, exit 2", async (_name, args, message) => {
    const before = listPlaces();
    const result = await deploy(args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^error: [^\n]+\n$/);
    expect(result.stderr).toMatch(message);
    expect(listPlaces()).toEqual(before);
  });

  it("to deploy before anything was built, exit 1", async () => {
    const result = await deploy(["--dist", "nothing-built", "--to", "www-none"]);
    expect(result).toMatchObject({ status: 1, stdout: "", stderr: "error: no build at nothing-built (no manifest.json): run npm run build first\n" });
    expect(readdirSync(dir)).not.toContain("www-none");
  });

  it("a record it cannot read, exit 1, and touches nothing", async () => {
    const www = join(dir, "www-bad-record");
    mkdirSync(join(www, "_static-host/deploy"), { recursive: true });
    writeFileSync(join(www, "_static-host/deploy/deployed.json"), '{"files":[{"path":');
    const result = await deploy(["--to", www]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error: .*deployed\.json is not a deploy record \(not JSON\): delete it and deploy again [^\n]*\n$/);
    expect(readdirSync(www)).toEqual(["_static-host"]);
    expect(readdirSync(join(www, "_static-host/deploy"))).toEqual(["deployed.json"]);
  });

  it("a second deploy while one is under way, exit 1; a lock whose process is gone is taken over", async () => {
    const www = join(dir, "www-locked");
    mkdirSync(join(www, "_static-host/deploy"), { recursive: true });
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      writeFileSync(join(www, "_static-host/deploy/lock"), `${holder.pid}\n`);
      const refused = await deploy(["--to", www]);
      expect(refused).toMatchObject({ status: 1, stderr: `error: another deploy (process ${holder.pid}) is writing to ${www}: wait until it ends\n` });
      expect(readdirSync(www)).toEqual(["_static-host"]);
    } finally {
      holder.kill("SIGKILL");
      await new Promise((resolve) => holder.once("exit", resolve));
    }
    const taken = await deploy(["--to", www]);
    expect(taken.stderr).toBe("");
    expect(taken.status).toBe(0);
    expect(readdirSync(join(www, "_static-host/deploy"))).toEqual(["deployed.json"]);
  });
});

describe("npm run deploy --help", () => {
  it("names every flag, exit 0, and writes nothing", async () => {
    const before = listPlaces();
    const result = await deploy(["--help", "--to", "www-help"]);
    expect(result.status).toBe(0);
    for (const flag of ["--to DIR", "--dry-run", "--dist DIR", "DEPLOY_TO", "DIST"]) expect(result.stdout).toContain(flag);
    expect(listPlaces()).toEqual(before);
  });
});
