/**
 * The h3 app. The route table below reads like the API reference; everything not in it is a
 * file of the current build. Routes answer GET and HEAD (OPTIONS for CORS preflight); any other
 * method gets 405 with `Allow`.
 */
import { H3, getRouterParams, type H3Event } from "h3";
import { DistSource } from "./dist-source.ts";
import { sendProblem } from "./respond.ts";
import { checkUsername } from "./routes/check.ts";
import { listCompanies } from "./routes/companies.ts";
import { getCompanyCard, getWidget } from "./routes/company.ts";
import type { RouteHandler } from "./routes/context.ts";
import { listSpammers } from "./routes/spammers.ts";
import { serveBuildFile } from "./routes/static.ts";

interface Route {
  path: string;
  methods: string[];
  handler: RouteHandler;
}

const READ = ["GET", "HEAD"];

export const ROUTES: Route[] = [
  { path: "/api/check/:identifier", methods: READ, handler: checkUsername },
  { path: "/api/companies", methods: READ, handler: listCompanies },
  { path: "/api/spammers", methods: READ, handler: listSpammers },
  { path: "/api/company/:slug", methods: READ, handler: getCompanyCard },
  { path: "/api/widget/:slug", methods: READ, handler: getWidget },
  { path: "/**", methods: READ, handler: serveBuildFile },
];

export interface AppOptions {
  /** The dist folder or link to serve. */
  dist: string;
}

export function createApp(options: AppOptions): H3 {
  const source = new DistSource(options.dist);
  const app = new H3();
  for (const route of ROUTES) app.all(route.path, (event) => dispatch(event, route, source));
  return app;
}

async function dispatch(event: H3Event, route: Route, source: DistSource): Promise<Response> {
  const request = event.req;
  const allow = [...route.methods, "OPTIONS"].join(", ");
  let response: Response;
  try {
    if (request.method === "OPTIONS") {
      response = new Response(null, {
        status: 204,
        headers: { allow, "access-control-allow-methods": allow, "access-control-allow-headers": "content-type, if-none-match", "access-control-max-age": "86400" },
      });
    } else if (!route.methods.includes(request.method)) {
      response = sendProblem(request, 405, `${request.method} is not allowed here; use ${route.methods.join(" or ")}.`, { headers: { allow } });
    } else {
      const state = await source.current();
      const params = getRouterParams(event, { decode: true }) as Record<string, string>;
      response = await route.handler({ request, url: event.url, params, state });
    }
  } catch (error) {
    console.error(error);
    response = sendProblem(request, 500, "The server failed to answer; the error was logged.");
  }
  response.headers.set("access-control-allow-origin", "*");
  response.headers.set("x-content-type-options", "nosniff");
  return response;
}
