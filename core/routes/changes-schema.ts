/**
 * The shape of `/dumps/changes/index.json`: the publishes whose change files are kept, newest
 * first, each relative to the one before it, so that a client holding the dump of any of them
 * can reach the current one (docs/change-feed.md).
 */
import { Type, type Static } from "@sinclair/typebox";
import { Count, Instant, Uri } from "./schemas.ts";

/** A build id: the first 16 hex digits of the SHA-256 of what the snapshot makes (build/build.ts). */
export const BUILD_ID_PATTERN = "^[0-9a-f]{16}$";
const BuildId = (description: string) => Type.String({ pattern: BUILD_ID_PATTERN, description });

const ChangeCountsSchema = Type.Object(
  { added: Count("Rows added."), updated: Count("Rows whose values changed."), removed: Count("Rows removed.") },
  { additionalProperties: false },
);

export const ChangeFileSchema = Type.Object(
  {
    name: Type.String({ description: "The file's name in /dumps/changes/: `{build}.csv`, `{build}-companies.csv`, and each `.csv.gz`." }),
    url: Uri("Where to fetch it."),
    dataset: Type.Union([Type.Literal("spammers"), Type.Literal("companies")], { description: "The dump it changes: spammers-latest.csv or companies-latest.csv." }),
    media_type: Type.String({ description: "`text/csv`, or `application/gzip` for the same bytes compressed." }),
    bytes: Count("Size of the file."),
    sha256: Type.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 of the file, hex." }),
    rows: Count("Change rows (the header row aside); the same for a .csv and its .csv.gz."),
  },
  { $id: "ChangeFile", additionalProperties: false },
);

export const ChangePublishSchema = Type.Object(
  {
    build: BuildId("The publish's build id: its change files are named by it."),
    previous: Type.Union([BuildId("The publish its change files are relative to."), Type.Null()], {
      description: "The publish before it, whose dumps its change files turn into its own; null for the first publish, which has no change files (start from the full dumps).",
    }),
    as_of: Instant("The snapshot's now at this publish."),
    spammers: ChangeCountsSchema,
    companies: ChangeCountsSchema,
    files: Type.Array(ChangeFileSchema),
  },
  { $id: "ChangePublish", additionalProperties: false },
);

export const ChangeIndexSchema = Type.Object(
  {
    build: BuildId("The current publish."),
    as_of: Instant("The snapshot's now at the current publish."),
    retention: Type.Object(
      {
        publishes: Count("At least this many publishes are kept..."),
        days: Count("...and every publish of this many days before as_of."),
      },
      { additionalProperties: false },
    ),
    full_dumps: Type.Object(
      { spammers: Uri("Where to start from without a retained publish."), companies: Uri("The same for companies.") },
      { additionalProperties: false },
    ),
    changes: Uri("The live server's merged changes since a publish: `?since={build}`."),
    publishes: Type.Array(ChangePublishSchema, { description: "Newest first; each one's `previous` is the next one's `build`." }),
  },
  { $id: "ChangeIndex", additionalProperties: false, description: "The retained publishes and their change files, newest first." },
);

/** Expired build ids remembered (expired.json), so that an old `since` is a 410 rather than a 404: about 19 bytes each. */
export const CHANGES_EXPIRED_KEPT = 10_000;

export const ChangeExpiredSchema = Type.Object(
  { builds: Type.Array(Type.String({ pattern: BUILD_ID_PATTERN }), { description: "Newest first.", maxItems: CHANGES_EXPIRED_KEPT }) },
  { $id: "ChangeExpired", additionalProperties: false, description: "Publishes older than the retained ones, still known as publishes of this deployment." },
);

export type ChangeIndex = Static<typeof ChangeIndexSchema>;
export type ChangePublish = Static<typeof ChangePublishSchema>;
export type ChangeFile = Static<typeof ChangeFileSchema>;
