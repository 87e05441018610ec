"""Content fingerprints of sources: sha256 of a file's bytes; of a folder, of its files' hashes.

A folder of 90,000 files must not be read whole on every compile, so file hashes are kept in
a stat cache (like git's index): a file whose size, mtime, ctime and inode are unchanged is
not read again. ctime cannot be set back by a user, so an edit is always seen, even one
that keeps the size and restores the mtime.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Iterator

from v8atlas.formats.hashing import sha256_file

from . import cache

SKIP_DIRS = frozenset({".git", ".svn", "__pycache__", "node_modules", ".venv"})

_StatKey = tuple[int, int, int, int]        # size, mtime_ns, ctime_ns, inode


def walk_files(root: Path, prefix: str = "") -> Iterator[tuple[str, os.DirEntry]]:
    """(relative posix path, DirEntry) of every regular file below ``root``, in sorted order."""
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return
    for e in entries:
        rel = f"{prefix}{e.name}"
        try:
            if e.is_dir(follow_symlinks=False):
                if e.name not in SKIP_DIRS:
                    yield from walk_files(Path(e.path), rel + "/")
            elif e.is_file(follow_symlinks=False):
                yield rel, e
        except OSError:
            continue


class Fingerprinter:
    """Computes content fingerprints, reusing file hashes from ``cache_file`` when given."""

    def __init__(self, cache_file: Path | None = None) -> None:
        self.cache_file = cache_file
        self._cache: dict[str, tuple[_StatKey, str]] = {}
        self._seen: dict[str, tuple[_StatKey, str]] = {}
        self.bytes_hashed = 0
        if cache_file is not None:
            ok, hashes = cache.load(cache_file)     # absent, damaged or not ours: start afresh
            self._cache = hashes if ok and isinstance(hashes, dict) else {}

    def _file_hash(self, path: str, st: os.stat_result) -> str:
        key = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        hit = self._cache.get(path)
        if hit is not None and hit[0] == key:
            digest = hit[1]
        else:
            digest = sha256_file(path)
            self.bytes_hashed += st.st_size
        self._seen[path] = (key, digest)
        return digest

    def __call__(self, path: Path) -> str:
        if path.is_file():
            return self._file_hash(str(path.resolve()), path.stat())
        h = hashlib.sha256()
        for rel, entry in walk_files(path):
            digest = self._file_hash(os.path.abspath(entry.path), entry.stat(follow_symlinks=False))
            h.update(f"{rel}\0{digest}\n".encode())
        return h.hexdigest()

    def save(self) -> None:
        """Keep the hashes of the files seen in this compile (others are dropped)."""
        if self.cache_file is None:
            return
        cache.save(self.cache_file, self._seen)


def path_size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(e.stat(follow_symlinks=False).st_size for _, e in walk_files(path))
