"""Designer managed form body (``Forms/<F>/Ext/Form.xml``, root ``<Form>`` in the logform namespace)."""
from __future__ import annotations

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


def _item(el: etree._Element, ctx: FileContext) -> FormItem | None:
    kind = local(el)
    if kind in _SKIP:
        return None
    item = FormItem(kind, el.get("name", ""), known=kind in KNOWN_KINDS)
    if not item.known:
        ctx.unknown(f"form item kind {kind}")
    nested: list[FormItem] = []
    for c in elements(el):
        n = local(c)
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
            item.items = _items(c, ctx)
        elif n in _NESTED_BARS:
            bar = _bar(c, ctx)
            if bar is not None:
                nested.append(bar)
    item.items = nested + item.items
    return item


def _bar(el: etree._Element, ctx: FileContext) -> FormItem | None:
    """A context menu or auto command bar, kept only when it holds buttons or handlers."""
    children = _child(el, "ChildItems")
    items = _items(children, ctx) if children is not None else []
    handlers = _handlers(_child(el, "Events"))
    if not items and not handlers:
        return None
    return FormItem(local(el), el.get("name", ""), items=items, handlers=handlers)


def _items(el: etree._Element, ctx: FileContext) -> list[FormItem]:
    out = []
    for c in elements(el):
        item = _item(c, ctx)
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
    for c in elements(root):
        n = local(c)
        if n == "Title":
            form.title = local_string(c)
        elif n == "Events":
            form.handlers = _handlers(c)
        elif n == "ChildItems":
            form.items = _items(c, ctx)
        elif n == "AutoCommandBar":
            bar = _bar(c, ctx)
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
