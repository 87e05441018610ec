"""Designer managed form body (``Forms/<F>/Ext/Form.xml``, root ``<Form>`` in the logform namespace).

The item tree is most of a form's elements, and most of an item's children are properties the
model does not keep: an item's children are told apart by one dict lookup on their full tag (a
table per namespace, the root's) in a plain child loop — lxml's ``iterchildren(*tags)`` builds
its tag matcher on every call and costs more — and the item is built once, with all its fields.
Names that repeat in every form (event names, title languages) are interned and equal types
shared, so a worker's batch of models pickles each once."""
from __future__ import annotations

from functools import lru_cache
from sys import intern

from lxml import etree
from v8atlas.compiler.config.designer import local_string, type_description
from v8atlas.compiler.config.model import TypeDescription
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
    return sorted((Handler(intern(e.get("name", "")), text(e), intern(e.get("callType", "")))
                   for e in elements(el) if local(e) == "Event"), key=lambda h: h.event)


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


def _text(el: etree._Element) -> str:
    """``xmlsafe.text`` for the common leaf (no entity reference inside) without its call chain."""
    if len(el):
        return text(el)
    t = el.text
    return t.strip() if t else ""


def _title(el: etree._Element) -> dict[str, str]:
    """``local_string`` of a form's titles, the language codes interned (a handful of values
    repeated on every title of every form)."""
    return {intern(lang): content for lang, content in local_string(el).items()}


# Form attribute and parameter types repeat (xs:boolean, a catalog ref, a value table): one
# TypeDescription per distinct serialization, shared. The key is the element as written with
# every namespace in scope (lxml serializes them all), so a prefix means the same in every hit
# (the tail, indentation only, is left out);
# the models only read their types, and a shared one also pickles once per batch.
_TYPES: dict[bytes, TypeDescription] = {}
_TYPES_MAX = 4096


def _type(el: etree._Element) -> TypeDescription:
    key = etree.tostring(el, with_tail=False)
    td = _TYPES.get(key)
    if td is None:
        if len(_TYPES) >= _TYPES_MAX:
            _TYPES.clear()
        td = _TYPES[key] = form_type(type_description(el))
    return td


def _item(el: etree._Element, ctx: FileContext, parts: dict[str, str]) -> FormItem | None:
    kind = local(el)
    if kind in _SKIP:
        return None
    known = kind in KNOWN_KINDS
    if not known:
        ctx.unknown(f"form item kind {kind}")
    title: dict[str, str] = {}
    data_path = command = ""
    props: dict[str, bool] = {}
    handlers: list[Handler] = []
    children: list[FormItem] = []
    nested: list[FormItem] = []
    get = parts.get
    for c in el:                                # comments are dropped by the parser; entity nodes match no part
        n = get(c.tag)
        if n is None:
            continue
        if n == "Title":
            title = _title(c)
        elif n == "DataPath":
            data_path = _text(c)
        elif n == "CommandName":
            command = _text(c)
        elif n == "Visible":
            if _text(c) == "false":
                props["visible"] = False
        elif n == "Enabled":
            if _text(c) == "false":
                props["enabled"] = False
        elif n == "ReadOnly":
            if _text(c) == "true":
                props["read_only"] = True
        elif n == "Events":
            handlers = _handlers(c)
        elif n == "ChildItems":
            children = _items(c, ctx, parts)
        elif len(c):                            # a context menu or an auto command bar (most are empty)
            bar = _bar(c, ctx, parts)
            if bar is not None:
                nested.append(bar)
    return FormItem(kind, el.get("name", ""), title, data_path, command, props, handlers,
                    nested + children if nested else children, known)


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
    for c in el.iterchildren(etree.Element):
        item = _item(c, ctx, parts)
        if item is not None:
            out.append(item)
    return out


def _attribute(el: etree._Element) -> FormAttribute:
    a = FormAttribute(el.get("name", ""))
    for c in elements(el):
        n = local(c)
        if n == "Title":
            a.title = _title(c)
        elif n == "Type":
            a.type = _type(c)
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
            cmd.title = _title(c)
        elif n == "Action":
            cmd.action = text(c)
            cmd.call_type = c.get("callType", "")
    return cmd


def _parameter(el: etree._Element) -> FormParameter:
    p = FormParameter(el.get("name", ""))
    for c in elements(el):
        n = local(c)
        if n == "Type":
            p.type = _type(c)
        elif n == "KeyParameter":
            p.key = text(c) == "true"
    return p


def read_form(root: etree._Element, form: Form, ctx: FileContext) -> Form:
    bars: list[FormItem] = []
    parts = _item_parts(_namespace(root))
    for c in elements(root):
        n = local(c)
        if n == "Title":
            form.title = _title(c)
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
