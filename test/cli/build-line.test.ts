/**
 * The build's last line (docs/incremental-builds.md): which kind of build it was, with its
 * counts, and for an incremental one the dumps' gzip members it took from the current build and
 * the kept dump files it could not use — the first two named, the rest counted, so that a damaged
 * folder of a hundred weekly dumps does not make a line of a hundred reasons.
 */
import { describe, expect, it } from "vitest";
import type { BuildMode } from "../../build/build.ts";
import { describeMode } from "../../cli/run-steps.ts";

const incremental = (dumpMembers: Extract<BuildMode, { mode: "incremental" }>["dumpMembers"]): BuildMode => ({
  mode: "incremental",
  base: "previous",
  reports: { usernames: 102 },
  unmade: 1_178_469,
  changed: { usernames: 102, companies: 26 },
  dumpMembers,
  written: 1_426,
  kept: 1_576_648,
  deleted: 0,
});

describe("the build's last line", () => {
  it("counts the dump members reused", () => {
    expect(describeMode(incremental({ reused: 1_483, made: 194, refused: [] }))).toBe(
      "incremental: 102 usernames, 26 companies changed; 1,426 files written, 1,576,648 kept, 0 deleted; reports of 102 usernames read again, 1,178,469 files not made again; 1,483 of 1,677 dump members reused",
    );
  });

  it("names the first two kept dump files it could not use and counts the others", () => {
    const refused = ["dumps/a.csv.gz: not the file the state describes", "dumps/b.csv.gz: not the file the state describes", "dumps/c.csv.gz: gone", "dumps/d.csv.gz: gone"];
    expect(describeMode(incremental({ reused: 0, made: 40, refused: refused.slice(0, 1) }))).toMatch(/; 0 of 40 dump members reused \(not used: dumps\/a\.csv\.gz: not the file the state describes\)$/);
    expect(describeMode(incremental({ reused: 0, made: 40, refused }))).toMatch(
      /; 0 of 40 dump members reused \(not used: dumps\/a\.csv\.gz: not the file the state describes; dumps\/b\.csv\.gz: not the file the state describes; and 2 more\)$/,
    );
  });

  it("says nothing of the dumps when no member was made (a build that ran no dump)", () => {
    expect(describeMode(incremental({ reused: 0, made: 0, refused: [] }))).not.toMatch(/dump members/);
  });
});
