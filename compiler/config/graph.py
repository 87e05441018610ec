"""Builder: the relation graph segments (layout in formats/graph.py) from ``ctx.edges``.

Runs after ``build_docs`` (which numbers documents and puts the ``DocIndex`` link).
Edges whose ends are not documents are counted and reported, never stored.
"""
from __future__ import annotations

from itertools import compress, repeat
from operator import attrgetter, truth
from typing import TYPE_CHECKING, Any, Iterator

import numpy as np

from v8atlas.formats import graph as G

from ..build_docs import add_string_table
from ..links import DocIndex

if TYPE_CHECKING:
    from v8atlas.formats.writer import BundleWriter

    from ..pipeline import LinkContext


def _csr(n: int, src: np.ndarray, cols: dict[str, np.ndarray], order_keys: list[np.ndarray]
         ) -> dict[str, np.ndarray]:
    """Rows grouped by ``src`` (0..n-1), each row sorted by ``order_keys`` (most significant first)."""
    order = np.lexsort(tuple(reversed(order_keys)) + (src,)) if len(src) else np.empty(0, dtype=np.int64)
    off = np.zeros(n + 1, dtype="<u4")
    if len(src):
        np.cumsum(np.bincount(src, minlength=n), out=off[1:])
    return {"off": off, **{k: v[order] for k, v in cols.items()}}


def _first_of_each(keys: np.ndarray) -> np.ndarray:
    """Indexes of the first row of each distinct row of ``keys``, in row order. lexsort is
    stable, so the first of a run of equal rows is the earliest."""
    if not len(keys):
        return np.empty(0, dtype=np.int64)
    order = np.lexsort(keys.T[::-1])
    ranked = keys[order]
    starts = np.ones(len(order), dtype=bool)
    starts[1:] = (ranked[1:] != ranked[:-1]).any(axis=1)
    return np.sort(order[starts])


def _column(edges: list, name: str) -> Iterator[Any]:
    return map(attrgetter(name), edges)


def build(ctx: "LinkContext", writer: "BundleWriter") -> None:
    index: dict[str, int] = ctx.links.need(DocIndex).ids
    n = len(index)
    kinds = list(G.EDGE_KINDS)
    kind_ix = {k: i for i, k in enumerate(kinds)}
    labels: dict[str, int] = {"": 0}
    # Column by column, in C (map, compress, numpy): hundreds of thousands of edges at ERP
    # scale. Kinds and labels are numbered in the order they first appear among the edges
    # between documents; of repeated (src, dst, kind, label) the first is kept.
    edges = ctx.edges
    m = len(edges)
    src_all = np.fromiter(map(index.get, _column(edges, "src"), repeat(-1)), dtype=np.int64, count=m)
    dst_all = np.fromiter(map(index.get, _column(edges, "dst"), repeat(-1)), dtype=np.int64, count=m)
    between = (src_all >= 0) & (dst_all >= 0)
    missing = m - int(between.sum())
    kept = between.tolist()
    edge_kinds = list(compress(_column(edges, "kind"), kept))
    edge_labels = list(compress(_column(edges, "label"), kept))
    for k in dict.fromkeys(edge_kinds):
        if k not in kind_ix:
            kind_ix[k] = len(kinds)
            kinds.append(k)
    for t in dict.fromkeys(edge_labels):
        labels.setdefault(t, len(labels))
    k = len(edge_kinds)
    rows = np.empty((k, 5), dtype=np.int64)
    rows[:, 0] = src_all[between]
    rows[:, 1] = dst_all[between]
    rows[:, 2] = np.fromiter(map(kind_ix.__getitem__, edge_kinds), dtype=np.int64, count=k)
    rows[:, 3] = np.fromiter(map(labels.__getitem__, edge_labels), dtype=np.int64, count=k)
    rows[:, 4] = np.fromiter(map(truth, compress(_column(edges, "weak"), kept)), dtype=bool, count=k)
    arr = rows[_first_of_each(rows[:, :4])]
    if len(kinds) > 255:
        raise ValueError(f"too many edge kinds ({len(kinds)}) for a uint8 kind id")
    if missing:
        ctx.report.warn("graph", f"{missing} edge(s) point at documents that do not exist; dropped",
                        code="graph-dangling")
    src, dst, kind, label, weak = (arr[:, i] for i in range(5))
    for direction, a, b in ((G.OUT, src, dst), (G.IN, dst, src)):
        cols = {"dst": b.astype("<u4"), "kind": kind.astype("<u1"), "label": label.astype("<u4"),
                "weak": weak.astype("<u1")}
        csr = _csr(n, a, cols, [weak, kind, b, label])
        for name in G.ARRAYS:
            writer.add_array(G.segment(direction, name), csr[name])
    label_list = [""] * len(labels)
    for text, i in labels.items():
        label_list[i] = text
    add_string_table(writer, G.LABELS, label_list)
    n_weak = int(weak.sum()) if len(arr) else 0
    writer.add_json(G.META, {"kinds": kinds, "edges": len(arr), "weak": n_weak})
    ctx.counts["graph"] = {"edges": len(arr), "weak": n_weak,
                           "by_kind": {k: int(c) for k, c in zip(kinds, np.bincount(kind, minlength=len(kinds)))
                                       if c}}
