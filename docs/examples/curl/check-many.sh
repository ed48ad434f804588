#!/usr/bin/env bash
# Check up to 100 usernames in one request: POST /api/check {"usernames": [...]}
# Usage: check-many.sh [username ...]    (API_BASE sets the server)
# Prints the JSON answer; on an error, the problem+json body (its `detail` says what went wrong)
# and exit status 22.
set -euo pipefail
API_BASE="${API_BASE:-https://api.example.org}"
[ $# -gt 0 ] || set -- free_cpa9169 @Win_Offer nobody_here

# A JSON string: backslashes and quotes escaped.
json_string() { local s="${1//\\/\\\\}"; printf '"%s"' "${s//\"/\\\"}"; }

usernames=""
for username in "$@"; do usernames+="${usernames:+,}$(json_string "$username")"; done

curl --silent --show-error --fail-with-body --max-time 10 --write-out "\n" \
  --header "Content-Type: application/json" \
  --data "{\"usernames\":[${usernames}]}" \
  "${API_BASE%/}/api/check"
