/**
 * The bookkeeping of incremental builds around build.ts: what the build's last line says, which
 * build folders are kept and what the state records of each, and the wait for the previous
 * build's readers. Whether a build may be incremental at all is build-state.ts.
 */
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { getRouteFilePrefix } from "../core/routes/match.ts";
import type { BuildMode, BuildSummary } from "./build.ts";
import { readState, type BuildPlan, type KeptTree, type StoredSummary } from "./build-state.ts";
import { keepAs, type BuildsLayout } from "./publish.ts";
import type { ReuseStats } from "./writer/protocol.ts";

/** Files whose changes the build's last line counts by name (docs/incremental-builds.md). */
export const WATCHED_CHANGES = {
  usernames: getRouteFilePrefix("checkUsername"),
  companies: getRouteFilePrefix("getCompany"),
};

/**
 * The folders kept after a publish, with what each holds: the new build (with the digests of
 * its snapshot), the previous one (the next incremental build brings it up to date), or — when
 * nothing changed in the files and the previous folder was brought up to the current build —
 * that folder as a spare.
 */
export function keepTrees(
  layout: BuildsLayout,
  plan: BuildPlan,
  { staging, buildDir, previous }: { staging: string; buildDir: string; previous: string | null },
  made: KeptTree,
): Record<string, KeptTree> {
  const trees: Record<string, KeptTree> = { [basename(buildDir)]: made };
  const { snapshot: _snapshot, summary: _summary, model: _model, dumps: _dumps, ...bare } = made;
  if (previous && previous !== buildDir && plan.mode === "incremental") {
    trees[basename(previous)] = withoutSnapshot(plan.state.trees[basename(previous)]!);
  } else if (previous === buildDir && plan.mode === "incremental" && existsSync(staging)) {
    trees[basename(keepAs(layout, staging, `spare-${made.id}`))] = bare;
  }
  if (plan.mode === "full" && previous && previous !== buildDir) {
    // A full build does not know what made the previous folder unless the state says so.
    const known = readState(layout);
    const tree = known && typeof known === "object" ? known.trees[basename(previous)] : undefined;
    trees[basename(previous)] = tree ? withoutSnapshot(tree) : { id: "", manifest: "", code: "", options: made.options };
  }
  return trees;
}

/** Only the current build's snapshot is compared with the next one: the others keep their id, code and options. */
function withoutSnapshot({ id, manifest, code, options }: KeptTree): KeptTree {
  // The kept report pass and dump members too: they are the current build's only.
  return { id, manifest, code, options };
}

export function toStoredSummary({ counts, rejected, rejections, files, bytes, notices }: BuildSummary): StoredSummary {
  return { counts, rejected, rejections, files, bytes, notices };
}

/**
 * An incremental build rewrites the previous build's folder, which readers that started before
 * the last publish may still be in (a deploy copying it, say): it waits until the previous build
 * has been out of service for the grace period.
 */
export function waitForReaders(publishedAt: number, graceSeconds: number): void {
  const wait = publishedAt + graceSeconds * 1000 - Date.now();
  if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(wait, graceSeconds * 1000));
}

/** What kind of build this was, and why: the build's last line. */
export function describeMode(
  plan: BuildPlan,
  reused: ReuseStats | null,
  pass: { reread: () => number | null; missing: string | null },
  unmade: number,
  dumpMembers: { reused: number; made: number; refused: string[] } = { reused: 0, made: 0, refused: [] },
): BuildMode {
  if (plan.mode !== "incremental" || reused === null) return { mode: "full", reason: plan.mode === "full" ? plan.reason : "" };
  const reread = pass.reread();
  return {
    mode: "incremental",
    reports: reread === null ? { reason: pass.missing ?? "" } : { usernames: reread },
    unmade,
    base: plan.base ? "previous" : "linked",
    changed: reused.changed,
    written: reused.written,
    kept: reused.kept + reused.linked,
    deleted: reused.deleted,
    dumpMembers,
  };
}
