// Which known client do these signals look like? POST /api/fingerprint/match, typed from openapi.json.
// Usage: npx tsx match-fingerprint.ts [key=value ...]    (API_BASE sets the server; README.md: generating schema.d.ts)
// Keys: ja4, ja3, ja4_t, akamai_h2, webgl_renderer, canvas_geom, canvas_text, audio, fonts_hash.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Signals = components["schemas"]["MatchRequest"]["signals"];

const API_BASE = (process.env.API_BASE ?? "https://api.example.org").replace(/\/+$/, "");
// By default, what curl 8 (OpenSSL 3) presents: its TLS (JA4, JA3) and HTTP/2 fingerprints.
const CURL_8: Signals = {
  ja4: "t13d3112h2_e8f1e7e78f70_b26ce05bbdd6",
  ja3: "0149f47eabf9a20d0893e2a44e5a6323",
  akamai_h2: "3:100;4:10485760;2:0|1048510465|0|m,s,a,p",
};

const args = process.argv.slice(2);
const signals: Signals = args.length > 0 ? Object.fromEntries(args.map(parseSignal)) : CURL_8;

const client = createClient<paths>({ baseUrl: API_BASE });
const { data, error, response } = await client.POST("/api/fingerprint/match", {
  body: { signals },
  signal: AbortSignal.timeout(10_000),
});
if (error) {
  // Every error is RFC 9457 problem+json, typed as the document's Problem.
  console.error(`${response.status} ${error.title}: ${error.detail}`);
  process.exit(1);
}

const { match } = data;
console.log(`verdict: ${match.verdict}, confidence ${match.confidence}`);
console.log(match.profile ? `profile: ${match.profile.label}, kind ${match.profile.kind}` : "profile: none (no signal matches a public profile)");
console.log(`matched: ${match.matched_signals.join(", ") || "nothing"}`);

/** "key=value" as [key, value]; the value may itself hold "=". */
function parseSignal(arg: string): [string, string] {
  const at = arg.indexOf("=");
  if (at < 1) {
    console.error(`a signal is key=value, not ${JSON.stringify(arg)}`);
    process.exit(2);
  }
  return [arg.slice(0, at), arg.slice(at + 1)];
}
