#!/usr/bin/env python3
"""Is this username reported as a spammer? GET /api/check/{identifier}

Usage: python3 check_one.py [username]    (standard library only; API_BASE sets the server)
"""
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

API_BASE = os.environ.get("API_BASE", "https://api.example.org").rstrip("/")


def get_json(path):
    """The JSON answer to GET `path`; on an error, exits with the problem's detail."""
    try:
        with urllib.request.urlopen(API_BASE + path, timeout=10) as response:
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


username = sys.argv[1] if len(sys.argv) > 1 else "free_cpa9169"
check = get_json("/api/check/" + urllib.parse.quote(username, safe=""))
if check["found"]:
    print(f"@{check['username']}: reported {check['reports_count']} times by {check['unique_reports']} reporters, last seen {check['last_seen']}")
    if check["categories"]:
        print("categories: " + ", ".join(check["categories"]))
    if check["companies"]:
        print("companies: " + ", ".join(company["name"] for company in check["companies"]))
else:
    # Absence means nobody reported it, not that the account is clean.
    print(f"@{check['username']}: not reported")
