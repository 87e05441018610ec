"""Merge element records of several platform versions into one record per element.

The model is "book epochs": a configuration on platform V is answered from the newest loaded
book not newer than V (or the oldest book when V predates them all). Everything that can
change between books — presence, syntax variants, availability, deprecation — gets since/until
bounds in book versions (``since`` = first book that has it, unbounded when that is the oldest
book; ``until`` = first later book that lacks it). The element's own ``since`` comes only from a
page's since-mark: absence from an older book bounds nothing (docs/help.md, "Merge rules").
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Sequence

from . import versions as V
from .context_book import ElementRecord


@dataclass
class Bounds:
    since: str | None
    until: str | None

    def as_dict(self) -> dict[str, str | None]:
        return {"since": self.since, "until": self.until}


def runs(values: Sequence[Hashable | None], book_versions: list[str],
         span: tuple[int, int] | None = None) -> list[tuple[Any, Bounds]]:
    """Consecutive equal non-None values → (value, bounds) in book versions (short form).

    Bounds are relative to the element (``span`` = indices of its first and last book; by default
    those of ``values``): a run that starts in the element's first book has no ``since`` (it came
    with the element, whose own ``since`` applies) and a run that lasts to the element's last
    book has no ``until``.
    """
    out: list[tuple[Any, Bounds]] = []
    n = len(values)
    present = [i for i, v in enumerate(values) if v is not None]
    if not present:
        return out
    lo, hi = span or (present[0], present[-1])
    i = 0
    while i < n:
        if values[i] is None:
            i += 1
            continue
        j = i
        while j + 1 < n and values[j + 1] == values[i]:
            j += 1
        out.append((values[i], Bounds(None if i == lo else V.short(book_versions[i]),
                                      V.short(book_versions[j + 1]) if j < hi else None)))
        i = j + 1
    return out


def presence_runs(present: Sequence[bool], book_versions: list[str],
                  span: tuple[int, int] | None = None) -> list[Bounds]:
    return [b for _, b in runs([True if p else None for p in present], book_versions, span)]


@dataclass
class MergedElement:
    name: str
    kind: str
    per_book: list[ElementRecord | None]            # aligned with the sorted book versions
    since: str | None = None
    since_source: str | None = None                  # "mark" | "books" (mark contradicted) | None
    until: str | None = None
    duplicate: int = 0                               # n-th repeat of a full name within one version
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def newest(self) -> ElementRecord:
        return next(r for r in reversed(self.per_book) if r is not None)

    @property
    def span(self) -> tuple[int, int]:
        """Indices of the first and last book that document the element."""
        idx = [i for i, r in enumerate(self.per_book) if r is not None]
        return idx[0], idx[-1]

    def present_in(self, book_versions: list[str]) -> list[str]:
        return [v for v, r in zip(book_versions, self.per_book) if r is not None]


def merge_books(books: list[tuple[str, list[ElementRecord]]],
                warn: Callable[[str, str], None]) -> tuple[list[str], list[MergedElement]]:
    """``books``: (version, elements) in any order → (sorted versions, merged elements)."""
    books = sorted(books, key=lambda b: V.key(b[0]))
    book_versions = [v for v, _ in books]
    merged: dict[str, MergedElement] = {}
    order: list[str] = []
    for i, (version, elements) in enumerate(books):
        for el in elements:
            key = el.name
            m = merged.get(key)
            if m is None:
                m = MergedElement(el.name, el.kind, [None] * len(books))
                merged[key] = m
                order.append(key)
            elif m.kind != el.kind:
                # Same full name, different kind in two books: keep them apart.
                key = f"{el.name}\0{el.kind}"
                m = merged.setdefault(key, MergedElement(el.name, el.kind, [None] * len(books)))
                if key not in order:
                    order.append(key)
            dup = 0
            while m.per_book[i] is not None:
                # The same full name twice in one version (two sections documenting a type
                # of the same name): keep both, the n-th occurrence merges with the n-th of
                # the other versions.
                dup += 1
                key = f"{el.name}\0{el.kind}\0{dup}"
                m = merged.setdefault(key, MergedElement(el.name, el.kind, [None] * len(books), duplicate=dup))
                if key not in order:
                    order.append(key)
            if dup:
                warn(version, f"element {el.name!r} ({el.kind}) appears {dup + 1} times in the {version} "
                              f"books; {el.page} is kept as occurrence #{dup + 1}")
            m.per_book[i] = el
    for m in (merged[k] for k in order):
        _bounds(m, book_versions)
    return book_versions, [merged[k] for k in order]


def _bounds(m: MergedElement, book_versions: list[str]) -> None:
    present = [r is not None for r in m.per_book]
    first = present.index(True)
    last = len(present) - 1 - present[::-1].index(True)
    mark = next((r.rec.since for r in m.per_book if r is not None and r.rec and r.rec.since), None)
    if mark and V.key(mark) > V.key(V.short(book_versions[first])):
        # A mark newer than a book that already documents the element contradicts the books;
        # the book wins (the element exists in that release) and the mark is kept for the card.
        m.since, m.since_source = V.short(book_versions[first]) if first > 0 else None, "books"
        m.extra["since_mark"] = mark
    elif mark:
        m.since, m.since_source = mark, "mark"
    elif first > 0:
        # Absent from an older book and no mark: NOT evidence that the platform lacked it (old
        # books documented 68 built-ins such as СтрДлина in the language book, and books do not
        # list every member). Unbounded; the card says where it is documented from.
        m.extra["documented_from"] = V.short(book_versions[first])
    if last < len(present) - 1:
        # Gone from a newer book: removals are real (УправляемаяФорма → ФормаКлиентскогоПриложения),
        # so the element is bounded by the first book that lacks it.
        m.until = V.short(book_versions[last + 1])
