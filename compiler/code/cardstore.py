"""The procedure cards between the link and the card store: packed, in zstd frames the store keeps.

The link packs each card the moment it has written it (``link._ViewLinker.cards``) and each
batch of cards as frames of at most ``FRAME_BYTES`` of whole cards (``pack_chunk``, where the
batch was written: this process or the link's forked child). Held as one ``bytes`` each, the
packed cards (~1.1 kB of msgpack per procedure, 44 MB per SSL copy) were the largest thing the
link added at scale; cards repeat the same keys and phrases, so frames of many of them
compress ~9× where one card alone barely does (a frame per card was tried in round 2, fourth
session: nothing gained). The card store is made of those frames as they are
(``formats/chunked.py``, ``build._record_stores``): the build copies them, it compresses nothing.
The module store's frames are made the same way, in the build (``pack_module_cards``).
"""
from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence

from v8atlas.formats.chunked import (ChunkedRecords, Framed, chunked_arrays, framed, frames_content,
                                     pack_frames)

# A frame's content at most (a card larger than that is a frame alone). A card read (the
# server's get_procedure, a module listing's cards) decompresses its frame. SSL 3.1.12's 43.7 MB
# of cards: 16 KB frames 5.86 MB, a random card read 23 µs CPU; 32 KB 4.82 MB, 29 µs; 64 KB
# 4.21 MB, 41 µs; the store of a record a frame with a trained dictionary (before) 6.65 MB with
# its dictionary, 12 µs. 32 KB: a quarter smaller than before for 17 µs more a card (get_procedure
# p50 ≈ 0.07–0.10 ms; listings, which read a module's cards in a row, unchanged);
# docs/perf/code.md, "Round 2, session 11".
FRAME_BYTES = 32 << 10
# Fast: level 3 made the frames 2 % smaller (4.69 MB) for an eighth more compression CPU.
_LEVEL = 1


class PackedCards(Sequence[bytes]):
    """Packed records by id, added in chunks (``pack_chunk``'s) in any order (each id once),
    read back by id; ``chunked`` makes the card store of their frames."""

    def __init__(self) -> None:
        self._chunks: list[bytes] = []           # each a blob of zstd frames (``pack_frames``)
        self._chunk = array("i")                 # id → its chunk (-1: none yet)
        self._at = array("q")                    # id → its start in its chunk's content
        self._size = array("q")                  # id → its packed length
        self._cached: tuple[int, bytes] | None = None   # the last chunk decompressed

    def reserve(self, n: int) -> None:
        """Room for ids below ``n`` (the chunks then grow nothing)."""
        grow = n - len(self._chunk)
        if grow > 0:
            self._chunk.extend(array("i", [-1]) * grow)
            self._at.extend(array("q", [0]) * grow)
            self._size.extend(array("q", [0]) * grow)

    def add_chunk(self, rids: Sequence[int], sizes: Sequence[int], frames: bytes) -> None:
        """A chunk packed elsewhere (``pack_chunk``: maybe a forked child's): records ``rids`` of
        ``sizes``, concatenated in that order, as the frames ``frames``."""
        if not rids:
            return
        if max(rids) >= len(self._chunk):
            self.reserve(max(rids) + 1)
        c, at = len(self._chunks), 0
        for rid, size in zip(rids, sizes):
            self._chunk[rid] = c
            self._at[rid] = at
            self._size[rid] = size
            at += size
        self._chunks.append(frames)

    def sizes(self) -> list[int]:
        """Each record's packed length, by id."""
        return self._size.tolist()

    def nbytes(self) -> int:
        """Bytes held compressed."""
        return sum(map(len, self._chunks))

    def chunked(self) -> ChunkedRecords:
        """The card store: every record by id, its chunk's frames copied (``chunked_arrays``)."""
        import numpy as np
        chunk = np.frombuffer(self._chunk, dtype=np.int32)
        if (chunk < 0).any():
            raise KeyError(f"no card for procedure {int(np.flatnonzero(chunk < 0)[0])}")
        at, size = np.frombuffer(self._at, dtype=np.int64), np.frombuffer(self._size, dtype=np.int64)
        return chunked_arrays(self._chunks, chunk, at, at + size)

    def __len__(self) -> int:
        return len(self._chunk)

    def __getitem__(self, rid):  # type: ignore[override]   (ints only: read by id)
        c = self._chunk[rid]
        if c < 0:
            raise KeyError(f"no card for procedure {rid}")
        if self._cached is None or self._cached[0] != c:
            self._cached = (c, frames_content(self._chunks[c]))
        at = self._at[rid]
        return self._cached[1][at:at + self._size[rid]]

    def __iter__(self) -> Iterator[bytes]:
        """Every record by id (a chunk decompressed again whenever the ids leave it)."""
        for rid in range(len(self)):
            yield self[rid]

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_cached"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, _cached=None)


def pack_chunk(rids: list[int], packed: list[bytes]) -> tuple[list[int], list[int], bytes]:
    """Records as one chunk for ``PackedCards.add_chunk``: (ids, sizes, frames)."""
    return rids, [len(p) for p in packed], pack_frames(packed, FRAME_BYTES, _LEVEL)[0]


def pack_module_cards(packed: Sequence[bytes]) -> list[Framed]:
    """The module store's records (packed module cards) as frames, as the cards are."""
    return framed(packed, FRAME_BYTES, _LEVEL)
