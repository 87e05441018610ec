"""The procedure cards between the link and the card store: packed, in zstd-compressed chunks.

The link packs each card the moment it has written it (``link._ViewLinker.cards``); held as
one ``bytes`` each, the packed cards (~1.1 kB of msgpack per procedure, 44 MB per SSL copy)
were the largest thing the link added at scale, and they sat under everything the build and
its forked children add. Cards repeat the same keys and phrases, so chunks of many of them
compress ~13× (SSL 3.1.12: 43.7 → 3.3 MB, 0.2 s) where one card alone barely does (a frame per
card was tried in round 2, fourth session: nothing gained). The build reads them back by
procedure id (``add_records`` with ``packed_sizes``: the dictionary's samples, then every card
in turn), one chunk decompressed at a time.
"""
from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterator, Sequence

import zstandard

CHUNK_BYTES = 1 << 20     # packed bytes per compressed chunk (a read decompresses one)
_LEVEL = 1                # fast: the chunks are compressed once and read twice


class PackedCards(Sequence[bytes]):
    """Packed records by id, appended in any order (each id once), read back by id."""

    def __init__(self) -> None:
        self._chunks: list[bytes] = []           # zstd frames of the concatenated records
        self._chunk_starts = array("q")          # offset of each chunk's first byte
        self._at = array("q")                    # id → offset of its record (-1: none yet)
        self._size = array("q")                  # id → its packed length
        self._buf = bytearray()                  # the chunk being filled
        self._base = 0                           # offset of ``_buf``'s first byte
        self._cached: tuple[int, bytes] | None = None   # the last chunk decompressed
        self._compressor: zstandard.ZstdCompressor | None = None

    def reserve(self, n: int) -> None:
        """Room for ids below ``n`` (the appends then grow nothing)."""
        grow = n - len(self._at)
        if grow > 0:
            self._at.extend(array("q", [-1]) * grow)
            self._size.extend(array("q", [0]) * grow)

    def append(self, rid: int, packed: bytes) -> None:
        if rid >= len(self._at):
            self.reserve(rid + 1)
        self._at[rid] = self._base + len(self._buf)
        self._size[rid] = len(packed)
        self._buf += packed
        if len(self._buf) >= CHUNK_BYTES:        # a record never spans two chunks
            self._flush()

    def add_chunk(self, rids: Sequence[int], sizes: Sequence[int], frame: bytes, nbytes: int) -> None:
        """A chunk packed elsewhere (``pack_chunk``: a forked worker's): records ``rids`` of
        ``sizes``, concatenated in that order, ``nbytes`` in all, compressed as ``frame``."""
        self._flush()
        if not rids:
            return
        if max(rids) >= len(self._at):
            self.reserve(max(rids) + 1)
        at = self._base
        for rid, size in zip(rids, sizes):
            self._at[rid] = at
            self._size[rid] = size
            at += size
        self._chunks.append(frame)
        self._chunk_starts.append(self._base)
        self._base += nbytes

    def _flush(self) -> None:
        if not self._buf:
            return
        if self._compressor is None:
            self._compressor = _compressor()
        self._chunks.append(self._compressor.compress(bytes(self._buf)))
        self._chunk_starts.append(self._base)
        self._base += len(self._buf)
        self._buf = bytearray()

    def seal(self) -> None:
        """Every record appended: compress the last chunk (before reading or pickling)."""
        self._flush()
        self._compressor = None

    def sizes(self) -> list[int]:
        """Each record's packed length, by id."""
        return self._size.tolist()

    def nbytes(self) -> int:
        """Bytes held compressed."""
        return sum(map(len, self._chunks)) + len(self._buf)

    def __len__(self) -> int:
        return len(self._at)

    def __getitem__(self, rid):  # type: ignore[override]   (ints only: the writer reads by index)
        at = self._at[rid]
        if at < 0:
            raise KeyError(f"no card for procedure {rid}")
        if at >= self._base:                     # still in the chunk being filled
            start = at - self._base
            return bytes(self._buf[start:start + self._size[rid]])
        c = bisect_right(self._chunk_starts, at) - 1
        if self._cached is None or self._cached[0] != c:
            self._cached = (c, zstandard.ZstdDecompressor().decompress(self._chunks[c]))
        start = at - self._chunk_starts[c]
        return self._cached[1][start:start + self._size[rid]]

    def __iter__(self) -> Iterator[bytes | memoryview]:
        """Every record by id, each chunk decompressed once as its first record comes (the
        store's write pass; ``__getitem__``'s lookups per record were a quarter of it)."""
        lo = hi = 0
        content = memoryview(b"")
        for rid, (at, size) in enumerate(zip(self._at, self._size)):
            if not lo <= at < hi:
                if at < 0 or at >= self._base:   # none, or still in the chunk being filled
                    yield self[rid]
                    continue
                c = bisect_right(self._chunk_starts, at) - 1
                content = memoryview(zstandard.ZstdDecompressor().decompress(self._chunks[c]))
                lo = self._chunk_starts[c]
                hi = lo + len(content)
            yield content[at - lo:at - lo + size]

    def __getstate__(self) -> dict:
        self.seal()
        return {k: v for k, v in self.__dict__.items() if k not in ("_cached", "_compressor")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, _cached=None, _compressor=None)


def _compressor() -> zstandard.ZstdCompressor:
    return zstandard.ZstdCompressor(level=_LEVEL, write_checksum=False, write_content_size=True)


def pack_chunk(rids: list[int], packed: list[bytes]) -> tuple[list[int], list[int], bytes, int]:
    """Records as one chunk for ``PackedCards.add_chunk``: (ids, sizes, frame, bytes in all)."""
    joined = b"".join(packed)
    return rids, [len(p) for p in packed], _compressor().compress(joined) if joined else b"", len(joined)
