#!/usr/bin/env node
// Is this username reported as a spammer? GET /api/check/{identifier}
// Usage: node check-one.mjs [username]    (Node 20+, no dependencies; API_BASE sets the server)

const API_BASE = (process.env.API_BASE ?? "https://api.example.org").replace(/\/+$/, "");
const username = process.argv[2] ?? "free_cpa9169";

const response = await fetch(`${API_BASE}/api/check/${encodeURIComponent(username)}`, {
  signal: AbortSignal.timeout(10_000),
});
if (!response.ok) {
  // Every error is RFC 9457 problem+json: `detail` says what went wrong.
  const problem = await response.json().catch(() => ({}));
  console.error(`${response.status} ${problem.title ?? "Error"}: ${problem.detail ?? "no details"}`);
  process.exit(1);
}

const check = await response.json();
if (check.found) {
  console.log(`@${check.username}: reported ${check.reports_count} times by ${check.unique_reports} reporters, last seen ${check.last_seen}`);
  if (check.categories.length > 0) console.log(`categories: ${check.categories.join(", ")}`);
  if (check.companies.length > 0) console.log(`companies: ${check.companies.map((company) => company.name).join(", ")}`);
} else {
  // Absence means nobody reported it, not that the account is clean.
  console.log(`@${check.username}: not reported`);
}
