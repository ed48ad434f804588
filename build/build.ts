/**
 * The build: snapshot → model → emitters → one writer → manifest → atomic publish.
 */
import { writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { DEFAULT_SPAMMER_PAGE_FILES } from "../core/routes/table.ts";
import { formatInstant } from "../core/time.ts";
import { createUrls } from "../core/urls.ts";
import type { EmitContext, KeptDumps } from "./context.ts";
import { CHANGES_WRITES, EMITTERS, type Emitter } from "./emitters/index.ts";
import { emitChanges } from "./emitters/changes.ts";
import { getPublishedDumps, type PublishedDumps } from "./emitters/dump.ts";
import { toBuildField } from "./changes/build-id.ts";
import { readPreviousPublish, type PreviousPublish } from "./changes/history.ts";
import { ExampleCollector } from "./examples.ts";
import { getBuildCounts } from "./emitters/report.ts";
import { BuildError, isNoSpace, withContext } from "./errors.ts";
import { discardFailedBuild, describeError } from "./failure.ts";
import { readModel } from "./model/read-model.ts";
import type { Model } from "./model/types.ts";
import type { RejectionSummary } from "./model/rejections.ts";
import { createProgress, type ProgressSink } from "./progress.ts";
import { decodeDigest, encodeDigest, planBuild, readState, writeState, type BuildPlan, type KeptTree } from "./build-state.ts";
import { openKeptModel, planPassRows, pruneKeptModels } from "./kept-model.ts";
import type { PassRows } from "./model/report-pass.ts";
import { describeMode, keepTrees, toStoredSummary, waitForReaders, WATCHED_CHANGES } from "./incremental.ts";
import { startSnapshotDigest, type DigestJob } from "./snapshot/digest.ts";
import { getCodeFingerprint } from "./code-fingerprint.ts";
import { DEFAULT_CHANGE_RETENTION, type ChangeRetention, createStagingDir, deleteSetAside, setAside, getBuildsLayout, getCurrentBuild, publishBuild, sweepAbandoned, takeForStaging, tidyAfterPublish, type BuildsLayout } from "./publish.ts";
import { openSnapshot, type Snapshot } from "./snapshot/open.ts";
import { countReports } from "./snapshot/report-sql.ts";
import { MemoryWriter, createDiskWriter, hashFile, MANIFEST_PATH, UNCHANGED, type DiskWriter, type Writer } from "./writer/index.ts";

export interface BuildOptions {
  db: string;
  out: string;
  baseUrl: string;
  /** Page files of each ranked spammer list, for static hosts (default DEFAULT_SPAMMER_PAGE_FILES); deeper pages are the live server's. */
  listPages?: number;
  /** Who watches the build (cli/progress.ts draws it on a terminal); null for nobody. */
  progress?: ProgressSink | null;
  /** A full build even where an incremental one could be made (`--full`). */
  full?: boolean;
  /**
   * Seconds the previous build stays untouched after the current one was published, for readers
   * still in it, before an incremental build brings it up to date. Default 0 here; the command's
   * `--reader-grace` defaults to the grace retired builds get (publish.ts).
   */
  readerGraceSeconds?: number;
  /** The emitters to run (tests replace them to make a build fail half-way). */
  emitters?: Emitter[];
  /** How long each publish's change files are kept (`--changes-keep`, `--changes-days`). */
  changeRetention?: ChangeRetention;
  /** When an incremental build gives way to a full one (default REWRITE_BUDGET; tests lower it to reach it with a small sample). */
  rewriteBudget?: RewriteBudget;
}

/**
 * An incremental build rewrites files in place, which costs more per file than writing a new
 * folder; once it has had to write anew more check files than the larger of these (a share of the
 * snapshot's usernames, or a count), the rest of the change is taken to be as large, and a full
 * build, which reuses the model already read, costs less. At a million usernames, a day of
 * changes rewrites about 5.5 % of the check files (the alternating folders carry the last two
 * changes) and cost 75 % of a full build; before this budget, 12 % in place cost 136 % and 50 %
 * 183 % (docs/incremental-builds.md).
 */
export interface RewriteBudget {
  share: number;
  minimum: number;
}

export const REWRITE_BUDGET: RewriteBudget = { share: 0.08, minimum: 2000 };

/** Thrown out of an incremental build that went over its RewriteBudget, with the model it read: the full build starts from it. */
class ChangeTooLarge extends Error {
  constructor(
    readonly model: Model,
    /** The budget it went over (a number of check files), which the reason names: the count itself depends on how far the writer had got. */
    readonly budget: number,
    /** Seconds the model took to read and the RSS after it, in MiB (it is not read again). */
    readonly modelLap: { seconds: number; rss: number },
  ) {
    super(`more than ${budget} check files to write anew`);
  }
}

export interface BuildSummary {
  buildDir: string;
  buildId: string;
  counts: ReturnType<typeof getBuildCounts>;
  rejected: number;
  /**
   * The rows the build refused, by reason, with up to ten samples each (row ids, the offending
   * values): the operator's copy. dist's build-report.json has the counts only (it is public).
   */
  rejections: RejectionSummary[];
  files: number;
  bytes: number;
  /**
   * Seconds per step: `digest` (the snapshot's digests), `plan` (checking the state and the kept
   * folders), `model` (reading the snapshot, the pass over reports included), each emitter, then
   * `manifest` (the writer's last files, the manifest and an incremental build's deletions).
   */
  timings: Record<string, number>;
  /** Resident set size in MiB when each emitter finished (where a build's memory goes). */
  rssAfter: Record<string, number>;
  /**
   * Check files, the seconds the check emitter ran (JSON, handing files to the writer), and how
   * many of them an incremental build handed over unmade (the current build's: writer/output.ts UNCHANGED).
   */
  checkPhase: { files: number; seconds: number; unmade: number };
  /**
   * Every file, the seconds the writer thread spent hashing and writing them, and how many files
   * an incremental build handed over unmade (check files and company files: writer/output.ts UNCHANGED).
   */
  writes: { files: number; seconds: number; unmade: number };
  /** What went wrong after the build was published (removing old builds, writing last-build.json): the build stands. */
  warnings: string[];
  /** What the operator should know about this snapshot's output, though it built (an empty fingerprint library). */
  notices: string[];
  /** Full or incremental, and why or what changed (docs/incremental-builds.md). */
  mode: BuildMode;
}

export type BuildMode =
  | { mode: "full"; reason: string }
  /** The snapshot held the same rows as the current build's (snapshot/digest.ts): nothing was built, the current build stands. */
  | { mode: "unchanged"; kept: number }
  | {
      mode: "incremental";
      /** "previous": the previous build's folder was brought up to date; "linked": a new folder, the current build's unchanged files hard-linked into it. */
      base: "previous" | "linked";
      /** Whose reports the pass read again (the others' rows were kept), or why it read every report (build/kept-model.ts). */
      reports: { usernames: number } | { reason: string };
      /** Files not made again (check files, company badges, widgets and embeds): the current build's, kept or linked (writer/output.ts UNCHANGED). */
      unmade: number;
      /** Usernames (check files) and companies (cards) whose files differ from the current build's: new, changed or gone. */
      changed: Record<string, number>;
      /**
       * The dumps' gzip members taken from the current build's files (their batches unchanged) and
       * made anew, and the current build's dump files that could not be used, and why (dump/member-cache.cjs).
       */
      dumpMembers: { reused: number; made: number; refused: string[] };
      written: number;
      kept: number;
      deleted: number;
    };

/**
 * Builds into a staging folder and publishes it atomically; a failure leaves `out` untouched.
 * The snapshot is opened and checked before anything is written, so a bad one leaves nothing behind.
 * Unless `full` is set, the build is incremental when it can be (build-state.ts): an older build
 * folder is brought up to date in place, writing only the files whose bytes changed.
 */
export function buildDist(options: BuildOptions): BuildSummary {
  const started = performance.now();
  // Read before anything else: an incremental build brings another folder up to date, never this one.
  const db = openSnapshot(options.db);
  const layout = getBuildsLayout(options.out);
  let staging: string | null = null;
  /** A folder an incremental build gave up on (over its RewriteBudget), deleted once the build is published or failed. */
  let abandoned: string | null = null;
  let writer: DiskWriter | null = null;
  let published: { result: ReturnType<typeof runBuild>; staging: string; id: string; buildDir: string; previous: string | null };
  const shaping = { baseUrl: options.baseUrl, listPages: options.listPages ?? DEFAULT_SPAMMER_PAGE_FILES };
  let made: KeptTree;
  let plan: BuildPlan;
  let passRows: ReturnType<typeof planPassRows> | null = null;
  let digests: DigestJob | null = null;
  try {
    sweepAbandoned(layout);
    const currentDir = getCurrentBuild(layout);
    const previousPublish = withContext("reading the previous publish's change feed", () => readPreviousPublish(currentDir));
    // Emitters other than the build's own (tests make builds fail so) are other code.
    const code = getCodeFingerprint(db) + (options.emitters && options.emitters !== EMITTERS ? "+other-emitters" : "");
    // What the current build kept of its report pass decides which ranges' rows the digests split.
    const state = readState(layout);
    const currentTree = currentDir && state && typeof state === "object" ? state.trees[basename(currentDir)] : undefined;
    const before = currentTree?.snapshot ? decodeDigest(currentTree.snapshot) : null;
    const kept = openKeptModel(layout, state, currentDir && basename(currentDir), code, before);
    const planned = planBuild(layout, { ...shaping, full: options.full }, code);
    // A full build's plan does not wait for the digests: they are made beside its report pass, on the core it leaves idle.
    digests = withContext("reading the snapshot's digests", () => startSnapshotDigest(db, kept.request, typeof planned !== "function"));
    const job = digests;
    plan = typeof planned === "function" ? planned(withContext("reading the snapshot's digests", () => job.take())) : planned;
    const digested = performance.now();
    made = { id: "", manifest: "", code, options: shaping };
    const steps: Record<string, number> = { digest: (digested - started) / 1000 };
    if (plan.mode === "unchanged") {
      kept.rows?.close();
      return finishUnchanged(layout, plan, { ...steps, plan: (performance.now() - digested) / 1000 });
    }
    passRows = withContext("keeping the snapshot's report rows", () => planPassRows(layout, db, kept, job, plan.mode === "incremental"));
    steps.plan = (performance.now() - digested) / 1000;
    if (plan.mode === "incremental") {
      const { base, current } = plan;
      if (base) waitForReaders(plan.state.publishedAt, options.readerGraceSeconds ?? 0);
      const dir = base
        ? withContext(`taking ${base.dir} to bring up to date`, () => takeForStaging(layout, base.dir))
        : withContext(`creating a staging folder in ${layout.buildsDir}`, () => createStagingDir(layout, "build"));
      staging = dir;
      writer = createDiskWriter(dir, { hasBase: base !== null, current: current.dir, watch: WATCHED_CHANGES, rewrite: WATCHED_CHANGES.usernames });
    } else {
      const dir = withContext(`creating a staging folder in ${layout.buildsDir}`, () => createStagingDir(layout, "build"));
      staging = dir;
      writer = createDiskWriter(dir);
    }
    let result: ReturnType<typeof runBuild>;
    const reuser = writer;
    const budget = plan.mode === "incremental" ? { ...(options.rewriteBudget ?? REWRITE_BUDGET), rewritten: () => reuser.rewritten, settled: () => reuser.countRewritten() } : null;
    const building = performance.now();
    try {
      // An incremental build's writer keeps or links the current build's files: the check emitter need not make the unchanged ones.
      const keptDumps = plan.mode === "incremental" ? { dir: plan.current.dir, files: plan.state.trees[basename(plan.current.dir)]?.dumps } : null;
      result = runBuild(options, db, writer, previousPublish, { budget, rows: passRows.rows, unchanged: plan.mode === "incremental", keptDumps });
    } catch (error) {
      if (!(error instanceof ChangeTooLarge)) throw error;
      // Over budget: the folder half brought up to date is set aside (deleted once this build is out), a new one is written from the same model.
      writer.abort();
      // A worker still writing by path could reach a folder made under the old name: the build stops rather than risk it.
      if (!writer.idle) throw new BuildError("the file writer did not stop when the incremental build gave way to a full one");
      abandoned = withContext(`setting ${staging} aside`, () => setAside(layout, staging!));
      staging = null;
      const dir = withContext(`creating a staging folder in ${layout.buildsDir}`, () => createStagingDir(layout, "full"));
      staging = dir;
      writer = createDiskWriter(dir);
      const share = Math.round(((options.rewriteBudget ?? REWRITE_BUDGET).share) * 100);
      plan = { mode: "full", reason: `the change is larger than a full build costs (more than ${error.budget.toLocaleString("en")} check files to write anew, ${share} % of the usernames)` };
      steps.model = error.modelLap.seconds;
      steps.abandoned = (performance.now() - building) / 1000 - error.modelLap.seconds;
      result = runBuild(options, db, writer, previousPublish, { model: error.model, budget: null });
      result.rssAfter = { model: error.modelLap.rss, ...result.rssAfter };
    }
    result.timings = { ...steps, ...result.timings };
    made.snapshot = encodeDigest(withContext("reading the snapshot's digests", () => job.take()));
    const dir = staging;
    const id = result.buildId;
    const previous = getCurrentBuild(layout);
    published = { result, staging: dir, id, buildDir: publishBuild(layout, dir, id), previous };
  } catch (error) {
    writer?.abort();
    digests?.abandon();
    passRows?.abandon();
    if (abandoned) deleteSetAside(abandoned, { now: isNoSpace(error) });
    throw discardFailedBuild(layout, staging, error);
  } finally {
    db.close();
  }
  // Published: what is left is housekeeping, whose failure must not call a published build failed.
  const { result: built, id, buildDir, previous } = published;
  const { dumps, ...result } = built;
  const summary: BuildSummary = { ...result, buildDir, buildId: id, warnings: [], mode: describeMode(plan, writer.reused, passRows, result.writes.unmade, dumps?.members) };
  try {
    const manifest = hashFile(join(buildDir, MANIFEST_PATH));
    const model = passRows.keep(id) ?? undefined;
    const trees = keepTrees(layout, plan, published, { ...made, id, manifest, summary: toStoredSummary(summary), model, dumps: dumps?.kept });
    if (abandoned) deleteSetAside(abandoned);
    tidyAfterPublish(layout, published.staging, Object.keys(trees).map((name) => join(layout.buildsDir, name)));
    writeState(layout, trees, previous === buildDir && plan.mode === "incremental" ? plan.state.publishedAt : Date.now());
    pruneKeptModels(layout, model ? id : null);
    const notKept = passRows.notKept();
    if (notKept !== null) summary.warnings.push(`keeping the report pass for the next build: ${describeError(notKept)} (the next build reads every report)`);
  } catch (error) {
    passRows.abandon();
    summary.warnings.push(`keeping the build folders and their state in ${layout.buildsDir}: ${describeError(error)}`);
  }
  writeLastBuild(layout, summary);
  return summary;
}

/**
 * Nothing to build: the snapshot holds the same rows as the current build's, which stays
 * published as it is. The summary is the current build's, as its build left it in the state.
 */
function finishUnchanged(layout: BuildsLayout, plan: Extract<BuildPlan, { mode: "unchanged" }>, timings: Record<string, number>): BuildSummary {
  const stored = plan.tree.summary!;
  const summary: BuildSummary = {
    ...(stored as Pick<BuildSummary, "counts" | "rejected" | "rejections" | "files" | "bytes" | "notices">),
    buildDir: plan.current.dir,
    buildId: plan.current.id,
    timings,
    rssAfter: { digest: Math.round(process.memoryUsage.rss() / 2 ** 20) },
    checkPhase: { files: 0, seconds: 0, unmade: 0 },
    writes: { files: 0, seconds: 0, unmade: 0 },
    warnings: [],
    mode: { mode: "unchanged", kept: stored.files },
  };
  writeLastBuild(layout, summary);
  return summary;
}

function writeLastBuild(layout: BuildsLayout, summary: BuildSummary): void {
  try {
    writeFileSync(join(layout.buildsDir, "last-build.json"), JSON.stringify(summary, null, 2) + "\n");
  } catch (error) {
    summary.warnings.push(`writing ${join(layout.buildsDir, "last-build.json")}: ${describeError(error)}`);
  }
}

/**
 * Builds into memory (tests): every file of dist by path, manifest included, and the build's
 * summary. Its change feed follows the build folder `previousBuild` (none: a first publish).
 */
export function buildInMemory(
  options: Omit<BuildOptions, "out"> & { previousBuild?: string },
): { files: Map<string, Buffer>; summary: Omit<BuildSummary, "buildDir" | "warnings" | "mode"> } {
  const db = openSnapshot(options.db);
  try {
    const writer = new MemoryWriter();
    const { dumps: _dumps, ...summary } = runBuild(options, db, writer, readPreviousPublish(options.previousBuild ?? null));
    return { files: writer.files, summary };
  } finally {
    db.close();
  }
}

/**
 * `given.model`: the model, already read (a build that gave way to a full one); `given.budget`: an
 * incremental build's RewriteBudget and how many check files its writer has written anew so far
 * (`rewritten`: as far as the writer got, read as files go; `settled`: once it has done them all,
 * read before the build id is sealed, so that the decision does not depend on timing);
 * `given.unchanged`: the writer keeps the current build's files (EmitContext.unchanged);
 * `given.keptDumps`: the current build's dump files (EmitContext.keptDumps). Besides the summary,
 * what the dump made (`dumps`: the members for the state and the counts), when it ran.
 */
function runBuild(
  options: Omit<BuildOptions, "out">,
  db: Snapshot,
  writer: Writer,
  previous: PreviousPublish | null,
  given: { model?: Model; budget?: (RewriteBudget & { rewritten: () => number; settled: () => number }) | null; rows?: PassRows; unchanged?: boolean; keptDumps?: KeptDumps | null } = {},
): Omit<BuildSummary, "buildDir" | "warnings" | "mode"> & { dumps: Pick<PublishedDumps, "kept" | "members"> | undefined } {
  const progress = createProgress(options.progress ?? null, countReports(db));
  const timings: Record<string, number> = {};
  const rssAfter: Record<string, number> = {};
  const lap = (name: string, started: number) => {
    timings[name] = (performance.now() - started) / 1000;
    rssAfter[name] = Math.round(process.memoryUsage.rss() / 2 ** 20);
  };
  // 1. The model: every aggregate and every rejection, before any file is made.
  progress.phase(given.model ? "full: the change is larger than a full build costs, writing a new folder" : "model");
  let started = performance.now();
  const model = given.model ?? readModel(db, { onProgress: (reports) => progress.update(reports, 0), rows: given.rows });
  if (!given.model) lap("model", started);
  const budget = given.budget;
  const maxRewritten = budget ? Math.max(budget.minimum, Math.ceil(budget.share * model.spammerLists.total)) : Infinity;
  const modelLap = () => ({ seconds: timings.model ?? 0, rss: rssAfter.model ?? 0 });
  // 2. The emitters, each a function of the model, through the one writer.
  const ctx: EmitContext = {
    model,
    urls: createUrls(options.baseUrl),
    examples: new ExampleCollector(model),
    listPages: options.listPages ?? DEFAULT_SPAMMER_PAGE_FILES,
    unchanged: given.unchanged === true,
    keptDumps: given.keptDumps ?? null,
  };
  const emitters = options.emitters ?? EMITTERS;
  const checkPhase = { files: 0, seconds: 0, unmade: 0 };
  let unmade = 0;
  for (const emitter of emitters) {
    progress.phase(emitter.name);
    started = performance.now();
    const before = writer.fileCount;
    for (const file of emitter.emit(ctx)) {
      if (file.data === UNCHANGED) unmade++;
      ctx.examples.offer(file);
      writer.write(file);
      if ((writer.fileCount & 255) === 0 && budget && budget.rewritten() > maxRewritten) throw new ChangeTooLarge(model, maxRewritten, modelLap());
      if ((writer.fileCount & 4095) === 0) progress.update(model.reportCount, writer.fileCount);
    }
    lap(emitter.name, started);
    if (emitter.name === "check") Object.assign(checkPhase, { files: writer.fileCount - before, seconds: timings[emitter.name]!, unmade });
  }
  // 3. The build id, of every file the snapshot made; then the change feed, named by it.
  // The last word on the budget, once the writer has done every file: the outcome does not depend on how far it had got.
  if (budget && budget.settled() > maxRewritten) throw new ChangeTooLarge(model, maxRewritten, modelLap());
  const sealed = writer.seal();
  const buildId = sealed.sha256.slice(0, 16);
  const notices = getNotices(model);
  const dumps = getPublishedDumps(ctx);
  if (dumps) {
    progress.phase("changes");
    started = performance.now();
    const input = { build: buildId, previous, retention: options.changeRetention ?? DEFAULT_CHANGE_RETENTION, notices };
    for (const file of emitChanges(ctx, dumps, input)) writer.write(file);
    lap("changes", started);
  }
  // 4. The manifest: every file with its hash (and, into a kept folder, the deletions: writer/tree-reuse.cjs).
  started = performance.now();
  writer.finish({
    as_of: formatInstant(model.asOfMs),
    base_url: ctx.urls.base,
    counts: getBuildCounts(model),
    emitters: [...emitters.map(({ name, writes }) => ({ name, writes })), ...(dumps ? [{ name: "changes", writes: CHANGES_WRITES }] : [])],
    build: toBuildField({ id: buildId, sealedBytes: sealed.bytes }),
  });
  lap("manifest", started);
  progress.done();
  return {
    buildId,
    counts: getBuildCounts(model),
    rejected: model.rejections.total,
    rejections: model.rejections.toJSON(),
    files: writer.fileCount + 1,
    bytes: writer.byteCount,
    timings,
    rssAfter,
    checkPhase,
    writes: { files: writer.fileCount, seconds: writer.writeSeconds, unmade },
    notices,
    dumps: dumps && { kept: dumps.kept, members: dumps.members },
  };
}

/** A build that succeeds can still publish something an operator would not want unawares. */
function getNotices(model: Model): string[] {
  const notices: string[] = [];
  if (model.fingerprints.profiles.length === 0) {
    notices.push(
      "the snapshot has no public fingerprint profile, so every fingerprint match will answer `unknown`: " +
        "load the shipped library into it with `npm run fingerprints -- import --db FILE`",
    );
  }
  return notices;
}
