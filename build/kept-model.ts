/**
 * The report pass an incremental build keeps for the next one (model/group-store.ts): where its
 * two files live (`.dist-builds/model/`, named by the build they describe), checking them before
 * the digests ask for the changed ranges' rows only, and keeping the new build's.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isOwnedByLiveProcess, type BuildsLayout } from "./publish.ts";
import type { BuildStateFile, KeptTree } from "./build-state.ts";
import { openReportRows, readGroupStore, GroupStoreWriter, writeReportRows, type StoredReportRows } from "./model/group-store.ts";
import { compareReportRows, readChangedUsernameGroups } from "./model/group-source.ts";
import type { PassRows } from "./model/report-pass.ts";
import type { DigestJob, SnapshotDigest } from "./snapshot/digest.ts";
import type { Snapshot } from "./snapshot/open.ts";
import type { RowRequest } from "./snapshot/thread-protocol.ts";
import { hasUsernameIndex, readUsernameOf } from "./snapshot/username-groups.ts";

/** The SHA-256 of each kept file, recorded in the state beside the build they describe. */
export interface KeptModel {
  groups: string;
  rows: string;
}

const MODEL_DIR = "model";

/** The folder inside the builds folder that is not a build (publish.ts leaves it alone). */
export function isModelDir(name: string): boolean {
  return name === MODEL_DIR;
}

function modelPath(layout: BuildsLayout, name: string, kind: "groups" | "rows"): string {
  return join(layout.buildsDir, MODEL_DIR, `${name}.${kind}`);
}

/**
 * What the current build kept, opened and checked: its report rows (for the digests, which then
 * split only the changed ranges' rows) and where its username rows are. `request` is "all" when
 * nothing usable was kept.
 */
export interface KeptStart {
  request: RowRequest;
  rows: StoredReportRows | null;
  groups: { path: string; sha256: string } | null;
  /** Why the pass will read every report, when it will. */
  missing: string | null;
}

export function openKeptModel(layout: BuildsLayout, state: BuildStateFile | string | null, current: string | null, code: string, before: SnapshotDigest | null): KeptStart {
  const none = (missing: string): KeptStart => ({ request: { mode: "all" }, rows: null, groups: null, missing });
  if (!state || typeof state === "string" || !current) return none("nothing was kept");
  const tree: KeptTree | undefined = state.trees[current];
  if (!tree?.model || tree.code !== code || !before) return none("nothing was kept");
  const rows = openReportRows(modelPath(layout, tree.id, "rows"), tree.model.rows);
  if (!rows) return none("the kept report rows are missing or damaged");
  return {
    request: { mode: "changed", ranges: before.reportRanges, digests: before.reportDigests },
    rows,
    groups: { path: modelPath(layout, tree.id, "groups"), sha256: tree.model.groups },
    missing: null,
  };
}

export interface PassPlan {
  rows: PassRows;
  /** Usernames read again, once the pass ran; null when it read every report. */
  reread: () => number | null;
  /** Why the pass reads every report, when it does. */
  missing: string | null;
  /** Why the pass could not be kept for the next build, if it could not. */
  notKept: () => unknown;
  /** Keeps the pass under the new build's id (published); null when there is nothing to keep. */
  keep: (id: string) => KeptModel | null;
  abandon: () => void;
}

/**
 * Where the pass's rows come from and go: the kept rows with the changed usernames read again
 * when `incremental` and what was kept holds together, else every report; kept for the next build
 * whenever the snapshot's report rows are known whole (split now, or kept and split where changed).
 * An incremental pass starts from the digests' split rows, so it takes them now; a full one keeps
 * them once it is over (`rows.settle`), so that digests made beside the pass are not waited for.
 */
export function planPassRows(layout: BuildsLayout, db: Snapshot, start: KeptStart, job: DigestJob, incremental: boolean): PassPlan {
  const digest = incremental ? job.take() : null;
  let missing = start.missing;
  let read: PassRows["read"];
  let reread: number | null = null;
  if (digest && !digest.split) missing = "a report's username is not plain text (a number, a blob, or a text with a NUL)";
  else if (digest?.split && start.rows && start.groups) {
    const groups = readGroupStore(start.groups.path, start.groups.sha256);
    if (!groups) missing = "the kept username rows are missing or damaged";
    else if (!hasUsernameIndex(db)) missing = "the snapshot has no index on reports (username)";
    else {
      const changes = compareReportRows(start.rows, digest.split, digest.reportRanges, readUsernameOf(db));
      // Held by the pass alone (about 100 bytes a username), not for the rest of the build.
      let kept: typeof groups | null = groups;
      read = (windows) => {
        const source = readChangedUsernameGroups(db, windows, kept!, changes);
        kept = null;
        reread = source.reread;
        return source;
      };
    }
  }
  const temp = (kind: "groups" | "rows") => modelPath(layout, `tmp-${process.pid}`, kind);
  const abandon = () => {
    start.rows?.close();
    keep?.abandon();
    for (const kind of ["groups", "rows"] as const) rmSync(temp(kind), { force: true });
    // The folder too, when nothing else is in it (a first build that failed leaves none behind).
    try {
      rmdirSync(join(layout.buildsDir, MODEL_DIR));
    } catch {
      // Not empty, or not there.
    }
  };
  let keep: GroupStoreWriter | undefined;
  let rowsSha: string | null = null;
  /** Why the pass could not be kept (keeping it is for the next build: its failure does not fail this one). */
  let notKept: unknown = null;
  // Kept whenever the report rows will be known whole: split, or kept and split where changed.
  const wanted = (start.request.mode === "all" || start.rows !== null) && !(digest && !digest.split);
  /** Writes the rows file once the digests are made; the split rows (13 bytes a report) are not held after. */
  const keepRows = () => {
    const made = job.take();
    try {
      if (made.split && wanted && notKept === null) rowsSha = writeReportRows(temp("rows"), made.reportRanges, made.split, start.rows);
    } catch (error) {
      notKept = error;
      rowsSha = null;
    } finally {
      made.split = null;
      start.rows?.close();
    }
  };
  try {
    if (wanted) mkdirSync(join(layout.buildsDir, MODEL_DIR), { recursive: true });
  } catch (error) {
    notKept = error;
  }
  if (digest) keepRows();
  try {
    if (wanted && notKept === null && (!digest || rowsSha)) keep = new GroupStoreWriter(temp("groups"));
  } catch (error) {
    notKept = error;
    abandon();
  }
  return {
    rows: { read, keep, settle: digest ? undefined : keepRows },
    reread: () => reread,
    missing: read ? null : missing,
    notKept: () => notKept ?? keep?.failed ?? null,
    keep(id) {
      if (!keep?.sha256 || !rowsSha) {
        abandon();
        return null;
      }
      renameSync(temp("groups"), modelPath(layout, id, "groups"));
      renameSync(temp("rows"), modelPath(layout, id, "rows"));
      return { groups: keep.sha256, rows: rowsSha };
    },
    abandon,
  };
}

/** Deletes every kept file but the current build's, and those of builds that died before keeping theirs. */
export function pruneKeptModels(layout: BuildsLayout, currentId: string | null): void {
  const dir = join(layout.buildsDir, MODEL_DIR);
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const owner = name.slice(0, name.lastIndexOf("."));
    if (owner === currentId || (owner.startsWith("tmp-") && isOwnedByLiveProcess(owner))) continue;
    rmSync(join(dir, name), { force: true });
  }
}
