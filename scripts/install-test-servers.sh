#!/usr/bin/env bash
# The real servers the tests start (Debian packages): nginx for the static-hosting tests, with the
# brotli static module for the precompressed-variant tests, and redis-server for the
# several-servers tests (each test starts its own on a free loopback port), and the clients the
# docs' examples are run with (curl, python3: test/e2e/examples.test.ts). Under CI a test whose
# server or client is missing fails rather than skips, so `.ci/run` calls this first. Installing what is
# already installed changes nothing; the package lists are only fetched when something is missing.
set -euo pipefail
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
has() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/usr/bin/$1" ]; }
if ! has nginx || ! has redis-server || [ ! -f /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ] || ! has curl || ! has python3; then
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y redis-server nginx-light libnginx-mod-http-brotli-static curl python3
fi
