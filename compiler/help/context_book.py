"""A syntax-helper book (shcntx) → element records: kinds, full names, resolved links.

Pages are parsed one by one (``pages.parse_page``); this module decides what each page is
(global context, type, enum, method, property, event, constructor, enum value) from the page
itself (title/heading), its path (``/methods/``, ``/ctors/`` …) and the TOC, then resolves
replacement and see-also links from page paths to full element names.
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from .hbk import Book, normalize_path
from .pages import PageRecord, parse_page, split_bilingual

GLOBAL_RU = "Глобальный контекст"
GLOBAL_EN = "Global context"

ELEMENT_KINDS = ("global_context", "global_method", "global_property", "global_event", "type",
                 "enum", "method", "property", "event", "constructor", "enum_value", "language")


@dataclass
class ElementRecord:
    name: str                          # full name: "Массив.Найти", "Глобальный контекст.СтрНайти", "Массив"
    kind: str
    page: str
    toc_id: int | None
    name_en: str | None = None         # "Array.Find"
    owner: str | None = None           # "Массив" / "Глобальный контекст"
    owner_en: str | None = None
    member: str | None = None          # "Найти"
    member_en: str | None = None
    rec: PageRecord | None = None
    replacement: list[str] = field(default_factory=list)      # full names
    replacement_pages: list[str] = field(default_factory=list)   # the linked pages ("" unresolved)
    see_also: list[dict[str, Any]] = field(default_factory=list)
    generic: bool = False


Warn = Callable[[str, str], None]      # (page, message)


def _kind_from_path(path: str) -> str | None:
    parts = path.split("/")
    for seg, kind in (("methods", "method"), ("properties", "property"), ("events", "event"),
                      ("ctors", "constructor")):
        if seg in parts[:-1]:
            return kind
    return None


def _resolve_href(href: str, page: str) -> str | None:
    """A link on ``page`` → FileStorage entry (no fragment/query), or None for external links."""
    h = href.strip()
    if not h:
        return None
    h = h.split("#", 1)[0].split("?", 1)[0]
    if h.lower().startswith("v8help:"):
        rest = re.sub(r"^v8help:/*", "", h, flags=re.I)
        host, _, path = rest.partition("/")
        return normalize_path(path) if path else None
    if re.match(r"^[a-z][a-z0-9+.-]*:", h, re.I):
        return None
    base = posixpath.dirname(page)
    return normalize_path(posixpath.normpath(posixpath.join(base, h.replace("\\", "/"))))


def read_context_book(book: Book, warn: Warn, unknown: Warn | None = None
                      ) -> tuple[list[ElementRecord], dict[str, int]]:
    """All elements of a shcntx-style book, plus counts (pages, catalogs, skipped…).

    ``warn(page, message)`` gets page problems; ``unknown(page, what)`` gets chapters the
    parser does not know (kept as notes), defaulting to ``warn``.
    """
    counts = {"pages": 0, "catalogs": 0, "broken_pages": 0, "pages_outside_toc": 0}
    visited: set[str] = set()
    items: list[tuple[int | None, str]] = []
    for node_id in book.toc_order:
        node = book.toc[node_id]
        if node.path and node.path not in visited:
            visited.add(node.path)
            items.append((node_id, node.path))
    if not book.toc:
        items = [(None, p) for p in sorted(book.html_pages())]
    else:
        extra = [p for p in book.html_pages() if p not in visited and p.endswith(".html")]
        counts["pages_outside_toc"] = len(extra)

    records: list[tuple[int | None, PageRecord]] = []
    for node_id, path in items:
        parsed = book.parsed_page(path, parse_page, warn, counts, node_id)
        if parsed is None:
            continue
        rec, page_warnings = parsed
        for w in page_warnings:
            warn(path, w)
        for chapter in rec.unknown_chapters:
            (unknown or warn)(path, f"chapter {chapter!r}")
        if not rec.title and not rec.page_title:
            counts["broken_pages"] += 1
            continue
        records.append((node_id, rec))

    # Pass 1: owners (types/enums) — their names are needed to name and classify members.
    enums: set[str] = set()
    for _, rec in records:
        if not rec.heading and rec.enum_values:
            enums.add(split_bilingual(rec.title or rec.page_title)[0])

    elements: list[ElementRecord] = []
    by_page: dict[str, ElementRecord] = {}
    for node_id, rec in records:
        el = _classify(book, node_id, rec, enums)
        if el is None:
            counts["catalogs"] += 1
            continue
        elements.append(el)
        by_page[rec.path] = el

    # Pass 2: links → element names.
    for el in elements:
        rec = el.rec
        assert rec is not None
        for title, href in rec.replacement_links:
            target = _resolve_href(href, rec.path)
            hit = by_page.get(target) if target else None
            el.replacement.append(hit.name if hit else title)
            el.replacement_pages.append(target if hit else "")
            if hit is None:
                warn(rec.path, f"replacement link {href!r} does not resolve to a page of this book")
        for title, href in rec.see_also:
            target = _resolve_href(href, rec.path)
            hit = by_page.get(target) if target else None
            # the page the link points to: the one element meant when several share its name
            el.see_also.append({"title": title, "name": hit.name if hit else None,
                                "page": target if hit else None})
    return elements, counts


def _fill_missing_titles(rec: PageRecord) -> None:
    """A member page without V8SH_title/heading: owner and member from the page title."""
    if rec.title or not rec.page_title or _kind_from_path(rec.path) is None:
        return
    ru, en = split_bilingual(rec.page_title)
    if "." not in ru:
        return
    owner_ru, member_ru = ru.split(".", 1)
    owner_en, member_en = en.split(".", 1) if en and "." in en else (None, None)
    rec.title = f"{owner_ru} ({owner_en})" if owner_en else owner_ru
    rec.heading = rec.heading or (f"{member_ru} ({member_en})" if member_en else member_ru)


def _classify(book: Book, node_id: int | None, rec: PageRecord, enums: set[str]) -> ElementRecord | None:
    node = book.toc.get(node_id) if node_id is not None else None
    _fill_missing_titles(rec)
    title_ru, title_en = split_bilingual(rec.title) if rec.title else (None, None)
    if node is not None and title_en is None and not rec.heading:
        title_en = node.titles.get("en")
    path = rec.path
    if not rec.title:
        page_ru, page_en = split_bilingual(rec.page_title)
        if path == "objects/Global context.html" or page_ru == GLOBAL_RU:
            return ElementRecord(GLOBAL_RU, "global_context", path, node_id, page_en or GLOBAL_EN, rec=rec)
        if not rec.chapters:
            return None                                # a catalog/section page
        if path.startswith("objects/") and _kind_from_path(path) is None:
            # A shcntx type/enum page that lacks V8SH_title: the page title names it.
            kind = "enum" if rec.enum_values or page_ru in enums else "type"
            return ElementRecord(page_ru, kind, path, node_id, page_en, rec=rec, generic="<" in page_ru)
        # Title and chapters but no V8SH_title outside objects/: a language-book page
        # (shlang: primitive types, statements, operators, directives).
        return ElementRecord(page_ru, "language", path, node_id, page_en, rec=rec)
    if not rec.heading:
        if title_ru == GLOBAL_RU or path == "objects/Global context.html":
            return ElementRecord(GLOBAL_RU, "global_context", path, node_id, title_en or GLOBAL_EN, rec=rec)
        kind = "enum" if rec.enum_values or title_ru in enums else "type"
        return ElementRecord(title_ru, kind, path, node_id, title_en, rec=rec,
                             generic="<" in (title_ru or ""))
    member_ru, member_en = split_bilingual(rec.heading)
    if node is not None and member_en is None and node.titles.get("en") and not path.split("/")[-2:-1] == ["ctors"]:
        member_en = node.titles.get("en")
    owner_is_global = title_ru == GLOBAL_RU or path.startswith("objects/Global context/")
    kind = _kind_from_path(path)
    if kind is None:
        chapters = set(c.lower() for c in rec.chapters)
        if rec.variants and rec.variants[0].syntax.lower().startswith(("новый ", "new ")):
            kind = "constructor"
        elif "использование" in chapters or "usage" in chapters:
            kind = "property"
        elif rec.variants:
            kind = "method"
        else:
            kind = "property"
    if owner_is_global:
        if kind == "constructor":
            kind = "method"
        kind = "global_" + kind
        owner_ru, owner_en = GLOBAL_RU, GLOBAL_EN
    else:
        owner_ru, owner_en = title_ru, title_en
        if kind == "property" and owner_ru in enums:
            kind = "enum_value"
    name = f"{owner_ru}.{member_ru}"
    name_en = f"{owner_en}.{member_en}" if owner_en and member_en and kind != "constructor" else None
    return ElementRecord(name, kind, path, node_id, name_en, owner_ru, owner_en, member_ru,
                         member_en if kind != "constructor" else None, rec=rec,
                         generic=member_ru.startswith("<"))
