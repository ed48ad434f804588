#!/usr/bin/env bash
# Is this username reported as a spammer? GET /api/check/{identifier}
# Usage: check-one.sh [username]    (API_BASE sets the server)
# Prints the JSON answer; on an error, the problem+json body (its `detail` says what went wrong)
# and exit status 22.
set -euo pipefail
API_BASE="${API_BASE:-https://api.example.org}"
username="${1:-free_cpa9169}"

curl --silent --show-error --fail-with-body --max-time 10 --write-out "\n" "${API_BASE%/}/api/check/${username}"
