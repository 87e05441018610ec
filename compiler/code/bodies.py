"""Procedure bodies in transit and in the bundle: a module's bodies leave its reader
as zstd frames of at most ``FRAME_BYTES`` of content each, one after another in one ``bytes``.

Each procedure's ``body`` is then ``(blob, start, end)``: the module's blob (shared by its
procedures) and the body's offsets in its content (the frames' contents one after another; a
body lies within one frame). The build copies the frames its procedures use into the body
store as they are (``formats/chunked.py``): nothing is recompressed, and a body read from the
bundle decompresses one frame of at most ``FRAME_BYTES`` (a larger body is a frame alone).

A fixed level and no dictionary: each frame stands alone (a reader needs nothing from the
other modules, the server nothing from the other frames). SSL 3.1.12: 65 MB of bodies in
9.3 MB of frames; the level's and the bound's cost and choice, docs/perf/code.md ("Round 2,
session 10: the body store from the readers' frames").
"""
from __future__ import annotations

from v8atlas.formats.chunked import Framed, framed

_LEVEL = 3
# A frame's content at most (but a body larger than that is a frame alone): a body read
# decompresses its frame — at 128 KB p99 ≈ 0.1 ms (a frame a module: 2.6 ms) for 4 % more bytes.
FRAME_BYTES = 128 << 10

Packed = Framed     # (the module's frames, start, end)


def pack_module(raw: list[bytes]) -> list[Packed]:
    """A module's bodies as the model carries them: frames (each with its content size) of
    whole bodies, at most ``FRAME_BYTES`` of them each unless one body is more, and each
    body's offsets in their content."""
    return framed(raw, FRAME_BYTES, _LEVEL)


def size(packed: Packed) -> int:
    """The body's length (nothing decompressed)."""
    return packed[2] - packed[1]
