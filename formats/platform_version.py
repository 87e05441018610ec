"""Platform versions ("8.3.27.2130", "8.3.6", "Version8_3_24") as sortable integers.

One encoding for both sides: help elements carry since/until bounds, configurations carry a
platform version, and the server compares them without parsing strings.
"""
from __future__ import annotations

import re

UNBOUNDED_SINCE = 0
UNBOUNDED_UNTIL = 0xFFFFFFFF

_VERSION_RE = re.compile(r"(\d+)[._](\d+)(?:[._](\d+))?(?:[._](\d+))?")


def parse_version(text: str | None) -> tuple[int, ...] | None:
    """'8.3.27.2130' → (8, 3, 27, 2130); 'Version8_3_24' → (8, 3, 24); junk → None."""
    if not text:
        return None
    m = _VERSION_RE.search(str(text))
    if not m:
        return None
    return tuple(int(g) for g in m.groups() if g is not None)


def encode_version(text: str | tuple[int, ...] | None, default: int = UNBOUNDED_SINCE) -> int:
    """Major/minor/release packed in a uint32 (build numbers do not change the API surface)."""
    parts = parse_version(text) if isinstance(text, str) or text is None else tuple(text)
    if not parts:
        return default
    major, minor, release = (list(parts) + [0, 0, 0])[:3]
    return (major & 0xFF) << 24 | (minor & 0xFF) << 16 | (release & 0xFFFF)


def format_version(code: int) -> str:
    if code in (UNBOUNDED_SINCE, UNBOUNDED_UNTIL):
        return ""
    return f"{code >> 24}.{(code >> 16) & 0xFF}.{code & 0xFFFF}"
