"""Relations as the tools see them: one step out of or into a document.

The reader is ``v8atlas.formats.graph.Graph`` (the configuration compiler's graph segments);
a bundle without them has no relations, and get_relations says so instead of guessing.
"""
from __future__ import annotations

from v8atlas.formats.catalog import Catalog
import numpy as np

from v8atlas.formats.graph import IN, OUT, Graph
from v8atlas.formats.reader import Bundle


class GraphAdapter:
    """The graph reader; get_relations pages with ``graph.neighbors(offset=, limit=)`` and
    ``graph.count()``, so a page costs what it shows, not the object's whole degree."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph

    def summary(self, doc: int) -> dict[str, dict[str, int]]:
        """Edge counts by direction and kind, weak apart (the shape of ``Graph.summary``),
        counted with one ``bincount`` per direction: objects with thousands of weak incoming
        edges (``Справочник.Пользователи`` at ERP scale) cost no Python loop over them."""
        g = self.graph
        kinds = g.kinds
        result: dict[str, dict[str, int]] = {}
        for d in (OUT, IN):
            a = g._arrays(d)
            off = a["off"]
            if doc < 0 or doc + 1 >= len(off):
                continue
            lo, hi = int(off[doc]), int(off[doc + 1])
            k = np.asarray(a["kind"][lo:hi], dtype=np.int64)
            w = np.asarray(a["weak"][lo:hi]) != 0
            for weak, sel in ((False, ~w), (True, w)):
                counts = np.bincount(k[sel], minlength=len(kinds))
                part = {kinds[i]: int(n) for i, n in enumerate(counts) if n}
                if part:
                    result[d + ("_weak" if weak else "")] = dict(sorted(part.items()))
        return result


def open_graph(bundle: Bundle, catalog: Catalog) -> GraphAdapter | None:
    graph = Graph(bundle)
    return GraphAdapter(graph) if graph.available else None
