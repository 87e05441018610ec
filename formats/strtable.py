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
# A string's sketch (StringTable.may_hold): its UTF-8 length and its first and last 8 bytes
# (zero-padded), mixed into 64 bits by two odd multipliers (wrapping).
_SKETCH_LAST, _SKETCH_LEN, _MASK64 = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, (1 << 64) - 1


def _sketch(key: bytes) -> int:
    """The sketch of one string (the same bits as ``StringTable._sketches`` computes for the table)."""
    first = int.from_bytes(key[:8].ljust(8, b"\0"), "little")
    last = int.from_bytes(key[-8:].rjust(8, b"\0"), "little")
    return first ^ (last * _SKETCH_LAST & _MASK64) ^ (len(key) * _SKETCH_LEN & _MASK64)


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
        self._sketch: np.ndarray | None = None     # built on the first may_hold

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

    def may_hold(self, key: bytes) -> bool:
        """False when the UTF-8 string ``key`` is surely not in the table: one bisection of the
        strings' sorted 64-bit sketches (8 bytes a string, built once in numpy), against the
        table's own bisection of ~5 blob reads (12–20 µs for the exact names of SSL ×8). Used
        where most keys asked for are absent (a search phrase is rarely an exact name); True
        may still be a miss (another string of the same sketch): ``find`` decides."""
        sketch = self._sketch
        if sketch is None:
            sketch = self._sketch = self._sketches()
        if not len(sketch):
            return False
        x = _sketch(key)
        i = sketch.searchsorted(np.uint64(x)).item()
        return i < len(sketch) and sketch.item(i) == x

    def _sketches(self) -> np.ndarray:
        """Every string's ``_sketch``, sorted: the 8 bytes at each string's start and before its
        end read as little-endian words through a one-byte-stride view of the (zero-padded)
        blob, the bytes outside the string masked off, mixed with wrapping uint64 arithmetic."""
        if not self.n:
            return np.empty(0, dtype=np.uint64)
        off = self._off.astype(np.int64)
        lens = np.diff(off)
        size = np.minimum(lens, 8)
        pad = np.zeros(8, dtype=np.uint8)
        blob = np.concatenate((pad, np.frombuffer(self._blob, dtype=np.uint8), pad))
        words = np.ndarray((len(blob) - 7,), dtype="<u8", buffer=blob, strides=(1,))   # words[i]: bytes i…i+7
        low = np.array([(1 << 8 * k) - 1 for k in range(9)], dtype=np.uint64)   # the k low bytes
        first = words[off[:-1] + 8] & low[size]
        last = words[off[1:]] & ~low[8 - size]
        mixed = first ^ (last * np.uint64(_SKETCH_LAST)) ^ (lens.astype(np.uint64) * np.uint64(_SKETCH_LEN))
        mixed.sort()
        return mixed

    def find(self, s: str) -> int:
        """Index of ``s`` or -1."""
        return self.find_bytes(s.encode("utf-8"))

    def find_bytes(self, key: bytes) -> int:
        """Index of the UTF-8 string ``key`` or -1."""
        i = self.lower_bound(key)
        return i if i < self.n and self._bytes(i) == key else -1

    def prefix_range(self, prefix: str) -> range:
        """Indices of every string starting with ``prefix``."""
        key = prefix.encode("utf-8")
        lo = self.lower_bound(key)
        hi = self.lower_bound(key + b"\xff\xff\xff\xff")
        return range(lo, hi)
