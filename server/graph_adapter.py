"""Relations as the tools see them: one step out of or into a document.

The reader is ``v8atlas.formats.graph`` (the configuration compiler's graph segments); a
bundle without them has no relations, and get_relations says so instead of guessing.
"""
from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass
from typing import Any

from v8atlas.formats import schema as S
from v8atlas.formats.catalog import Catalog
from v8atlas.formats.reader import Bundle

log = logging.getLogger("v8atlas.server")


@dataclass(frozen=True)
class Rel:
    src: int
    dst: int
    kind: str
    label: str
    weak: bool


def _get(obj: Any, *names: str, default: Any = None) -> Any:
    for n in names:
        v = obj.get(n) if isinstance(obj, dict) else getattr(obj, n, None)
        if v is not None:
            return v
    if isinstance(obj, (tuple, list)):
        return default
    return default


class GraphAdapter:
    def __init__(self, graph: Any) -> None:
        self.graph = graph

    def _edges(self, doc: int, direction: str) -> list[Rel]:
        g = self.graph
        fn = None
        for name in ((("out_edges", "outgoing", "edges_from", "out") if direction == "out"
                      else ("in_edges", "incoming", "edges_to", "in_"))):
            fn = getattr(g, name, None)
            if fn is not None:
                break
        if fn is None:
            fn = getattr(g, "edges")
            items = fn(doc, direction=direction)
        else:
            items = fn(doc)
        out = []
        for e in items:
            if isinstance(e, tuple):
                other, kind, label, weak = (list(e) + [None, "", "", False])[:4]
                src, dst = (doc, other) if direction == "out" else (other, doc)
            else:
                src = _get(e, "src", "source")
                dst = _get(e, "dst", "target")
                if src is None or dst is None:
                    other = _get(e, "doc", "other", "node")
                    src, dst = (doc, other) if direction == "out" else (other, doc)
                kind, label, weak = _get(e, "kind", default=""), _get(e, "label", default=""), \
                    bool(_get(e, "weak", default=False))
            out.append(Rel(int(src), int(dst), str(kind or ""), str(label or ""), bool(weak)))
        return out

    def out_edges(self, doc: int) -> list[Rel]:
        return self._edges(doc, "out")

    def in_edges(self, doc: int) -> list[Rel]:
        return self._edges(doc, "in")


def open_graph(bundle: Bundle, catalog: Catalog) -> GraphAdapter | None:
    if not any(n.startswith(S.GRAPH + ".") for n in bundle.manifest["segments"]):
        return None
    try:
        module = importlib.import_module("v8atlas.formats.graph")
    except ModuleNotFoundError:
        return None
    for attr in ("Graph", "GraphReader", "RelationGraph"):
        cls = getattr(module, attr, None)
        if cls is not None:
            break
    else:
        opener = getattr(module, "open_graph", None)
        if opener is None:
            log.warning("v8atlas.formats.graph has no reader this server knows")
            return None
        return GraphAdapter(opener(bundle))
    try:
        return GraphAdapter(cls(bundle))
    except TypeError:
        return GraphAdapter(cls(bundle, catalog))
