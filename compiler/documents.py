"""What every source domain hands to the index builders: documents, edges and name keys.

A *document* is one answerable thing: a metadata object of a configuration, a platform
element (type, method, property, event, constructor, enum value…), a query-language element.
Its ``card`` is the msgpack record the server renders without touching any source;
``names`` are the exact addresses it resolves by; ``fields`` feed full-text search.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Domains: a document lives in exactly one.
METADATA = "metadata"   # objects of a configuration (Справочник.X, Документ.Y, ОбщийМодуль.Z…)
PLATFORM = "platform"   # built-in language (shcntx): types, methods, properties, events…
QUERY = "query"         # query language (shquery): functions, keywords, articles
DOMAINS = (METADATA, PLATFORM, QUERY)


@dataclass
class Doc:
    domain: str
    key: str                       # unique address inside the bundle, e.g. "БСП/Справочник.Пользователи"
    kind: str                      # metadata class ("Catalog") or element kind ("method")
    title: str                     # shown in lists: "Справочник.Пользователи", "Массив.Найти"
    card: dict[str, Any]           # the record the server renders (msgpack-able: str/int/float/list/dict)
    names: list[str] = field(default_factory=list)     # exact lookup addresses (RU and EN)
    fields: dict[str, str] = field(default_factory=dict)  # search field → text
    config: str | None = None      # configuration name for METADATA documents
    since: str | None = None       # platform version the element appeared in (PLATFORM/QUERY)
    until: str | None = None       # first version it no longer exists in


@dataclass
class Edge:
    """A directed relation between two documents, by key (resolved by the linker)."""
    src: str
    dst: str
    kind: str                      # "attribute_type", "movement", "based_on", "owner", …
    label: str = ""                # e.g. the attribute's name
    weak: bool = False             # hidden by default (wide composite types, "any reference")


@dataclass
class Warning_:
    """One compile-report line; ``file``/``line``/``object`` say where, ``code`` groups them."""
    source: str
    message: str
    code: str = "warning"
    file: str | None = None
    line: int | None = None
    object: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}
