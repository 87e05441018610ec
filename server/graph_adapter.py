"""Relations as the tools see them: one step out of or into a document.

The reader is ``v8atlas.formats.graph.Graph`` (the configuration compiler's graph segments);
a bundle without them has no relations, and get_relations says so instead of guessing.
"""
from __future__ import annotations

from v8atlas.formats.catalog import Catalog
from v8atlas.formats.graph import Graph
from v8atlas.formats.reader import Bundle


class GraphAdapter:
    """The graph reader; get_relations pages with ``graph.neighbors(offset=, limit=)`` and
    ``graph.count()``, so a page costs what it shows, not the object's whole degree."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph

    def summary(self, doc: int) -> dict[str, dict[str, int]]:
        return self.graph.summary(doc)


def open_graph(bundle: Bundle, catalog: Catalog) -> GraphAdapter | None:
    graph = Graph(bundle)
    return GraphAdapter(graph) if graph.available else None
