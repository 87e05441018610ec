"""Format version of bundles. Readers accept any minor of their major; a new major is refused."""
from __future__ import annotations

FORMAT_MAJOR = 1
FORMAT_MINOR = 0
FORMAT_VERSION = f"{FORMAT_MAJOR}.{FORMAT_MINOR}"

MANIFEST_NAME = "manifest.json"
REPORT_NAME = "report.json"
NEWEST_POINTER = "NEWEST"
PIN_MARKER = "PINNED"
TEMP_PREFIX = ".tmp-"

# Machine-local record of the last compile's arguments (absolute paths), in BUNDLES/.cache/:
# what a recompile on this machine needs, kept out of the portable bundle itself.
COMPILE_ARGS = "compile-args.json"
VERIFIED_DIR = ".verified"      # BUNDLES/.verified/<bundle>.json: stat signature of a verified bundle
