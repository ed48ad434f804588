/**
 * dumps/datapackage.json: a Frictionless Tabular Data Package (https://specs.frictionlessdata.io/)
 * describing the week's two CSV files and the weeks' new usernames, every column with its type, format, description and
 * constraints, taken from the same column list that wrote the header rows.
 */
import { formatInstant } from "../../core/time.ts";
import type { Column } from "./columns.ts";
import { LICENSE, type Credit } from "./credit.ts";

export interface DumpResource {
  name: string;
  title: string;
  description: string;
  /** File name inside dumps/, relative to datapackage.json. */
  path: string;
  /** The CSV's size and SHA-256. */
  file: { byteLength: number; sha256: string };
  columns: Column<never>[];
  primaryKey: string;
}

export interface DataPackageOptions {
  credit: Credit;
  asOfMs: number;
  /** `2026-W11` */
  week: string;
  resources: DumpResource[];
}

export function renderDataPackage({ credit, asOfMs, week, resources }: DataPackageOptions): string {
  const pkg = {
    profile: "tabular-data-package",
    name: "spam-reports-open-data",
    title: `Reported usernames and companies with complaints, week ${week}`,
    description:
      "Weekly open-data dump of the spam-report API: every reported username with its report statistics, and every company in the catalog with its complaint statistics, as of the snapshot time. " +
      "Values are the API's. UTF-8 CSV (RFC 4180, CRLF line ends, header row, no byte-order mark); each file also comes gzip-compressed beside it (.csv.gz), and the two full files under a stable -latest name with the same bytes. " +
      "The spammers-new files hold the usernames first reported in their ISO week, for every week that has any; index.json lists every file with its size, SHA-256 and rows. " +
      "Each publish also writes what changed since the publish before it (changes/{build}.csv and changes/{build}-companies.csv, listed in changes/index.json); the spammers-changes and companies-changes resources, when present, are this publish's.",
    created: formatInstant(asOfMs),
    homepage: credit.home,
    licenses: [{ name: LICENSE.id, path: LICENSE.url, title: LICENSE.title }],
    sources: [{ title: credit.source, path: credit.home }],
    keywords: ["spam", "messenger", "usernames", "complaints", "companies", "open data"],
    resources: resources.map((resource) => ({
      profile: "tabular-data-resource",
      name: resource.name,
      title: resource.title,
      description: resource.description,
      path: resource.path,
      format: "csv",
      mediatype: "text/csv",
      encoding: "utf-8",
      bytes: resource.file.byteLength,
      hash: `sha256:${resource.file.sha256}`,
      licenses: [{ name: LICENSE.id, path: LICENSE.url, title: LICENSE.title }],
      dialect: { delimiter: ",", lineTerminator: "\r\n", quoteChar: '"', doubleQuote: true, header: true },
      schema: {
        fields: resource.columns.map(({ name, type, format, description, constraints }) => ({
          name,
          type,
          ...(format ? { format } : {}),
          description,
          ...(constraints ? { constraints } : {}),
        })),
        missingValues: [""],
        primaryKey: resource.primaryKey,
      },
    })),
  };
  return JSON.stringify(pkg, null, 2) + "\n";
}
