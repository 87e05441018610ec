"""Snapshot: one opened bundle and everything the tools read from it, immutable once built.

A request takes the current snapshot once and uses it to the end, so a hot swap never
changes the bundle under a request; the old mapping is released with its last user.
"""
from __future__ import annotations

import calendar
import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from v8atlas.formats import schema as S
from v8atlas.formats.catalog import Catalog
from v8atlas.formats.platform_version import encode_version
from v8atlas.formats.reader import Bundle

from .code_index import CodeIndex, open_code
from .graph_adapter import GraphAdapter, open_graph
from .search_adapter import SearchAdapter, open_search


@dataclass(frozen=True)
class ConfigInfo:
    """What list_sources shows about one configuration and what platform filters use."""
    name: str
    index: int
    version: str | None = None
    platform_version: str | None = None
    platform_source: str | None = None
    compatibility_mode: str | None = None
    extensions: tuple[str, ...] = ()
    base: str | None = None
    synonym: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def platform_code(self) -> int | None:
        """Encoded platform version answers are filtered for (None: unknown, no filter)."""
        for v in (self.platform_version, self.compatibility_mode):
            code = encode_version(v, 0) if v else 0
            if code:
                return code
        return None


def _first(d: dict[str, Any], *keys: str) -> Any:
    for k in keys:
        v = d.get(k)
        if v not in (None, "", [], {}):
            return v
    return None


def _synonym(v: Any) -> str | None:
    if isinstance(v, dict):
        v = v.get("ru") or v.get("en") or next(iter(v.values()), None)
    return None if v is None else str(v)


def _as_str(v: Any) -> str | None:
    return None if v is None else str(v)


class Snapshot:
    def __init__(self, bundle: Bundle, *, verified: bool | None = None) -> None:
        """``verified``: True/False once the server checked it, None when nobody asked (CLI)."""
        self.bundle = bundle
        self.catalog = Catalog(bundle)
        self.verified = verified
        self.opened_at = time.time()

    # -- identity ---------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.bundle.id

    @property
    def content_hash(self) -> str:
        return self.bundle.content_hash or self.bundle.id

    @property
    def has_docs(self) -> bool:
        return self.bundle.has(S.DOC_META)

    # -- engines ----------------------------------------------------------------------------
    @cached_property
    def search(self) -> SearchAdapter:
        return open_search(self.bundle, self.catalog)

    @cached_property
    def graph(self) -> GraphAdapter | None:
        return open_graph(self.bundle, self.catalog)

    @cached_property
    def code(self) -> CodeIndex | None:
        return open_code(self.bundle)

    # -- configurations ---------------------------------------------------------------------
    @cached_property
    def configs(self) -> list[ConfigInfo]:
        names: list[str] = list(self.catalog.meta.get("configs") or [])
        raw = _first(self.bundle.info, "configurations", "configs") or {}
        by_name: dict[str, dict[str, Any]] = {}
        if isinstance(raw, dict):
            by_name = {str(k): v for k, v in raw.items() if isinstance(v, dict)}
        elif isinstance(raw, list):
            by_name = {str(c.get("name")): c for c in raw if isinstance(c, dict) and c.get("name")}
        for n in by_name:
            if n not in names:
                names.append(n)
        out = []
        for i, name in enumerate(names):
            c = by_name.get(name, {})
            exts = _first(c, "extensions") or ()
            if isinstance(exts, (list, tuple)):
                exts = tuple(str(e.get("name", e)) if isinstance(e, dict) else str(e) for e in exts)
            else:
                exts = (str(exts),)
            out.append(ConfigInfo(
                name=name, index=i,
                version=_as_str(_first(c, "version")),
                platform_version=_as_str(_first(c, "platform_version", "platform")),
                platform_source=_as_str(_first(c, "platform_version_source", "platform_version_from",
                                               "platform_source", "platform_from")),
                compatibility_mode=_as_str(_first(c, "compatibility_mode", "compatibility")),
                extensions=exts, base=_as_str(_first(c, "base", "base_config")),
                synonym=_synonym(_first(c, "synonym", "title")), extra=c))
        return out

    def config(self, name: str) -> ConfigInfo | None:
        for c in self.configs:
            if c.name == name:
                return c
        low = name.casefold()
        hits = [c for c in self.configs if c.name.casefold() == low]
        return hits[0] if len(hits) == 1 else None

    @cached_property
    def docs_per_config(self) -> dict[int, int]:
        if not self.has_docs or len(self.catalog) == 0:
            return {}
        counts = np.bincount(np.asarray(self.catalog.config, dtype=np.int64))
        return {i: int(n) for i, n in enumerate(counts) if n and i != S.NO_CONFIG}

    @cached_property
    def docs_per_domain(self) -> dict[str, int]:
        if not self.has_docs or len(self.catalog) == 0:
            return {}
        counts = np.bincount(np.asarray(self.catalog.domain, dtype=np.int64), minlength=len(S.DOMAINS))
        return {S.DOMAINS[i]: int(counts[i]) for i in range(len(S.DOMAINS))}

    # -- per document ----------------------------------------------------------------------
    def available(self, doc: int, code: int | None) -> bool:
        """Does the element exist on platform ``code`` (None: no filter)?"""
        if code is None:
            return True
        return int(self.catalog.since[doc]) <= code < int(self.catalog.until[doc])

    def title(self, doc: int) -> str:
        return self.catalog.titles[doc]

    def key(self, doc: int) -> str:
        return self.catalog.keys[doc]

    def age_seconds(self) -> float | None:
        created = self.bundle.manifest.get("created_at")
        if not created:
            return None
        try:
            t = calendar.timegm(time.strptime(created, "%Y-%m-%dT%H:%M:%SZ"))
        except ValueError:
            return None
        return max(0.0, time.time() - t)
