"""Relations as the tools see them: one step out of or into a document.

The reader is ``v8atlas.formats.graph.Graph`` (the configuration compiler's graph segments);
a bundle without them has no relations, and get_relations says so instead of guessing.
"""
from __future__ import annotations

from dataclasses import dataclass

from v8atlas.formats.catalog import Catalog
from v8atlas.formats.graph import IN, OUT, Graph
from v8atlas.formats.reader import Bundle


@dataclass(frozen=True)
class Rel:
    src: int
    dst: int
    kind: str
    label: str
    weak: bool


class GraphAdapter:
    def __init__(self, graph: Graph) -> None:
        self.graph = graph

    def _edges(self, doc: int, direction: str) -> list[Rel]:
        out = []
        for n in self.graph.neighbors(doc, direction, include_weak=True):
            src, dst = (doc, n.doc) if direction == OUT else (n.doc, doc)
            out.append(Rel(src, dst, n.kind, n.label, n.weak))
        return out

    def out_edges(self, doc: int) -> list[Rel]:
        return self._edges(doc, OUT)

    def in_edges(self, doc: int) -> list[Rel]:
        return self._edges(doc, IN)

    def summary(self, doc: int) -> dict[str, dict[str, int]]:
        return self.graph.summary(doc)


def open_graph(bundle: Bundle, catalog: Catalog) -> GraphAdapter | None:
    graph = Graph(bundle)
    return GraphAdapter(graph) if graph.available else None
