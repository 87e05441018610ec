"""Procedure bodies in transit: a module's bodies leave the reader's worker as one zstd frame.

Each procedure's ``body`` is then ``(frame, start, end)``: the module's frame (one ``bytes``
object, shared by its procedures) and the body's offsets in the frame's content. The parent
holds about a ninth of the raw bytes (SSL 3.1.12: 65 MB of bodies in 8.6 MB of frames; a frame
per body was 23.0 MB) from the parse to the build, where ``build.py`` unpacks them in procedure
order into the body store (which recompresses them with its own trained dictionary, so the
segment bytes do not depend on this). A fixed fast level and no dictionary: the worker needs
nothing from the other modules.

One frame per module rather than per body (docs/perf/code.md, "Round 2, sixth session"):
compressing SSL's bodies 0.40 → 0.22 s CPU, frames 23.0 → 8.6 MB; the build decompresses
each module's frame for the card store's dictionary samples (about one body a module) and
once more to write the bodies, about twice the bytes per-body frames cost it. Level -1 (zstd's first "fast" level) as before.
"""
from __future__ import annotations

import zstandard

_LEVEL = -1
_compressor: zstandard.ZstdCompressor | None = None
_decompressor: zstandard.ZstdDecompressor | None = None
# The frame unpacked last and its content: a module's bodies are read one after another.
_last: tuple[bytes, bytes] | None = None

Packed = tuple[bytes, int, int]     # (the module's frame, start, end)


def pack_module(raw: list[bytes]) -> list[Packed]:
    """A module's bodies as the model carries them: one frame (with its content size) and
    each body's offsets in it."""
    global _compressor
    if _compressor is None:
        _compressor = zstandard.ZstdCompressor(level=_LEVEL, write_checksum=False,
                                               write_content_size=True)
    if not raw:
        return []
    frame = _compressor.compress(b"".join(raw))
    out, at = [], 0
    for body in raw:
        out.append((frame, at, at + len(body)))
        at += len(body)
    return out


def unpack(packed: Packed) -> bytes:
    """The body as written (UTF-8, LF line ends) from ``pack_module``'s triple."""
    global _decompressor, _last
    frame, start, end = packed
    if _last is None or _last[0] is not frame:
        if _decompressor is None:
            _decompressor = zstandard.ZstdDecompressor()
        _last = (frame, _decompressor.decompress(frame))
    return _last[1][start:end]


def forget() -> None:
    """Drop the last unpacked frame's content (the build's release)."""
    global _last
    _last = None


def size(packed: Packed) -> int:
    """The body's length (nothing decompressed)."""
    return packed[2] - packed[1]
