"""get_relations: one step out of or into an object, paged, weak edges hidden unless asked."""
from __future__ import annotations

from ..snapshot import Snapshot
from .common import address, finish, node, resolve_config
from .metadata import METADATA, candidates, empty_domain, nearest
from .result import AMBIGUOUS, FOUND, NOT_FOUND, UNAVAILABLE, ToolResult



def get_relations(snap: Snapshot, name: str, config: str | None = None, direction: str = "both",
                  kind: str | None = None, weak: bool = False, cursor: str | None = None) -> ToolResult:
    if (r := empty_domain(snap)) is not None:
        return r
    cfg = resolve_config(snap, config, required_when_many=False)
    docs = candidates(snap, name, (METADATA,), cfg.index if cfg else None)
    if not docs:
        guesses = nearest(snap, name, (METADATA,), cfg.index if cfg else None)
        lines = [f"**Outcome: not_found** — no object named {name!r}."]
        if guesses:
            lines += ["Nearest names (guesses, not matches):"] + [f"- {address(snap, d)}" for d in guesses]
        return ToolResult(NOT_FOUND, "\n".join(lines) + "\n",
                          {"candidates": [node(snap, d) for d in guesses], "nodes": [], "edges": [],
                           "total": 0, "shown": 0})
    if len(docs) > 1:
        lines = [f"**Outcome: ambiguous** — {name!r} names {len(docs)} objects; ask again with one of:"]
        lines += [f"- {address(snap, d)}" for d in docs]
        return ToolResult(AMBIGUOUS, "\n".join(lines) + "\n",
                          {"candidates": [node(snap, d) for d in docs], "nodes": [], "edges": [],
                           "total": 0, "shown": 0})
    doc = docs[0]
    if snap.graph is None:
        return ToolResult(UNAVAILABLE, f"**Outcome: unavailable** — bundle `{snap.id}` has no relation "
                                       "graph (compiled without the configuration compiler's graph "
                                       "builder); `get_object` still shows the card.\n",
                          {"nodes": [node(snap, doc)], "edges": [], "total": 0, "shown": 0})
    edges = []
    if direction in ("both", "out"):
        edges += [("out", e) for e in snap.graph.out_edges(doc)]
    if direction in ("both", "in"):
        edges += [("in", e) for e in snap.graph.in_edges(doc)]
    all_count = len(edges)
    kinds_present = sorted({e.kind for _, e in edges})
    if kind:
        edges = [(d, e) for d, e in edges if e.kind.casefold() == kind.casefold()]
    weak_hidden = 0 if weak else sum(1 for _, e in edges if e.weak)
    if not weak:
        edges = [(d, e) for d, e in edges if not e.weak]
    edges.sort(key=lambda de: (de[0] != "out", de[1].kind, snap.title(de[1].dst if de[0] == "out"
                                                                      else de[1].src), de[1].label))
    args = {"name": name, "config": cfg.name if cfg else None, "direction": direction, "kind": kind,
            "weak": weak, "cursor": cursor}
    head = [f"**Outcome: found** — relations of `{snap.title(doc)}`"
            f"{f' in `{snap.catalog.config_name(doc)}`' if snap.catalog.config_name(doc) else ''}: "
            f"{len(edges)} shown of {all_count}"
            + (f"; {weak_hidden} weak edge(s) hidden (weak=true shows them)" if weak_hidden else "")
            + (f"; kinds: {', '.join(kinds_present)}" if kinds_present else "")]
    body: list[str] = []
    edge_at: list[int | None] = []     # block index → index in ``edges`` (None for headings)
    current = None
    for i, (d, e) in enumerate(edges):
        if d != current:
            body.append("Outgoing (this object → other):" if d == "out" else "Incoming (other → this object):")
            edge_at.append(None)
            current = d
        other = e.dst if d == "out" else e.src
        label = f" via `{e.label}`" if e.label else ""
        arrow = "→" if d == "out" else "←"
        same = snap.catalog.config_name(other) == snap.catalog.config_name(doc)
        where = f"`{snap.title(other)}`" if same else address(snap, other)
        body.append(f"- {e.kind} {arrow} {where}{label}{' (weak)' if e.weak else ''}")
        edge_at.append(i)
    if not edges:
        body.append("No relations" + (" of that kind." if kind else "."))
        edge_at.append(None)
    result = finish(snap, "get_relations", args, FOUND, head, body, {})
    # data for the dashboard: the edges of this page and the nodes they touch
    page = result.data["page"]
    shown_edges = [edges[j][1] for j in edge_at[page["offset"]:page["offset"] + page["shown"]]
                   if j is not None]
    node_ids = {doc} | {e.dst for e in shown_edges} | {e.src for e in shown_edges}
    result.data.update({
        "object": node(snap, doc),
        "nodes": [node(snap, n) for n in sorted(node_ids)],
        "edges": [{"src": e.src, "dst": e.dst, "kind": e.kind, "label": e.label, "weak": e.weak}
                  for e in shown_edges],
        "total": len(edges), "shown": len(shown_edges), "weak_hidden": weak_hidden})
    return result
