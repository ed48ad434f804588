#!/usr/bin/env bash
# Which known client do these signals look like? POST /api/fingerprint/match {"signals": {...}}
# Usage: match-fingerprint.sh [key=value ...]    (API_BASE sets the server)
# Keys: ja4, ja3, ja4_t, akamai_h2, webgl_renderer, canvas_geom, canvas_text, audio, fonts_hash.
# Prints the JSON answer; on an error, the problem+json body (its `detail` says what went wrong)
# and exit status 22.
set -euo pipefail
API_BASE="${API_BASE:-https://api.example.org}"
# By default, what curl 8 (OpenSSL 3) presents: its TLS (JA4, JA3) and HTTP/2 fingerprints.
[ $# -gt 0 ] || set -- \
  ja4=t13d3112h2_e8f1e7e78f70_b26ce05bbdd6 \
  ja3=0149f47eabf9a20d0893e2a44e5a6323 \
  "akamai_h2=3:100;4:10485760;2:0|1048510465|0|m,s,a,p"

# A JSON string: backslashes and quotes escaped.
json_string() { local s="${1//\\/\\\\}"; printf '"%s"' "${s//\"/\\\"}"; }

signals=""
for signal in "$@"; do
  if [[ "$signal" != ?*=* ]]; then echo "a signal is key=value, not '$signal'" >&2; exit 2; fi
  signals+="${signals:+,}$(json_string "${signal%%=*}"):$(json_string "${signal#*=}")"
done

curl --silent --show-error --fail-with-body --max-time 10 --write-out "\n" \
  --header "Content-Type: application/json" \
  --data "{\"signals\":{${signals}}}" \
  "${API_BASE%/}/api/fingerprint/match"
