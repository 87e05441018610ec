"""Snapshot: one opened bundle and everything the tools read from it, immutable once built.

A request takes the current snapshot once and uses it to the end, so a hot swap never
changes the bundle under a request; the old mapping is released with its last user.
"""
from __future__ import annotations

import calendar
import time
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from v8atlas.formats import schema as S
from v8atlas.formats.catalog import Catalog
from v8atlas.formats.info import BundleInfo, ConfigurationInfo
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
    info: ConfigurationInfo | None = field(default=None, compare=False)

    @property
    def platform_code(self) -> int | None:
        """Encoded platform version answers are filtered for (None: unknown, no filter)."""
        for v in (self.platform_version, self.compatibility_mode):
            code = encode_version(v, 0) if v else 0
            if code:
                return code
        return None


def _synonym(by_language: dict[str, str]) -> str | None:
    return by_language.get("ru") or by_language.get("en") or next(iter(by_language.values()), None)


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
    def info(self) -> BundleInfo:
        """What the compiler declared about this bundle (formats/info.py)."""
        return BundleInfo.from_dict(self.bundle.info)

    @cached_property
    def configs(self) -> list[ConfigInfo]:
        # Numbered as the documents are (docs.meta "configs"); the info describes each once.
        names: list[str] = list(self.catalog.meta.get("configs") or [])
        by_name = {c.name: c for c in self.info.configurations}
        names += [n for n in by_name if n not in names]
        out = []
        for i, name in enumerate(names):
            c = by_name.get(name) or ConfigurationInfo(name=name, configuration_name=name)
            out.append(ConfigInfo(
                name=name, index=i, version=c.version or None,
                platform_version=c.platform_version or None,
                platform_source=c.platform_version_from or None,
                compatibility_mode=c.compatibility_mode or None,
                extensions=tuple(c.extensions), base=c.base or None,
                synonym=_synonym(c.synonym), info=c))
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
        domains = self.catalog.domains
        counts = np.bincount(np.asarray(self.catalog.domain, dtype=np.int64), minlength=len(domains))
        return {domains[i]: int(counts[i]) for i in range(len(domains))}

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
