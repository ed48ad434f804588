/**
 * The incremental benchmark's floor of a day of changes writes what publishing the change has to
 * write: the files of the new build whose bytes the build before did not hold at that path (new
 * paths and changed ones), by size; unchanged files and files gone are not part of it.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listChangedSizes } from "../../bench/incremental.ts";
import { makeTempDir } from "../helpers/fixture.ts";

const dir = makeTempDir("incremental-floor");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hash = (c: string) => c.repeat(64);
const manifest = (name: string, files: [string, number, string][]) => {
  const path = join(dir, name);
  const lines = files.map(([p, size, sha]) => `{"path":"${p}","size":${size},"sha256":"${hash(sha)}"}`);
  writeFileSync(path, `{"files":[\n${lines.join(",\n")}\n],\n"as_of":"2026-11-29T00:00:00Z"}\n`);
  return path;
};

describe("bench/incremental.ts listChangedSizes", () => {
  it("lists the sizes of new and changed files, not of kept or gone ones", () => {
    const before = manifest("before.json", [
      ["api/check/a.json", 10, "a"],
      ["api/check/b.json", 20, "b"],
      ["api/check/gone.json", 30, "c"],
      ["company/x.html", 4000, "d"],
    ]);
    const after = manifest("after.json", [
      ["api/check/a.json", 10, "a"],
      ["api/check/b.json", 21, "e"],
      ["api/check/new.json", 40, "f"],
      ["company/x.html", 4000, "d"],
      ["company/x.html.gz", 900, "a"],
    ]);
    expect(listChangedSizes(before, after)).toEqual([21, 40, 900]);
  });
});
