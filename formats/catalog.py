"""Catalog: the document layer of a bundle (cards, per-document arrays, exact names)."""
from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from . import schema as S
from .reader import Bundle
from .strtable import StringTable
from .text import name_key


class Catalog:
    def __init__(self, bundle: Bundle) -> None:
        self.bundle = bundle

    def _table(self, prefix: str) -> StringTable:
        off, blob = S.table_segments(prefix)
        return StringTable(self.bundle.array(off), self.bundle.blob(blob))

    @cached_property
    def meta(self) -> dict[str, Any]:
        return self.bundle.json(S.DOC_META) if self.bundle.has(S.DOC_META) else {
            "kinds": [], "configs": [], "count": 0}

    @cached_property
    def keys(self) -> StringTable:
        return self._table(S.DOC_KEYS)

    @cached_property
    def titles(self) -> StringTable:
        return self._table(S.DOC_TITLES)

    @cached_property
    def names(self) -> StringTable:
        return self._table(S.NAMES)

    @cached_property
    def domain(self) -> np.ndarray:
        return self.bundle.array(S.DOC_DOMAIN)

    @cached_property
    def kind(self) -> np.ndarray:
        return self.bundle.array(S.DOC_KIND)

    @cached_property
    def config(self) -> np.ndarray:
        return self.bundle.array(S.DOC_CONFIG)

    @cached_property
    def since(self) -> np.ndarray:
        return self.bundle.array(S.DOC_SINCE)

    @cached_property
    def until(self) -> np.ndarray:
        return self.bundle.array(S.DOC_UNTIL)

    def __len__(self) -> int:
        return int(self.meta.get("count", 0))

    def card(self, doc: int) -> dict[str, Any]:
        return self.bundle.records(S.DOC_CARDS)[doc]

    def cards(self, docs: list[int]) -> list[Any]:
        """The cards of ``docs`` in order (one guard check of the card file for them all)."""
        return self.bundle.records(S.DOC_CARDS).many(docs)

    @cached_property
    def domains(self) -> list[str]:
        """Document domain names by code: the built-ins, then those registered domains added
        (bundles of format 1.0 written before domains were registered hold only the built-ins)."""
        return list(self.meta.get("domains") or S.DOMAINS)

    def domain_code(self, name: str) -> int | None:
        return self.domains.index(name) if name in self.domains else None

    def domain_name(self, doc: int) -> str:
        return self.domains[int(self.domain[doc])]

    def kind_name(self, doc: int) -> str:
        return self.meta["kinds"][int(self.kind[doc])]

    def config_name(self, doc: int) -> str | None:
        c = int(self.config[doc])
        return None if c == S.NO_CONFIG else self.meta["configs"][c]

    def config_index(self, name: str) -> int | None:
        try:
            return self.meta["configs"].index(name)
        except ValueError:
            return None

    def lookup(self, name: str) -> list[int]:
        """Documents whose key, title or one of its names equals ``name`` (case/ё-insensitive)."""
        post = self._names_post
        if post is None:
            return []
        key = name_key(name).encode("utf-8")
        if not self.names.may_hold(key):
            return []       # most search phrases: told by the names' sketches, no bisection of the table
        j = self.names.find_bytes(key)
        if j < 0:
            return []
        off, docs = post
        return docs[off.item(j):off.item(j + 1)].tolist()

    @cached_property
    def _names_post(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The exact names' postings (offsets, documents), opened once: ``Bundle.array`` checks
        the segment's shape on every call (~20 µs, twice per lookup, once per search query)."""
        if not self.bundle.has(S.NAMES_POST_OFF):
            return None
        return self.bundle.array(S.NAMES_POST_OFF), self.bundle.array(S.NAMES_POST_DOC)

    def find_key(self, key: str) -> int | None:
        for d in self.lookup(key):
            if self.keys[d] == key:
                return d
        return None
