"""Write v8 containers: used by our own fixture writers (sample help books, unit tests).

The writer follows the platform's conventions (hbk-format.md §1.3–1.6) with a few knobs the
tests need: chained data pages, data written before headers, the 64-bit flavour, a raw-deflate
option, and a deliberately broken chain for negative tests.
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

# Fixed timestamps keep the output byte-identical run after run (100 µs units since year 1).
_FIXED_TIME = 638_500_000_000_000_000 // 1000 * 1000


@dataclass
class _Spec:
    bits: int
    header_size: int
    digits: int
    sentinel: int
    record_fmt: str


_SPECS = {
    32: _Spec(32, 16, 8, 0x7FFFFFFF, "<3I"),
    64: _Spec(64, 20, 16, 0xFFFFFFFFFFFFFFFF, "<3Q"),
}


def _block_header(spec: _Spec, doc_size: int, page: int, nxt: int) -> bytes:
    d = spec.digits
    fmt = "%0{d}x" if spec.bits == 32 else "%0{d}X"
    f = fmt.format(d=d)
    return b"\r\n" + (f % doc_size + " " + f % page + " " + f % nxt + " ").encode() + b"\r\n"


def _element_header(name: str) -> bytes:
    return struct.pack("<QQI", _FIXED_TIME, _FIXED_TIME, 0) + name.encode("utf-16-le") + b"\0\0\0\0"


def write_container(elements: list[tuple[str, bytes | None]], *, bits: int = 32, page_size: int = 512,
                    chain_page: int | None = None, data_first: bool = False, deflate: bool = False,
                    count_hint: int | None = None, min_page: int = 512) -> bytes:
    """Serialize ``elements`` (name, data or None for "no body") into one container.

    ``chain_page``: split every data document into blocks of this many bytes (the last one
    zero-padded to the full page, as the platform does). ``data_first`` writes each data chain
    before its header block. ``deflate`` raw-deflates every body (.cf/.epf style).
    """
    spec = _SPECS[bits]
    blk = len(_block_header(spec, 0, 0, 0))
    out = bytearray()
    toc_size = len(elements) * struct.calcsize(spec.record_fmt)
    toc_page = max(page_size, toc_size)
    free = spec.sentinel
    out += (struct.pack("<4I", free & 0xFFFFFFFF, page_size, count_hint if count_hint is not None else len(elements), 0)
            if bits == 32 else struct.pack("<QIII", free, page_size,
                                           count_hint if count_hint is not None else len(elements), 0))
    toc_at = len(out)
    out += b"\0" * (blk + toc_page)          # patched once the addresses are known
    records: list[tuple[int, int]] = []

    def put_doc(data: bytes, chunk: int | None, pad_to: int) -> int:
        start = len(out)
        if not chunk or len(data) <= chunk:
            page = max(len(data), pad_to)
            out.extend(_block_header(spec, len(data), page, spec.sentinel))
            out.extend(data.ljust(page, b"\0"))
            return start
        pieces = [data[i:i + chunk] for i in range(0, len(data), chunk)]
        for i, piece in enumerate(pieces):
            here = len(out)
            nxt = here + blk + chunk if i + 1 < len(pieces) else spec.sentinel
            out.extend(_block_header(spec, len(data) if i == 0 else 0, chunk, nxt))
            out.extend(piece.ljust(chunk, b"\0"))
        return start

    for name, data in elements:
        body = None if data is None else (_deflate(data) if deflate else data)
        if data_first and body is not None:
            d_addr = put_doc(body, chain_page, min_page)
            h_addr = put_doc(_element_header(name), None, 0)
        else:
            h_addr = put_doc(_element_header(name), None, 0)
            d_addr = put_doc(body, chain_page, min_page) if body is not None else spec.sentinel
        records.append((h_addr, d_addr))
    toc = b"".join(struct.pack(spec.record_fmt, h, d, spec.sentinel) for h, d in records)
    out[toc_at:toc_at + blk + toc_page] = _block_header(spec, len(toc), toc_page, spec.sentinel) + toc.ljust(toc_page, b"\0")
    return bytes(out)


def _deflate(data: bytes) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()
