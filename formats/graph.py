"""The relation graph of a bundle: forward and reverse CSR adjacency over document ids.

Segments (prefix ``schema.GRAPH``; written by ``compiler/config/graph.py``):

* ``graph.meta`` (json): ``{"kinds": [...], "edges": E, "weak": W}`` — kind id → name;
* ``graph.out.off`` uint32[N+1], ``graph.out.dst`` uint32[E], ``graph.out.kind`` uint8[E],
  ``graph.out.label`` uint32[E], ``graph.out.weak`` uint8[E] — edges leaving each document,
  strong before weak, then by kind id, other document id and label id;
* ``graph.in.*`` — the same arrays for edges arriving at each document (``dst`` = the source);
* ``graph.labels`` string table (``.off``/``.blob``) — label id → text, id 0 = "".

The server reads it through ``Graph``; nothing here imports the compiler.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from . import schema as S
from .reader import Bundle
from .strtable import StringTable

OUT = "out"
IN = "in"
BOTH = "both"

META = f"{S.GRAPH}.meta"
LABELS = f"{S.GRAPH}.labels"
ARRAYS = ("off", "dst", "kind", "label", "weak")

# What each edge kind means (src → dst); the server shows these names.
EDGE_KINDS: dict[str, str] = {
    "attribute_type": "an attribute/dimension/resource of src has a type of dst (label: the field)",
    "movement": "document src writes records to register dst",
    "based_on": "src can be entered based on dst",
    "owner": "catalog src is subordinate to owner dst",
    "journal_document": "journal src lists document dst",
    "subscription_source": "event subscription src listens to dst (label: the event)",
    "subscription_handler": "event subscription src is handled in common module dst (label: procedure)",
    "scheduled_job_method": "scheduled job src runs a method of common module dst (label: procedure)",
    "defined_type": "defined type src includes type dst",
    "characteristic_type": "characteristic values of chart src may be of type dst",
    "chart": "register src uses chart dst (of accounts / calculation types)",
    "ext_dimension_types": "chart of accounts src takes ext-dimension kinds from dst",
    "task": "business process src uses task dst; task src is addressed by register dst",
    "sequence": "sequence src includes document/register dst",
    "exchange_plan_content": "exchange plan src registers changes of dst",
    "functional_option": "functional option src is stored in / governs dst (label: location/content)",
    "common_attribute": "common attribute src is added to dst",
    "subsystem_content": "subsystem src contains dst",
    "subsystem_child": "subsystem src contains nested subsystem dst",
    "filter_criterion": "filter criterion src searches dst (label: the attribute)",
    "schedule": "calculation register src uses schedule register dst",
    "command_parameter": "common command src takes a parameter of type dst (acts on its objects)",
    "adopted_from": "object src of a base+extensions view adopts dst of the base view (label: extensions)",
    "rights": "role src grants rights on dst (label: the rights)",
    "form": "object src has form dst (label: the form)",
    "template": "object src has template dst (label: the template)",
    "form_data": "form src holds data of dst in an attribute (label: the attribute)",
    "form_handler": "an event of form src is handled by procedure dst (label: item and event)",
}


def segment(direction: str, array: str) -> str:
    return f"{S.GRAPH}.{direction}.{array}"


@dataclass(frozen=True)
class Neighbor:
    doc: int          # the document at the other end
    kind: str
    label: str
    weak: bool
    direction: str    # OUT: this document → doc; IN: doc → this document


class Graph:
    def __init__(self, bundle: Bundle) -> None:
        self.bundle = bundle

    @cached_property
    def available(self) -> bool:
        return self.bundle.has(META)

    @cached_property
    def meta(self) -> dict[str, Any]:
        return self.bundle.json(META) if self.available else {"kinds": [], "edges": 0, "weak": 0}

    @cached_property
    def kinds(self) -> list[str]:
        return list(self.meta["kinds"])

    @cached_property
    def labels(self) -> StringTable:
        off, blob = S.table_segments(LABELS)
        return StringTable(self.bundle.array(off), self.bundle.blob(blob))

    def _arrays(self, direction: str) -> dict[str, np.ndarray]:
        cache = self.__dict__.setdefault("_cache", {})
        if direction not in cache:
            cache[direction] = {a: self.bundle.array(segment(direction, a)) for a in ARRAYS}
        return cache[direction]

    def _rows(self, doc: int, direction: str, kinds: Iterable[str] | None,
              include_weak: bool) -> tuple[dict[str, np.ndarray], np.ndarray]:
        a = self._arrays(direction)
        off = a["off"]
        if doc < 0 or doc + 1 >= len(off):
            return a, np.empty(0, dtype=np.int64)
        lo, hi = int(off[doc]), int(off[doc + 1])
        idx = np.arange(lo, hi, dtype=np.int64)
        if not include_weak:
            idx = idx[a["weak"][lo:hi] == 0]
        if kinds is not None:
            wanted = [self.kinds.index(k) for k in kinds if k in self.kinds]
            idx = idx[np.isin(a["kind"][idx], np.array(wanted, dtype=np.uint8))]
        return a, idx

    def _directions(self, direction: str) -> tuple[str, ...]:
        if direction == BOTH:
            return (OUT, IN)
        if direction not in (OUT, IN):
            raise ValueError(f"direction must be {OUT!r}, {IN!r} or {BOTH!r}, not {direction!r}")
        return (direction,)

    def count(self, doc: int, direction: str = OUT, kinds: Iterable[str] | None = None,
              include_weak: bool = False) -> int:
        if not self.available:
            return 0
        kinds = list(kinds) if kinds is not None else None
        return sum(len(self._rows(doc, d, kinds, include_weak)[1]) for d in self._directions(direction))

    def neighbors(self, doc: int, direction: str = OUT, kinds: Iterable[str] | None = None,
                  include_weak: bool = False, offset: int = 0, limit: int | None = None) -> list[Neighbor]:
        """Edges of ``doc`` (outgoing, incoming or both: outgoing first), a page at a time:
        ``offset``/``limit`` count in that order; ``count()`` gives the total for a cursor."""
        if not self.available:
            return []
        kinds = list(kinds) if kinds is not None else None
        out: list[Neighbor] = []
        skip = max(offset, 0)
        for d in self._directions(direction):
            a, idx = self._rows(doc, d, kinds, include_weak)
            if skip >= len(idx):
                skip -= len(idx)
                continue
            idx = idx[skip:]
            skip = 0
            if limit is not None:
                idx = idx[: max(limit - len(out), 0)]
            for i in idx:
                out.append(Neighbor(int(a["dst"][i]), self.kinds[int(a["kind"][i])],
                                    self.labels[int(a["label"][i])], bool(a["weak"][i]), d))
            if limit is not None and len(out) >= limit:
                break
        return out

    def out_edges(self, doc: int) -> list[Neighbor]:
        """Every outgoing edge, weak included (for callers that filter themselves)."""
        return self.neighbors(doc, OUT, include_weak=True)

    def in_edges(self, doc: int) -> list[Neighbor]:
        return self.neighbors(doc, IN, include_weak=True)

    def summary(self, doc: int) -> dict[str, dict[str, int]]:
        """Edge counts by direction and kind, weak ones apart: {"out": {...}, "out_weak": {...}, …}."""
        if not self.available:
            return {}
        result: dict[str, dict[str, int]] = {}
        for d in (OUT, IN):
            a = self._arrays(d)
            lo, hi = int(a["off"][doc]), int(a["off"][doc + 1])
            for weak in (False, True):
                sel = a["weak"][lo:hi] == (1 if weak else 0)
                c = Counter(self.kinds[int(k)] for k in a["kind"][lo:hi][sel])
                if c:
                    result[d + ("_weak" if weak else "")] = dict(sorted(c.items()))
        return result
