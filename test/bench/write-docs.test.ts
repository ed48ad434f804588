/**
 * `npm run bench -- --write-docs` puts each table into its own section of docs/benchmarks.md and
 * touches nothing else; the committed page has a section for every benchmark, and each was
 * written by the bench, not by hand.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BENCH_NAMES, markerEnd, markerStart, readSectionRows, renderFigures, renderSection, replaceFigures, replaceSections, type BenchRecord } from "../../bench/write-docs.ts";
import { ROOT } from "../helpers/run-command.ts";

const record = (name: string, value: string): BenchRecord => ({
  name,
  title: `The ${name} bench`,
  command: `npm run bench -- --only ${name}`,
  rows: [{ metric: "full build", value, baseline: "floor | 10 s", ratio: "1.2×", target: "≤ 1.5×" }],
  day: "2026-11-27",
  machine: { cores: 2, cpu: "Some CPU", memoryGiB: 24, os: "Linux 6.1", node: "v20.19.0", loadBefore: 0.52, loadAfter: 1.9 },
});

describe("bench/write-docs.ts", () => {
  const page = ["# Benchmarks", "", "Words by hand.", "", markerStart("build"), "old table", markerEnd("build"), "", "After, by hand.", ""].join("\n");

  it("replaces one section between its markers and keeps every other byte", () => {
    const out = replaceSections(page, [record("build", "12 s")]);
    const before = page.slice(0, page.indexOf(markerStart("build")));
    const after = page.slice(page.indexOf(markerEnd("build")) + markerEnd("build").length);
    expect(out.startsWith(before)).toBe(true);
    expect(out.endsWith(after)).toBe(true);
    expect(out).not.toContain("old table");
    expect(out).toContain("| full build | 12 s | floor \\| 10 s | 1.2× | ≤ 1.5× |");
    expect(out).toContain("Written by `npm run bench -- --only build --write-docs` on 2026-11-27: 2 × Some CPU, 24 GiB, Linux 6.1, Node v20.19.0; load average 0.5 → 1.9");
    // Running again with new figures changes only the figures.
    expect(replaceSections(out, [record("build", "12 s")])).toBe(out);
    expect(replaceSections(out, [record("build", "13 s")])).toBe(out.replace("| 12 s |", "| 13 s |"));
  });

  it("marks a row indented under the one before, since a cell drops leading spaces", () => {
    const indented = { ...record("build", "1 s"), rows: [{ metric: "  its files", value: "3", baseline: "", ratio: "", target: "" }] };
    expect(renderSection(indented)).toContain("| · its files | 3 |");
  });

  it("adds a section the page does not have at the end, under the benchmark's title", () => {
    const out = replaceSections(page, [record("search", "1 ms")]);
    expect(out.startsWith(page.trimEnd())).toBe(true);
    expect(out.endsWith(`## The search bench\n\n${renderSection(record("search", "1 ms"))}\n`)).toBe(true);
  });

  it("refuses unpaired or repeated markers rather than guess where a section ends", () => {
    expect(() => replaceSections(`${markerStart("build")}\nno end`, [record("build", "1 s")])).toThrow(/unpaired or repeated/);
    expect(() => replaceSections(`${markerEnd("build")}\n${markerStart("build")}`, [record("build", "1 s")])).toThrow(/unpaired/);
    expect(() => replaceSections(`${markerStart("build")}${markerStart("build")}${markerEnd("build")}`, [record("build", "1 s")])).toThrow(/repeated/);
  });

  it("has written every section of the committed docs/benchmarks.md", () => {
    const committed = readFileSync(join(ROOT, "docs/benchmarks.md"), "utf8");
    for (const name of BENCH_NAMES) {
      const start = committed.indexOf(markerStart(name));
      const end = committed.indexOf(markerEnd(name));
      expect(start, `docs/benchmarks.md has no section for "${name}"`).toBeGreaterThan(-1);
      const section = committed.slice(start, end);
      expect(section, `the "${name}" section was not written by npm run bench -- --write-docs`).toMatch(
        new RegExp(`^${markerStart(name)}\\n.+\\. Written by \`npm run bench -- --only ${name}( --scale \\d+)? --write-docs\` on \\d{4}-\\d{2}-\\d{2}: `),
      );
      expect(section.split("\n").filter((line) => line.startsWith("| ")).length, `the "${name}" table has no rows`).toBeGreaterThan(2);
    }
  });
});

describe("the README's figures", () => {
  it("are the ones docs/benchmarks.md holds, as npm run bench -- --write-docs wrote them", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const page = readFileSync(join(ROOT, "docs/benchmarks.md"), "utf8");
    expect(readme, "run npm run bench -- --write-docs (or copy nothing by hand: the table is made from docs/benchmarks.md)").toBe(replaceFigures(readme, page));
    expect(renderFigures(page).split("\n").length, "every headline figure found in docs/benchmarks.md").toBe(3 + 10 + 1);
  });

  it("read each figure from its benchmark's table, cells unescaped", () => {
    const page = replaceSections("", [record("build", "90 s")]);
    expect(readSectionRows(page, "build")).toEqual(record("build", "90 s").rows);
    expect(renderFigures(page)).toContain("| [full build at 1 000 000 usernames, beside the disk's floor](docs/benchmarks.md#build) | 90 s | floor \\| 10 s | 1.2× |");
  });
});
