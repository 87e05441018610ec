"""Real data for tests: ../shared/data, skipped with a reason when absent; archives extracted once."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = (REPO / ".." / "shared").resolve()


def data_path(*parts: str) -> Path:
    p = SHARED.joinpath("data", *parts)
    if not p.exists():
        pytest.skip(f"real data not available: {p} (expected ../shared/data next to the repo)")
    return p


def extracted(archive_relpath: str) -> Path:
    """Extract ``data/<archive_relpath>`` (.tar.zst) once into the test cache; return the folder."""
    archive = data_path(*archive_relpath.split("/"))
    stem = archive.name.split(".tar")[0]
    root = Path(os.environ.get("V8ATLAS_TEST_CACHE") or Path.home() / ".cache" / "v8atlas-tests")
    target = root / stem
    marker = target / ".extracted"
    if marker.exists():
        return target
    target.mkdir(parents=True, exist_ok=True)
    import fcntl
    with open(root / f"{stem}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not marker.exists():
            subprocess.run(["tar", "--zstd", "-xf", str(archive), "-C", str(target)], check=True)
            marker.write_text("ok")
    return target
