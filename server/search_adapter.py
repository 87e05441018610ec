"""Full-text search as the tools see it: ``search(query, …) -> [Hit]``.

The engine is ``v8atlas.server.search.Searcher`` (the search issue) when it is installed
and the bundle carries its index; otherwise a small fallback over the exact-name table and
the titles answers, and says so in every hit's explanation. The tools filter the hits by
domain, configuration, kind and platform version themselves, so either engine will do.
"""
from __future__ import annotations

import importlib
import inspect
import logging
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from v8atlas.formats import schema as S
from v8atlas.formats.catalog import Catalog
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


@dataclass(frozen=True)
class Filters:
    domains: tuple[str, ...] = ()
    config: int | None = None           # index into the catalog's configs
    kind: str | None = None
    version: int | None = None          # encoded platform version, None = any


class SearchAdapter:
    engine = "none"

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def raw(self, query: str, filters: Filters, limit: int) -> Iterable[Hit]:  # pragma: no cover
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
        out: list[Hit] = []
        seen: set[int] = set()
        for h in self.raw(query, filters, max(limit * 4, 40)):
            if h.doc in seen or not (0 <= h.doc < len(self.catalog)) or not self.accepts(h.doc, filters):
                continue
            seen.add(h.doc)
            out.append(h)
            if len(out) >= limit:
                break
        return out


class FallbackSearch(SearchAdapter):
    """Exact names, then name prefixes, then titles containing every query word."""
    engine = "fallback (names and titles only; the search index is not in this bundle)"

    def raw(self, query: str, filters: Filters, limit: int) -> Iterable[Hit]:
        c = self.catalog
        if not c.bundle.has(S.NAMES_POST_OFF):
            return []
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
                codes = [S.DOMAINS.index(d) for d in filters.domains if d in S.DOMAINS]
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
        return hits


def _call_with(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call ``fn`` passing only the keyword arguments its signature accepts."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return fn(*args)
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return fn(*args, **kwargs)
    return fn(*args, **{k: v for k, v in kwargs.items() if k in params})


def _get(obj: Any, *names: str) -> Any:
    for n in names:
        v = obj.get(n) if isinstance(obj, dict) else getattr(obj, n, None)
        if v is not None:
            return v
    return None


class EngineSearch(SearchAdapter):
    """Adapter over the search issue's ``Searcher``."""
    engine = "bm25"

    def __init__(self, catalog: Catalog, searcher: Any) -> None:
        super().__init__(catalog)
        self.searcher = searcher

    def raw(self, query: str, filters: Filters, limit: int) -> Iterable[Hit]:
        config_name = None
        if filters.config is not None:
            config_name = self.catalog.meta["configs"][filters.config]
        domain = filters.domains[0] if len(filters.domains) == 1 else None
        result = _call_with(self.searcher.search, query, limit=limit, domain=domain,
                            domains=list(filters.domains) or None, config=config_name,
                            kind=filters.kind, version=filters.version,
                            platform_version=filters.version)
        hits = _get(result, "hits") if not isinstance(result, (list, tuple)) else result
        out = []
        for h in hits or ():
            doc = _get(h, "doc", "doc_id", "id")
            if doc is None:
                continue
            why = _get(h, "why", "explain", "explanation", "reason") or ""
            if isinstance(why, (list, tuple)):
                why = "; ".join(str(w) for w in why)
            elif isinstance(why, dict):
                why = "; ".join(f"{k}: {v}" for k, v in why.items())
            out.append(Hit(int(doc), float(_get(h, "score") or 0.0), str(why)))
        return out


def open_search(bundle: Bundle, catalog: Catalog) -> SearchAdapter:
    if bundle.has(S.DOC_META) and any(n.startswith(S.SEARCH + ".") for n in bundle.manifest["segments"]):
        try:
            module = importlib.import_module("v8atlas.server.search")
            searcher_cls = getattr(module, "Searcher")
            try:
                searcher = searcher_cls(bundle)
            except TypeError:
                searcher = searcher_cls(catalog)
            return EngineSearch(catalog, searcher)
        except Exception as e:  # the fallback keeps answering; the log says why
            log.warning("search index present but the engine failed to open (%s: %s); "
                        "using the name/title fallback", type(e).__name__, e)
    return FallbackSearch(catalog)
