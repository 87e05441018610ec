"""Business-process route points from the route map (Designer ``Ext/Flowchart.xml``, EDT
``Flowchart.scheme``; the same GraphicalSchema XML in both).

Only the points are kept — their names are what code and queries use
(``ЗНАЧЕНИЕ(БизнесПроцесс.X.ТочкаМаршрута.Имя)``); lines and decorations are drawing.
"""
from __future__ import annotations

from .model import Child
from lxml import etree

from .xmlsafe import elements, local, text

ROUTE_POINT_KINDS = frozenset({"Start", "Activity", "Condition", "Completion", "Split", "Merge",
                               "Processing", "SubBusinessProcess", "Switch"})
_DRAWING = frozenset({"ConnectionLine", "Decoration", "DecorativeLine", "Text", "Picture"})


def route_points(root: etree._Element, unknown=None) -> list[Child]:
    """Route points of a parsed route map, in map order; ``unknown(what)`` hears of item
    kinds not recognized."""
    items = next((e for e in elements(root) if local(e) == "Items"), None)
    out: list[Child] = []
    if items is None:
        return out
    for it in elements(items):
        kind = local(it)
        if kind in _DRAWING:
            continue
        if kind not in ROUTE_POINT_KINDS:
            if unknown is not None:
                unknown(f"route map item {kind}")
            continue
        props = next((e for e in elements(it) if local(e) == "Properties"), None)
        name = ""
        if props is not None:
            name = text(next((e for e in elements(props) if local(e) == "Name"), None))
        out.append(Child(name, uuid=it.get("uuid", ""), props={"kind": kind}))
    return out
