"""get_relations: one step out of or into an object, paged, weak edges hidden unless asked."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from v8atlas.formats.form_card import FORM_HANDLER, card_handlers

from ..snapshot import Snapshot
from .common import address, node, resolve_config
from .metadata import METADATA, candidates, empty_domain, nearest
from . import answer as A
from .paging import MAX_ANSWER_CHARS
from .result import FOUND, ToolInputError, ToolResult

# Edges decoded per page at most; the size cap may stop the page earlier.
PAGE_EDGES = 150
_NO_EDGES = {"nodes": [], "edges": [], "total": 0, "shown": 0}
_HANDLERS_HEAD = "Event handlers (form event → procedure; `get_procedure` opens it):\n"


@dataclass(frozen=True)
class _Handler:
    """A ``form_handler`` relation: read from the form's card, not the graph (procedures are
    the code domain's, not documents); ``procedure`` is the address ``get_procedure`` takes."""
    form: int
    where: str
    procedure: str
    missing: bool
    call_type: str


# Documents whose card may hold a form section (object forms; common forms are objects).
_FORM_KINDS = ("Form", "CommonForm")


def _form_section(snap: Snapshot, doc: int) -> dict[str, Any] | None:
    if snap.catalog.kind_name(doc) not in _FORM_KINDS:
        return None                    # no card decoded for the other objects
    card = snap.catalog.card(doc)
    form = card.get("form") if isinstance(card, dict) else None
    return form if isinstance(form, dict) else None


def _handlers(snap: Snapshot, doc: int, own: dict[str, Any] | None) -> list[_Handler]:
    """A form's handlers (``own``: its card section), else those of the object's forms."""
    if own is not None:
        forms = [(doc, own)]
    else:
        linked = snap.graph.graph.neighbors(doc, "out", ["form"], include_weak=True, offset=0, limit=1 << 30)
        forms = [(n.doc, _form_section(snap, n.doc)) for n in linked]
    rows = []
    for form, section in forms:
        if not section:
            continue
        base = snap.title(form)
        for where, entry, proc in card_handlers(section):
            rows.append(_Handler(form, where, f"{base}.{proc}", bool(entry.get("missing")),
                                 str(entry.get("call_type") or "")))
    return rows

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
    # Form handlers come from the form's card after the graph's edges: a form's (or common
    # form's) own are listed unless another kind is asked; an object's forms' only when asked.
    own = _form_section(snap, doc)
    asked = kind is not None and kind.casefold() == FORM_HANDLER
    handlers: list[_Handler] = []
    if "out" in dirs and (asked or own is not None):
        handlers = _handlers(snap, doc, own)
    if handlers and FORM_HANDLER not in kinds_present:
        kinds_present = sorted([*kinds_present, FORM_HANDLER])
    hint = ("; kind=form_handler lists its forms' event handlers"
            if own is None and not asked and "out" in dirs and summary.get("out", {}).get("form") else "")
    # Counts from the CSR offsets and one vectorised filter; only the page's edges are decoded.
    all_count = graph.count(doc, direction, None, include_weak=True) + len(handlers)
    if kind is not None and not asked:
        handlers = []                  # counted in all, not listed: another kind was asked
    edge_total = graph.count(doc, direction, kinds, include_weak=weak)
    total = edge_total + len(handlers)
    weak_hidden = 0 if weak else graph.count(doc, direction, kinds, include_weak=True) - edge_total
    args = {"name": name, "config": cfg.name if cfg else None, "direction": direction, "kind": kind,
            "weak": weak, "cursor": cursor}
    paging = A.Paging(snap, "get_relations", args)
    offset = paging.offset
    if offset > total:
        raise ToolInputError("bad_cursor", "the cursor points past the end of this listing; "
                                           "repeat the call without `cursor`")
    page = (graph.neighbors(doc, direction, kinds, include_weak=weak, offset=offset, limit=PAGE_EDGES)
            if offset < edge_total else [])
    head = A.headline(FOUND, f"relations of `{snap.title(doc)}`"
            f"{f' in `{snap.catalog.config_name(doc)}`' if snap.catalog.config_name(doc) else ''}: "
            f"{total}{f' of kind {kinds[0]}' if kinds else ''}"
            + (f" ({all_count} in all)" if all_count != total else "")
            + (f"; {weak_hidden} weak edge(s) hidden (weak=true shows them)" if weak_hidden else "")
            + (f"; kinds: {', '.join(kinds_present)}" if kinds_present else "") + hint)
    lines = [head]
    used = len(head)
    shown = []
    current = None
    full = False
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
            full = True
            break
        current = n.direction
        lines.append(line)
        used += len(line) + 1
        shown.append(n)
    shown_handlers: list[_Handler] = []
    if not full and len(shown) < PAGE_EDGES:
        first = max(0, offset - edge_total)
        for h in handlers[first:first + PAGE_EDGES - len(shown)]:
            line = (f"- {FORM_HANDLER} → `{h.procedure}` via `{h.where}`"
                    + (f" ({h.call_type})" if h.call_type else "")
                    + (" (no such procedure in the form module)" if h.missing else ""))
            if not shown_handlers:
                line = _HANDLERS_HEAD + line
            if (shown or shown_handlers) and used + len(line) + 1 > MAX_ANSWER_CHARS - 400:
                break
            lines.append(line)
            used += len(line) + 1
            shown_handlers.append(h)
    if not total:
        lines.append("No relations" + (" of that kind." if kind else "."))
    page: dict[str, object] = {}
    lines += paging.footer("relation(s)", len(shown) + len(shown_handlers), total, page)
    edges = [{"src": doc if n.direction == "out" else n.doc, "dst": n.doc if n.direction == "out" else doc,
              "kind": n.kind, "label": n.label, "weak": n.weak} for n in shown]
    if handlers:
        page["handlers"] = [{"form": node(snap, h.form), "where": h.where, "procedure": h.procedure,
                             "missing": h.missing, **({"call_type": h.call_type} if h.call_type else {})}
                            for h in shown_handlers]
    node_ids = {doc} | {n.doc for n in shown}
    return ToolResult(FOUND, "\n".join(lines).rstrip() + "\n", {
        "object": node(snap, doc),
        "nodes": [node(snap, i) for i in sorted(node_ids)],
        "edges": edges, "total": total, "shown": len(shown) + len(shown_handlers), "weak_hidden": weak_hidden, **page})
