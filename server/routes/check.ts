/**
 * GET /api/check/{identifier} — is this username reported? (reference "Check result") — and
 * POST /api/check — the same for up to 100 usernames at once (core/bulk-check.ts).
 */
import { BULK_CHECK_LIMITS, formatBulkCheck, formatCheckNotFound, listBulkUsernames, readBulkCheckRequest } from "../../core/bulk-check.ts";
import { createFileFiller } from "../../core/routes/match.ts";
import { getRoute } from "../../core/routes/table.ts";
import { CACHE_CONTROL } from "../../core/routes/types.ts";
import { explainUsernameRejection, normalizeUsername } from "../../core/username.ts";
import { readBuildFile, sendRouteFile } from "../files.ts";
import { readJsonBody } from "../json-body.ts";
import { FIVE_MINUTES, sendInvalid, sendJsonText } from "../respond.ts";
import type { RouteContext } from "./context.ts";

const checkFile = createFileFiller("checkUsername");

export async function checkUsername({ request, params, state }: RouteContext): Promise<Response> {
  const username = normalizeUsername(params.identifier ?? "");
  const rejection = explainUsernameRejection(username);
  if (rejection) return sendInvalid(request, [{ name: "identifier", in: "path", detail: rejection }]);
  const body = await readBuildFile(state.root, checkFile(username));
  if (body) return sendRouteFile(request, getRoute("checkUsername"), body);
  // DESIGN: absence is an answer, not an error — 200 with found: false.
  return sendJsonText(request, formatCheckNotFound(username), { cacheControl: FIVE_MINUTES });
}

/**
 * With the operator's read limit on, every username sent counts as one read, taken at once when
 * the body has been read (the rate-limit middleware cannot count them before); a body that
 * cannot be checked counts as one, like any request.
 */
export async function checkUsernames({ request, state, takeQuota }: RouteContext): Promise<Response> {
  const body = await readJsonBody(request, BULK_CHECK_LIMITS.maxBodyBytes);
  if (!body.ok) {
    await takeQuota(1);
    return body.response;
  }
  const read = readBulkCheckRequest(body.value);
  if (!("items" in read)) {
    await takeQuota(1);
    return sendInvalid(request, read.errors, read.status);
  }
  await takeQuota(read.items.length);
  const checks = new Map<string, string | null>();
  await Promise.all(listBulkUsernames(read.items).map(async (username) => checks.set(username, (await readCheckFile(state.root, username))?.toString("utf8") ?? null)));
  // Answers depend on what was sent: a shared cache must not keep them.
  return sendJsonText(request, formatBulkCheck(read.items, (username) => checks.get(username) ?? null), { cacheControl: CACHE_CONTROL.none });
}

function readCheckFile(root: string, username: string): Promise<Buffer | null> {
  return readBuildFile(root, checkFile(username));
}

/** Reads a username's check result from the build, or null when it was never reported. */
export async function readCheckResult(root: string, username: string): Promise<unknown | null> {
  const body = await readCheckFile(root, username);
  return body ? JSON.parse(body.toString("utf8")) : null;
}
