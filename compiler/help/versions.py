"""Which platform version a help book documents, and version arithmetic for the merge.

Order of evidence: the ``version`` option of a ``[[help]]`` entry in v8atlas.toml, then the
path (a folder ``8.3.27.2130/`` or a versioned file name such as ``shcntx_ru_8.3.24.hbk`` /
``shcntx_ru-8_3_24.hbk``), then the content (the newest version named by a since/deprecated/
changed mark, which is a lower bound and is reported as such). Nothing → an error naming the fix.
"""
from __future__ import annotations

import re
from pathlib import Path

from v8atlas.formats.platform_version import parse_version

_PATH_VERSION = re.compile(r"(?<![\d.])(8[._]\d+[._]\d+(?:[._]\d+)?)(?![\d])")


def normalize(version: str) -> str:
    parts = parse_version(version)
    if not parts:
        raise ValueError(f"not a platform version: {version!r}")
    return ".".join(str(p) for p in parts)


def version_from_path(path: Path) -> str | None:
    """The last versioned component of the path (file name first, then its folders)."""
    for part in [path.name, *reversed(path.parent.parts)]:
        m = _PATH_VERSION.search(part)
        if m:
            return normalize(m.group(1))
    return None


def key(version: str | None) -> tuple[int, ...]:
    return parse_version(version) or (0,) if version else (0,)


def newest(versions: list[str]) -> str | None:
    return max(versions, key=key) if versions else None


def short(version: str | None) -> str | None:
    """Major.minor.release only ("8.3.27.2130" → "8.3.27"), the granularity of bounds."""
    if not version:
        return None
    p = parse_version(version)
    return ".".join(str(x) for x in (list(p) + [0, 0])[:3]) if p else None


def fix_message(source_name: str) -> str:
    return (f"{source_name}: cannot tell which platform version this help book documents (no "
            f"version in its path and no version marks in its pages). Put it under a folder named "
            f"by the version (e.g. 8.3.24.1691/shcntx_ru.hbk) or add to v8atlas.toml:\n"
            f"  [[help]]\n  source = \"{source_name}\"\n  version = \"8.3.24\"")
