/**
 * GET /api/chat/{username}/status — a chat's spam protection status — and
 * GET /api/chat/{username}/badge.svg — its badge. The username is read like a messenger username
 * (core/username.ts: trim, one leading `@` stripped, lower-cased), so `@Traders_Chat` finds
 * `traders_chat`; both answers are files of the build (5-minute caching, strong ETag). An unknown
 * chat is a 404: `{found:false, username}` (the shape) for the status, the SVG "not found"
 * badge for the badge (an `<img>` shows it, where JSON was a broken image); a malformed username
 * is a 422 on both.
 */
import { describeUsernameRejection, getUsernameRejection, normalizeUsername } from "../../core/username.ts";
import { getRoute } from "../../core/routes/table.ts";
import { fillTemplate } from "../../core/routes/templates.ts";
import type { Route } from "../../core/routes/types.ts";
import { readBuildFile, sendRouteFile } from "../files.ts";
import { FIVE_MINUTES, sendInvalid, sendJson } from "../respond.ts";
import type { RouteContext } from "./context.ts";
import { sendRouteNotFound } from "./static.ts";

async function serveChatFile({ request, params, state }: RouteContext, route: Route): Promise<Response> {
  const username = normalizeUsername(params.username ?? "");
  const rejection = getUsernameRejection(username);
  if (rejection) return sendInvalid(request, [{ name: "username", in: "path", detail: `chat username ${describeUsernameRejection(rejection)}` }]);
  const body = await readBuildFile(state.root, fillTemplate(route.file!, { username }));
  if (body) return sendRouteFile(request, route, body);
  if (route.notFoundFile) return sendRouteNotFound(request, state.root, route);
  return sendJson(request, { found: false, username }, { status: 404, cacheControl: FIVE_MINUTES });
}

export function getChatStatus(ctx: RouteContext): Promise<Response> {
  return serveChatFile(ctx, getRoute("getChatStatus"));
}

export function getChatBadge(ctx: RouteContext): Promise<Response> {
  return serveChatFile(ctx, getRoute("getChatBadge"));
}
