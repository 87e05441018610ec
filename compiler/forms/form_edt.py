"""EDT managed form body (``Forms/<F>/Form.form``, root ``form:Form``).

EDT names an item by its class (``form:FormGroup``, ``form:FormField``, ``form:Decoration``,
``form:Addition``) and a ``<type>``; ``_kind`` maps the pair onto the Designer element name
the model uses. Omitted ``<type>`` means the class's first kind (a button group, a picture
decoration, a search string addition).
"""
from __future__ import annotations

from lxml import etree
from v8atlas.compiler.config.edt import local_string, type_description
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

_XSI_TYPE = "{http://www.w3.org/2001/XMLSchema-instance}type"
_DEFAULT_KIND = {"FormGroup": "ButtonGroup", "Decoration": "PictureDecoration",
                 "Addition": "SearchStringAddition", "Button": "Button", "Table": "Table",
                 "FormField": "InputField"}
_RENAMED = {"SpreadsheetDocumentField": "SpreadSheetDocumentField", "Label": "LabelDecoration",
            "Picture": "PictureDecoration"}
_BAR_KIND = {"contextMenu": "ContextMenu", "autoCommandBar": "AutoCommandBar"}


def _kind(el: etree._Element) -> str:
    cls = (el.get(_XSI_TYPE) or "").partition(":")[2] or local(el)
    if cls in ("Button", "Table"):
        return cls                   # a button's <type> is its look (UsualButton, Hyperlink…)
    sub = ""
    for c in elements(el):
        if local(c) == "type":
            sub = text(c)
            break
    if not sub:
        return _DEFAULT_KIND.get(cls, cls)
    return _RENAMED.get(sub, sub)


def _handlers(els: list[etree._Element]) -> list[Handler]:
    out = []
    for h in els:
        event = proc = call = ""
        for c in elements(h):
            n = local(c)
            if n == "event":
                event = text(c)
            elif n == "name":
                proc = text(c)
            elif n == "callType":
                call = text(c)
        out.append(Handler(event, proc, call))
    return out


def _all_handlers(g: dict[str, list[etree._Element]]) -> list[Handler]:
    """Handlers of an item or form: common events, then kind-specific ones kept in ``extInfo``."""
    els = list(g.get("handlers", []))
    for ext in g.get("extInfo", []):
        els += [c for c in elements(ext) if local(c) == "handlers"]
    return sorted(_handlers(els), key=lambda h: h.event)


def _groups(el: etree._Element) -> dict[str, list[etree._Element]]:
    g: dict[str, list[etree._Element]] = {}
    for c in elements(el):
        g.setdefault(local(c), []).append(c)
    return g


def _first_text(g: dict[str, list[etree._Element]], name: str) -> str:
    els = g.get(name)
    return text(els[0]) if els else ""


def _data_path(g: dict[str, list[etree._Element]]) -> str:
    for dp in g.get("dataPath", []):
        return ".".join(text(s) for s in elements(dp) if local(s) == "segments")
    return ""


def _item(el: etree._Element, ctx: FileContext) -> FormItem:
    g = _groups(el)
    kind = _kind(el)
    item = FormItem(kind, _first_text(g, "name"), known=kind in KNOWN_KINDS)
    if not item.known:
        ctx.unknown(f"form item kind {kind}")
    item.title = local_string(g.get("title", []))
    item.data_path = _data_path(g)
    item.command = _first_text(g, "commandName")
    # EDT writes visible/enabled only when true: an absent element is false.
    if _first_text(g, "visible") != "true":
        item.props["visible"] = False
    if _first_text(g, "enabled") != "true":
        item.props["enabled"] = False
    if _first_text(g, "readOnly") == "true":
        item.props["read_only"] = True
    item.handlers = _all_handlers(g)
    bars = [b for tag in ("contextMenu", "autoCommandBar") for e in g.get(tag, [])
            if (b := _bar(e, tag, ctx)) is not None]
    item.items = bars + [_item(c, ctx) for c in g.get("items", [])]
    return item


def _bar(el: etree._Element, tag: str, ctx: FileContext) -> FormItem | None:
    g = _groups(el)
    items = [_item(c, ctx) for c in g.get("items", [])]
    handlers = _handlers(g.get("handlers", []))
    if not items and not handlers:
        return None
    return FormItem(_BAR_KIND[tag], _first_text(g, "name"), items=items, handlers=handlers)


def _attribute(el: etree._Element) -> FormAttribute:
    g = _groups(el)
    a = FormAttribute(_first_text(g, "name"), local_string(g.get("title", [])))
    if g.get("valueType"):
        a.type = form_type(type_description(g["valueType"][0]))
    a.main = _first_text(g, "main") == "true"
    a.columns = [_attribute(c) for c in g.get("columns", [])]
    for ext in g.get("extInfo", []):
        eg = _groups(ext)
        a.custom_query = _first_text(eg, "customQuery") == "true"
        a.query_text = ((eg["queryText"][0].text or "").strip() if eg.get("queryText") else "")
        a.main_table = _first_text(eg, "mainTable")
    return a


def _command(el: etree._Element) -> FormCommand:
    g = _groups(el)
    cmd = FormCommand(_first_text(g, "name"), local_string(g.get("title", [])))
    for action in g.get("action", []):
        for h in elements(action):
            if local(h) == "handler":
                hg = _groups(h)
                cmd.action = _first_text(hg, "name")
                cmd.call_type = _first_text(hg, "callType")
    return cmd


def _parameter(el: etree._Element) -> FormParameter:
    g = _groups(el)
    p = FormParameter(_first_text(g, "name"))
    if g.get("valueType"):
        p.type = form_type(type_description(g["valueType"][0]))
    p.key = _first_text(g, "keyParameter") == "true"
    return p


def read_form(root: etree._Element, form: Form, ctx: FileContext) -> Form:
    g = _groups(root)
    form.title = local_string(g.get("title", []))
    form.handlers = _all_handlers(g)
    bars = [b for e in g.get("autoCommandBar", []) if (b := _bar(e, "autoCommandBar", ctx)) is not None]
    form.items = bars + [_item(c, ctx) for c in g.get("items", [])]
    form.attributes = [_attribute(c) for c in g.get("attributes", [])]
    form.commands = [_command(c) for c in g.get("formCommands", [])]
    form.parameters = [_parameter(c) for c in g.get("parameters", [])]
    return form
