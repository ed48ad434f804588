/**
 * What the build publishes for fingerprint matching: dist/fingerprint/index.json and
 * profiles.json hold public profiles only, and the rows it could not use are in the build report.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMITTERS } from "../../build/emitters/index.ts";
import { createFingerprintIndex, createMatcher, type FingerprintProfile } from "../../core/fingerprint/index.ts";
import type { BuiltFixture } from "../helpers/fixture.ts";
import { BOUNDARY_PROFILE, buildFingerprintFixture } from "../helpers/fingerprint.ts";

const PUBLIC_IDS = [1, 3, 10, 11, 12, 13, 14, 15, 22];

let fixture: BuiltFixture;
const readDist = (path: string) => readFileSync(join(fixture.dist, path), "utf8");
beforeAll(() => {
  fixture = buildFingerprintFixture("fp-build");
});
afterAll(() => fixture.cleanup());

describe("the fingerprint emitter", () => {
  it("runs after the company list and before the report that counts its rejections", () => {
    const names = EMITTERS.map((e) => e.name);
    expect(names[0]).toBe("check");
    expect(names.indexOf("fingerprint")).toBeGreaterThan(names.indexOf("companies"));
    expect(names.indexOf("report")).toBe(names.length - 1);
  });

  it("writes the public profiles by id, with the reference's fields only", () => {
    const { profiles } = JSON.parse(readDist("fingerprint/profiles.json"));
    expect(profiles.map((p: { id: number }) => p.id)).toEqual(PUBLIC_IDS);
    expect(profiles[0]).toEqual(BOUNDARY_PROFILE);
    for (const profile of profiles) {
      expect(Object.keys(profile)).toEqual(["id", "label", "kind", "name", "os_family", "trust_level", "observations"]);
    }
  });

  it("writes the index the server loads, equal to the core's own for the same rows", () => {
    const index = JSON.parse(readDist("fingerprint/index.json"));
    const rows = fixture.sql.prepare("SELECT * FROM fp_profiles WHERE id NOT IN (20, 21)").all() as FingerprintProfile[];
    const signals = fixture.sql.prepare("SELECT profile_id, key, value FROM fp_signals ORDER BY profile_id, rowid").all() as { profile_id: number; key: string; value: string }[];
    const expected = createFingerprintIndex(
      rows.map((row) => ({ ...row, os_family: row.os_family?.toLowerCase() ?? null, signals: signals.filter((s) => s.profile_id === row.id) })),
    );
    expect(index).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(createMatcher(index).profileCount).toBe(PUBLIC_IDS.length);
  });

  it("never publishes a non-public or rejected profile, nor any confirmation count, in any file", () => {
    const root = fixture.summary.buildDir;
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(dir, entry.name));
        else files.push(join(dir, entry.name));
      }
    };
    walk(root);
    expect(files.map((f) => relative(root, f))).toEqual(expect.arrayContaining(["fingerprint/index.json", "fingerprint/profiles.json"]));
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const secret of ["Crowd at 49", "Hidden49", "fx-c49", "fx-robot", "fx-verified", "fx-orphan", "confirmations"]) {
        expect(text.includes(secret), `${relative(root, file)} contains ${secret}`).toBe(false);
      }
    }
  });

  it("counts what it could not use in the build report, with samples for the operator only", () => {
    // A rejected profile may be one that is not public: its signals must not reach dist.
    expect(readDist("build-report.json")).not.toMatch(/curl\/8\.5\.0|profile_id/);
    const byReason = new Map<string, unknown>(fixture.summary.rejections.map((r) => [r.reason, r]));
    expect(byReason.get("fingerprint_profile_invalid")).toMatchObject({
      count: 2,
      samples: [{ profile_id: 20, problem: 'unknown kind "robot"' }, { profile_id: 21, problem: 'unknown trust_level "verified"' }],
    });
    expect(byReason.get("fingerprint_signal_unknown_key")).toMatchObject({ count: 1, samples: [{ profile_id: 22, key: "user_agent", value: "curl/8.5.0" }] });
    expect(byReason.get("fingerprint_signal_bad_value")).toMatchObject({
      count: 2,
      samples: [{ profile_id: 22, key: "ja3", value: "", length: 0 }, { profile_id: 22, key: "ja3", length: 256 }],
    });
  });
});
