"""Real data for integration tests: paths under ../shared/data and archives extracted once.

Tests that use these are marked ``@pytest.mark.realdata``; when the data is absent they skip
with a reason instead of failing. Archives (``.tar.zst``) are extracted into a cache folder
(``$V8ATLAS_TEST_CACHE`` or ``~/.cache/v8atlas-tests/<archive stem>/``), never next to the
archive, once: a marker file says the extraction finished, a lock file serializes runs.
"""
from __future__ import annotations

import fcntl
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("V8ATLAS_SHARED", REPO.parent / "shared"))
DATA = SHARED / "data"


def data_path(*parts: str) -> Path:
    """A path under ../shared/data; skips the test when it is absent."""
    p = DATA.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"real data not available: {p}")
    return p


def cache_root() -> Path:
    env = os.environ.get("V8ATLAS_TEST_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "v8atlas-tests"


def archive_stem(name: str) -> str:
    for suffix in (".tar.zst", ".tar.gz", ".tar"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return Path(name).stem


def extracted(archive_relpath: str) -> Path:
    """Extract ``data/<archive_relpath>`` once into the cache; return the folder."""
    archive = data_path(*Path(archive_relpath).parts)
    target = cache_root() / archive_stem(archive.name)
    marker = target / ".extracted"
    if marker.is_file():
        return target
    target.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{target.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not marker.is_file():   # another run may have finished while we waited
            subprocess.run(["tar", "--zstd", "-xf", str(archive), "-C", str(target)], check=True)
            marker.write_text(str(archive))
    return target
