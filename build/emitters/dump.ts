/**
 * dumps/ — the weekly open-data dump: spammers and companies as CSV, named by the ISO week of
 * `as_of` (`spammers-2026-W11.csv`) and under a stable name (`spammers-latest.csv`, the same
 * bytes), a reproducible `.gz` beside each, LICENSE.txt with the credit line, and a Frictionless
 * datapackage.json describing every column.
 *
 * The spammer rows are read off the model's spammer table into compressed batches of CSV text
 * (build/dump/csv.ts), so the 150 MB CSV of a million usernames is never whole in memory.
 */
import { formatIsoWeek, getIsoWeek } from "../../core/iso-week.ts";
import { getRouteFile } from "../../core/routes/match.ts";
import type { EmitContext } from "../context.ts";
import { COMPANY_COLUMNS, SPAMMER_COLUMNS, createSpammerRecordFormatter, toCompanyCells } from "../dump/columns.ts";
import { getCredit, renderLicenseText } from "../dump/credit.ts";
import { CsvCollector } from "../dump/csv.ts";
import { renderDataPackage, type DumpResource } from "../dump/datapackage.ts";
import { withContext } from "../errors.ts";
import type { ChunkedData, OutputFile } from "../writer/index.ts";

export function* emitDump(ctx: EmitContext): Generator<OutputFile> {
  const { model, urls } = ctx;
  const spammerRows = new CsvCollector(SPAMMER_COLUMNS.map((c) => c.name));
  const format = createSpammerRecordFormatter(urls);
  for (const spammer of model.spammers.views()) spammerRows.addRecord(format(spammer));
  const week = formatIsoWeek(getIsoWeek(model.asOfMs));
  const credit = getCredit(ctx);

  const companyRows = new CsvCollector(COMPANY_COLUMNS.map((c) => c.name));
  for (const company of model.ranked) companyRows.add(toCompanyCells(company, urls));
  const spammerFiles = withContext("joining the spammer dump", () => spammerRows.finish());
  const companyFiles = withContext("joining the company dump", () => companyRows.finish());

  const resources: (DumpResource & { file: ChunkedData; gz: ChunkedData })[] = [
    {
      name: "spammers",
      title: "Reported usernames",
      description: "Every valid reported username, in username order, with the fields of /api/check/{username}.",
      path: `spammers-${week}.csv`,
      file: spammerFiles.csv,
      gz: spammerFiles.gz,
      columns: SPAMMER_COLUMNS,
      primaryKey: "username",
    },
    {
      name: "companies",
      title: "Companies with their complaints",
      description: "Every company of the catalog in the ranking of /api/companies (complaints, then name, then id), with the fields of its card.",
      path: `companies-${week}.csv`,
      file: companyFiles.csv,
      gz: companyFiles.gz,
      columns: COMPANY_COLUMNS,
      primaryKey: "id",
    },
  ];
  for (const { name, file, gz } of resources) {
    for (const fileName of [`${name}-${week}`, `${name}-latest`]) {
      yield { path: getRouteFile("getDumpCsv", { name: fileName }), data: file };
      yield { path: getRouteFile("getDumpGzip", { name: fileName }), data: gz };
    }
  }
  yield { path: getRouteFile("getDumpLicense"), data: renderLicenseText(credit) };
  yield { path: getRouteFile("getDataPackage"), data: renderDataPackage({ credit, asOfMs: model.asOfMs, week, resources }) };
}
