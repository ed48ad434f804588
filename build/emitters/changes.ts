/**
 * dumps/changes/ — the change feed (docs/change-feed.md): per publish, the change files that turn
 * the previous publish's dumps into this one's (`{build}.csv`, `{build}-companies.csv`, each with
 * its `.csv.gz`), the retained publishes' files carried on, their index and the expired ids, the
 * publishes' feed (`rss/changes.*`), and the data package, which describes this publish's change
 * files beside the dumps.
 *
 * Unlike every other emitter, this one reads more than the model: the publish before this one
 * (build/changes/history.ts), and it runs after the build id is sealed, since its files are named
 * by it. A change file is the merge of the previous dump (read from its file in pieces) with the
 * new one (inflated member by member): linear, and neither is ever whole in memory.
 */
import { CHANGE_DATASETS, countChanges, diffDumps, formatChange, noChanges, type ChangeCounts, type ChangeDataset } from "../../core/changes/merge.ts";
import { readFirstRecord } from "../../core/changes/records.ts";
import { CHANGES_EXPIRED_KEPT, type ChangeFile, type ChangeIndex, type ChangePublish } from "../../core/routes/changes-schema.ts";
import { getRouteFile } from "../../core/routes/match.ts";
import { MEDIA_TYPES } from "../../core/routes/types.ts";
import { DAY_MS, formatInstant } from "../../core/time.ts";
import { readFileChunks, getHistoryPath, type PreviousPublish } from "../changes/history.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { PublishedDumps } from "./dump.ts";
import { COMPANY_COLUMNS, SPAMMER_COLUMNS } from "../dump/columns.ts";
import { getCredit } from "../dump/credit.ts";
import { CsvCollector } from "../dump/csv.ts";
import { renderDataPackage, type DumpResource } from "../dump/datapackage.ts";
import { renderFeed } from "../feeds/render.ts";
import type { ChangeRetention } from "../publish.ts";
import type { OutputFile } from "../writer/index.ts";
import { renderChangeEntry } from "../feeds/change-entries.ts";

export interface ChangesInput {
  /** This publish's build id. */
  build: string;
  previous: PreviousPublish | null;
  retention: ChangeRetention;
  /** What was wrong with the history, for the build's notices (filled here). */
  notices: string[];
}

const COLUMNS: Record<ChangeDataset, readonly { name: string }[]> = { spammers: SPAMMER_COLUMNS, companies: COMPANY_COLUMNS };
const CHANGE_TITLES: Record<ChangeDataset, string> = { spammers: "Changes to the reported usernames", companies: "Changes to the companies" };

export function* emitChanges(ctx: EmitContext, dumps: PublishedDumps, input: ChangesInput): Generator<OutputFile> {
  const { model, urls } = ctx;
  const { build, previous } = input;
  input.notices.push(...(previous?.problems ?? []));
  let older = previous?.publishes ?? [];
  const lost = (previous?.lost ?? []).flatMap((entry) => (entry.previous ? [entry.previous] : []));
  let expired = [...lost, ...(previous?.expired ?? [])];
  let publish: ChangePublish;
  const written: { name: string; dataset: ChangeDataset; csv: Collected; gz: Collected; rows: number }[] = [];
  if (previous && previous.build === build) {
    // The same files as the current build (another export of the same data): its history stands.
    publish = older[0] ?? firstPublish(build, model.asOfMs);
    older = older.slice(1);
  } else {
    const made = previous && makeChangeFiles(build, previous, dumps, input.notices);
    publish = made ? { build, previous: previous!.build, as_of: formatInstant(model.asOfMs), ...made.counts, files: [] } : firstPublish(build, model.asOfMs);
    if (made) written.push(...made.files);
    else if (previous) {
      // A history that cannot go on: its publishes are gone (410), not unknown.
      expired = [previous.build, ...older.flatMap((entry) => (entry.previous ? [entry.previous] : [])), ...expired];
      older = [];
    }
    // The same build again (a snapshot back as it was): its old entry and everything before it go.
    const again = older.findIndex((entry) => entry.build === build);
    if (again !== -1) {
      expired = [...older.slice(again).flatMap((entry) => (entry.previous ? [entry.previous] : [])), ...expired];
      older = older.slice(0, again);
    }
  }
  for (const file of written) {
    publish.files.push(toIndexFile(file.name + ".csv", file.dataset, MEDIA_TYPES.csv, file.csv, file.rows, urls));
    publish.files.push(toIndexFile(file.name + ".csv.gz", file.dataset, MEDIA_TYPES.gzip, file.gz, file.rows, urls));
  }
  const { kept, dropped } = retain([publish, ...older], input.retention, model.asOfMs);
  const valid = new Set([build, ...kept.flatMap((entry) => (entry.previous ? [entry.previous] : []))]);
  // Newest first, each once (a Set keeps the first place of each: up to 10 000 ids).
  expired = [...new Set([...dropped.flatMap((entry) => (entry.previous ? [entry.previous] : [])), ...expired])].filter((id) => !valid.has(id)).slice(0, CHANGES_EXPIRED_KEPT);

  for (const file of written) {
    yield { path: getChangePath(`${file.name}.csv`), data: file.csv };
    yield { path: getChangePath(`${file.name}.csv.gz`), data: file.gz };
  }
  // The retained publishes' files, as the previous publish had them (history.ts checked each).
  for (const entry of kept) {
    if (entry === publish && written.length > 0) continue;
    for (const file of entry.files) {
      const source = getHistoryPath(previous!.dir, file.name);
      yield { path: getChangePath(file.name), data: { byteLength: file.bytes, chunks: () => readFileChunks(source) } };
    }
  }
  // Carried entries name their files on this build's base URL (it may have moved: --base-url).
  const listed = kept.map((entry) => ({ ...entry, files: entry.files.map((file) => ({ ...file, url: urls.changeFile(file.name) })) }));
  const index: ChangeIndex = {
    build,
    as_of: formatInstant(model.asOfMs),
    retention: { ...input.retention },
    full_dumps: { spammers: urls.dump("spammers-latest.csv"), companies: urls.dump("companies-latest.csv") },
    changes: urls.changes(),
    publishes: listed,
  };
  yield { path: getRouteFile("getChangeIndex"), data: toJson(index) };
  yield { path: getRouteFile("getChangeExpired"), data: toJson({ builds: expired }) };

  const credit = getCredit(ctx);
  const feed = renderFeed({
    title: "Publishes of the open data",
    description: "Each publish of the data, with how many usernames and companies it added, updated and removed, and its change files.",
    links: { home: urls.changeIndex(), rss: urls.changesRss(), atom: urls.changesAtom(), json: urls.changesJsonFeed() },
    updatedMs: model.asOfMs,
    credit,
    entries: listed.filter((entry) => entry.previous !== null).map((entry) => renderChangeEntry(entry, urls, credit)),
  });
  yield { path: getRouteFile("getChangesFeedRss"), data: feed.rss };
  yield { path: getRouteFile("getChangesFeedAtom"), data: feed.atom };
  yield { path: getRouteFile("getChangesFeedJson"), data: feed.json };

  // This publish's change files (made now, or carried with the same build): the same package either way.
  const changeResources = listed[0]!.files.filter((file) => file.name.endsWith(".csv")).map((file): DumpResource => {
    const dump = dumps.resources.find((resource) => resource.name === file.dataset)!;
    return {
      name: `${file.dataset}-changes`,
      title: `${CHANGE_TITLES[file.dataset]} in this publish`,
      description: `What turns the previous publish's ${file.dataset}-latest.csv into this one's: a change column (added, updated, removed), then the dump's columns, rows in its key order; a removed row carries its key and empty cells. changes/index.json lists every retained publish's files.`,
      path: `changes/${file.name}`,
      file: { byteLength: file.bytes, sha256: file.sha256 },
      columns: [CHANGE_COLUMN, ...dump.columns],
      primaryKey: dump.primaryKey,
    };
  });
  yield { path: getRouteFile("getDataPackage"), data: renderDataPackage({ credit, asOfMs: model.asOfMs, week: dumps.week, resources: [...dumps.resources, ...changeResources] }) };
}

const CHANGE_COLUMN: DumpResource["columns"][number] = {
  name: "change",
  type: "string",
  description: "added, updated or removed.",
  constraints: { required: true, enum: ["added", "updated", "removed"] },
  cell: () => null,
};

type Collected = ReturnType<CsvCollector["finish"]>["csv"];

const getChangePath = (name: string) => getHistoryPath("", name).replace(/^\//, "");

function firstPublish(build: string, asOfMs: number): ChangePublish {
  return { build, previous: null, as_of: formatInstant(asOfMs), spammers: noChanges(), companies: noChanges(), files: [] };
}

/**
 * The change files from the previous publish's dumps to this one's, or null when they cannot be
 * made (its dumps are missing, have other columns, or are not in key order: a build older than
 * the change feed): the history then starts again with this publish, said in a notice.
 */
function makeChangeFiles(build: string, previous: PreviousPublish, dumps: PublishedDumps, notices: string[]) {
  const counts = {} as Record<ChangeDataset, ChangeCounts>;
  const files: { name: string; dataset: ChangeDataset; csv: Collected; gz: Collected; rows: number }[] = [];
  for (const dataset of CHANGE_DATASETS) {
    const path = previous.dumps[dataset];
    const next = dumps[dataset];
    const columns = COLUMNS[dataset];
    try {
      if (path === null) throw new Error("it has none");
      const oldHeader = readFirstRecord(readFileChunks(path))?.text;
      const newHeader = readFirstRecord(next.chunks())?.text;
      if (oldHeader !== newHeader) throw new Error("its columns differ from this build's");
      const collector = new CsvCollector(["change", ...columns.map((c) => c.name)]);
      counts[dataset] = noChanges();
      const changes = diffDumps(readFileChunks(path), next.chunks(), dataset, columns.length);
      for (const change of countChanges(changes, counts[dataset])) collector.addRecord(formatChange(change));
      const { csv, gz } = collector.finish();
      files.push({ name: dataset === "spammers" ? build : `${build}-companies`, dataset, csv, gz, rows: collector.rows });
    } catch (error) {
      notices.push(
        `the change feed starts again with this publish: the previous publish's ${dataset} dump cannot be compared with this one's (${error instanceof Error ? error.message : String(error)})`,
      );
      return null;
    }
  }
  return { counts, files };
}

function toIndexFile(name: string, dataset: ChangeDataset, media: string, data: { byteLength: number; sha256: string }, rows: number, urls: EmitContext["urls"]): ChangeFile {
  return { name, url: urls.changeFile(name), dataset, media_type: media.split(";")[0]!, bytes: data.byteLength, sha256: data.sha256, rows };
}

/**
 * The publishes kept: the newest `publishes`, and every one whose as_of is within `days` of this
 * one's; the list is cut after the last one kept, so that the kept ones still chain.
 */
function retain(chain: ChangePublish[], retention: ChangeRetention, asOfMs: number): { kept: ChangePublish[]; dropped: ChangePublish[] } {
  const since = asOfMs - retention.days * DAY_MS;
  let last = 0;
  chain.forEach((entry, i) => {
    if (i < retention.publishes || Date.parse(entry.as_of) >= since) last = i;
  });
  return { kept: chain.slice(0, last + 1), dropped: chain.slice(last + 1) };
}
