"""sha256 of a file, read in 1 MiB chunks (segments, sources): one implementation for all."""
from __future__ import annotations

import hashlib
import os
from typing import BinaryIO


def sha256_stream(f: BinaryIO) -> str:
    h = hashlib.sha256()
    for chunk in iter(lambda: f.read(1 << 20), b""):
        h.update(chunk)
    return h.hexdigest()


def sha256_file(path: str | os.PathLike) -> str:
    with open(path, "rb") as f:
        return sha256_stream(f)
