/**
 * The shape of `/dumps/index.json`: what a researcher reads to know which weeks exist and to
 * check each file it fetches (size, SHA-256, rows) before using it, with the licence beside them.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Count, Day, Instant, Uri } from "./schemas.ts";

const Week = (description: string) => Type.String({ pattern: "^[0-9]{4}-W[0-9]{2}$", description });

export const DumpIndexFileSchema = Type.Object(
  {
    name: Type.String({ description: "The file's name in /dumps/." }),
    url: Uri("Where to fetch it."),
    dataset: Type.Union([Type.Literal("spammers"), Type.Literal("companies"), Type.Literal("spammers-new")], {
      description: "`spammers` and `companies`: everything as of the snapshot; `spammers-new`: the usernames first reported in the week.",
    }),
    media_type: Type.String({ description: "`text/csv`, or `application/gzip` for the same bytes compressed." }),
    bytes: Count("Size of the file."),
    sha256: Type.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 of the file, hex." }),
    rows: Count("Data rows (the header row aside); the same for a .csv and its .csv.gz."),
  },
  { $id: "DumpIndexFile", additionalProperties: false },
);

export const DumpIndexSchema = Type.Object(
  {
    as_of: Instant("The snapshot's now: every row's values are as of then."),
    week: Week("The ISO week of as_of: the week of the full dumps and of their -latest names."),
    license: Type.Object(
      {
        id: Type.Literal("CC-BY-4.0"),
        title: Type.String(),
        url: Uri("The licence."),
        credit: Type.String({ description: "The credit line to give with the data." }),
        text: Uri("LICENSE.txt beside the files."),
      },
      { additionalProperties: false },
    ),
    datapackage: Uri("The Frictionless Data Package: every column's type and meaning."),
    latest: Type.Array(DumpIndexFileSchema, { description: "The full dumps under their stable -latest names (the same bytes as this week's)." }),
    weeks: Type.Array(
      Type.Object(
        {
          week: Week("An ISO 8601 week."),
          first_day: Day("Its Monday (UTC)."),
          last_day: Day("Its Sunday (UTC)."),
          files: Type.Array(DumpIndexFileSchema),
        },
        { additionalProperties: false },
      ),
      { description: "Every week with a file, newest first." },
    ),
  },
  { $id: "DumpIndex", additionalProperties: false, description: "Every file in /dumps/ with its size, SHA-256 and rows, by ISO week." },
);

export type DumpIndex = Static<typeof DumpIndexSchema>;
export type DumpIndexFile = Static<typeof DumpIndexFileSchema>;
