#!/usr/bin/env bash
# The CI job of one configuration: compile its sources, verify the bundle, publish it to the
# origin, print its content hash (the last line of output, for the job's log or an output).
#
#   tools/ci_bundle.sh --to https://artifacts.example/v8atlas/erp/ [--out bundles] SOURCE...
#
# SOURCE: what `v8atlas compile` takes (a dump folder or zip, an EDT project, help books, a
# folder with v8atlas.toml). The origin is file:///path/ or http(s)://host/path/ (HTTP PUT);
# a private one takes its token from V8ATLAS_ORIGIN_TOKEN. V8ATLAS names the command
# (default: `v8atlas` on PATH). Exit status: non-zero at the first step that fails.
set -euo pipefail
V8ATLAS="${V8ATLAS:-v8atlas}"
OUT=""
TO=""
SOURCES=()
while [ $# -gt 0 ]; do
  case "$1" in
    --to) TO="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) SOURCES+=("$1"); shift ;;
  esac
done
if [ -z "$TO" ] || [ ${#SOURCES[@]} -eq 0 ]; then
  echo "usage: $0 --to URL [--out DIR] SOURCE..." >&2
  exit 2
fi
if [ -z "$OUT" ]; then OUT="$(mktemp -d)/bundles"; fi
echo "ci_bundle: compiling ${SOURCES[*]} into $OUT" >&2
$V8ATLAS compile "${SOURCES[@]}" --out "$OUT" >&2
echo "ci_bundle: verifying" >&2
$V8ATLAS verify "$OUT" >&2
echo "ci_bundle: publishing to $TO" >&2
$V8ATLAS publish "$OUT" --to "$TO" >&2
$V8ATLAS inspect "$OUT" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["content_hash"])'
