"""Procedure bodies in transit: each body leaves the reader's worker as a zstd frame.

The parent then holds about a sixth of the raw bytes per module (SSL: 66 MB of bodies) from
the parse to the build, where ``build.py`` unpacks them one at a time into the body store
(which recompresses them with its own trained dictionary, so the segment bytes do not depend on
this). A fixed fast level and no dictionary: the worker needs nothing from the other modules.
"""
from __future__ import annotations

import zstandard

_LEVEL = 1
_compressor: zstandard.ZstdCompressor | None = None
_decompressor: zstandard.ZstdDecompressor | None = None


def pack(body: bytes) -> bytes:
    """A body as the model carries it (a zstd frame with its content size)."""
    global _compressor
    if _compressor is None:
        _compressor = zstandard.ZstdCompressor(level=_LEVEL, write_checksum=False,
                                               write_content_size=True)
    return _compressor.compress(body)


def unpack(frame: bytes) -> bytes:
    """The body as written (UTF-8, LF line ends) from ``pack``'s frame."""
    global _decompressor
    if _decompressor is None:
        _decompressor = zstandard.ZstdDecompressor()
    return _decompressor.decompress(frame)


def size(frame: bytes) -> int:
    """The body's length, from ``pack``'s frame header (nothing decompressed)."""
    return zstandard.frame_content_size(frame)
