"""What a form's card section (``card["form"]``, written by ``compiler/forms/cards.py``) says of
its event handlers: read by the compiler's handler check and by the server's ``form_handler``
relations, so both walk one structure one way."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

FORM_HANDLER = "form_handler"   # the get_relations kind (formats/graph.EDGE_KINDS describes it)


def card_handlers(card: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], str]]:
    """(where, entry, procedure) of every handler in a form card section, in the order the
    report names them: form events, items depth first, command actions. ``where`` is
    ``form <Event>``, ``<item> <Event>`` or ``command <Name>``; ``entry`` is the card's own dict
    (the handler check marks ``missing`` on it)."""
    # an event element with no procedure named (empty text) is no handler: skipped, as a
    # command without an action is
    for h in card.get("handlers", ()):
        if h.get("procedure"):
            yield f"form {h['event']}", h, h["procedure"]
    stack = list(reversed(card.get("items", ())))
    while stack:
        item = stack.pop()
        for h in item.get("handlers", ()):
            if h.get("procedure"):
                yield f"{item.get('name', '')} {h['event']}", h, h["procedure"]
        stack.extend(reversed(item.get("items", ())))
    for c in card.get("commands", ()):
        if c.get("action"):
            yield f"command {c['name']}", c, c["action"]
