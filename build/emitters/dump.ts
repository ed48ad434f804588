/**
 * dumps/ — the weekly open-data dump: spammers and companies as CSV, named by the ISO week of
 * `as_of` (`spammers-2026-W11.csv`) and under a stable name (`spammers-latest.csv`, the same
 * bytes); for every week in which usernames were first reported, those usernames
 * (`spammers-new-2026-W11.csv`; both from one pass, build/dump/spammer-dumps.ts); a reproducible
 * `.gz` beside each CSV, LICENSE.txt with the credit line, and the index of it all (`index.json` and the page `/dumps/`: every file's size, SHA-256 and rows).
 *
 * The spammer rows are read off the model's spammer table into compressed batches of CSV text
 * (build/dump/csv.ts), so the 150 MB CSV of a million usernames is never whole in memory; the
 * batches are gzipped on a thread of their own while the rows are formatted (member-compressor.ts).
 * The CSVs stay in the context for the change feed, which writes the Frictionless
 * datapackage.json describing every column of them and of the change files (changes.ts).
 */
import { formatIsoWeek, getIsoWeek, getIsoWeekMonday } from "../../core/iso-week.ts";
import { getRouteFile } from "../../core/routes/match.ts";
import { toJson, type EmitContext } from "../context.ts";
import { COMPANY_COLUMNS, SPAMMER_COLUMNS, toCompanyCells } from "../dump/columns.ts";
import { getCredit, renderLicenseText } from "../dump/credit.ts";
import { CsvCollector } from "../dump/csv.ts";
import type { DumpResource } from "../dump/datapackage.ts";
import { createDumpIndex, type ListedDump } from "../dump/dump-index.ts";
import { renderDumpIndexPage } from "../html/dump-index-page.ts";
import { recordMembers } from "../dump/member-cache.cjs";
import { MemberCompressor } from "../dump/member-compressor.ts";
import type { KeptDumpFile } from "../build-state.ts";
import { collectSpammerDumps } from "../dump/spammer-dumps.ts";
import { withContext } from "../errors.ts";
import type { ChunkedData, OutputFile } from "../writer/index.ts";

/** The full dumps and their data-package resources, for the change feed made after every other file (changes.ts). */
export interface PublishedDumps {
  spammers: ChunkedData;
  companies: ChunkedData;
  /** ISO week of as_of, as the data package names it. */
  week: string;
  resources: DumpResource[];
  /** The .gz files' members, for the state (the next incremental build takes the unchanged ones: member-cache.cjs). */
  kept: KeptDumpFile[];
  /** Members taken from the current build's files and made anew; kept files that could not be used, and why. */
  members: { reused: number; made: number; refused: string[] };
}

const published = new WeakMap<EmitContext, PublishedDumps>();

/** What the dump emitter of this build wrote, once it has (none when a build runs other emitters). */
export const getPublishedDumps = (ctx: EmitContext): PublishedDumps | undefined => published.get(ctx);

type WrittenResource = DumpResource & { file: ChunkedData & { sha256: string }; gz: ChunkedData & { sha256: string }; rows: number };

export function* emitDump(ctx: EmitContext): Generator<OutputFile> {
  const { model, urls } = ctx;
  const week = formatIsoWeek(getIsoWeek(model.asOfMs));
  const credit = getCredit(ctx);
  const compressor = new MemberCompressor(ctx.keptDumps ?? null);
  let spammers: ReturnType<typeof collectSpammerDumps>;
  let companyFiles: ReturnType<CsvCollector["finish"]>;
  const companyRows = new CsvCollector(COMPANY_COLUMNS.map((c) => c.name), compressor);
  try {
    spammers = withContext("joining the spammer dumps", () => collectSpammerDumps(model.spammers, urls, compressor));
    // By id, the primary key, like the spammers by username: a change file is then the linear merge
    // of two dumps (build/emitters/changes.ts), and two weeks' dumps diff line by line.
    for (const company of [...model.ranked].sort((a, b) => a.id - b.id)) companyRows.add(toCompanyCells(company, urls));
    companyFiles = withContext("joining the company dump", () => companyRows.finish());
  } finally {
    compressor.close();
  }
  const spammerFiles = spammers.all;

  const resources: WrittenResource[] = [
    {
      name: "spammers",
      title: "Reported usernames",
      description: "Every valid reported username, in username order, with the fields of /api/check/{username}.",
      path: `spammers-${week}.csv`,
      file: spammerFiles.csv,
      gz: spammerFiles.gz,
      rows: spammerFiles.rows,
      columns: SPAMMER_COLUMNS,
      primaryKey: "username",
    },
    {
      name: "companies",
      title: "Companies with their complaints",
      description: "Every company of the catalog in id order, with the fields of its card.",
      path: `companies-${week}.csv`,
      file: companyFiles.csv,
      gz: companyFiles.gz,
      rows: companyRows.rows,
      columns: COMPANY_COLUMNS,
      primaryKey: "id",
    },
  ];
  const monday = getIsoWeekMonday(model.asOfMs);
  const listed: ListedDump[] = [];
  const kept: KeptDumpFile[] = [];
  const keep = (name: string, files: { gz: { sha256: string }; members: { key: string; length: number }[] | null }) => {
    if (files.members) kept.push(recordMembers(getRouteFile("getDumpGzip", { name }), files.gz.sha256, files.members));
  };
  keep("spammers-latest", spammerFiles);
  keep("companies-latest", companyFiles);
  for (const { name, file, gz, rows } of resources) {
    for (const fileName of [`${name}-${week}`, `${name}-latest`]) {
      yield { path: getRouteFile("getDumpCsv", { name: fileName }), data: file };
      yield { path: getRouteFile("getDumpGzip", { name: fileName }), data: gz };
    }
    listed.push({ name: `${name}-${week}`, dataset: name as ListedDump["dataset"], week, firstDay: monday, lastDay: monday + 6, rows, csv: file, gz, latest: `${name}-latest` });
  }

  const newResources: DumpResource[] = [];
  for (const dump of spammers.weeks) {
    const name = `spammers-new-${dump.week.week}`;
    keep(name, dump);
    yield { path: getRouteFile("getDumpCsv", { name }), data: dump.csv };
    yield { path: getRouteFile("getDumpGzip", { name }), data: dump.gz };
    // Sizes and hashes only: the week's compressed CSV is let go once written.
    const csv = { byteLength: dump.csv.byteLength, sha256: dump.csv.sha256 };
    listed.push({ name, dataset: "spammers-new", week: dump.week.week, firstDay: dump.week.firstDay, lastDay: dump.week.lastDay, rows: dump.rows, csv, gz: { byteLength: dump.gz.byteLength, sha256: dump.gz.sha256 } });
    newResources.push({
      name: name.toLowerCase(),
      title: `Usernames first reported in ${dump.week.week}`,
      description: "The valid reported usernames whose first report falls in this ISO week (UTC), in username order, with the columns of the spammers resource (their values as of the snapshot).",
      path: `${name}.csv`,
      file: csv,
      columns: SPAMMER_COLUMNS,
      primaryKey: "username",
    });
  }
  yield { path: getRouteFile("getDumpLicense"), data: renderLicenseText(credit) };
  // The data package is written with the change files, which it describes too (changes.ts).
  published.set(ctx, {
    spammers: spammerFiles.csv,
    companies: companyFiles.csv,
    week,
    resources: [...resources, ...newResources],
    kept,
    members: { reused: compressor.reused, made: compressor.made, refused: compressor.refused },
  });
  const index = createDumpIndex({ asOfMs: model.asOfMs, week, credit, urls, dumps: listed });
  yield { path: getRouteFile("getDumpIndexJson"), data: toJson(index) };
  yield { path: getRouteFile("getDumpIndex"), data: renderDumpIndexPage(index, urls) };
}
