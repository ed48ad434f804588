/**
 * The rooms of ARCHITECTURE.md and the one direction data flows through them, enforced: every
 * relative import (and every worker script a module starts by URL) must go to a room the
 * importing room may read. A new folder must be given a room here before anything may import it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** What each room may import besides itself (ARCHITECTURE.md, "What may import what"). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  core: [],
  data: ["core"],
  "build/snapshot": ["build", "core"],
  "build/model": ["build/snapshot", "build", "core"],
  "build/writer": ["build", "core"],
  "build/api-json": ["build/model", "build", "core"],
  "build/html": ["build/api-json", "build/model", "build", "core"],
  "build/dump": ["build/api-json", "build/model", "build/writer", "build", "core"],
  "build/feeds": ["build/dump", "build/api-json", "build/model", "build", "core"],
  // The change feed's reading of the publish before (history.ts) and the build id (build-id.ts).
  "build/changes": ["build/writer", "build", "core"],
  "build/emitters": ["build/changes", "build/html", "build/dump", "build/feeds", "build/api-json", "build/model", "build/writer", "build", "core"],
  // The build's own root: the steps in order (build.ts), the emit context, errors, threads, publishing.
  build: ["build/changes", "build/snapshot", "build/model", "build/emitters", "build/api-json", "build/writer", "core"],
  server: ["core"],
  // build/snapshot: commands that change a snapshot open it as the build does (same checks, same errors).
  cli: ["build", "build/snapshot", "server", "data", "core"],
  // Benchmarks drive every room and may build the test fixture; tests read everything.
  bench: ["cli", "build", "build/snapshot", "build/model", "build/writer", "server", "data", "core", "test/helpers"],
  "test/helpers": ["*"],
  test: ["*"],
};

/** Node built-ins and packages that mean I/O or processes, which core (pure domain code) must not use. */
const IO_MODULES = /^(node:(fs|child_process|worker_threads|net|http|https|os|process)|better-sqlite3|h3)/;

function getRoom(path: string): string {
  const [top, second] = path.split("/");
  if (top === "build" && second && !second.includes(".")) return `build/${second}`;
  if (top === "test") return second === "helpers" ? "test/helpers" : "test";
  return top!;
}

function mayImport(from: string, to: string): boolean {
  if (from === to) return true;
  const allowed = MAY_IMPORT[from] ?? [];
  return allowed.some((room) => room === "*" || room === to);
}

function listSources(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...listSources(path));
    else if (/\.(ts|cjs)$/.test(entry.name)) found.push(path);
  }
  return found;
}

const SOURCES = ["core", "data", "build", "server", "cli", "bench", "test"].flatMap(listSources);
const RELATIVE_IMPORT = /(?:from\s+|import\s*\(?\s*|require\(\s*|new URL\(\s*)["'](\.{1,2}\/[^"']+)["']/g;
const PACKAGE_IMPORT = /(?:from\s+|import\s*\(?\s*|require\(\s*)["']([^."'][^"']*)["']/g;

function readImports(path: string): { relative: string[]; packages: string[] } {
  const text = readFileSync(join(ROOT, path), "utf8");
  const relativeTargets = [...text.matchAll(RELATIVE_IMPORT)].map((m) => relative(ROOT, normalize(join(ROOT, dirname(path), m[1]!))));
  return { relative: relativeTargets, packages: [...text.matchAll(PACKAGE_IMPORT)].map((m) => m[1]!) };
}

describe("imports between rooms", () => {
  it("finds the sources it checks", () => {
    expect(SOURCES.length).toBeGreaterThan(150);
    expect(new Set(SOURCES.map(getRoom))).toEqual(new Set(Object.keys(MAY_IMPORT)));
  });

  it.each(SOURCES)("%s imports only from rooms it may read", (path) => {
    const from = getRoom(path);
    const wrong = readImports(path).relative.filter((target) => !mayImport(from, getRoom(target)));
    expect(wrong, `${path} (${from}) may import from ${[from, ...MAY_IMPORT[from]!].join(", ")}`).toEqual([]);
  });

  it.each(SOURCES.filter((path) => getRoom(path) === "core"))("%s does no I/O", (path) => {
    expect(readImports(path).packages.filter((name) => IO_MODULES.test(name))).toEqual([]);
  });

  it("fails on an import that goes the wrong way", () => {
    expect(mayImport("server", "build")).toBe(false);
    expect(mayImport("build/model", "build/emitters")).toBe(false);
    expect(mayImport("build/snapshot", "build/model")).toBe(false);
    expect(mayImport("core", "build")).toBe(false);
    expect(mayImport("build/emitters", "build/snapshot")).toBe(false);
    expect(mayImport("build/emitters", "build/model")).toBe(true);
  });
});
