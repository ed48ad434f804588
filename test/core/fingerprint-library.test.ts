import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  MAX_SIGNAL_VALUE_LENGTH,
  PROFILE_KINDS,
  SIGNAL_KEYS,
  TRUST_LEVELS,
  createFingerprintIndex,
  createMatcher,
  isPublicProfile,
  type FingerprintProfileWithSignals,
} from "../../core/fingerprint/index.ts";
import { importFingerprintLibrary } from "../../data/fingerprints/import.ts";
import { parseFingerprintLibrary, readFingerprintLibrary, toProfilesWithSignals } from "../../data/fingerprints/library.ts";

const library = readFingerprintLibrary();
const publicProfiles = library.profiles.filter(isPublicProfile);
const hiddenProfiles = library.profiles.filter((p) => !isPublicProfile(p));
const matcher = createMatcher(createFingerprintIndex(toProfilesWithSignals(library)));

const sameSignals = (a: Record<string, string>, b: Record<string, string>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

describe("the shipped fingerprint library", () => {
  it("is dated and carries a licence note", () => {
    expect(library.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(library.license_note.length).toBeGreaterThan(40);
  });

  it("holds 40 to 80 profiles with unique ids, valid kinds, trust levels, keys and values", () => {
    expect(library.profiles.length).toBeGreaterThanOrEqual(40);
    expect(library.profiles.length).toBeLessThanOrEqual(80);
    expect(new Set(library.profiles.map((p) => p.id)).size).toBe(library.profiles.length);
    for (const p of library.profiles) {
      expect(PROFILE_KINDS, `profile ${p.id}`).toContain(p.kind);
      expect(TRUST_LEVELS, `profile ${p.id}`).toContain(p.trust_level);
      expect(p.source.trim(), `profile ${p.id}`).not.toBe("");
      expect(p.os_family === null || p.os_family === p.os_family.toLowerCase(), `profile ${p.id}`).toBe(true);
      for (const [key, value] of Object.entries(p.signals)) {
        expect(SIGNAL_KEYS, `profile ${p.id}`).toContain(key);
        expect(value.length, `profile ${p.id} ${key}`).toBeGreaterThanOrEqual(1);
        expect(value.length, `profile ${p.id} ${key}`).toBeLessThanOrEqual(MAX_SIGNAL_VALUE_LENGTH);
      }
    }
  });

  it("covers every kind, the major browsers and their OS families", () => {
    expect(new Set(library.profiles.map((p) => p.kind))).toEqual(new Set(PROFILE_KINDS));
    const browsers = library.profiles.filter((p) => p.kind === "browser");
    for (const name of ["Chrome", "Firefox", "Safari", "Edge"]) expect(browsers.map((p) => p.name)).toContain(name);
    expect(new Set(browsers.map((p) => p.os_family))).toEqual(new Set(["windows", "macos", "linux", "android", "ios", null]));
  });

  it("carries the publicly documented values it claims", () => {
    const values = new Set(library.profiles.flatMap((p) => Object.values(p.signals)));
    expect(values).toContain("t13d1516h2_8daaf6152771_02713d6af862"); // FoxIO: Chromium
    expect(values).toContain("t13d3112h2_e8f1e7e78f70_b26ce05bbdd6"); // curl with OpenSSL 3
    expect(values).toContain("1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p"); // Chrome HTTP/2
    expect(values).toContain("ANGLE (Intel, Intel(R) UHD Graphics 630 Direct3D11 vs_5_0 ps_5_0, D3D11)");
  });

  it("has crowd-sourced profiles at exactly 49 and exactly 50 confirmations", () => {
    const crowd = library.profiles.filter((p) => p.trust_level === "crowdsource");
    expect(crowd.map((p) => p.confirmations)).toEqual(expect.arrayContaining([49, 50]));
    expect(crowd.find((p) => p.confirmations === 49)!).toSatisfy((p: FingerprintProfileWithSignals) => !isPublicProfile(p));
    expect(crowd.find((p) => p.confirmations === 50)!).toSatisfy(isPublicProfile);
    expect(hiddenProfiles.length).toBeGreaterThan(0);
  });
});

describe("matching the shipped library", () => {
  it.each(publicProfiles.map((p) => [p.id, p.label, p] as const))("recognises profile %i (%s) from its own signals", (_, __, own) => {
    const result = matcher.match(own.signals);
    const top = library.profiles.find((p) => p.id === result.profile?.id)!;
    expect(top.id === own.id || sameSignals(top.signals, own.signals), `got ${top.id} ${top.label}`).toBe(true);
    // Fits perfectly; how sure that makes it depends on what sets it apart (fingerprint-confidence.test.ts).
    expect(result.basis.fit).toBe(1);
    expect(result.profile?.kind).toBe(own.kind);
    expect(result.top_candidates.map((c) => c.profile.id)).toContain(own.id);
  });

  it.each(hiddenProfiles.map((p) => [p.id, p.label, p] as const))("never returns non-public profile %i (%s)", (_, __, hidden) => {
    const result = matcher.match(hidden.signals);
    expect(result.profile?.id).not.toBe(hidden.id);
    expect(result.top_candidates.map((c) => c.profile.id)).not.toContain(hidden.id);
  });

  it("tells curl from Chrome by TLS alone", () => {
    expect(matcher.match({ ja4: "t13d3112h2_e8f1e7e78f70_b26ce05bbdd6" }).profile?.name).toBe("curl");
    const chrome = matcher.match({ ja4: "t13d1516h2_8daaf6152771_d8a2da3f94cd", akamai_h2: "1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p" });
    expect(chrome.profile?.label).toBe("Chrome on Windows (Intel graphics)");
    expect(chrome.top_candidates).toHaveLength(5);
  });

  it("flags headless Chrome by its SwiftShader renderer, with low confidence: nothing else sets it apart from Chrome", () => {
    const result = matcher.match({
      ja4: "t13d1516h2_8daaf6152771_d8a2da3f94cd",
      akamai_h2: "1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p",
      webgl_renderer: "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)",
    });
    expect(result.profile?.kind).toBe("bot");
    expect(result).toMatchObject({ verdict: "low", decided_by: ["webgl_renderer"], closest_other_kind: { profile: { kind: "browser" } } });
  });
});

describe("parseFingerprintLibrary", () => {
  const good = JSON.parse(readFileSync(new URL("../../data/fingerprints/library.json", import.meta.url), "utf8"));
  const withProfile = (change: Record<string, unknown>) => ({ ...good, profiles: [{ ...good.profiles[0], ...change }, ...good.profiles.slice(1)] });

  it.each([
    ["a missing version", { ...good, version: "soon" }, /version/],
    ["no profiles", { ...good, profiles: [] }, /profiles/],
    ["a repeated id", { ...good, profiles: [good.profiles[0], good.profiles[0]] }, /not unique/],
    ["an unknown kind", withProfile({ kind: "robot" }), /kind/],
    ["an unknown trust level", withProfile({ trust_level: "verified" }), /trust_level/],
    ["an upper-case OS family", withProfile({ os_family: "Windows" }), /os_family/],
    ["a missing source", withProfile({ source: "" }), /source/],
    ["a negative count", withProfile({ observations: -1 }), /observations/],
    ["an unknown signal key", withProfile({ signals: { user_agent: "x" } }), /unknown signal key/],
    ["an empty value", withProfile({ signals: { ja4: "" } }), /1\.\.255/],
    ["a value over 255 characters", withProfile({ signals: { ja4: "x".repeat(256) } }), /1\.\.255/],
    ["no signals", withProfile({ signals: {} }), /at least one signal/],
  ])("rejects %s with a clear message", (_, data, message) => {
    expect(() => parseFingerprintLibrary(data, "library.json")).toThrow(message);
  });

  it("says which file cannot be read", () => {
    expect(() => readFingerprintLibrary(new URL("file:///nonexistent/library.json"))).toThrow(/nonexistent\/library\.json: cannot read JSON/);
  });
});

describe("importFingerprintLibrary", () => {
  const newSnapshot = () => {
    const db = new Database(":memory:");
    db.exec(readFileSync(new URL("../../data/schema.sql", import.meta.url), "utf8"));
    return db;
  };
  const readProfiles = (db: Database.Database) => db.prepare("SELECT * FROM fp_profiles ORDER BY id").all() as FingerprintProfileWithSignals[];
  const readSignals = (db: Database.Database) => db.prepare("SELECT profile_id, key, value FROM fp_signals ORDER BY profile_id, rowid").all() as { profile_id: number; key: string; value: string }[];

  it("fills fp_profiles and fp_signals, and the build's index matches the library's", () => {
    const db = newSnapshot();
    expect(importFingerprintLibrary(db)).toEqual({ added: library.profiles.length, updated: 0, unchanged: 0 });
    const rows = readProfiles(db);
    const signals = readSignals(db);
    db.close();
    expect(rows).toHaveLength(library.profiles.length);
    expect(signals).toHaveLength(library.profiles.reduce((n, p) => n + Object.keys(p.signals).length, 0));
    expect(rows.find((r) => r.confirmations === 49)?.trust_level).toBe("crowdsource");
    const fromDb = rows.map((row) => ({ ...row, signals: signals.filter((s) => s.profile_id === row.id) }));
    expect(createFingerprintIndex(fromDb)).toEqual(createFingerprintIndex(toProfilesWithSignals(library)));
  });

  it("changes nothing the second time", () => {
    const db = newSnapshot();
    importFingerprintLibrary(db);
    const before = [readProfiles(db), readSignals(db)];
    expect(importFingerprintLibrary(db)).toEqual({ added: 0, updated: 0, unchanged: library.profiles.length });
    expect([readProfiles(db), readSignals(db)]).toEqual(before);
    db.close();
  });

  it("keeps the operator's own profiles, moves a library profile whose id is taken, and brings an edited one back", () => {
    const db = newSnapshot();
    const first = library.profiles[0]!;
    const second = library.profiles[1]!;
    db.exec(`INSERT INTO fp_profiles (id, label, kind, name, trust_level) VALUES (${first.id}, 'Our own bot', 'bot', 'ours', 'verified');
             INSERT INTO fp_signals (profile_id, key, value) VALUES (${first.id}, 'ja4', 'ours');`);
    importFingerprintLibrary(db);
    db.prepare("UPDATE fp_profiles SET name = 'edited' WHERE label = ?").run(second.label);
    db.prepare("DELETE FROM fp_signals WHERE profile_id = (SELECT id FROM fp_profiles WHERE label = ?)").run(second.label);
    expect(importFingerprintLibrary(db)).toEqual({ added: 0, updated: 1, unchanged: library.profiles.length - 1 });
    const rows = readProfiles(db);
    expect(rows.find((r) => r.id === first.id)).toMatchObject({ label: "Our own bot", name: "ours" });
    const moved = rows.find((r) => r.label === first.label)!;
    expect(moved.id).toBeGreaterThan(Math.max(...library.profiles.map((p) => p.id)));
    expect(readSignals(db).filter((s) => s.profile_id === moved.id).map((s) => [s.key, s.value])).toEqual(Object.entries(first.signals));
    expect(rows.find((r) => r.label === second.label)).toMatchObject({ id: second.id, name: second.name });
    expect(readSignals(db).filter((s) => s.profile_id === second.id).map((s) => [s.key, s.value])).toEqual(Object.entries(second.signals));
    expect(readSignals(db).filter((s) => s.profile_id === first.id)).toEqual([{ profile_id: first.id, key: "ja4", value: "ours" }]);
    db.close();
  });
});
