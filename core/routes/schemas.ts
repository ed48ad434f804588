/**
 * The JSON shapes of every answer, as JSON Schema (2020-12) written with TypeBox: the same
 * objects are the OpenAPI document's schemas and, through `Static<>`, the TypeScript types the
 * emitters and routes produce, so the document cannot drift from the code. Field notes follow the
 * API reference ("Resources and their fields") and DESIGN ("Semantics the reference leaves open").
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { CATEGORIES } from "../categories.ts";
import { PROFILE_KINDS, TRUST_LEVELS } from "../fingerprint/types.ts";
import { GLOBAL_SEARCH_TYPES } from "../search/global-index.ts";

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const Uri = (description: string) => Type.String({ format: "uri", description });
export const Count = (description: string) => Type.Integer({ minimum: 0, description });
export const Instant = (description: string) => Type.String({ format: "date-time", description });
export const Day = (description: string) => Type.String({ format: "date", description });

const CategorySchema = Type.Union(
  CATEGORIES.map((c) => Type.Literal(c)),
  { $id: "Category", description: "A complaint category (reference: \"Category (string enum)\")." },
);

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: "Always `about:blank`: the status says what kind of problem it is." }),
    title: Type.String({ description: "The status's reason phrase." }),
    status: Type.Integer({ minimum: 400, maximum: 599 }),
    detail: Type.String({ description: "What went wrong, in one sentence." }),
    errors: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ description: "The field: a parameter name, or a dotted path into the body." }),
            in: Type.Union([Type.Literal("path"), Type.Literal("query"), Type.Literal("body"), Type.Literal("header")]),
            detail: Type.String(),
          },
          { additionalProperties: false },
        ),
        { description: "Each bad field, when the problem is with the input." },
      ),
    ),
    live_route: Type.Optional(Type.String({ description: "On a static host: the live server's route that answers this request." })),
  },
  { $id: "Problem", additionalProperties: false, description: "RFC 9457 problem details." },
);
export type Problem = Static<typeof ProblemSchema>;
export type FieldError = NonNullable<Problem["errors"]>[number];

const CompanyRef = Type.Object(
  { name: Type.String(), slug: Type.String(), url: Uri("The company page.") },
  { additionalProperties: false },
);

export const CheckFoundSchema = Type.Object(
  {
    found: Type.Literal(true),
    username: Type.String({ description: "Normalised: trimmed, without `@`, lower case." }),
    reports_count: Count("Reports that name this username."),
    unique_reports: Count("Distinct reporters."),
    confidence_max: Nullable(Type.Integer({ minimum: 0, maximum: 100, description: "Highest reporter confidence." })),
    first_seen: Instant("First report (UTC)."),
    last_seen: Instant("Latest report (UTC)."),
    week_trend: Type.Number({ description: "Percent change of the last 7 days over the 7 before, one decimal." }),
    last_7_days: Count("Reports in day-6..day-0."),
    categories: Type.Array(CategorySchema, { description: "Distinct categories by frequency (ties: enum order)." }),
    companies: Type.Array(CompanyRef, { description: "Companies named with it, most-named first." }),
    url: Uri("This check result."),
  },
  { $id: "CheckFound", additionalProperties: false },
);
export type CheckFound = Static<typeof CheckFoundSchema>;

export const CheckNotFoundSchema = Type.Object(
  { found: Type.Literal(false), username: Type.String(), reports_count: Type.Literal(0) },
  { $id: "CheckNotFound", additionalProperties: false, description: "Not in the database: not a guarantee that the account is clean." },
);

export const CompanyListItemSchema = Type.Object(
  { id: Type.Integer(), name: Type.String(), slug: Type.String(), reports_count: Count("Complaints."), url: Uri("The company page.") },
  { $id: "CompanyListItem", additionalProperties: false },
);
export type CompanyListItem = Static<typeof CompanyListItemSchema>;

export const CompanyPageSchema = Type.Object(
  {
    data: Type.Array(CompanyListItemSchema, { description: "Ranked by complaints, then name, then id." }),
    total: Count("Companies in the whole list."),
    page: Type.Integer({ minimum: 1 }),
    pages: Count("ceil(total / limit); 0 for an empty list."),
  },
  { $id: "CompanyPage", additionalProperties: false },
);

export const CompanyAllSchema = Type.Object(
  { data: Type.Array(CompanyListItemSchema), total: Count("Companies.") },
  { $id: "CompanyAll", additionalProperties: false },
);

export const SpammerItemSchema = Type.Object(
  {
    username: Type.String(),
    reports_count: Count("Reports."),
    last_seen: Instant("Latest report (UTC)."),
    category: Nullable(CategorySchema),
    primary_category: Nullable(CategorySchema),
    categories: Type.Array(CategorySchema),
    url: Uri("The username's check result."),
  },
  { $id: "SpammerItem", additionalProperties: false },
);
export type SpammerItem = Static<typeof SpammerItemSchema>;

export const SpammerListSchema = Type.Object(
  {
    data: Type.Array(SpammerItemSchema, { description: "By reports, then last_seen (newest first), then username." }),
    total: Count("Usernames in the set (all, or those with a report in the category)."),
    page: Type.Integer({ minimum: 1 }),
    pages: Count("ceil(total / limit); 0 for an empty set."),
  },
  { $id: "SpammerList", additionalProperties: false },
);
export type SpammerList = Static<typeof SpammerListSchema>;

export const CompanyCardSchema = Type.Object(
  {
    found: Type.Literal(true),
    name: Type.String(),
    slug: Type.String(),
    category: CategorySchema,
    category_label: Type.String(),
    reports_count: Count("Complaints."),
    first_report_date: Nullable(Day("First complaint; null without complaints.")),
    last_report_date: Nullable(Day("Latest complaint; null without complaints.")),
    week_trend: Type.Number(),
    last_7_days: Count("Complaints in day-6..day-0."),
    aliases: Type.Array(Type.String()),
    badge_url: Uri("SVG badge."),
    card_url: Uri("SVG card."),
    url: Uri("The company page."),
  },
  { $id: "CompanyCard", additionalProperties: false },
);
export type CompanyCard = Static<typeof CompanyCardSchema>;

export const CompanyNotFoundSchema = Type.Object(
  { found: Type.Literal(false), query: Type.String({ description: "The value sent." }) },
  { $id: "CompanyNotFound", additionalProperties: false },
);

export const WidgetSchema = Type.Object(
  {
    found: Type.Literal(true),
    name: Type.String(),
    slug: Type.String(),
    reports_count: Count("Complaints."),
    trend: Type.String({ pattern: "^[+-][0-9]+%$", description: "Whole-percent week trend, signed." }),
    trend_direction: Type.Union([Type.Literal("up"), Type.Literal("down"), Type.Literal("flat")]),
    last_7_days: Type.Array(Type.Integer({ minimum: 0 }), { minItems: 7, maxItems: 7, description: "day-6 … day-0." }),
    top_category: CategorySchema,
    badge_url: Uri("SVG badge."),
    card_url: Uri("SVG card."),
    embed_url: Uri("iframe widget."),
    page_url: Uri("The company page."),
  },
  { $id: "Widget", additionalProperties: false },
);
export type Widget = Static<typeof WidgetSchema>;

export const WidgetNotFoundSchema = Type.Object(
  { found: Type.Literal(false), slug: Type.String(), reports_count: Type.Literal(0), page_url: Uri("The company list.") },
  { $id: "WidgetNotFound", additionalProperties: false },
);

export const ChatStatusSchema = Type.Object(
  {
    found: Type.Literal(true),
    username: Type.String(),
    title: Type.String(),
    protected: Type.Boolean({ description: "Bot active and protection started no later than as_of." }),
    bot_active: Type.Boolean(),
    protected_since: Nullable(Instant("When protection began (UTC).")),
    messages_checked: Nullable(Count("Messages checked.")),
    spam_blocked: Nullable(Count("Spam messages blocked.")),
    url: Uri("The chat page."),
  },
  { $id: "ChatStatus", additionalProperties: false },
);

export const ChatNotFoundSchema = Type.Object(
  { found: Type.Literal(false), username: Type.String() },
  { $id: "ChatNotFound", additionalProperties: false },
);

export const DetectionRulesSchema = Type.Object(
  {
    version: Type.String({ pattern: "^[0-9a-f]{16}$", description: "Hash of the published rules." }),
    updated_at: Nullable(Instant("Newest rule's updated_at.")),
    count: Count("Rules."),
    rules: Type.Array(
      Type.Object(
        { id: Type.Integer(), name: Type.String(), kind: Type.String(), pattern: Type.String(), category: Nullable(CategorySchema), weight: Type.Number() },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: "DetectionRules", additionalProperties: false },
);

export const LiveSearchSchema = Type.Object(
  {
    people: Type.Array(
      Type.Object(
        { name: Type.String(), url: Uri("Person page."), avatar: Uri("Avatar image."), reports_count: Count("Complaints naming them.") },
        { additionalProperties: false },
      ),
      { maxItems: 6 },
    ),
    companies: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          url: Uri("Company page."),
          count: Count("Complaints."),
          cat: CategorySchema,
          last: Type.String({ description: "Time from the last complaint to as_of: `today`, `3 days ago`, `no complaints yet`…" }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 7 },
    ),
    spammers: Type.Array(
      Type.Object({ username: Type.String(), url: Uri("Check result."), count: Count("Reports.") }, { additionalProperties: false }),
      { maxItems: 4 },
    ),
  },
  { $id: "LiveSearch", additionalProperties: false },
);

export const GlobalSearchSchema = Type.Object(
  {
    query: Type.String({ description: "q, trimmed." }),
    total: Count("Sum of the groups' counts."),
    results: Type.Array(
      Type.Object(
        {
          type: Type.Union(GLOBAL_SEARCH_TYPES.map((t) => Type.Literal(t))),
          label: Type.String(),
          count: Count("Matches before the cap (a lower bound on large catalogs)."),
          items: Type.Array(
            Type.Object(
              {
                type: Type.Union(GLOBAL_SEARCH_TYPES.map((t) => Type.Literal(t))),
                title: Type.String(),
                url: Type.String({ pattern: "^/", description: "Site-relative: the base URL's path (if any), then the page's." }),
                subtitle: Type.String(),
              },
              { additionalProperties: false },
            ),
          ),
        },
        { additionalProperties: false },
      ),
      { description: "Non-empty groups only, the group with the best match first (exact, prefix, word prefix, typo), then in the type order." },
    ),
  },
  { $id: "GlobalSearch", additionalProperties: false },
);

export const MatchRequestSchema = Type.Object(
  {
    signals: Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 255 }), {
      minProperties: 1,
      maxProperties: 20,
      description: "Signal key → value. Supported keys: ja4, ja3, ja4_t, webgl_renderer, canvas_geom, canvas_text, audio, fonts_hash, akamai_h2; others are ignored and listed back, but count toward the 20.",
    }),
  },
  { $id: "MatchRequest" },
);

const ProfileView = Type.Object(
  {
    id: Type.Integer(),
    label: Type.String(),
    kind: Type.Union(PROFILE_KINDS.map((k) => Type.Literal(k))),
    name: Type.String(),
    os_family: Nullable(Type.String()),
    trust_level: Type.Union(TRUST_LEVELS.map((t) => Type.Literal(t))),
    observations: Count("Times seen."),
  },
  { $id: "FingerprintProfile", additionalProperties: false },
);

const CandidateProfile = Type.Object(
  { id: Type.Integer(), label: Type.String(), kind: Type.Union(PROFILE_KINDS.map((k) => Type.Literal(k))), name: Type.String() },
  { additionalProperties: false },
);
// Two decimals (the API reference's "0.87-style"), not a multipleOf: 0.07 / 0.01 is not an integer in floating point.
const Fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });
const Keys = (description: string) => Type.Array(Type.String(), { description });

export const MatchResponseSchema = Type.Object(
  {
    match: Type.Object(
      {
        profile: Nullable(ProfileView),
        confidence: Fraction(
          "How sure the answer is about the profile's kind: the smallest of `basis.fit`, `basis.evidence` and `basis.separation`. " +
            "0 only when unknown; a tie with a profile of another kind is at most 0.01.",
        ),
        verdict: Type.Union([Type.Literal("high"), Type.Literal("medium"), Type.Literal("low"), Type.Literal("unknown")], {
          description: "From `confidence`: high ≥ 0.75, medium 0.45–0.74, low above 0, unknown when no signal matches a public profile.",
        }),
        basis: Type.Object(
          {
            fit: Fraction("How well the profile agrees with the signals sent: W(matched) / (W(matched) + W(contradicted) + W(absent) / 2), W summing the keys' weights."),
            evidence: Fraction("How much evidence matched: W(matched) / (2 × the largest weight); one signal alone is at most 0.5."),
            separation: Fraction(
              "How far the evidence sets the profile apart from `closest_other_kind`: the weight of `decided_by` (half where that profile lacks the key), " +
                "less the weight of keys only it matches, over 4/3 of the largest weight. 0 on a tie.",
            ),
          },
          { additionalProperties: false, description: "The three readings `confidence` is the smallest of; all 0 when unknown." },
        ),
        decided_by: Keys("Signal keys the profile matches and `closest_other_kind` does not (every matched key when there is none): what told them apart. Empty on a tie."),
        closest_other_kind: Nullable(
          Type.Object(
            { profile: CandidateProfile, fit: Fraction("How well it agrees with the signals sent (as `basis.fit`).") },
            { additionalProperties: false, description: "The best-fitting candidate whose kind differs from the profile's; null when no profile of another kind matches a signal." },
          ),
        ),
        matched_signals: Keys("Supported keys whose sent value the profile holds."),
        unmatched_signals: Type.Optional(Keys("Supported keys sent that the profile holds another value for, or none; present when a profile is found.")),
        ignored_signals: Keys("Keys that are not supported signals, sorted."),
        signal_evidence: Type.Array(
          Type.Object(
            {
              key: Type.String(),
              weight: Type.Integer({ minimum: 1, description: "The key's weight (the index's `weights`)." }),
              outcome: Type.Union([Type.Literal("matched"), Type.Literal("contradicted"), Type.Literal("absent")], {
                description: "The profile holds the sent value, another value, or no value for this key.",
              }),
              profiles: Count("Public profiles holding the sent value."),
              other_kinds: Count("Of those, profiles of another kind than the answer's."),
            },
            { additionalProperties: false },
          ),
          { description: "Each supported key sent, in the order of the supported keys; empty when unknown." },
        ),
        top_candidates: Type.Array(
          Type.Object(
            {
              profile: CandidateProfile,
              confidence: Fraction("The confidence this candidate would have as the answer; the first candidate's is `confidence`."),
              fit: Fraction("How well it agrees with the signals sent; candidates are ranked by it, then trust, observations and id."),
            },
            { additionalProperties: false },
          ),
          { maxItems: 5 },
        ),
      },
      { additionalProperties: false },
    ),
    cached: Type.Boolean({ description: "Answered from the five-minute cache." }),
  },
  { $id: "MatchResponse", additionalProperties: false },
);

export const ProfilesSchema = Type.Object({ profiles: Type.Array(ProfileView) }, { $id: "FingerprintProfiles", additionalProperties: false });

export const ManifestSchema = Type.Object(
  {
    files: Type.Array(
      Type.Object({ path: Type.String(), size: Count("Bytes."), sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }) }, { additionalProperties: false }),
    ),
    as_of: Instant("The snapshot's now."),
    base_url: Uri("The deployment's base URL."),
    build: Type.Object(
      {
        id: Type.String({ pattern: "^[0-9a-f]{16}$", description: "The build id: the first 16 hex digits of the SHA-256 of this file's first `sealed_bytes` bytes." }),
        sealed_bytes: Count("Where the files the snapshot makes end in this file; the change feed's files, named by the id, are listed after them."),
      },
      { additionalProperties: false },
    ),
  },
  { $id: "Manifest", description: "Every file of the build (itself excluded) with size and SHA-256, plus build facts." },
);

export const BuildReportSchema = Type.Object(
  {
    as_of: Instant("The snapshot's now."),
    base_url: Uri("The deployment's base URL."),
    rejected_total: Count("Rows refused."),
    rejections: Type.Array(Type.Object({ reason: Type.String(), count: Count("Rows."), effect: Type.String() })),
  },
  { $id: "BuildReport", description: "Counts, and the rows the build refused by reason with what happened to them (no samples: those stay with the operator)." },
);

export const DataPackageSchema = Type.Object(
  { profile: Type.String(), name: Type.String(), resources: Type.Array(Type.Object({ name: Type.String(), path: Type.String() })) },
  { $id: "DataPackage", description: "Frictionless Tabular Data Package describing the dumps." },
);

export const OpenApiDocumentSchema = Type.Object(
  { openapi: Type.String({ pattern: "^3\\.1\\." }), info: Type.Object({ version: Type.String() }), paths: Type.Object({}) },
  { $id: "OpenApiDocument", description: "This document." },
);

export const JsonFeedSchema = Type.Object(
  { version: Type.String(), title: Type.String(), items: Type.Array(Type.Object({ id: Type.String() })) },
  { $id: "JsonFeed", description: "JSON Feed 1.1." },
);
