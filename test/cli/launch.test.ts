/**
 * cli/launch.mjs: `npm run serve` runs JavaScript compiled from the sources, never stale against
 * them. Checked on a small project of its own (a temporary folder with an entry of the launcher's
 * name), so that the checkout's sources are never touched.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureCompiled, isFresh } from "../../cli/launch.mjs";
import { ROOT } from "../helpers/run-command.ts";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "launch-"));
  mkdirSync(join(root, "cli"));
  mkdirSync(join(root, "node_modules"));
  symlinkSync(join(ROOT, "node_modules/esbuild"), join(root, "node_modules/esbuild"));
  writeFileSync(join(root, "package.json"), '{ "type": "module" }\n');
  writeFileSync(join(root, "tsconfig.json"), "{}\n");
  writeFileSync(join(root, "cli/serve.ts"), 'import { greeting } from "./greeting.ts";\nconsole.log(greeting);\n');
  writeFileSync(join(root, "cli/greeting.ts"), 'export const greeting: string = "hello";\n');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

/** esbuild service processes of this test process (the test runner may have one of its own). */
const listEsbuildChildren = (): string[] => spawnSync("pgrep", ["-P", String(process.pid), "-f", "esbuild"]).stdout.toString().split("\n").filter(Boolean);

const compile = (): Promise<string | null> => ensureCompiled("serve", root);

describe("the compiled server", () => {
  it("is made from the entry and what it imports, and names each of them with its hash on its first line", async () => {
    const before = listEsbuildChildren();
    const out = await compile();
    expect(out).toBe(join(root, "node_modules/.cache/spamcheck-api/serve.mjs"));
    const code = readFileSync(out!, "utf8");
    expect(code).toContain('"hello"');
    const stamp = JSON.parse(code.slice("// compiled from: ".length, code.indexOf("\n"))) as Record<string, string>;
    expect(Object.keys(stamp)).toEqual(["cli/greeting.ts", "cli/serve.ts", "node_modules/esbuild/package.json", "package.json", "tsconfig.json"]);
    expect(isFresh(out, root)).toBe(true);
    // esbuild's service process is stopped once it has compiled (it would otherwise live as long
    // as this process): a server compiled at its start runs alone.
    await expect.poll(listEsbuildChildren, { timeout: 2000 }).toEqual(before);
  });

  it("is used as it is while no source changed, and made again when one did, whatever the file times say", async () => {
    const out = (await compile())!;
    const made = statSync(out).mtimeMs;
    expect(await compile()).toBe(out);
    expect(statSync(out).mtimeMs).toBe(made);
    // The same size and time: only the bytes differ.
    const greeting = join(root, "cli/greeting.ts");
    const { atime, mtime } = statSync(greeting);
    writeFileSync(greeting, 'export const greeting: string = "howdy";\n');
    utimesSync(greeting, atime, mtime);
    expect(isFresh(out, root)).toBe(false);
    await compile();
    expect(readFileSync(out, "utf8")).toContain('"howdy"');
    expect(isFresh(out, root)).toBe(true);
  });

  it("is made again when its settings change or it is damaged", async () => {
    const out = (await compile())!;
    writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": {} }\n');
    expect(isFresh(out, root)).toBe(false);
    await compile();
    writeFileSync(out, "// compiled from: {not json\n");
    expect(isFresh(out, root)).toBe(false);
    await compile();
    expect(isFresh(out, root)).toBe(true);
  });

  it("where it cannot be written, is not made: the server then runs from the sources", async () => {
    writeFileSync(join(root, "node_modules/.cache"), "a file where the cache folder would be");
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    try {
      expect(await compile()).toBeNull();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.join("\n")).toMatch(/cannot be written at node_modules\/\.cache\/spamcheck-api\/serve\.mjs \(ENOTDIR\): running from the TypeScript sources/);
  });
});
