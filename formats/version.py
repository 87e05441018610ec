"""Format version of bundles. Readers accept any minor of their major; a new major is refused."""
from __future__ import annotations

FORMAT_MAJOR = 1
FORMAT_MINOR = 0
FORMAT_VERSION = f"{FORMAT_MAJOR}.{FORMAT_MINOR}"
# A bundle holding a chunked record store (formats/chunked.py) is 2.0: a 1.x reader refuses it
# (its manifest says "upgrade") rather than reading that store as a per-record one. A bundle
# without one is a 1.0 bundle byte for byte and says so: older servers read it, its content
# hash is unchanged. This reader reads both.
CHUNKED_VERSION = "2.0"
# A chunked store of msgpack records (the code cards) is 3.0: a 2.x reader would hand its
# records out as bytes, not decoded, so it must refuse the bundle instead. Byte-string chunked
# stores only (bodies) stay 2.0, per-record stores only 1.0. This reader reads all three.
CHUNKED_MSGPACK_VERSION = "3.0"
READABLE_MAJORS = (FORMAT_MAJOR, 2, 3)

MANIFEST_NAME = "manifest.json"
REPORT_NAME = "report.json"
NEWEST_POINTER = "NEWEST"
PIN_MARKER = "PINNED"
TEMP_PREFIX = ".tmp-"

# Machine-local record of the last compile's arguments (absolute paths), in BUNDLES/.cache/:
# what a recompile on this machine needs, kept out of the portable bundle itself.
COMPILE_ARGS = "compile-args.json"
VERIFIED_DIR = ".verified"      # BUNDLES/.verified/<bundle>.json: stat signature of a verified bundle
