"""Chunked record store: records kept as slices of a few independent zstd frames.

Where the records arrive already compressed several to a frame (``pack_frames``,
``framed``: the code domain's procedure bodies, which the readers compress module by module,
bodies.py; its procedure cards, which the link compresses batch by batch, cardstore.py), the
store is made of those frames as they are — the build copies bytes, it compresses nothing.
Layout (docs/bundle-format.md):

- ``<name>.dat``     blob: the frames, one after another (each with its content size, no
  dictionary, no checksum);
- ``<name>.frames``  uint64, frames + 1: frame k is ``dat[frames[k]:frames[k+1]]``;
- ``<name>.idx``     uint32, (count, 3): record i is bytes ``[start, end)`` of frame
  ``idx[i, 0]``'s content (``idx[i, 1]``, ``idx[i, 2]``).

The manifest's entry: ``{"kind": "chunked", "count", "data", "frames", "index", "frame_max"}``,
``frame_max`` the largest frame's content size (at most ``MAX_FRAME``): a reader refuses a frame
that declares more before it allocates anything (a zip bomb is a ``BundleCorrupt``). Its records
are byte strings (bodies), or msgpack records when the entry says ``"encoding": "msgpack"``
(cards): the store then hands them out decoded, as a per-record store does.
A bundle holding a chunked store is format ``CHUNKED_VERSION``, one of msgpack records
``CHUNKED_MSGPACK_VERSION`` (version.py).
"""
from __future__ import annotations

import threading
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import accumulate
from typing import Any, Callable

import zstandard

from .errors import BundleCorrupt

KIND = "chunked"
MSGPACK = "msgpack"      # the entry's "encoding" when its records are msgpack records
# One frame's content at most, for writer and reader: a frame holds whole records, and the
# largest record the code domain has is a body of one module (read.py: 16 MB a module).
MAX_FRAME = 64 << 20
_MAGIC = 0xFD2FB528

# A record as ``chunked_records`` takes it: (a blob of zstd frames, start, end in its content).
Framed = tuple[bytes, int, int]
# (records, the frames' bytes, frame offsets (uint64, frames + 1), per record (frame, start,
# end) (uint32, (records, 3)), the largest frame's content size). Picklable.
ChunkedRecords = tuple[int, "bytes | bytearray", Any, Any, int]


@cache
def _compressor(level: int) -> zstandard.ZstdCompressor:
    # one a level and process (not thread-safe: the compiler's workers are forked processes)
    return zstandard.ZstdCompressor(level=level, write_checksum=False, write_content_size=True)


def pack_frames(records: Sequence[bytes], bound: int, level: int) -> tuple[bytes, list[int]]:
    """``records`` as zstd frames (at ``level``, each with its content size) of whole records,
    at most ``bound`` bytes of content each unless one record is more (a frame alone), one
    after another in one ``bytes``; and each record's start in their content (the frames'
    contents one after another), the content's end last. Cut at record boundaries found by
    bisection on the running sizes, the content joined once (a step a record was a third of
    the link's card packing)."""
    at = list(accumulate(map(len, records), initial=0))
    if not records:
        return b"", at
    cctx, content = _compressor(level), memoryview(b"".join(records))
    frames, i, n = [], 0, len(records)
    while i < n:
        j = max(bisect_right(at, at[i] + bound, i + 1) - 1, i + 1)   # (the greedy fill)
        frames.append(cctx.compress(content[at[i]:at[j]]))
        i = j
    return frames[0] if len(frames) == 1 else b"".join(frames), at


def framed(records: Sequence[bytes], bound: int, level: int) -> list[Framed]:
    """``pack_frames``' frames as ``chunked_records`` takes the records: (the frames, start,
    end) each, the frames one ``bytes`` shared by all."""
    blob, at = pack_frames(records, bound, level)
    return [(blob, at[k], at[k + 1]) for k in range(len(records))]


def frames_content(blob: bytes | memoryview) -> bytes:
    """The content of a blob of frames (``pack_frames``'): the frames' contents one after another."""
    dctx = zstandard.ZstdDecompressor()
    return b"".join(dctx.decompress(blob[a:b]) for a, b, _size in split_frames(blob))


def split_frames(blob: bytes | memoryview) -> list[tuple[int, int, int]]:
    """The zstd frames ``blob`` is made of, one after another: each (start, end, content size)
    — read from the frame and block headers, nothing decompressed. ValueError when ``blob`` is
    not such frames or a frame does not declare its content size."""
    view, out, at, n = memoryview(blob), [], 0, len(blob)
    while at < n:
        head = bytes(view[at:at + 18])        # a frame header is at most 18 bytes
        if len(head) < 6 or int.from_bytes(head[:4], "little") != _MAGIC:
            raise ValueError(f"no zstd frame at byte {at}")
        try:
            size, pos = zstandard.frame_content_size(head), at + zstandard.frame_header_size(head)
        except zstandard.ZstdError as e:
            raise ValueError(f"zstd frame at byte {at}: {e}") from None
        if size < 0:
            raise ValueError(f"zstd frame at byte {at} does not declare its content size")
        while True:                           # blocks: a 3-byte header (last, type, size) each
            if pos + 3 > n:
                raise ValueError(f"zstd frame at byte {at} is cut short")
            b = int.from_bytes(view[pos:pos + 3], "little")
            if (b >> 1) & 3 == 3:
                raise ValueError(f"zstd frame at byte {at}: reserved block type")
            pos += 3 + (1 if (b >> 1) & 3 == 1 else b >> 3)    # an RLE block is one byte
            if b & 1:
                break
        pos += 4 if head[4] & 4 else 0        # the content checksum
        if pos > n:
            raise ValueError(f"zstd frame at byte {at} is cut short")
        out.append((at, pos, size))
        at = pos
    return out


def chunked_records(records: Iterable[Framed]) -> ChunkedRecords:
    """The store of ``records``, each (a blob of zstd frames, start, end): bytes ``[start,
    end)`` of the blob's content (its frames' contents one after another), within one frame.
    Each frame some record lies in is copied once, in the order first used; the others are
    left out. Blobs are told apart by identity (the records share their module's)."""
    blobs: list[bytes] = []
    number: dict[int, int] = {}
    which, starts, ends = array("q"), array("q"), array("q")
    for blob, start, end in records:
        b = number.get(id(blob))
        if b is None:
            b = number[id(blob)] = len(blobs)
            blobs.append(blob)
        which.append(b)
        starts.append(start)
        ends.append(end)
    return chunked_arrays(blobs, which, starts, ends)


def chunked_arrays(blobs: Sequence[bytes], which: Any, starts: Any, ends: Any) -> ChunkedRecords:
    """``chunked_records`` of records given as arrays: record i is bytes ``[starts[i],
    ends[i])`` of blob ``which[i]``'s content. In numpy, no Python step a record (a loop a
    record was most of the card store's CPU)."""
    import numpy as np
    which, starts, ends = (np.asarray(x, dtype=np.int64) for x in (which, starts, ends))
    parts = [split_frames(blob) for blob in blobs]
    f, rel_start, rel_end = _locate(parts, which, starts, ends)
    used, first_use = np.unique(f, return_index=True)
    order = used[np.argsort(first_use, kind="stable")]          # frames in the order first used
    renumber = np.empty(sum(map(len, parts)), dtype=np.int64)    # frame → its place in the store
    renumber[order] = np.arange(len(order))
    frames, offsets, frame_max = _copy_frames(blobs, parts, order.tolist())
    table = np.stack([renumber[f], rel_start, rel_end], axis=1).astype("<u4").reshape(len(f), 3)
    return len(f), frames, offsets, table, frame_max


def _locate(parts: list[list[tuple[int, int, int]]], which: Any, starts: Any, ends: Any) -> tuple[Any, Any, Any]:
    """Each record's frame (numbered through every blob's frames in turn) and its start and
    end in that frame's content; ValueError for a record not within one frame of its blob."""
    import numpy as np
    first = np.zeros(len(parts) + 1, dtype=np.int64)            # each blob's first frame
    first[1:] = np.cumsum([len(p) for p in parts])
    size = np.array([s for p in parts for _a, _b, s in p], dtype=np.int64)   # content, a frame
    at = np.zeros(len(size) + 1, dtype=np.int64)                # content start, blobs end to end
    at[1:] = np.cumsum(size)
    base = at[first[which]]
    # the last of its own blob's frames that starts at or before it (not the next blob's first)
    f = np.minimum(np.searchsorted(at[:-1], base + starts, side="right") - 1, first[which + 1] - 1)
    rel_start, rel_end = base + starts - at[f], base + ends - at[f]
    bad = (f < first[which]) | (starts < 0) | (rel_start < 0) | (rel_end < rel_start) | (rel_end > size[f])
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        b = int(which[i])
        raise ValueError(f"record [{starts[i]}, {ends[i]}) is not within one frame of its blob "
                         f"({len(parts[b])} frames, {int(at[first[b + 1]] - at[first[b]])} bytes of content)")
    return f, rel_start, rel_end


def _copy_frames(blobs: Sequence[bytes], parts: list[list[tuple[int, int, int]]],
                 order: list[int]) -> tuple[bytes, Any, int]:
    """Frames ``order`` (numbered as ``_locate`` does) copied one after another: their bytes,
    offsets (uint64, frames + 1) and the largest one's content size."""
    import numpy as np
    numbered = [(b, part) for b, p in enumerate(parts) for part in p]
    chosen = [numbered[k] for k in order]
    frame_max = max((size for _b, (_s, _e, size) in chosen), default=0)
    if frame_max > MAX_FRAME:
        raise ValueError(f"a frame of {frame_max} bytes of content (at most {MAX_FRAME})")
    frames = b"".join(memoryview(blobs[b])[start:end] for b, (start, end, _size) in chosen)
    offsets = np.zeros(len(chosen) + 1, dtype="<u8")
    offsets[1:] = np.cumsum([end - start for _b, (start, end, _size) in chosen])
    return frames, offsets, frame_max


class ChunkedRecordStore:
    """Random access to a chunked store's records by index: the record's frame decompressed,
    then sliced (``raw``: bytes) and, with ``decode`` (the store's name, the record's index, its
    bytes → the record; msgpack records), decoded (``get``, ``[i]``, ``many``, iteration).
    Each thread keeps the frame it decompressed last: records are often read in a row from one
    frame (a module's procedures)."""

    def __init__(self, name: str, data: memoryview, frames: Any, index: Any, frame_max: int,
                 guard: Callable[[], None] | None = None,
                 decode: Callable[[str, int, bytes], Any] | None = None) -> None:
        self.name = name
        self._decode = decode
        self._data = data
        self._frames = frames
        self._index = index
        self._frame_max = min(frame_max, MAX_FRAME)
        self._guard = guard          # raises BundleCorrupt when the mapped file has shrunk
        self._local = threading.local()   # a ZstdDecompressor is not thread-safe

    def __len__(self) -> int:
        return len(self._index)

    def _check(self, i: int) -> None:
        if not 0 <= i < len(self):
            raise IndexError(f"record {i} out of range 0..{len(self) - 1} in {self.name}")

    def raw(self, i: int) -> bytes:
        self._check(i)
        if self._guard is not None:
            self._guard()
        return self._unguarded(i)

    def get(self, i: int) -> Any:
        """Record ``i``: its bytes, decoded when the store's records are encoded."""
        raw = self.raw(i)
        return raw if self._decode is None else self._decode(self.name, i, raw)

    __getitem__ = get

    def many(self, indices: list[int]) -> list[Any]:
        """Records ``indices`` (as ``get``), the mapped file checked once before them all."""
        for i in indices:
            self._check(i)
        if indices and self._guard is not None:
            self._guard()
        if self._decode is None:
            return [self._unguarded(i) for i in indices]
        return [self._decode(self.name, i, self._unguarded(i)) for i in indices]

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield self[i]

    def _unguarded(self, i: int) -> bytes:
        f, start, end = self._index[i].tolist()
        content = self._content(i, f)
        if not start <= end <= len(content):
            raise BundleCorrupt(f"record store {self.name}: record {i} lies outside its frame "
                                f"({start}..{end} of {len(content)} bytes)", self.name)
        return content[start:end]

    def _content(self, i: int, f: int) -> bytes:
        local = self._local
        if getattr(local, "frame", -1) == f:
            return local.content
        if f + 1 >= len(self._frames):
            raise BundleCorrupt(f"record store {self.name}: record {i} names frame {f} of "
                                f"{len(self._frames) - 1}", self.name)
        a, b = self._frames.item(f), self._frames.item(f + 1)
        if not a <= b <= len(self._data):
            raise BundleCorrupt(f"record store {self.name}: frame {f} lies outside its data", self.name)
        frame = self._data[a:b]
        try:
            size = zstandard.frame_content_size(frame)
            if not 0 <= size <= self._frame_max:
                raise BundleCorrupt(f"record store {self.name}: frame {f} declares "
                                    f"{size if size >= 0 else 'no'} content size (at most "
                                    f"{self._frame_max} bytes)", self.name)
            dctx = getattr(local, "dctx", None)
            if dctx is None:
                dctx = local.dctx = zstandard.ZstdDecompressor()
            content = dctx.decompress(frame, max_output_size=self._frame_max)
        except zstandard.ZstdError as e:
            raise BundleCorrupt(f"record store {self.name}: frame {f} does not decompress ({e})",
                                self.name) from None
        if len(content) != size:
            raise BundleCorrupt(f"record store {self.name}: frame {f} is {len(content)} bytes, "
                                f"it declares {size}", self.name)
        local.frame, local.content = f, content
        return content
