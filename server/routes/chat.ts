/**
 * GET /api/chat/{username}/status — a chat's spam protection status — and
 * GET /api/chat/{username}/badge.svg — its badge. The username is read like a messenger username
 * (core/username.ts: trim, one leading `@` stripped, lower-cased), so `@Traders_Chat` finds
 * `traders_chat`; both answers are files of the build (5-minute caching, strong ETag). An unknown
 * chat is a 404 `{found:false, username}` (the shape), a malformed username a 422.
 */
import { getUsernameRejection, normalizeUsername, type UsernameRejection } from "../../core/username.ts";
import { readBuildFile, sendFile } from "../files.ts";
import { FIVE_MINUTES, sendInvalid, sendJson } from "../respond.ts";
import type { RouteContext } from "./context.ts";

const REJECTION_DETAIL: Record<UsernameRejection, string> = {
  empty: "is empty",
  too_long: "is longer than 64 characters",
  invalid_characters: "may contain only letters a-z, digits and underscores (after an optional leading @)",
};

async function serveChatFile({ request, params, state }: RouteContext, file: "status.json" | "badge.svg"): Promise<Response> {
  const username = normalizeUsername(params.username ?? "");
  const rejection = getUsernameRejection(username);
  if (rejection) return sendInvalid(request, [{ name: "username", in: "path", detail: `chat username ${REJECTION_DETAIL[rejection]}` }]);
  const path = `api/chat/${username}/${file}`;
  const body = await readBuildFile(state.root, path);
  if (body) return sendFile(request, path, body);
  return sendJson(request, { found: false, username }, { status: 404, cacheControl: FIVE_MINUTES });
}

export function getChatStatus(ctx: RouteContext): Promise<Response> {
  return serveChatFile(ctx, "status.json");
}

export function getChatBadge(ctx: RouteContext): Promise<Response> {
  return serveChatFile(ctx, "badge.svg");
}
