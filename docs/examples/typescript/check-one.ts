// Is this username reported as a spammer? GET /api/check/{identifier}, typed from openapi.json.
// Usage: npx tsx check-one.ts [username]    (API_BASE sets the server; README.md: generating schema.d.ts)
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const API_BASE = (process.env.API_BASE ?? "https://api.example.org").replace(/\/+$/, "");
const username = process.argv[2] ?? "free_cpa9169";

const client = createClient<paths>({ baseUrl: API_BASE });
const { data: check, error, response } = await client.GET("/api/check/{identifier}", {
  params: { path: { identifier: username } },
  signal: AbortSignal.timeout(10_000),
});
if (error) {
  // Every error is RFC 9457 problem+json, typed as the document's Problem.
  console.error(`${response.status} ${error.title}: ${error.detail}`);
  process.exit(1);
}
// The document also lists 206, a Range request's part of the file, a success with no JSON body:
// `check` is typed `| undefined` until this line.
if (!check) throw new Error(`${response.status} without a JSON body`);

// `found` tells the two documented answers apart: CheckFound or CheckNotFound.
if (check.found) {
  console.log(`@${check.username}: reported ${check.reports_count} times by ${check.unique_reports} reporters, last seen ${check.last_seen}`);
  if (check.categories.length > 0) console.log(`categories: ${check.categories.join(", ")}`);
  if (check.companies.length > 0) console.log(`companies: ${check.companies.map((company) => company.name).join(", ")}`);
} else {
  // Absence means nobody reported it, not that the account is clean.
  console.log(`@${check.username}: not reported`);
}
