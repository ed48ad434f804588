#!/usr/bin/env python3
"""Check up to 100 usernames in one request: POST /api/check {"usernames": [...]}

Usage: python3 check_many.py [username ...]    (standard library only; API_BASE sets the server)
"""
import json
import os
import sys
import urllib.error
import urllib.request

API_BASE = os.environ.get("API_BASE", "https://api.example.org").rstrip("/")


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


usernames = sys.argv[1:] or ["free_cpa9169", "@Win_Offer", "nobody_here"]
answer = post_json("/api/check", {"usernames": usernames})
# One item per username sent, in the order sent: a result, or why the identifier is no username.
for item in answer["results"]:
    if "error" in item:
        print(f"{item['identifier']}: {item['error']['detail']}")
    elif item["result"]["found"]:
        result = item["result"]
        print(f"{item['identifier']}: reported {result['reports_count']} times ({', '.join(result['categories'])})")
    else:
        print(f"{item['identifier']}: not reported")
