"""The 1C v8 container ("v8 file"): .cf/.cfe/.epf/.erf and the .hbk help books.

A container is a small page file system (hbk-format.md §1): a header, a table of contents
of (header address, data address) records, and for every element two documents stored as
chains of blocks with ASCII hex headers. Two flavours exist: 32-bit (8-digit hex, u32
addresses) and 64-bit (16-digit hex, u64 addresses, written by 8.3.16+ as the second layer
of a stacked .cf). Every read is bounded by the file size and every chain is checked for
cycles, so a lying size field or a looping ``next`` address ends in ``ContainerError`` that
names the file and the element, never in a huge allocation or an endless loop.
"""
from __future__ import annotations

import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

from v8atlas.formats.domain import SourceError

__all__ = ["ContainerError", "Container", "Element", "open_container", "detect_flavor",
           "inflate_if_deflated", "is_container"]


class ContainerError(SourceError):
    """The bytes are not a (well-formed) v8 container; the message names file and element."""


@dataclass(frozen=True)
class _Flavor:
    bits: int
    header_size: int       # container header
    block_header: int      # block header length
    digits: int            # hex digits per field in a block header
    record: int            # TOC record size
    sentinel: int          # "no address"
    block_re: re.Pattern[bytes]


def _block_re(d: int) -> re.Pattern[bytes]:
    h = rb"[0-9A-Fa-f]{%d}" % d
    return re.compile(rb"\r\n(" + h + rb") (" + h + rb") (" + h + rb") \r\n")


FLAVOR32 = _Flavor(32, 16, 31, 8, 12, 0x7FFFFFFF, _block_re(8))
FLAVOR64 = _Flavor(64, 20, 55, 16, 24, 0xFFFFFFFFFFFFFFFF, _block_re(16))

_ZIP_MAGIC = b"PK\x03\x04"
_BOM = b"\xef\xbb\xbf"


def detect_flavor(data: bytes | memoryview, base: int = 0) -> _Flavor | None:
    """The flavour whose well-formed first block header sits right after the header (§1.1)."""
    for fl in (FLAVOR32, FLAVOR64):
        start = base + fl.header_size
        chunk = bytes(data[start:start + fl.block_header])
        if len(chunk) == fl.block_header and fl.block_re.fullmatch(chunk):
            return fl
    return None


def is_container(data: bytes | memoryview) -> bool:
    return detect_flavor(data) is not None


@dataclass
class Element:
    name: str
    header_addr: int
    data_addr: int | None          # None: an element without a body
    size: int                      # stored (raw) size of the data document
    created: int = 0               # raw timestamps (100 µs units since 0001-01-01), informational
    modified: int = 0


class Container:
    """One container layer read from a byte buffer at ``base`` (addresses are relative to it)."""

    def __init__(self, data: bytes | memoryview, *, name: str = "<bytes>", base: int = 0,
                 flavor: _Flavor | None = None) -> None:
        self.data = memoryview(data) if not isinstance(data, memoryview) else data
        self.name = name
        self.base = base
        fl = flavor or detect_flavor(self.data, base)
        if fl is None:
            if len(self.data) - base < 16 + 31:
                raise ContainerError(f"{name}: not a v8 container (only {len(self.data) - base} "
                                     f"bytes, too short for a header and a block)")
            raise ContainerError(f"{name}: not a v8 container (no block header after the "
                                 f"container header at offset {base})")
        self.flavor = fl
        if fl.bits == 32:
            self.free_block, self.page_size, self.count_hint, _ = struct.unpack_from("<4I", self.data, base)
        else:
            self.free_block, self.page_size, self.count_hint, _ = struct.unpack_from("<QIII", self.data, base)
        self._extent = base + fl.header_size
        self.elements: list[Element] = self._read_toc()
        self._by_name = {e.name: e for e in self.elements}

    # -- low level ---------------------------------------------------------------------------
    def _block(self, addr: int, what: str) -> tuple[int, int, int, int]:
        """(doc_size, page_size, next_addr, data_offset) of the block at relative ``addr``."""
        fl = self.flavor
        pos = self.base + addr
        end = pos + fl.block_header
        if addr < 0 or end > len(self.data):
            raise ContainerError(f"{self.name}: {what}: block address 0x{addr:x} is past the end "
                                 f"of the file ({len(self.data)} bytes) — truncated container?")
        m = fl.block_re.fullmatch(bytes(self.data[pos:end]))
        if m is None:
            raise ContainerError(f"{self.name}: {what}: no valid block header at 0x{addr:x}")
        doc_size, page, nxt = (int(g, 16) for g in m.groups())
        return doc_size, page, nxt, end

    def read_document(self, addr: int, what: str, *, limit: int | None = None) -> bytes:
        """Follow a block chain from ``addr``; bounded by the file size and cycle-checked."""
        fl = self.flavor
        doc_size, page, nxt, off = self._block(addr, what)
        available = len(self.data) - self.base
        if doc_size > available:
            raise ContainerError(f"{self.name}: {what}: document size {doc_size} at 0x{addr:x} is "
                                 f"larger than the file ({available} bytes) — lying size or "
                                 f"truncated container")
        if limit is not None and doc_size > limit:
            raise ContainerError(f"{self.name}: {what}: document size {doc_size} exceeds the "
                                 f"limit {limit}")
        out = bytearray()
        seen = {addr}
        while True:
            take = min(page, doc_size - len(out))
            if off + take > len(self.data):
                raise ContainerError(f"{self.name}: {what}: block at 0x{addr:x} runs past the end "
                                     f"of the file — truncated container")
            out += self.data[off:off + take]
            self._extent = max(self._extent, off + page if off + page <= len(self.data) else off + take)
            if len(out) >= doc_size or nxt == fl.sentinel:
                break
            if nxt in seen:
                raise ContainerError(f"{self.name}: {what}: cyclic block chain (0x{nxt:x} repeats)")
            seen.add(nxt)
            addr = nxt
            _, page, nxt, off = self._block(addr, what)
        if len(out) != doc_size:
            raise ContainerError(f"{self.name}: {what}: chain ends after {len(out)} of {doc_size} "
                                 f"bytes — truncated chain")
        return bytes(out)

    def _read_toc(self) -> list[Element]:
        fl = self.flavor
        toc = self.read_document(fl.header_size, "table of contents")
        fmt = "<3I" if fl.bits == 32 else "<3Q"
        elements: list[Element] = []
        for i in range(len(toc) // fl.record):
            h, d, s = struct.unpack_from(fmt, toc, i * fl.record)
            if s != fl.sentinel:        # stop early, like the reference readers do
                break
            if h == fl.sentinel or (h == 0 and d == 0):
                continue
            hdr = self.read_document(h, f"element #{i} header", limit=1 << 16)
            name = _element_name(hdr)
            created, modified = struct.unpack_from("<QQ", hdr, 0) if len(hdr) >= 16 else (0, 0)
            if d == fl.sentinel:
                elements.append(Element(name, h, None, 0, created, modified))
                continue
            size, _, _, _ = self._block(d, f"element {name!r}")
            elements.append(Element(name, h, d, size, created, modified))
        return elements

    # -- public ------------------------------------------------------------------------------
    def names(self) -> list[str]:
        return [e.name for e in self.elements]

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    def element(self, name: str) -> Element:
        try:
            return self._by_name[name]
        except KeyError:
            raise ContainerError(f"{self.name}: no element {name!r} (has: "
                                 f"{', '.join(self.names()[:20])})") from None

    def read(self, name_or_element: str | Element) -> bytes:
        """Stored bytes of an element's data (empty for an element without a body)."""
        el = name_or_element if isinstance(name_or_element, Element) else self.element(name_or_element)
        if el.data_addr is None:
            return b""
        return self.read_document(el.data_addr, f"element {el.name!r}")

    def extent(self) -> int:
        """End offset (absolute) of everything reachable; reads all data to find it."""
        for el in self.elements:
            if el.data_addr is not None:
                self.read(el)
        return self._extent


def _element_name(hdr: bytes) -> str:
    raw = hdr[20:len(hdr) - 4] if len(hdr) >= 24 else hdr[20:]
    # Tool-written files may carry garbage after the name: cut at the first U+0000.
    for i in range(0, len(raw) - 1, 2):
        if raw[i] == 0 and raw[i + 1] == 0:
            raw = raw[:i]
            break
    return raw.decode("utf-16-le", errors="replace")


def inflate_if_deflated(blob: bytes, *, max_size: int = 1 << 31) -> tuple[bytes, bool]:
    """(data, was_deflated): raw DEFLATE is accepted only if the stream ends exactly (§1.7).

    A leading ``{`` is *not* proof of raw text: the deflate stream of a BOM + brace text starts
    with 0x7B too (final block, fixed Huffman) — every ``root``/``version`` of a real .cf does.
    A ZIP or a UTF-8 BOM cannot start a valid deflate stream, so those are taken raw at once.
    """
    if not blob or blob.startswith((_ZIP_MAGIC, _BOM)):
        return blob, False
    d = zlib.decompressobj(-15)
    try:
        out = d.decompress(blob, max_size)
    except zlib.error:
        return blob, False
    if not d.eof or d.unused_data or d.unconsumed_tail:
        return blob, False
    return out, True


def open_container(path: str | Path | bytes, *, name: str | None = None) -> list[Container]:
    """All stacked layers of a file: usually one; two for an 8.3.16+ .cf (32-bit stub + 64-bit).

    The next layer is probed right after the previous one's extent (the end of every block
    reachable from its TOC), repeated until the end of the file.
    """
    if isinstance(path, (bytes, bytearray, memoryview)):
        data, label = bytes(path), name or "<bytes>"
    else:
        p = Path(path)
        label = name or str(p)
        try:
            data = p.read_bytes()
        except OSError as e:
            raise ContainerError(f"{label}: cannot read ({e.strerror})") from None
    layers = [Container(data, name=label)]
    while True:
        end = layers[-1].extent()
        if end >= len(data) or detect_flavor(data, end) is None:
            break
        layers.append(Container(data, name=f"{label}@0x{end:x}", base=end))
    return layers
