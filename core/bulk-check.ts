/**
 * POST /api/check — many usernames in one request (issue 15: bot developers checked them one
 * request at a time). Each username is read like the GET route's identifier, and each result is
 * exactly what `GET /api/check/{identifier}` answers for it: the check file's JSON, the not-found
 * body, or, for an identifier that is no username, the GET's 422 reason as a per-item error (the
 * request itself still succeeds).
 *
 * The answer is an ordered array of `{identifier, result}` (or `{identifier, error}`), in request
 * order, not an object keyed by identifier: JavaScript engines iterate integer-like keys ("123",
 * a valid username) first whatever the order sent, and an object cannot answer a duplicate twice.
 * A duplicate is answered at each of its positions. Pure: the server reads the check files and
 * the build's docs answer the example the same way.
 */
import { Type } from "@sinclair/typebox";
import { describeJson, getProblemTitle, isPlainObject } from "./routes/problem.ts";
import { CheckFoundSchema, CheckNotFoundSchema, type FieldError } from "./routes/schemas.ts";
import { explainUsernameRejection, normalizeUsername } from "./username.ts";

/**
 * At most 100 usernames a request (what the bulk users ask of StopForumSpam and AbuseIPDB
 * is of that order), in at most 16 KiB, the fingerprint POST's bound: 100 usernames of 64
 * characters with `@` and quotes take 6.8 KB, so the bound leaves room for formatting.
 */
export const BULK_CHECK_LIMITS = { maxUsernames: 100, maxBodyBytes: 16 * 1024 } as const;
/** Errors listed for one bad body, at most: the answer stays small whatever is sent. */
const MAX_LISTED_ERRORS = 20;

export const BulkCheckRequestSchema = Type.Object(
  {
    usernames: Type.Array(Type.String({ description: "A messenger username, read like the GET route's identifier (`@Name` is `name`)." }), {
      minItems: 1,
      maxItems: BULK_CHECK_LIMITS.maxUsernames,
    }),
  },
  { $id: "BulkCheckRequest", description: "Other keys are ignored." },
);

const BulkErrorSchema = Type.Object(
  {
    status: Type.Literal(422),
    title: Type.String(),
    detail: Type.String({ description: "Why it is no username, in the words of the GET route's 422." }),
  },
  { additionalProperties: false },
);

export const BulkCheckSchema = Type.Object(
  {
    results: Type.Array(
      Type.Union([
        Type.Object(
          { identifier: Type.String({ description: "As sent." }), result: Type.Union([CheckFoundSchema, CheckNotFoundSchema]) },
          { additionalProperties: false },
        ),
        Type.Object({ identifier: Type.String({ description: "As sent." }), error: BulkErrorSchema }, { additionalProperties: false }),
      ]),
      { minItems: 1, maxItems: BULK_CHECK_LIMITS.maxUsernames, description: "One per username sent, in the order sent (duplicates included)." },
    ),
  },
  { $id: "BulkCheck", additionalProperties: false },
);

/** One identifier of a request: the username it names, or why it names none. */
export type BulkItem = { identifier: string; username: string } | { identifier: string; rejection: string };

export type BulkRequest = { items: BulkItem[] } | { status: 413 | 422; errors: FieldError[] };

/** The parsed body as items, or the problem: 413 for too many usernames, 422 for anything else wrong. */
export function readBulkCheckRequest(body: unknown): BulkRequest {
  const invalid = (name: string, detail: string): BulkRequest => ({ status: 422, errors: [{ name, in: "body", detail }] });
  const { maxUsernames } = BULK_CHECK_LIMITS;
  if (!isPlainObject(body)) return invalid("body", "must be a JSON object with a `usernames` array in it");
  if (!Object.hasOwn(body, "usernames")) return invalid("usernames", `is required: an array of 1 to ${maxUsernames} usernames`);
  const list = body.usernames;
  if (!Array.isArray(list)) return invalid("usernames", `must be an array of 1 to ${maxUsernames} strings, not ${describeJson(list)}`);
  if (list.length === 0) return invalid("usernames", "must hold at least one username");
  if (list.length > maxUsernames) {
    return { status: 413, errors: [{ name: "usernames", in: "body", detail: `holds ${list.length} usernames; at most ${maxUsernames} are checked per request` }] };
  }
  const errors: FieldError[] = [];
  list.forEach((value, i) => {
    if (typeof value !== "string" && errors.length < MAX_LISTED_ERRORS) errors.push({ name: `usernames[${i}]`, in: "body", detail: `must be a string, not ${describeJson(value)}` });
  });
  if (errors.length > 0) return { status: 422, errors };
  return { items: (list as string[]).map(readItem) };
}

function readItem(identifier: string): BulkItem {
  const username = normalizeUsername(identifier);
  const rejection = explainUsernameRejection(username);
  return rejection === null ? { identifier, username } : { identifier, rejection };
}

/** The GET route's answer for a valid username nobody reported (DESIGN: absence is an answer). */
export function formatCheckNotFound(username: string): string {
  return JSON.stringify({ found: false, username, reports_count: 0 });
}

/**
 * The answer, in request order. `readCheck` gives a username's check file as JSON text, or null
 * when it was never reported; the text is put in as it is, so each result is the GET's bytes.
 */
export function formatBulkCheck(items: readonly BulkItem[], readCheck: (username: string) => string | null): string {
  const results = items.map((item) => {
    const identifier = JSON.stringify(item.identifier);
    if ("rejection" in item) {
      return `{"identifier":${identifier},"error":${JSON.stringify({ status: 422, title: getProblemTitle(422), detail: item.rejection })}}`;
    }
    return `{"identifier":${identifier},"result":${readCheck(item.username) ?? formatCheckNotFound(item.username)}}`;
  });
  return `{"results":[${results.join(",")}]}`;
}

/** The distinct usernames a request names, for reading each check file once. */
export function listBulkUsernames(items: readonly BulkItem[]): string[] {
  return [...new Set(items.flatMap((item) => ("username" in item ? [item.username] : [])))];
}
