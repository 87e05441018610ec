"""sha256 of a file, read in 1 MiB chunks (segments, sources): one implementation for all."""
from __future__ import annotations

import hashlib
import os


def sha256_file(path: str | os.PathLike) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
