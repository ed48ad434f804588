import type { Route } from "../../core/routes/types.ts";
import type { BuildState } from "../dist-source.ts";
import type { QuotaTaker } from "../rate-limit.ts";

/** What a route handler gets: the request, its parsed URL, decoded path parameters, the build, its table entry. */
export interface RouteContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
  state: BuildState;
  /** The table's entry; absent for a file served at its own path. */
  route?: Route;
  /** Takes units of the client's rate-limit quota (routes with `rateUnits: "item"`), or throws its 429/413; a no-op without a limit. */
  takeQuota: QuotaTaker;
}

export type RouteHandler = (ctx: RouteContext) => Response | Promise<Response>;
