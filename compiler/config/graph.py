"""Builder: the relation graph segments (layout in formats/graph.py) from ``ctx.edges``.

Runs after ``build_docs`` (which numbers documents and puts the ``DocIndex`` link).
Edges whose ends are not documents are counted and reported, never stored.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

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


def build(ctx: "LinkContext", writer: "BundleWriter") -> None:
    index: dict[str, int] = ctx.links.need(DocIndex).ids
    n = len(index)
    kinds = list(G.EDGE_KINDS)
    kind_ix = {k: i for i, k in enumerate(kinds)}
    labels: dict[str, int] = {"": 0}
    seen: set[tuple[int, int, int, int]] = set()
    rows: list[tuple[int, int, int, int, int]] = []
    missing = 0
    for e in ctx.edges:
        s, d = index.get(e.src), index.get(e.dst)
        if s is None or d is None:
            missing += 1
            continue
        if e.kind not in kind_ix:
            kind_ix[e.kind] = len(kinds)
            kinds.append(e.kind)
        k = kind_ix[e.kind]
        lab = labels.setdefault(e.label, len(labels))
        key = (s, d, k, lab)
        if key in seen:
            continue
        seen.add(key)
        rows.append((s, d, k, lab, 1 if e.weak else 0))
    if len(kinds) > 255:
        raise ValueError(f"too many edge kinds ({len(kinds)}) for a uint8 kind id")
    if missing:
        ctx.report.warn("graph", f"{missing} edge(s) point at documents that do not exist; dropped",
                        code="graph-dangling")
    arr = np.array(rows, dtype=np.int64).reshape(-1, 5)
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
    n_weak = int(weak.sum()) if len(rows) else 0
    writer.add_json(G.META, {"kinds": kinds, "edges": len(rows), "weak": n_weak})
    ctx.counts["graph"] = {"edges": len(rows), "weak": n_weak,
                           "by_kind": {k: int((kind == i).sum()) for i, k in enumerate(kinds)
                                       if len(rows) and (kind == i).any()}}
