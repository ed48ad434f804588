#!/usr/bin/env python3
"""Which known client do these signals look like? POST /api/fingerprint/match {"signals": {...}}

Usage: python3 match_fingerprint.py [key=value ...]    (standard library only; API_BASE sets the server)
Keys: ja4, ja3, ja4_t, akamai_h2, webgl_renderer, canvas_geom, canvas_text, audio, fonts_hash.
"""
import json
import os
import sys
import urllib.error
import urllib.request

API_BASE = os.environ.get("API_BASE", "https://api.example.org").rstrip("/")
# By default, what curl 8 (OpenSSL 3) presents: its TLS (JA4, JA3) and HTTP/2 fingerprints.
CURL_8 = {
    "ja4": "t13d3112h2_e8f1e7e78f70_b26ce05bbdd6",
    "ja3": "0149f47eabf9a20d0893e2a44e5a6323",
    "akamai_h2": "3:100;4:10485760;2:0|1048510465|0|m,s,a,p",
}


def post_json(path, body):
    """The JSON answer to POST `body` at `path`; on an error, exits with the problem's detail."""
    request = urllib.request.Request(
        API_BASE + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        # Every error is RFC 9457 problem+json: `detail` says what went wrong.
        try:
            problem = json.load(error)
        except ValueError:
            problem = {}
        sys.exit(f"{error.code} {problem.get('title', 'Error')}: {problem.get('detail', 'no details')}")
    except urllib.error.URLError as error:
        sys.exit(f"cannot reach {API_BASE}: {error.reason}")


def parse_signal(arg):
    """'key=value' as (key, value); the value may itself hold '='."""
    key, separator, value = arg.partition("=")
    if not key or not separator:
        print(f"a signal is key=value, not {arg!r}", file=sys.stderr)
        sys.exit(2)
    return key, value


signals = dict(parse_signal(arg) for arg in sys.argv[1:]) or CURL_8
match = post_json("/api/fingerprint/match", {"signals": signals})["match"]
print(f"verdict: {match['verdict']}, confidence {match['confidence']}")
profile = match["profile"]
print(f"profile: {profile['label']}, kind {profile['kind']}" if profile else "profile: none (no signal matches a public profile)")
print("matched: " + (", ".join(match["matched_signals"]) or "nothing"))
