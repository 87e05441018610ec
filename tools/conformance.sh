#!/usr/bin/env bash
# MCP conformance suite (server mode) against `v8atlas serve` over streamable HTTP.
#
#   tools/conformance.sh [BUNDLES_DIR]
#
# Installs Node 22 (the npm package node@22) and @modelcontextprotocol/conformance@0.1.16 once
# into $V8ATLAS_TOOLS_CACHE/conformance (default ~/.cache/v8atlas-tools), starts the server on a
# free loopback port over BUNDLES_DIR (default: a fixture bundle built from tests/bundle_factory.py),
# runs every server scenario with tools/conformance-baseline.yml as the expected failures, and
# exits with the suite's status (0: only the listed fixture scenarios failed).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY="${PYTHON:-$ROOT/.venv/bin/python}"
CACHE="${V8ATLAS_TOOLS_CACHE:-$HOME/.cache/v8atlas-tools}/conformance"
SUITE_VERSION=0.1.16

mkdir -p "$CACHE"
if [ ! -x "$CACHE/node_modules/.bin/conformance" ] || \
   ! grep -q "\"version\": \"$SUITE_VERSION\"" "$CACHE/node_modules/@modelcontextprotocol/conformance/package.json" 2>/dev/null; then
  echo "conformance: installing node@22 and @modelcontextprotocol/conformance@$SUITE_VERSION into $CACHE" >&2
  (cd "$CACHE" && { [ -f package.json ] || echo '{"private": true}' > package.json; } &&
   npm install --no-audit --no-fund --loglevel=error node@22 "@modelcontextprotocol/conformance@$SUITE_VERSION" >&2)
fi
export PATH="$CACHE/node_modules/.bin:$PATH"
if ! node --version | grep -q '^v22\.'; then
  echo "conformance: node 22 is not available from $CACHE (got $(node --version))" >&2
  exit 2
fi

WORK=$(mktemp -d)
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

BUNDLES="${1:-}"
if [ -z "$BUNDLES" ]; then
  BUNDLES="$WORK/bundles"
  "$PY" -c "import sys; sys.path.insert(0, 'tests'); from bundle_factory import build_sample; build_sample(sys.argv[1])" "$BUNDLES"
fi
PORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$PY" -m v8atlas serve --bundles "$BUNDLES" --port "$PORT" --log-level WARNING 2> "$WORK/server.log" &
SERVER=$!
for _ in $(seq 100); do
  if "$PY" -c "import urllib.request, sys; urllib.request.urlopen('http://127.0.0.1:$PORT/health', timeout=0.5)" 2>/dev/null; then
    break
  fi
  kill -0 "$SERVER" 2>/dev/null || { echo "conformance: the server did not start:" >&2; cat "$WORK/server.log" >&2; exit 2; }
  sleep 0.1
done

set +e
conformance server --url "http://127.0.0.1:$PORT/mcp" \
  --expected-failures "$ROOT/tools/conformance-baseline.yml" -o "$WORK/results"
status=$?
set -e
# The SDK logs its own tracebacks for the fixture prompts/resources it does not have; a failure
# inside v8atlas is logged by the v8atlas.server logger.
if grep -q "ERROR v8atlas" "$WORK/server.log"; then
  echo "conformance: v8atlas logged an error:" >&2
  cat "$WORK/server.log" >&2
  status=1
fi
echo "conformance: exit $status" >&2
exit $status
