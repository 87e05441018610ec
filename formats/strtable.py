"""Sorted string tables: UTF-8 strings in one blob behind uint64 offsets, searched by bisection.

Used for exact-name tables and the search term dictionary. Strings must be added sorted by
their UTF-8 bytes (``sort_utf8``) so lookups compare bytes straight from the mapping.
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

import numpy as np

# A table longer than this is first narrowed through every SAMPLE_STEP-th string, kept in memory
# (bisect over a Python list runs in C): the names table of an ERP-sized bundle (~100k strings)
# needs 17 blob reads a lookup without it, 5 with it.
SAMPLE_MIN, SAMPLE_STEP = 2048, 32


def sort_utf8(strings: Iterable[str]) -> list[str]:
    return sorted(set(strings), key=lambda s: s.encode("utf-8"))


def build_string_table(sorted_strings: Iterable[str]) -> tuple[np.ndarray, bytes]:
    """(offsets uint64 n+1, blob) for strings already in ``sort_utf8`` order."""
    return encoded_string_table([s.encode("utf-8") for s in sorted_strings])


def encoded_string_table(encoded: list[bytes]) -> tuple[np.ndarray, bytes]:
    """``build_string_table`` of strings given UTF-8 encoded (in byte order, each once)."""
    offsets = np.zeros(len(encoded) + 1, dtype="<u8")
    if encoded:
        offsets[1:] = np.cumsum([len(b) for b in encoded])
    return offsets, b"".join(encoded)


class StringTable:
    def __init__(self, offsets: np.ndarray, blob: memoryview | bytes) -> None:
        self._off = offsets
        self._blob = blob
        self.n = max(len(offsets) - 1, 0)
        self._sample: list[bytes] | None = None   # built on the first lookup of a long table

    def __len__(self) -> int:
        return self.n

    def _bytes(self, i: int) -> bytes:
        # .item() gives a Python int directly; int(off[i]) builds a numpy scalar first (twice
        # as slow, and this runs dozens of times per search query in the bisections).
        off = self._off
        return bytes(self._blob[off.item(i):off.item(i + 1)])

    def __getitem__(self, i: int) -> str:
        # Decoded straight from the mapping's slice: no intermediate bytes copy.
        off = self._off
        return str(self._blob[off.item(i):off.item(i + 1)], "utf-8")

    def get_many(self, indices: list[int]) -> list[str]:
        """Strings ``indices`` (a page of hits): their offsets read by one gather each, not two
        numpy scalars per string."""
        if not indices:
            return []
        ix = np.asarray(indices, dtype=np.int64)
        blob = self._blob
        return [str(blob[a:b], "utf-8") for a, b in zip(self._off[ix].tolist(), self._off[ix + 1].tolist())]

    def lower_bound(self, key: bytes) -> int:
        lo, hi = 0, self.n
        if hi > SAMPLE_MIN:
            sample = self._sample
            if sample is None:
                sample = self._sample = [self._bytes(i) for i in range(0, self.n, SAMPLE_STEP)]
            # sample[k - 1] < key <= sample[k]: the first string >= key is in that stretch
            k = bisect_left(sample, key)
            lo = (k - 1) * SAMPLE_STEP + 1 if k else 0
            hi = min(k * SAMPLE_STEP, self.n)
        while lo < hi:
            mid = (lo + hi) // 2
            if self._bytes(mid) < key:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def find(self, s: str) -> int:
        """Index of ``s`` or -1."""
        key = s.encode("utf-8")
        i = self.lower_bound(key)
        return i if i < self.n and self._bytes(i) == key else -1

    def prefix_range(self, prefix: str) -> range:
        """Indices of every string starting with ``prefix``."""
        key = prefix.encode("utf-8")
        lo = self.lower_bound(key)
        hi = self.lower_bound(key + b"\xff\xff\xff\xff")
        return range(lo, hi)
