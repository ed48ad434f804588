/** GET /api/check/{identifier} — is this username reported? (reference "Check result") */
import { createFileFiller } from "../../core/routes/match.ts";
import { describeUsernameRejection, getUsernameRejection, normalizeUsername } from "../../core/username.ts";
import { getRoute } from "../../core/routes/table.ts";
import type { BuildState } from "../dist-source.ts";
import { readBuildFile, readStoredBytes, sendRouteFile } from "../files.ts";
import { FIVE_MINUTES, sendInvalid, sendJson } from "../respond.ts";
import type { RouteContext } from "./context.ts";

const checkFile = createFileFiller("checkUsername");

export async function checkUsername({ request, params, state }: RouteContext): Promise<Response> {
  const username = normalizeUsername(params.identifier ?? "");
  const rejection = getUsernameRejection(username);
  if (rejection) return sendInvalid(request, [{ name: "identifier", in: "path", detail: `username ${describeUsernameRejection(rejection)}` }]);
  const path = checkFile(username);
  const file = await readBuildFile(state, path);
  if (file) return sendRouteFile(request, state, getRoute("checkUsername"), file);
  // DESIGN: absence is an answer, not an error — 200 with found: false.
  return sendJson(request, { found: false, username, reports_count: 0 }, { cacheControl: FIVE_MINUTES });
}

/** Reads a username's check result from the build, or null when it was never reported. */
export async function readCheckResult(state: BuildState, username: string): Promise<unknown | null> {
  const file = await readBuildFile(state, checkFile(username));
  return file ? JSON.parse((await readStoredBytes(state, file)).toString("utf8")) : null;
}
