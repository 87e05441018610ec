#!/usr/bin/env bash
# Installs what the dashboard's browser tests (tests/test_dashboard_e2e.py) need:
# Debian's chromium (+ a font with Cyrillic) and the playwright Python package, whose bundled
# driver runs that chromium through executablePath. Never downloads a browser of its own
# (no `playwright install`). Idempotent and quiet; safe to call from .ci/run.
#   PYTHON=.venv/bin/python tools/setup_browser.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"

if ! command -v chromium >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi dejavu; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
    echo "setup_browser: chromium is missing and this user cannot install packages; browser tests will skip" >&2
    exit 0
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core fontconfig >/dev/null
fi

if ! "$PYTHON" -c 'import playwright.sync_api' >/dev/null 2>&1; then
  "$PYTHON" -m pip install --quiet --disable-pip-version-check playwright 2>&1 \
    | grep -v "^WARNING: Location" >&2 || true
fi
"$PYTHON" -c 'import playwright.sync_api' \
  && echo "setup_browser: $(chromium --version 2>/dev/null | head -1); playwright $("$PYTHON" -m pip show playwright 2>/dev/null | awk '/^Version/{print $2}')"
