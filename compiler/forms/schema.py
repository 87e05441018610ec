"""Data composition schemas (``Templates/<T>/Ext/Template.xml``; EDT ``Template.dcs``): one XML
format in both dumps, root ``<DataCompositionSchema>``."""
from __future__ import annotations

import re

from lxml import etree
from v8atlas.compiler.config.designer import local_string, type_description
from v8atlas.compiler.config.objects import FileContext
from v8atlas.compiler.config.xmlsafe import elements, local, text

from .model import (
    CalculatedField,
    DataSet,
    Schema,
    SchemaField,
    SchemaParameter,
    SchemaResource,
)
from .types import form_type

_XSI_TYPE = "{http://www.w3.org/2001/XMLSchema-instance}type"
_SET_KINDS = {"DataSetQuery": "query", "DataSetObject": "object", "DataSetUnion": "union"}
_FIELD_KINDS = {"DataSetFieldField": "field", "DataSetFieldFolder": "folder",
                "DataSetFieldNestedDataSet": "nested"}
_AGGREGATE = re.compile(r"^\s*([^\W\d][\w]*)\s*\(", re.UNICODE)


def _xsi(el: etree._Element) -> str:
    return (el.get(_XSI_TYPE) or "").rpartition(":")[2]


def _raw(el: etree._Element) -> str:
    """Query and expression texts as written (inner indentation kept)."""
    return (el.text or "").strip()


def _value_text(el: etree._Element) -> str:
    if el.get("{http://www.w3.org/2001/XMLSchema-instance}nil") == "true":
        return ""
    parts = [text(c) for c in elements(el) if text(c)]
    if parts:
        return ", ".join(parts)
    return text(el)


def _field(el: etree._Element) -> SchemaField:
    f = SchemaField("", kind=_FIELD_KINDS.get(_xsi(el), _xsi(el) or "field"))
    for c in elements(el):
        n = local(c)
        if n == "dataPath":
            f.data_path = text(c)
        elif n == "field":
            f.field_name = text(c)
        elif n == "title":
            f.title = local_string(c)
        elif n == "role":
            f.role = {local(r): text(r) for r in elements(c) if text(r)}
    return f


def _data_set(el: etree._Element, ctx: FileContext) -> DataSet:
    xsi = _xsi(el)
    kind = _SET_KINDS.get(xsi)
    ds = DataSet("", kind or xsi or "?", known=kind is not None)
    if kind is None:
        ctx.unknown(f"data set kind {xsi or '(none)'}")
        ctx.report.warn(ctx.source, f"data set of an unknown kind {xsi or '(no xsi:type)'}: kept with its "
                        f"name and fields only", code="schema-unknown-data-set", file=ctx.file,
                        line=el.sourceline)
    for c in elements(el):
        n = local(c)
        if n == "name":
            ds.name = text(c)
        elif n == "field":
            ds.fields.append(_field(c))
        elif n == "dataSource":
            ds.data_source = text(c)
        elif n == "query":
            ds.query = _raw(c)
        elif n == "objectName":
            ds.object_name = text(c)
        elif n == "item":
            ds.items.append(_data_set(c, ctx))
    return ds


def _parameter(el: etree._Element) -> SchemaParameter:
    p = SchemaParameter("")
    for c in elements(el):
        n = local(c)
        if n == "name":
            p.name = text(c)
        elif n == "title":
            p.title = local_string(c)
        elif n == "valueType":
            p.type = form_type(type_description(c))
        elif n == "value":
            p.value = _value_text(c)
        elif n == "expression":
            p.expression = _raw(c)
        elif n == "valueListAllowed":
            p.list_allowed = text(c) == "true"
        elif n == "useRestriction":
            p.hidden = text(c) == "true"
    return p


def read_schema(root: etree._Element, ctx: FileContext) -> Schema:
    s = Schema()
    for c in elements(root):
        n = local(c)
        if n == "dataSource":
            g = {local(x): text(x) for x in elements(c)}
            s.data_sources.append((g.get("name", ""), g.get("dataSourceType", "")))
        elif n == "dataSet":
            s.data_sets.append(_data_set(c, ctx))
        elif n == "calculatedField":
            g = {local(x): x for x in elements(c)}
            s.calculated_fields.append(CalculatedField(
                text(g.get("dataPath")), _raw(g["expression"]) if "expression" in g else "",
                local_string(g.get("title"))))
        elif n == "totalField":
            path = expr = ""
            group: list[str] = []
            for x in elements(c):
                xn = local(x)
                if xn == "dataPath":
                    path = text(x)
                elif xn == "expression":
                    expr = _raw(x)
                elif xn == "group":
                    group.append(text(x))
            m = _AGGREGATE.match(expr)
            s.resources.append(SchemaResource(path, expr, m.group(1) if m else "", group))
        elif n == "parameter":
            s.parameters.append(_parameter(c))
        elif n == "settingsVariant":
            name = title = ""
            for x in elements(c):
                if local(x) == "name":
                    name = text(x)
                elif local(x) == "presentation":
                    title = next(iter(local_string(x).values()), "") or text(x)
            s.variants.append((name, title))
        elif n == "dataSetLink":
            g = {local(x): text(x) for x in elements(c)}
            s.links.append((g.get("sourceDataSet", ""), g.get("destinationDataSet", "")))
    return s
