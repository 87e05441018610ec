"""sha256 of a file, read in 1 MiB chunks (segments, sources): one implementation for all."""
from __future__ import annotations

import hashlib
import os
from typing import BinaryIO


_CHUNK = 1 << 20


def sha256_stream(f: BinaryIO) -> str:
    h = hashlib.sha256()
    for chunk in iter(lambda: f.read(_CHUNK), b""):
        h.update(chunk)
    return h.hexdigest()


def sha256_file(path: str | os.PathLike) -> str:
    # Unbuffered reads on the descriptor: a fingerprint hashes thousands of small files, and a
    # buffered file object's set-up and 1 MiB read per file were half its time (SSL's 9,300
    # files: 0.11 → 0.06 s for 3,000 of them).
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        h = hashlib.sha256()
        while chunk := os.read(fd, _CHUNK):
            h.update(chunk)
    finally:
        os.close(fd)
    return h.hexdigest()
