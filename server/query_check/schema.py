"""What a query may name, read from the bundle's cards: tables, fields, types, values, functions.

Every answer is a lookup: ``Catalog.lookup`` finds the object by any of its names (query-table
names included), its card gives the query tables with their fields and types. Nothing here
parses a source. Results are cached per snapshot and configuration (snapshots are immutable).
"""
from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from v8atlas.formats.classes import CLASSES
from v8atlas.formats.platform_version import encode_version

from ..snapshot import ConfigInfo, Snapshot
from .lexer import name_fold as fold

# Classes whose objects are query tables (domain-1c.md §3), folded Russian and English names.
_TABLE_CLASSES = {fold(n) for row in CLASSES[:18] for n in (row[0], row[1])}
_MAX_CACHED_OBJECTS = 2048          # decoded objects kept per configuration (a query touches tens)
_REF_TYPE = re.compile(r"^(\w+?)(Ссылка|Ref)\.(\w+)$")
_UNLIMITED_TYPES = {"строка (неогр.)", "string (unlimited)"}
_PRIMITIVE = re.compile(r"^(Строка|String|Число|Number|Дата|ДатаВремя|Время|Date|DateTime|Time|Булево|"
                        r"Boolean|УникальныйИдентификатор|UUID|ХранилищеЗначения|ValueStorage|"
                        r"ДвоичныеДанные|BinaryData|Null)\b")


class Field(NamedTuple):
    """A column: a NamedTuple, not a frozen dataclass, because a check makes one per select item
    (a frozen dataclass costs 2× to build)."""
    name: str
    types: tuple[str, ...]           # type notations as the card writes them; () unknown
    unlimited: bool = False
    recipe: str | None = None


@dataclass
class Table:
    name: str                        # as the card names it (the view's language)
    kind: str                        # object | virtual | tabular_section | temporary | subquery | …
    fields: dict[str, Field] = field(default_factory=dict)   # folded name (both languages) → field
    params: list[str] = field(default_factory=list)
    complete: bool = True            # False: fields beyond these may exist (e.g. `*` of an unknown)
    children: set[str] = field(default_factory=set)          # tabular sections (folded) of a main table
    owner: str = ""                  # object full name
    names: list[str] = field(default_factory=list)           # field names in order, for answers

    def get(self, name: str) -> Field | None:
        return self.fields.get(fold(name))


@dataclass(frozen=True)
class TableLookup:
    status: str                      # found | no_object | no_table | not_a_table
    table: Table | None = None
    object_title: str = ""
    tables: tuple[str, ...] = ()     # the object's query tables (for no_table answers)


def _types_of(f: dict[str, Any]) -> tuple[str, ...]:
    if f.get("types"):
        return tuple(str(t) for t in f["types"])
    return (str(f["type"]),) if f.get("type") else ()


class Schema:
    """The configuration ``cfg`` of ``snap`` as the checker sees it."""

    def __init__(self, snap: Snapshot, cfg: ConfigInfo | None) -> None:
        self.snap, self.cfg = snap, cfg
        self._docs: dict[str, int | None] = {}
        self._tables: dict[int, dict[str, Table]] = {}
        self._since: dict[str, tuple[int, str] | None] = {}
        self._lookups: dict[tuple[str, ...], TableLookup] = {}
        self.platform_code: int | None = cfg.platform_code if cfg else None   # parsed once, not per check

    # -- objects ------------------------------------------------------------------------------
    def doc(self, name: str) -> int | None:
        """The metadata document of this configuration named ``name`` (any of its names)."""
        key = fold(name)
        if key not in self._docs:
            hits = [d for d in self.snap.catalog.lookup(name) if self.snap.catalog.domain_name(d) == "metadata"
                    and (self.cfg is None or int(self.snap.catalog.config[d]) == self.cfg.index)]
            self._docs[key] = hits[0] if len(hits) == 1 else None
        return self._docs[key]

    def card(self, doc: int) -> dict[str, Any]:
        c = self.snap.catalog.card(doc)
        return c if isinstance(c, dict) else {}

    def tables_of(self, doc: int) -> dict[str, Table]:
        """Query tables of an object by folded name (both languages)."""
        if doc in self._tables:
            return self._tables[doc]
        if len(self._tables) >= _MAX_CACHED_OBJECTS:     # memory must not grow with the bundle
            self._tables.clear()
            self._docs.clear()
            self._lookups.clear()
        card = self.card(doc)
        out: dict[str, Table] = {}
        children = {fold(ts["name"]) for ts in card.get("tabular_sections") or [] if ts.get("name")}
        for qt in card.get("query_tables") or []:
            t = Table(str(qt.get("name", "")), str(qt.get("kind", "")),
                      params=[str(p) for p in qt.get("params") or []],
                      owner=str(card.get("full_name", "")))
            unlimited = {fold(u) for u in qt.get("unlimited") or []}
            for f in qt.get("fields") or []:
                if isinstance(f, str):
                    f = {"name": f}
                fi = Field(str(f.get("name", "")), _types_of(f),
                           bool(f.get("unlimited")) or fold(str(f.get("name", ""))) in unlimited,
                           f.get("recipe"))
                t.names.append(fi.name)
                for n in (f.get("name"), f.get("alias")):
                    if n:
                        t.fields.setdefault(fold(str(n)), fi)
            if t.kind == "object":
                t.children = children
            for n in (qt.get("name"), qt.get("alias")):
                if n:
                    out[fold(str(n))] = t
        self._tables[doc] = out
        return out

    def is_table_class(self, word: str) -> bool:
        return fold(word) in _TABLE_CLASSES

    def table(self, parts: list[str]) -> TableLookup:
        """The query table ``Класс.Объект[.Таблица]`` (remembered: a batch names the same tables
        again and again, and the answer is a function of the snapshot)."""
        key = tuple(map(fold, parts))
        got = self._lookups.get(key)
        if got is None:
            if len(self._lookups) >= _MAX_CACHED_OBJECTS:
                self._lookups.clear()
            got = self._lookups[key] = self._table(parts)
        return got

    def _table(self, parts: list[str]) -> TableLookup:
        if len(parts) < 2 or not self.is_table_class(parts[0]):
            return TableLookup("not_a_table")
        obj_name = ".".join(parts[:2])
        doc = self.doc(obj_name)
        if doc is None:
            return TableLookup("no_object")
        tables = self.tables_of(doc)
        t = tables.get(fold(".".join(parts)))
        title = self.snap.title(doc)
        if t is None:
            shown = tuple(dict.fromkeys(x.name for x in tables.values()))
            return TableLookup("no_table", None, title, shown)
        return TableLookup("found", t, title)

    def main_table(self, doc: int) -> Table | None:
        for t in self.tables_of(doc).values():
            if t.kind == "object":
                return t
        return None

    # -- types ----------------------------------------------------------------------------------
    def expand(self, types: tuple[str, ...], depth: int = 0) -> tuple[list[str], bool]:
        """Member types with defined types opened; and whether every member is known."""
        out: list[str] = []
        known = bool(types)
        for t in types:
            if depth < 3 and t.startswith(("ОпределяемыйТип.", "DefinedType.")):
                doc = self.doc(t)
                td = (self.card(doc).get("properties") or {}).get("type") if doc is not None else None
                if isinstance(td, dict):
                    inner = tuple(td.get("types") or ([td["type"]] if td.get("type") else []))
                elif isinstance(td, str):
                    inner = (td,)
                else:
                    inner = ()
                sub, ok = self.expand(tuple(str(x) for x in inner), depth + 1)
                out += sub
                known = known and ok
            else:
                out.append(t)
        return out, known

    def ref_target(self, type_name: str) -> Table | None | bool:
        """The main table a reference type points to; None: not a reference; False: unknown."""
        if _PRIMITIVE.match(type_name):
            return None
        m = _REF_TYPE.match(type_name)
        if not m:
            return False                     # ЛюбаяСсылка, СправочникСсылка, Характеристика.X…
        doc = self.doc(type_name)
        if doc is None:
            return False
        return self.main_table(doc) or False

    # -- values ---------------------------------------------------------------------------------
    def value_names(self, doc: int) -> set[str] | None:
        """Names ЗНАЧЕНИЕ(<Класс>.<Объект>.<Имя>) accepts (folded); None: not checkable here."""
        card = self.card(doc)
        cls = card.get("class")
        names = {"пустаяссылка", "emptyref"}
        if cls == "Enum":
            names |= {fold(v["name"]) for v in card.get("enum_values") or [] if v.get("name")}
            return names
        if cls in ("Catalog", "ChartOfCharacteristicTypes", "ChartOfAccounts", "ChartOfCalculationTypes"):
            stack = list(card.get("predefined") or [])
            while stack:
                p = stack.pop()
                if isinstance(p, dict) and p.get("name"):
                    names.add(fold(p["name"]))
                    stack += p.get("children") or []
            return names
        return None

    # -- functions -------------------------------------------------------------------------------
    def function_since(self, ru_name: str) -> tuple[int, str] | None:
        """(encoded, text) version a query function appeared in, from the query help's cards."""
        if ru_name not in self._since:
            got = None
            for d in self.snap.catalog.lookup("Запрос." + ru_name):
                if self.snap.catalog.domain_name(d) != "query":
                    continue
                since = self.card(d).get("since")
                if since:
                    got = (encode_version(str(since), 0), str(since))
                break
            self._since[ru_name] = got
        return self._since[ru_name]

    @property
    def has_query_help(self) -> bool:
        return self.snap.docs_per_domain.get("query", 0) > 0


_CACHE: weakref.WeakKeyDictionary[Snapshot, dict[str, Schema]] = weakref.WeakKeyDictionary()


def schema_for(snap: Snapshot, cfg: ConfigInfo | None) -> Schema:
    per = _CACHE.setdefault(snap, {})
    key = cfg.name if cfg else ""
    if key not in per:
        per[key] = Schema(snap, cfg)
    return per[key]


@lru_cache(maxsize=4096)
def has_unlimited_type(types: tuple[str, ...]) -> bool:
    """Whether any of ``types`` is an unlimited string (remembered: fields share a few type lists)."""
    return any(fold(t) in _UNLIMITED_TYPES for t in types)
