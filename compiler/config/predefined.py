"""Predefined items (Designer ``Ext/Predefined.xml``, EDT inline ``<predefined><items>``).

The two formats hold the same fields under different spellings (``Name``/``name``,
``ChildItems``/``content``, EDT wraps codes in ``<value>``); one walker reads both.
"""
from __future__ import annotations

from typing import Callable

from lxml import etree

from .model import PredefinedItem, TypeDescription
from .xmlsafe import elements, local, text

_TEXT = {"AccountType": "account_type", "Order": "order", "ActionPeriodIsBasic": "action_period_is_basic"}
_BOOL = {"OffBalance": "off_balance"}
_CHILDREN = {"ChildItems", "Content"}


def items(els: list[etree._Element], decode_type: Callable[[etree._Element], TypeDescription],
          unknown: Callable[[str], None]) -> list[PredefinedItem]:
    """Items from ``els`` (Designer ``<Item>`` or EDT ``<items>``/``<content>`` elements)."""
    out = []
    for it in els:
        item = PredefinedItem(name="", uuid=it.get("id", ""))
        kids: list[etree._Element] = []
        for c in elements(it):
            n = local(c)
            key = n[:1].upper() + n[1:]          # EDT spelling → Designer spelling
            if key == "Name":
                item.name = text(c)
            elif key == "Code":
                value = next((v for v in elements(c) if local(v) == "value"), None)
                item.code = text(value if value is not None else c)
            elif key == "Description":
                item.description = text(c)
            elif key == "IsFolder":
                item.is_folder = text(c) == "true"
            elif key in _CHILDREN:
                # Designer nests <Item>s inside <ChildItems>; EDT repeats <content> per child
                kids.extend(elements(c) if key == "ChildItems" else [c])
            elif key == "Type":
                item.props["type"] = decode_type(c)
            elif key in _TEXT:
                item.props[_TEXT[key]] = text(c)
            elif key in _BOOL:
                item.props[_BOOL[key]] = text(c) == "true"
            else:   # chart-of-accounts ext dimension types, accounting flags…: counted, not kept
                unknown(f"Predefined item property {n}")
        item.children = items(kids, decode_type, unknown)
        out.append(item)
    return out
