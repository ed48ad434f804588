#!/usr/bin/env node
// Which known client do these signals look like? POST /api/fingerprint/match {"signals": {...}}
// Usage: node match-fingerprint.mjs [key=value ...]    (Node 20+, no dependencies; API_BASE sets the server)
// Keys: ja4, ja3, ja4_t, akamai_h2, webgl_renderer, canvas_geom, canvas_text, audio, fonts_hash.

const API_BASE = (process.env.API_BASE ?? "https://api.example.org").replace(/\/+$/, "");
// By default, what curl 8 (OpenSSL 3) presents: its TLS (JA4, JA3) and HTTP/2 fingerprints.
const CURL_8 = {
  ja4: "t13d3112h2_e8f1e7e78f70_b26ce05bbdd6",
  ja3: "0149f47eabf9a20d0893e2a44e5a6323",
  akamai_h2: "3:100;4:10485760;2:0|1048510465|0|m,s,a,p",
};

const args = process.argv.slice(2);
const signals = args.length > 0 ? Object.fromEntries(args.map(parseSignal)) : CURL_8;

const response = await fetch(`${API_BASE}/api/fingerprint/match`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ signals }),
  signal: AbortSignal.timeout(10_000),
});
if (!response.ok) {
  // Every error is RFC 9457 problem+json: `detail` says what went wrong.
  const problem = await response.json().catch(() => ({}));
  console.error(`${response.status} ${problem.title ?? "Error"}: ${problem.detail ?? "no details"}`);
  process.exit(1);
}

const { match } = await response.json();
console.log(`verdict: ${match.verdict}, confidence ${match.confidence}`);
console.log(match.profile ? `profile: ${match.profile.label}, kind ${match.profile.kind}` : "profile: none (no signal matches a public profile)");
console.log(`matched: ${match.matched_signals.join(", ") || "nothing"}`);

/** "key=value" as [key, value]; the value may itself hold "=". */
function parseSignal(arg) {
  const at = arg.indexOf("=");
  if (at < 1) {
    console.error(`a signal is key=value, not ${JSON.stringify(arg)}`);
    process.exit(2);
  }
  return [arg.slice(0, at), arg.slice(at + 1)];
}
