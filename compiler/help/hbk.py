"""A 1C help book (.hbk): descriptor (``Book``), pages (``FileStorage``), TOC (``PackBlock``).

hbk-format.md §2. The container is read with the bounded v8 container reader; the two ZIP
elements are opened with ``zipfile`` from memory. Entry names are checked (no ``..``, no
absolute paths) before anything is read, and pages are decoded as UTF-8 (BOM tolerated);
isolated bad bytes are replaced and reported, a page that is clearly not UTF-8 is read as cp1251
(reported too, never silent).
"""
from __future__ import annotations

import io
import itertools
import os
import re
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Callable, TypeVar

from v8atlas.compiler.safefile import member_bomb, read_file, total_bomb
from v8atlas.compiler.timelimit import TimeLimitExceeded, time_limit
from v8atlas.formats.domain import SourceError
from v8atlas.compiler.v8container import Container, ContainerError

from .brace import BraceError, parse_bytes

__all__ = ["HelpBookError", "Book", "TocNode", "open_book", "normalize_path"]

MAX_PAGE_BYTES = 4 << 20         # the largest real pages are a few hundred KB (57 KB measured)
# Parsing is linear (about 0.5 ms a real page); this bounds a page that would still run away.
PAGE_SECONDS = float(os.environ.get("V8ATLAS_HELP_PAGE_SECONDS", 10))
MAX_TOC_BYTES = 256 << 20

T = TypeVar("T")


class HelpBookError(SourceError):
    """The help book cannot be used at all; the message names the book and the element (a
    ``SourceError``: the pipeline shows the message alone, as a sentence)."""


@dataclass
class TocNode:
    id: int
    parent: int
    children: list[int]
    titles: dict[str, str]          # language ("ru", "en", "#") → title
    path: str                       # normalized FileStorage entry, "" for folder nodes

    @property
    def title(self) -> str:
        return self.titles.get("ru") or self.titles.get("#") or next(iter(self.titles.values()), "")


@dataclass
class Book:
    path: str                                  # how reports name it
    name: str                                  # v8help host: SyntaxHelperContext, SyntaxHelperQueries…
    tags: list[str]
    toc: dict[int, TocNode]
    toc_order: list[int]                       # node ids in file order
    storage: zipfile.ZipFile
    entries: dict[str, zipfile.ZipInfo]        # safe entry name → info
    problems: list[tuple[str, str]] = field(default_factory=list)   # (element/entry, message)

    def has_page(self, path: str) -> bool:
        return path in self.entries

    def page_bytes(self, path: str) -> bytes:
        info = self.entries[path]
        if info.file_size > MAX_PAGE_BYTES:    # a lying ZIP header must not make us allocate it
            raise HelpBookError(f"{self.path}: FileStorage/{path}: declared size {info.file_size} "
                                f"exceeds {MAX_PAGE_BYTES} bytes; page skipped")
        return self.storage.read(info)

    def page_problem(self, e: Exception) -> str:
        """A page that could not be read, as a sentence for a ``help-page`` warning."""
        if isinstance(e, HelpBookError):
            return str(e).removeprefix(f"{self.path}: ")
        if isinstance(e, (zipfile.BadZipFile, zlib.error, EOFError)):
            return f"cannot read page: its ZIP member in FileStorage is damaged ({e})"
        if isinstance(e, NotImplementedError):
            return f"cannot read page: its ZIP member uses a compression method Python cannot read ({e})"
        return f"cannot read page ({e or 'unknown problem'})"

    def page_text(self, path: str) -> tuple[str, str | None]:
        """(text, problem): UTF-8 (BOM tolerated); see ``decode_page``."""
        return decode_page(self.page_bytes(path))

    def read_page(self, path: str, warn, counts: dict[str, int], node_id: object = None) -> str | None:
        """A page's text for the book readers, counted; a page that is missing or cannot be read
        is warned about and counted as broken (None), so one damaged page never stops the book."""
        if not self.has_page(path):
            warn(path, f"TOC node {node_id} points to a page missing from FileStorage")
            counts["broken_pages"] += 1
            return None
        try:
            text, problem = self.page_text(path)
        except Exception as e:  # a damaged ZIP member (CRC, bad deflate) spoils one page only
            warn(path, self.page_problem(e))
            counts["broken_pages"] += 1
            return None
        if problem:
            warn(path, problem)
        counts["pages"] += 1
        return text

    def parsed_page(self, path: str, parse: Callable[[str, str], T], warn, counts: dict[str, int],
                    node_id: object = None) -> T | None:
        """``parse(text, path)`` of a page read by ``read_page``, bounded in time: a page whose
        parse runs past ``PAGE_SECONDS`` is reported, counted as broken and skipped."""
        text = self.read_page(path, warn, counts, node_id)
        if text is None:
            return None
        try:
            with time_limit(PAGE_SECONDS):
                return parse(text, path)
        except TimeLimitExceeded:
            warn(path, f"parsing the page took over {PAGE_SECONDS:g} s "
                       f"(V8ATLAS_HELP_PAGE_SECONDS); page skipped")
            counts["broken_pages"] += 1
            return None

    def html_pages(self) -> list[str]:
        return [n for n in self.entries
                if not n.endswith((".st", "__categories__")) and not n.endswith("/")]


MAX_LISTED_OFFSETS = 5
_HIGH_BYTES = bytes(range(0x80, 0x100))


_BAD_RUN = re.compile("[\udc80-\udcff]+")     # invalid bytes, as surrogateescape writes them


def _invalid_utf8(raw: bytes) -> tuple[int, list[tuple[int, int]], int]:
    """(invalid byte count, byte ranges of the first runs of invalid bytes, number of runs),
    in one C decoding pass: decoding the rest again after each bad byte was quadratic
    (``b"\\xd0a" * 2**20`` ran for minutes)."""
    text = raw.decode("utf-8", errors="surrogateescape")
    bad_bytes = len(raw) - len(raw.decode("utf-8", errors="ignore").encode("utf-8"))
    n_runs = _BAD_RUN.subn("", text)[1] if bad_bytes else 0
    runs = []
    for m in itertools.islice(_BAD_RUN.finditer(text), MAX_LISTED_OFFSETS):
        start = len(text[:m.start()].encode("utf-8", errors="surrogateescape"))
        runs.append((start, start + m.end() - m.start()))
    return bad_bytes, runs, n_runs


def decode_page(raw: bytes) -> tuple[str, str | None]:
    """(text, problem). Pages are UTF-8 with a BOM. A few invalid bytes in a UTF-8 page are
    replaced (U+FFFD) and their offsets reported — decoding the whole page as cp1251 because of
    one bad byte would turn all of its text into mojibake. Only a page that is clearly not UTF-8
    (most of its non-ASCII bytes invalid) is decoded as cp1251."""
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        pass
    bad_bytes, bad, n_bad = _invalid_utf8(raw)
    non_ascii = len(raw) - len(raw.translate(None, _HIGH_BYTES))
    if bad_bytes * 2 > non_ascii:
        return raw.decode("cp1251", errors="replace"), (
            f"page is not UTF-8 ({bad_bytes} of {non_ascii} non-ASCII bytes invalid, first at byte "
            f"offset {bad[0][0]}); decoded as cp1251")
    offsets = ", ".join(str(start) for start, _ in bad[:MAX_LISTED_OFFSETS])
    more = f" and {n_bad - MAX_LISTED_OFFSETS} more" if n_bad > MAX_LISTED_OFFSETS else ""
    text = raw.decode("utf-8", errors="replace")
    return text.removeprefix("\ufeff"), (
        f"invalid UTF-8 at byte offset{'s' if n_bad > 1 else ''} {offsets}{more}; "
        f"{'each' if n_bad > 1 else 'the'} bad sequence replaced with U+FFFD, the rest of the page "
        f"read as UTF-8")


def normalize_path(path: str) -> str:
    """TOC/link path → FileStorage entry: ``\\`` → ``/``, ``//`` collapsed, leading ``/`` dropped."""
    p = path.replace("\\", "/")
    p = re.sub(r"/{2,}", "/", p)
    return p.lstrip("/")


def _safe_entry(name: str) -> bool:
    if not name or name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return False
    return ".." not in PurePosixPath(name.replace("\\", "/")).parts


def _open_zip(data: bytes, book: str, element: str) -> zipfile.ZipFile:
    if not data.startswith(b"PK"):
        raise HelpBookError(f"{book}: element {element} is not a ZIP archive "
                            f"(starts with {data[:4]!r})")
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as e:
        raise HelpBookError(f"{book}: element {element} is not a valid ZIP archive ({e})") from None


def _refuse_bomb(zf: zipfile.ZipFile, book: str, element: str) -> None:
    """The bomb limits of dump zips (``safefile``) on a book's own ZIP elements, as a whole."""
    infos = zf.infolist()
    problem = total_bomb(sum(i.file_size for i in infos), sum(i.compress_size for i in infos))
    if problem:
        raise HelpBookError(f"{book}: element {element} is refused: {problem}")


def _decode_entry_name(info: zipfile.ZipInfo) -> str:
    # zipfile decodes names without the UTF-8 flag as cp437; real books use ASCII, but if
    # non-ASCII names ever appear, UTF-8 then cp1251 is the order the spec suggests.
    if info.flag_bits & 0x800:
        return info.filename
    try:
        raw = info.filename.encode("cp437")
    except UnicodeEncodeError:
        return info.filename
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1251", errors="replace")


def _parse_toc(data: bytes, book: str) -> tuple[dict[int, TocNode], list[int]]:
    try:
        tree = parse_bytes(data)
    except BraceError as e:
        raise HelpBookError(f"{book}: PackBlock: table of contents is not valid brace text: {e}") from None
    if not isinstance(tree, list) or not tree or not isinstance(tree[0], int):
        raise HelpBookError(f"{book}: PackBlock: table of contents does not start with a node count")
    nodes: dict[int, TocNode] = {}
    order: list[int] = []
    for raw in tree[1:]:
        node = _toc_node(raw)
        if node is None:
            raise HelpBookError(f"{book}: PackBlock: malformed TOC node {str(raw)[:120]}")
        if node.id not in nodes:
            order.append(node.id)
        nodes[node.id] = node
    return nodes, order


def _toc_node(raw: object) -> TocNode | None:
    # {id, parent, nchild, child…, {n, n, {n, nnames, {lang, title}…}, "path"}}
    if not isinstance(raw, list) or len(raw) < 4 or not all(isinstance(x, int) for x in raw[:3]):
        return None
    node_id, parent, nchild = raw[0], raw[1], raw[2]
    children = [c for c in raw[3:3 + nchild] if isinstance(c, int)]
    props = raw[3 + nchild] if len(raw) > 3 + nchild else None
    titles: dict[str, str] = {}
    path = ""
    if isinstance(props, list):
        names = next((p for p in props if isinstance(p, list)), None)
        if isinstance(names, list):
            for pair in names[2:]:
                if isinstance(pair, list) and len(pair) >= 2:
                    titles.setdefault(str(pair[0]), str(pair[1]))
        strings = [p for p in props if isinstance(p, str)]
        if strings:
            path = normalize_path(strings[-1])
    return TocNode(node_id, parent if parent != node_id else 0, children, titles, path)


def open_book(path: str | Path, *, label: str | None = None) -> Book:
    """Open a help book; raises ``HelpBookError`` (or ``ContainerError``) naming book and element."""
    p = Path(path)
    name = label or str(p)
    try:
        data = read_file(p)       # a regular file of bounded size (safefile)
    except OSError as e:
        raise HelpBookError(f"{name}: cannot read ({e.strerror or e})") from None
    try:
        cont = Container(data, name=name)
    except ContainerError as e:
        raise HelpBookError(str(e)) from None
    missing = [e for e in ("FileStorage",) if e not in cont]
    if missing:
        raise HelpBookError(f"{name}: not a help book: no {', '.join(missing)} element "
                            f"(elements: {', '.join(cont.names()[:12])})")
    problems: list[tuple[str, str]] = []
    try:
        storage_bytes = cont.read("FileStorage")
    except ContainerError as e:
        raise HelpBookError(str(e)) from None
    storage = _open_zip(storage_bytes, name, "FileStorage")
    _refuse_bomb(storage, name, "FileStorage")
    entries: dict[str, zipfile.ZipInfo] = {}
    for info in storage.infolist():
        entry = _decode_entry_name(info)
        if not entry:      # ZipInfo.is_dir() would raise IndexError on it
            problems.append(("FileStorage", "a ZIP entry with an empty name; skipped"))
            continue
        if entry.endswith("/"):
            continue
        if not _safe_entry(entry):
            problems.append((f"FileStorage/{entry}", "unsafe ZIP entry name (absolute or with '..'); skipped"))
            continue
        bomb = member_bomb(info, entry)
        if bomb:
            problems.append((f"FileStorage/{entry}", f"{bomb}; skipped"))
            continue
        entries[normalize_path(entry)] = info

    book_name, tags = "", []
    if "Book" in cont:
        try:
            desc = parse_bytes(cont.read("Book"))
            if isinstance(desc, list) and len(desc) > 1 and isinstance(desc[1], str):
                book_name = desc[1]
            tags = [x for x in desc[3:] if isinstance(x, str)] if isinstance(desc, list) else []
        except (BraceError, ContainerError) as e:
            problems.append(("Book", f"descriptor unreadable: {e}"))
    else:
        problems.append(("Book", "element missing; book name guessed from its pages"))

    toc: dict[int, TocNode] = {}
    order: list[int] = []
    pack = cont.element("PackBlock") if "PackBlock" in cont else None
    if pack is None or pack.data_addr is None:
        problems.append(("PackBlock", "no table of contents; pages are taken from FileStorage"))
    else:
        try:
            pz = _open_zip(cont.read(pack), name, "PackBlock")
            _refuse_bomb(pz, name, "PackBlock")
            infos = [i for i in pz.infolist() if i.filename and not i.filename.endswith("/")]
            if not infos:
                raise HelpBookError(f"{name}: PackBlock: ZIP archive has no entries")
            entry = next((i for i in infos if i.filename == "0"), infos[0])
            if entry.file_size > MAX_TOC_BYTES:
                raise HelpBookError(f"{name}: PackBlock: table of contents declares {entry.file_size} "
                                    f"bytes (limit {MAX_TOC_BYTES})")
            try:
                toc_bytes = pz.read(entry)
            except (zipfile.BadZipFile, OSError, EOFError, ValueError) as e:
                raise HelpBookError(f"{name}: PackBlock: cannot unpack the table of contents ({e})") from None
            toc, order = _parse_toc(toc_bytes, name)
        except ContainerError as e:
            raise HelpBookError(str(e)) from None
    if not book_name:
        book_name = _guess_book_name(p.name, entries)
    return Book(name, book_name, tags, toc, order, storage, entries, problems)


def _guess_book_name(filename: str, entries: dict[str, zipfile.ZipInfo]) -> str:
    low = filename.lower()
    if low.startswith("shquery"):
        return "SyntaxHelperQueries"
    if low.startswith("shlang"):
        return "SyntaxHelperLanguage"
    if low.startswith("shcntx") or any(e.startswith("objects/") for e in entries):
        return "SyntaxHelperContext"
    return filename.rsplit(".", 1)[0]
