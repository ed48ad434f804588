#!/usr/bin/env node
// Check up to 100 usernames in one request: POST /api/check {"usernames": [...]}
// Usage: node check-many.mjs [username ...]    (Node 20+, no dependencies; API_BASE sets the server)

const API_BASE = (process.env.API_BASE ?? "https://api.example.org").replace(/\/+$/, "");
const args = process.argv.slice(2);
const usernames = args.length > 0 ? args : ["free_cpa9169", "@Win_Offer", "nobody_here"];

const response = await fetch(`${API_BASE}/api/check`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ usernames }),
  signal: AbortSignal.timeout(10_000),
});
if (!response.ok) {
  // Every error is RFC 9457 problem+json: `detail` says what went wrong.
  const problem = await response.json().catch(() => ({}));
  console.error(`${response.status} ${problem.title ?? "Error"}: ${problem.detail ?? "no details"}`);
  process.exit(1);
}

// One item per username sent, in the order sent: a result, or why the identifier is no username.
const { results } = await response.json();
for (const item of results) {
  if (item.error) console.log(`${item.identifier}: ${item.error.detail}`);
  else if (item.result.found) console.log(`${item.identifier}: reported ${item.result.reports_count} times (${item.result.categories.join(", ")})`);
  else console.log(`${item.identifier}: not reported`);
}
