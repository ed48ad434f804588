// Check up to 100 usernames in one request: POST /api/check {"usernames": [...]}, typed from openapi.json.
// Usage: npx tsx check-many.ts [username ...]    (API_BASE sets the server; README.md: generating schema.d.ts)
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const API_BASE = (process.env.API_BASE ?? "https://api.example.org").replace(/\/+$/, "");
const args = process.argv.slice(2);
const usernames = args.length > 0 ? args : ["free_cpa9169", "@Win_Offer", "nobody_here"];

const client = createClient<paths>({ baseUrl: API_BASE });
const { data, error, response } = await client.POST("/api/check", {
  body: { usernames },
  signal: AbortSignal.timeout(10_000),
});
if (error) {
  // Every error is RFC 9457 problem+json, typed as the document's Problem.
  console.error(`${response.status} ${error.title}: ${error.detail}`);
  process.exit(1);
}

// One item per username sent, in the order sent: a result, or why the identifier is no username.
for (const item of data.results) {
  if ("error" in item) console.log(`${item.identifier}: ${item.error.detail}`);
  else if (item.result.found) console.log(`${item.identifier}: reported ${item.result.reports_count} times (${item.result.categories.join(", ")})`);
  else console.log(`${item.identifier}: not reported`);
}
