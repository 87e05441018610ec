"""Cards (msgpack records the server renders) for forms, composition schemas and role rights.

Compact keys; empty values left out. Object names in rights are written in the
configuration's language (``Справочник.X`` for a Russian configuration).
"""
from __future__ import annotations

from typing import Any

from v8atlas.compiler.config import words as W
from v8atlas.compiler.config.fields import render_type
from v8atlas.compiler.config.model import TypeDescription

from .model import (
    DataSet,
    Form,
    FormAttribute,
    FormItem,
    Handler,
    Role,
    Schema,
    Template,
)


def title_text(t: dict[str, str]) -> str:
    """A title or synonym in one language: Russian, else English, else any."""
    return t.get("ru") or t.get("en") or next(iter(t.values()), "")


def _type(td: TypeDescription, language: str) -> str:
    text, members = render_type(td, language)
    return ", ".join(members) if members else text


def _drop_empty(d: dict[str, Any]) -> dict[str, Any]:
    # Card values are str, bool, int, list, dict or None: falsy is exactly "empty" for them
    # (a truth test, where comparing each value with five empties cost a quarter of the link).
    return {k: v for k, v in d.items() if v}


def handler_entry(h: Handler) -> dict[str, Any]:
    """``missing`` is added by the handler check (handlers.py) when the module lacks the procedure."""
    return _drop_empty({"event": h.event, "procedure": h.procedure, "call_type": h.call_type})


def _item(i: FormItem) -> dict[str, Any]:
    return _drop_empty({
        "kind": i.kind, "name": i.name, "title": title_text(i.title), "path": i.data_path,
        "command": i.command, "props": i.props,
        "handlers": [handler_entry(h) for h in i.handlers],
        "items": [_item(c) for c in i.items], "unknown_kind": not i.known})


def _attribute(a: FormAttribute, language: str) -> dict[str, Any]:
    return _drop_empty({
        "name": a.name, "title": title_text(a.title), "type": _type(a.type, language), "main": a.main,
        "main_table": W.ref_name(a.main_table, language) if a.main_table else "",
        "custom_query": a.custom_query, "query": a.query_text if a.custom_query else "",
        "columns": [_attribute(c, language) for c in a.columns]})


def form_card(form: Form, language: str) -> dict[str, Any]:
    """The form section; the handler check (handlers.py) adds ``missing`` marks and ``module``
    (its procedure count) once the code domain has read the form module."""
    return _drop_empty({
        "form_type": form.form_type, "title": title_text(form.title), "not_read": form.not_read,
        "handlers": [handler_entry(h) for h in form.handlers],
        "items": [_item(i) for i in form.items],
        "attributes": [_attribute(a, language) for a in form.attributes],
        "commands": [_drop_empty({"name": c.name, "title": title_text(c.title), "action": c.action,
                                  "call_type": c.call_type})
                     for c in form.commands],
        "parameters": [_drop_empty({"name": p.name, "type": _type(p.type, language), "key": p.key})
                       for p in form.parameters]})


def _data_set(d: DataSet, language: str) -> dict[str, Any]:
    return _drop_empty({
        "name": d.name, "kind": d.kind, "source": d.data_source, "object": d.object_name,
        "query": d.query, "unknown_kind": not d.known,
        "fields": [_drop_empty({"path": f.data_path, "field": f.field_name if f.field_name != f.data_path else "",
                                "title": title_text(f.title), "role": f.role,
                                "kind": f.kind if f.kind != "field" else ""}) for f in d.fields],
        "items": [_data_set(x, language) for x in d.items]})


def schema_card(s: Schema, language: str) -> dict[str, Any]:
    return _drop_empty({
        "data_sources": [_drop_empty({"name": n, "type": t}) for n, t in s.data_sources],
        "data_sets": [_data_set(d, language) for d in s.data_sets],
        "calculated_fields": [_drop_empty({"path": c.data_path, "expression": c.expression,
                                           "title": title_text(c.title)}) for c in s.calculated_fields],
        "resources": [_drop_empty({"path": r.data_path, "expression": r.expression, "aggregate": r.aggregate,
                                   "group": r.group}) for r in s.resources],
        "parameters": [_drop_empty({"name": p.name, "title": title_text(p.title), "type": _type(p.type, language),
                                    "value": p.value, "expression": p.expression,
                                    "list": p.list_allowed, "hidden": p.hidden}) for p in s.parameters],
        "variants": [_drop_empty({"name": n, "title": t}) for n, t in s.variants],
        "links": [{"from": a, "to": b} for a, b in s.links]})


def template_card(t: Template, language: str) -> dict[str, Any]:
    card: dict[str, Any] = {"template_type": t.template_type}
    if t.schema is not None:
        card["schema"] = schema_card(t.schema, language)
    elif t.not_read:
        card["not_read"] = t.not_read
    else:
        card["not_read"] = f"a {t.template_type} template: its content is not read (only composition schemas are)"
    return card


def role_card(role: Role, language: str) -> dict[str, Any]:
    objects = []
    for o in role.objects:
        granted = [r for r, v in o.rights.items() if v]
        denied = [r for r, v in o.rights.items() if not v]
        objects.append(_drop_empty({"object": W.ref_name(o.name, language), "rights": granted,
                                    "denied": denied, "rls": o.restrictions}))
    return _drop_empty({
        "flags": {"set_for_new_objects": role.set_for_new_objects,
                  "set_for_attributes_by_default": role.set_for_attributes_by_default,
                  "independent_rights_of_child_objects": role.independent_rights_of_child_objects},
        "objects": objects,
        "templates": [{"name": n, "text": t} for n, t in role.templates]})
