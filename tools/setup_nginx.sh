#!/usr/bin/env bash
# Installs Debian's nginx for the balancer test (tests/test_balancer.py): three replicas behind
# nginx on loopback, and nginx as the static origin (GET with ETag, PUT via its dav module).
# The package's own service is not started (the test runs its own nginx with a private config,
# as an unprivileged-port process on 127.0.0.1). Idempotent and quiet; safe to call from .ci/run.
#   bash tools/setup_nginx.sh
set -euo pipefail
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
    echo "setup_nginx: nginx is missing and this user cannot install packages; the balancer test will skip" >&2
    exit 0
  fi
  export DEBIAN_FRONTEND=noninteractive
  # policy-rc.d 101: the package must not start its service on port 80 while installing.
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod +x /usr/sbin/policy-rc.d
  $SUDO apt-get update -qq >/dev/null || true
  $SUDO apt-get install -y -qq --no-install-recommends nginx >/dev/null || \
    echo "setup_nginx: apt-get could not install nginx; the balancer test will skip" >&2
  $SUDO rm -f /usr/sbin/policy-rc.d
fi
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
if [ -x "$NGINX" ]; then echo "setup_nginx: $("$NGINX" -v 2>&1)"; fi
