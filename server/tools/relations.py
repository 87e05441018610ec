"""get_relations: one step out of or into an object, paged, weak edges hidden unless asked."""
from __future__ import annotations

from ..snapshot import Snapshot
from .common import address, node, resolve_config
from .metadata import METADATA, candidates, empty_domain, nearest
from . import answer as A
from .paging import MAX_ANSWER_CHARS
from .result import FOUND, ToolInputError, ToolResult

# Edges decoded per page at most; the size cap may stop the page earlier.
PAGE_EDGES = 150
_NO_EDGES = {"nodes": [], "edges": [], "total": 0, "shown": 0}

def get_relations(snap: Snapshot, name: str, config: str | None = None, direction: str = "both",
                  kind: str | None = None, weak: bool = False, cursor: str | None = None) -> ToolResult:
    if (r := empty_domain(snap)) is not None:
        return r
    cfg = resolve_config(snap, config, required_when_many=False)
    docs = candidates(snap, name, (METADATA,), cfg.index if cfg else None)
    if not docs:
        guesses = nearest(snap, name, (METADATA,), cfg.index if cfg else None)
        return A.not_found(f"no object named {name!r}.", guesses, lambda d: f"- {address(snap, d)}",
                           lambda d: node(snap, d), dict(_NO_EDGES))
    if len(docs) > 1:
        return A.ambiguous(f"{name!r} names {len(docs)} objects; ask again with one of:", docs,
                           lambda d: f"- {address(snap, d)}", lambda d: node(snap, d), dict(_NO_EDGES))
    doc = docs[0]
    if snap.graph is None:
        return A.unavailable(f"bundle `{snap.id}` has no relation graph (compiled without the "
                             "configuration compiler's graph builder); `get_object` still shows the card.",
                             {"nodes": [node(snap, doc)], "edges": [], "total": 0, "shown": 0})
    graph = snap.graph.graph
    summary = snap.graph.summary(doc)
    dirs = ("out", "in") if direction == "both" else (direction,)
    kinds_present = sorted({k for d in dirs for part in (d, d + "_weak") for k in summary.get(part, {})})
    kinds = None
    if kind:
        kinds = [k for k in graph.kinds if k.casefold() == kind.casefold()] or [kind]
    # Counts from the CSR offsets and one vectorised filter; only the page's edges are decoded.
    all_count = graph.count(doc, direction, None, include_weak=True)
    total = graph.count(doc, direction, kinds, include_weak=weak)
    weak_hidden = 0 if weak else graph.count(doc, direction, kinds, include_weak=True) - total
    args = {"name": name, "config": cfg.name if cfg else None, "direction": direction, "kind": kind,
            "weak": weak, "cursor": cursor}
    paging = A.Paging(snap, "get_relations", args)
    offset = paging.offset
    if offset > total:
        raise ToolInputError("bad_cursor", "the cursor points past the end of this listing; "
                                           "repeat the call without `cursor`")
    page = graph.neighbors(doc, direction, kinds, include_weak=weak, offset=offset, limit=PAGE_EDGES)
    head = A.headline(FOUND, f"relations of `{snap.title(doc)}`"
            f"{f' in `{snap.catalog.config_name(doc)}`' if snap.catalog.config_name(doc) else ''}: "
            f"{total}{f' of kind {kinds[0]}' if kinds else ''}"
            + (f" ({all_count} in all)" if all_count != total else "")
            + (f"; {weak_hidden} weak edge(s) hidden (weak=true shows them)" if weak_hidden else "")
            + (f"; kinds: {', '.join(kinds_present)}" if kinds_present else ""))
    lines = [head]
    used = len(head)
    shown = []
    current = None
    for n in page:
        other = n.doc
        label = f" via `{n.label}`" if n.label else ""
        arrow = "→" if n.direction == "out" else "←"
        same = snap.catalog.config_name(other) == snap.catalog.config_name(doc)
        where = f"`{snap.title(other)}`" if same else address(snap, other)
        line = f"- {n.kind} {arrow} {where}{label}{' (weak)' if n.weak else ''}"
        if n.direction != current:
            line = ("Outgoing (this object → other):\n" if n.direction == "out"
                    else "Incoming (other → this object):\n") + line
        if shown and used + len(line) + 1 > MAX_ANSWER_CHARS - 400:
            break
        current = n.direction
        lines.append(line)
        used += len(line) + 1
        shown.append(n)
    if not total:
        lines.append("No relations" + (" of that kind." if kind else "."))
    page: dict[str, object] = {}
    lines += paging.footer("relation(s)", len(shown), total, page)
    edges = [{"src": doc if n.direction == "out" else n.doc, "dst": n.doc if n.direction == "out" else doc,
              "kind": n.kind, "label": n.label, "weak": n.weak} for n in shown]
    node_ids = {doc} | {n.doc for n in shown}
    return ToolResult(FOUND, "\n".join(lines).rstrip() + "\n", {
        "object": node(snap, doc),
        "nodes": [node(snap, i) for i in sorted(node_ids)],
        "edges": edges, "total": total, "shown": len(shown), "weak_hidden": weak_hidden, **page})
