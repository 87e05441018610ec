"""Designer managed form body (``Forms/<F>/Ext/Form.xml``, root ``<Form>`` in the logform namespace).

The item tree is most of a form's elements, and most of an item's children are properties the
model does not keep: an item's children are told apart by their full tag (a table per
namespace, the root's), so lxml filters them in C and a skipped property never becomes a Python object."""
from __future__ import annotations

from functools import lru_cache

from lxml import etree
from v8atlas.compiler.config.designer import local_string, type_description
from v8atlas.compiler.config.objects import FileContext
from v8atlas.compiler.config.xmlsafe import elements, local, text

from .model import (
    KNOWN_KINDS,
    Form,
    FormAttribute,
    FormCommand,
    FormItem,
    FormParameter,
    Handler,
)
from .types import form_type

# Children of an item that are never items of the tree: tooltips carry no data or handlers.
_SKIP = frozenset({"ExtendedTooltip"})
# Sub-elements of an item that hold nested items (menus and command bars: only when they have any).
_NESTED_BARS = frozenset({"ContextMenu", "AutoCommandBar"})


def _handlers(el: etree._Element | None) -> list[Handler]:
    if el is None:
        return []
    # sorted by event: EDT keeps kind-specific events apart, so source order is not comparable
    return sorted((Handler(e.get("name", ""), text(e), e.get("callType", "")) for e in elements(el)
                   if local(e) == "Event"), key=lambda h: h.event)


def _child(el: etree._Element, name: str) -> etree._Element | None:
    for c in elements(el):
        if local(c) == name:
            return c
    return None


# What an item keeps of its children, by local name.
_ITEM_PARTS = ("Title", "DataPath", "CommandName", "Visible", "Enabled", "ReadOnly", "Events", "ChildItems",
               *_NESTED_BARS)


@lru_cache(maxsize=8)
def _item_parts(ns: str) -> dict[str, str]:
    """Full tag → local name of the item children kept, in the form's namespace."""
    return {f"{{{ns}}}{n}" if ns else n: n for n in _ITEM_PARTS}


def _namespace(el: etree._Element) -> str:
    tag = el.tag
    return tag[1:tag.index("}")] if isinstance(tag, str) and tag.startswith("{") else ""


def _item(el: etree._Element, ctx: FileContext, parts: dict[str, str]) -> FormItem | None:
    kind = local(el)
    if kind in _SKIP:
        return None
    item = FormItem(kind, el.get("name", ""), known=kind in KNOWN_KINDS)
    if not item.known:
        ctx.unknown(f"form item kind {kind}")
    nested: list[FormItem] = []
    for c in el.iterchildren(*parts):          # filtered by tag in C: skipped ones get no proxy
        n = parts[c.tag]
        if n == "Title":
            item.title = local_string(c)
        elif n == "DataPath":
            item.data_path = text(c)
        elif n == "CommandName":
            item.command = text(c)
        elif n == "Visible" and text(c) == "false":
            item.props["visible"] = False
        elif n == "Enabled" and text(c) == "false":
            item.props["enabled"] = False
        elif n == "ReadOnly" and text(c) == "true":
            item.props["read_only"] = True
        elif n == "Events":
            item.handlers = _handlers(c)
        elif n == "ChildItems":
            item.items = _items(c, ctx, parts)
        else:                                   # a context menu or an auto command bar
            bar = _bar(c, ctx, parts)
            if bar is not None:
                nested.append(bar)
    item.items = nested + item.items
    return item


def _bar(el: etree._Element, ctx: FileContext, parts: dict[str, str]) -> FormItem | None:
    """A context menu or auto command bar, kept only when it holds buttons or handlers."""
    if not len(el):                  # most are written empty: <ContextMenu name="…" id="…"/>
        return None
    children = _child(el, "ChildItems")
    items = _items(children, ctx, parts) if children is not None else []
    handlers = _handlers(_child(el, "Events"))
    if not items and not handlers:
        return None
    return FormItem(local(el), el.get("name", ""), items=items, handlers=handlers)


def _items(el: etree._Element, ctx: FileContext, parts: dict[str, str]) -> list[FormItem]:
    out = []
    for c in elements(el):
        item = _item(c, ctx, parts)
        if item is not None:
            out.append(item)
    return out


def _attribute(el: etree._Element) -> FormAttribute:
    a = FormAttribute(el.get("name", ""))
    for c in elements(el):
        n = local(c)
        if n == "Title":
            a.title = local_string(c)
        elif n == "Type":
            a.type = form_type(type_description(c))
        elif n == "MainAttribute":
            a.main = text(c) == "true"
        elif n == "Columns":
            a.columns = [_attribute(x) for x in elements(c) if local(x) == "Column"]
        elif n == "Settings":
            for s in elements(c):
                sn = local(s)
                if sn == "ManualQuery":
                    a.custom_query = text(s) == "true"
                elif sn == "QueryText":
                    a.query_text = (s.text or "").strip()
                elif sn == "MainTable":
                    a.main_table = text(s)
    return a


def _command(el: etree._Element) -> FormCommand:
    cmd = FormCommand(el.get("name", ""))
    for c in elements(el):
        n = local(c)
        if n == "Title":
            cmd.title = local_string(c)
        elif n == "Action":
            cmd.action = text(c)
            cmd.call_type = c.get("callType", "")
    return cmd


def _parameter(el: etree._Element) -> FormParameter:
    p = FormParameter(el.get("name", ""))
    for c in elements(el):
        n = local(c)
        if n == "Type":
            p.type = form_type(type_description(c))
        elif n == "KeyParameter":
            p.key = text(c) == "true"
    return p


def read_form(root: etree._Element, form: Form, ctx: FileContext) -> Form:
    bars: list[FormItem] = []
    parts = _item_parts(_namespace(root))
    for c in elements(root):
        n = local(c)
        if n == "Title":
            form.title = local_string(c)
        elif n == "Events":
            form.handlers = _handlers(c)
        elif n == "ChildItems":
            form.items = _items(c, ctx, parts)
        elif n == "AutoCommandBar":
            bar = _bar(c, ctx, parts)
            if bar is not None:
                bars.append(bar)
        elif n == "Attributes":
            form.attributes = [_attribute(x) for x in elements(c) if local(x) == "Attribute"]
        elif n == "Commands":
            form.commands = [_command(x) for x in elements(c) if local(x) == "Command"]
        elif n == "Parameters":
            form.parameters = [_parameter(x) for x in elements(c) if local(x) == "Parameter"]
    form.items = bars + form.items
    return form
