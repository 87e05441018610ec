"""Full-text search as the tools see it: ``search(query, …) -> [Hit]``.

The engine is ``v8atlas.server.search.Searcher`` (the search issue) when it is installed
and the bundle carries its index; otherwise a small fallback over the exact-name table and
the titles answers, and says so in every hit's explanation. The tools filter the hits by
domain, configuration, kind and platform version themselves, so either engine will do.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from v8atlas.formats import schema as S
from v8atlas.formats.catalog import Catalog
from v8atlas.formats.platform_version import format_version
from v8atlas.formats.reader import Bundle
from v8atlas.formats.text import fold, name_key

log = logging.getLogger("v8atlas.server")

# The fallback scans titles; beyond this many documents of a domain it only uses names.
_FALLBACK_SCAN_LIMIT = 400_000


@dataclass(frozen=True)
class Hit:
    doc: int
    score: float
    why: str
    fuzzy: bool = False     # a guess (typo correction, few words matched), not a find
    matches: tuple[dict, ...] = ()   # query words and the fields they matched (engine's Hit.matches)


@dataclass(frozen=True)
class Filters:
    domains: tuple[str, ...] = ()
    config: int | None = None           # index into the catalog's configs
    kind: str | None = None
    version: int | None = None          # encoded platform version, None = any


@dataclass
class Found:
    hits: list[Hit]
    rewrites: list[str]
    notes: list[str]
    total: int = 0              # matches before the limit (the engine's count)
    confident: bool = True      # False: the best hit is a guess ("nearest guesses", not found)

    @property
    def guesses_only(self) -> bool:
        return bool(self.hits) and (not self.confident or all(h.fuzzy for h in self.hits))

    def explain_lines(self) -> list[str]:
        """What the engine did to the query and why the answer is what it is: one line each."""
        return [f"Query rewritten: {r}" for r in self.rewrites] + [f"Note: {n}" for n in self.notes]

    def as_data(self) -> dict[str, Any]:
        return {"total": self.total, "rewrites": self.rewrites, "notes": self.notes,
                "confident": self.confident and not self.guesses_only}


@dataclass
class Raw:
    """One call's engine answer, before the tools' filters: returned, never kept on the
    adapter, so one snapshot's adapter serves concurrent calls."""
    hits: list[Hit]
    rewrites: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    total: int | None = None          # the engine's count of matches, when it counts them
    confident: bool = True


class SearchAdapter:
    engine = "none"

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def raw(self, query: str, filters: Filters, limit: int) -> Raw:  # pragma: no cover
        raise NotImplementedError

    def accepts(self, doc: int, f: Filters) -> bool:
        c = self.catalog
        if f.domains and c.domain_name(doc) not in f.domains:
            return False
        if f.config is not None and int(c.config[doc]) not in (f.config, S.NO_CONFIG):
            return False
        if f.kind and fold(c.kind_name(doc)) != fold(f.kind):
            return False
        if f.version is not None and not (int(c.since[doc]) <= f.version < int(c.until[doc])):
            return False
        return True

    def search(self, query: str, filters: Filters, limit: int) -> list[Hit]:
        return self.find(query, filters, limit).hits

    def find(self, query: str, filters: Filters, limit: int) -> Found:
        out: list[Hit] = []
        seen: set[int] = set()
        raw = self.raw(query, filters, max(limit * 2, 20))
        accepted = 0
        for h in raw.hits:
            if h.doc in seen or not (0 <= h.doc < len(self.catalog)) or not self.accepts(h.doc, filters):
                continue
            seen.add(h.doc)
            accepted += 1
            if len(out) < limit:
                out.append(h)
        total = raw.total if raw.total is not None else accepted
        return Found(out, list(raw.rewrites), list(raw.notes), max(total, len(out)), raw.confident)


class FallbackSearch(SearchAdapter):
    """Exact names, then name prefixes, then titles containing every query word."""
    engine = "fallback (names and titles only; the search index is not in this bundle)"

    def raw(self, query: str, filters: Filters, limit: int) -> Raw:
        c = self.catalog
        if not c.bundle.has(S.NAMES_POST_OFF):
            return Raw([])
        hits: list[Hit] = [Hit(d, 100.0, "exact name") for d in c.lookup(query)]
        key = name_key(query)
        if key:
            rng = c.names.prefix_range(key)
            off = c.bundle.array(S.NAMES_POST_OFF)
            docs = c.bundle.array(S.NAMES_POST_DOC)
            for j in list(rng)[:limit]:
                for d in docs[int(off[j]):int(off[j + 1])]:
                    hits.append(Hit(int(d), 50.0, f"name starts with {query!r}"))
        words = [w for w in fold(query).replace(".", " ").split() if w]
        if words and len(hits) < limit:
            candidates: np.ndarray = np.arange(len(c))
            if filters.domains:
                codes = [c.domains.index(d) for d in filters.domains if d in c.domains]
                candidates = np.nonzero(np.isin(c.domain, codes))[0]
            if filters.config is not None:
                candidates = candidates[np.isin(np.asarray(c.config)[candidates],
                                                [filters.config, S.NO_CONFIG])]
            if len(candidates) <= _FALLBACK_SCAN_LIMIT:
                for d in candidates:
                    t = fold(c.titles[int(d)])
                    if all(w in t for w in words):
                        hits.append(Hit(int(d), 10.0 + 10.0 / (1 + len(t)),
                                        "title contains " + ", ".join(repr(w) for w in words)))
        hits.sort(key=lambda h: -h.score)
        return Raw(hits)


class EngineSearch(SearchAdapter):
    """Adapter over the search issue's ``Searcher``."""
    engine = "bm25"

    def __init__(self, catalog: Catalog, searcher: Any) -> None:
        super().__init__(catalog)
        self.searcher = searcher

    def raw(self, query: str, filters: Filters, limit: int) -> Raw:
        config_name = None
        if filters.config is not None:
            config_name = self.catalog.meta["configs"][filters.config]
        result = self.searcher.search(
            query, domains=list(filters.domains) or None, config=config_name, kind=filters.kind,
            platform_version=format_version(filters.version) if filters.version else None, limit=limit)
        return Raw([Hit(h.doc, float(h.score), "; ".join(h.why), bool(h.fuzzy), tuple(h.matches))
                    for h in result.hits],
                   list(result.rewrites), list(result.notes), int(result.total), bool(result.confident))


def open_search(bundle: Bundle, catalog: Catalog) -> SearchAdapter:
    """The search issue's engine when installed (it answers exact names even without its
    index), else the fallback; a failure to open is logged and the fallback answers."""
    if not bundle.has(S.DOC_META):
        return FallbackSearch(catalog)
    try:
        from .search import Searcher
    except ImportError:
        return FallbackSearch(catalog)
    try:
        return EngineSearch(catalog, Searcher(bundle, catalog=catalog))
    except Exception as e:
        log.warning("the search engine failed to open (%s: %s); using the name/title fallback",
                    type(e).__name__, e)
        return FallbackSearch(catalog)
