"""Markdown blocks for forms, composition schemas and role rights (cards of compiler/forms).

``detail``: brief — counts, form events, attribute and command names, data sets with their
field names, rights per object; fields — the whole item tree (one line per item: kind, name,
data path, handlers), attributes with types, data set fields with titles and roles, schema
parameters; full — also query texts, RLS conditions and restriction templates. Every item,
field or object is its own block, so a long answer pages with a cursor.
"""
from __future__ import annotations

from typing import Any

BRIEF_ITEMS = 40       # rights entries / roles listed in brief before "detail=fields lists all"


def _c(s: Any) -> str:
    return f"`{s}`" if s not in (None, "") else ""


def _handlers(hs: list[dict[str, Any]]) -> str:
    return ", ".join(f"{h.get('event')}→{_c(h.get('procedure'))}"
                     + (f" ({h['call_type']})" if h.get("call_type") else "")
                     + (" **missing**" if h.get("missing") else "") for h in hs)


def _count_items(items: list[dict[str, Any]]) -> int:
    return sum(1 + _count_items(i.get("items") or []) for i in items)


def _item_lines(items: list[dict[str, Any]], depth: int, full: bool, out: list[str]) -> None:
    for i in items:
        parts = [f"{'  ' * depth}- {i.get('kind')} {_c(i.get('name'))}"]
        if i.get("title") and (full or i.get("title") != i.get("name")):
            parts.append(f"«{i['title']}»")
        if i.get("path"):
            parts.append(f"[{i['path']}]")
        if i.get("command"):
            parts.append(f"command {_c(i['command'])}")
        props = i.get("props") or {}
        flags = [k.replace("_", " ") if v is True else f"not {k}" for k, v in props.items()]
        if flags:
            parts.append("(" + ", ".join(flags) + ")")
        if i.get("handlers"):
            parts.append("on " + _handlers(i["handlers"]))
        if i.get("unknown_kind"):
            parts.append("(kind unknown to the reader)")
        out.append(" ".join(parts))
        _item_lines(i.get("items") or [], depth + 1, full, out)


def _attr_line(a: dict[str, Any], full: bool, indent: str = "") -> str:
    line = f"{indent}- {_c(a.get('name'))}" + (" (main)" if a.get("main") else "")
    if a.get("type"):
        line += f": {a['type']}"
    if a.get("title") and full:
        line += f" — {a['title']}"
    if a.get("main_table"):
        line += f"; main table {_c(a['main_table'])}"
    if a.get("custom_query"):
        line += "; custom query"
    return line


def form_blocks(form: dict[str, Any], detail: str) -> list[str]:
    full = detail == "full"
    out: list[str] = []
    meta = [f"Form type: {form.get('form_type', 'Managed')}"]
    if form.get("title"):
        meta.append(f"title «{form['title']}»")
    module = form.get("module")
    if isinstance(module, dict) and module:
        meta.append(f"module: {module.get('procedures', 0)} procedures")
    out.append("**Form** — " + "; ".join(meta))
    if form.get("not_read"):
        out.append(f"Layout not read: {form['not_read']}")
        return out
    missing = _missing(form)
    if missing:
        out.append(f"**Handlers without a procedure in the module** ({len(missing)}): " + ", ".join(missing))
    if form.get("handlers"):
        out.append(f"**Form events** ({len(form['handlers'])}): " + _handlers(form["handlers"]))
    attrs = form.get("attributes") or []
    if attrs:
        if detail == "brief":
            out.append(f"**Attributes** ({len(attrs)}): " + ", ".join(
                _c(a.get("name")) + (" (main)" if a.get("main") else "")
                + (f": {a['type']}" if a.get("type") and len(str(a["type"])) < 60 else "") for a in attrs))
        else:
            out.append(f"**Attributes** ({len(attrs)}):")
            for a in attrs:
                block = [_attr_line(a, full)]
                block += [_attr_line(c, full, "  ") for c in a.get("columns") or []]
                if full and a.get("query"):
                    block.append("  query:\n```\n" + a["query"] + "\n```")
                out.append("\n".join(block))
    cmds = form.get("commands") or []
    if cmds:
        out.append(f"**Commands** ({len(cmds)}): " + ", ".join(
            _c(c.get("name")) + (f"→{_c(c['action'])}" if c.get("action") else "")
            + (" **missing**" if c.get("missing") else "") for c in cmds))
    params = form.get("parameters") or []
    if params:
        out.append(f"**Parameters** ({len(params)}): " + ", ".join(
            _c(p.get("name")) + (" (key)" if p.get("key") else "")
            + (f": {p['type']}" if p.get("type") and detail != "brief" else "") for p in params))
    items = form.get("items") or []
    if items:
        if detail == "brief":
            out.append(f"**Items** ({_count_items(items)}): top level "
                       + ", ".join(f"{i.get('kind')} {_c(i.get('name'))}" for i in items)
                       + " (detail=fields shows the item tree with data paths and handlers)")
        else:
            out.append(f"**Items** ({_count_items(items)}):")
            lines: list[str] = []
            _item_lines(items, 0, full, lines)
            out += lines
    if detail != "full" and any(a.get("query") for a in attrs):
        out.append("Dynamic list query texts: detail=full.")
    return out


def _missing(form: dict[str, Any]) -> list[str]:
    out = [f"{h.get('event')}→{_c(h.get('procedure'))}" for h in form.get("handlers") or [] if h.get("missing")]

    def walk(items: list[dict[str, Any]]) -> None:
        for i in items:
            out.extend(f"{_c(i.get('name'))} {h.get('event')}→{_c(h.get('procedure'))}"
                       for h in i.get("handlers") or [] if h.get("missing"))
            walk(i.get("items") or [])
    walk(form.get("items") or [])
    out += [f"command {_c(c.get('name'))}→{_c(c.get('action'))}" for c in form.get("commands") or []
            if c.get("missing")]
    return out


def _set_blocks(ds: dict[str, Any], detail: str, indent: str = "") -> list[str]:
    full = detail == "full"
    fields = ds.get("fields") or []
    head = f"{indent}- {_c(ds.get('name'))} — {ds.get('kind')}"
    if ds.get("source"):
        head += f" (source {_c(ds['source'])})"
    if ds.get("object"):
        head += f", object {_c(ds['object'])}"
    if ds.get("unknown_kind"):
        head += " (kind unknown to the reader)"
    head += f", {len(fields)} field(s)"
    if detail == "brief":
        if fields:
            head += ": " + ", ".join(_c(f.get("path")) for f in fields)
        out = [head]
    else:
        out = [head]
        for f in fields:
            line = f"{indent}  - {_c(f.get('path'))}"
            if f.get("field"):
                line += f" ← {_c(f['field'])}"
            if f.get("title"):
                line += f" «{f['title']}»"
            if f.get("role"):
                line += " role: " + ", ".join(f"{k}={v}" for k, v in f["role"].items())
            if f.get("kind"):
                line += f" ({f['kind']})"
            out.append(line)
    if full and ds.get("query"):
        out.append(f"{indent}  query:\n```\n{ds['query']}\n```")
    for sub in ds.get("items") or []:
        out += _set_blocks(sub, detail, indent + "  ")
    return out


def template_blocks(t: dict[str, Any], detail: str) -> list[str]:
    full = detail == "full"
    out = [f"**Template** — type {t.get('template_type')}"]
    s = t.get("schema")
    if not isinstance(s, dict):
        if t.get("not_read"):
            out.append(f"Content not read: {t['not_read']}")
        return out
    if s.get("data_sources"):
        out.append("**Data sources**: " + ", ".join(f"{_c(d.get('name'))} ({d.get('type')})"
                                                   for d in s["data_sources"]))
    sets = s.get("data_sets") or []
    if sets:
        out.append(f"**Data sets** ({len(sets)}):")
        for ds in sets:
            out += _set_blocks(ds, detail)
    calc = s.get("calculated_fields") or []
    if calc:
        if detail == "brief":
            out.append(f"**Calculated fields** ({len(calc)}): " + ", ".join(_c(c.get("path")) for c in calc))
        else:
            out.append(f"**Calculated fields** ({len(calc)}):")
            out += [f"- {_c(c.get('path'))} = {_c(c.get('expression'))}"
                    + (f" «{c['title']}»" if c.get("title") else "") for c in calc]
    res = s.get("resources") or []
    if res:
        out.append(f"**Resources** ({len(res)}): " + ", ".join(
            _c(r.get("path")) + (f" {r['aggregate']}" if r.get("aggregate") else "")
            + (f" = {_c(r.get('expression'))}" if detail != "brief" else "") for r in res))
    params = s.get("parameters") or []
    if params:
        if detail == "brief":
            out.append(f"**Parameters** ({len(params)}): " + ", ".join(_c(p.get("name")) for p in params))
        else:
            out.append(f"**Parameters** ({len(params)}):")
            for p in params:
                line = f"- {_c(p.get('name'))}"
                if p.get("type"):
                    line += f": {p['type']}"
                if p.get("value"):
                    line += f"; default {_c(p['value'])}"
                if p.get("expression"):
                    line += f"; expression {_c(p['expression'])}"
                if p.get("list"):
                    line += "; list allowed"
                if p.get("hidden"):
                    line += "; not offered to the user"
                if full and p.get("title"):
                    line += f" «{p['title']}»"
                out.append(line)
    variants = s.get("variants") or []
    if variants:
        out.append(f"**Settings variants** ({len(variants)}): " + ", ".join(
            _c(v.get("name")) + (f" «{v['title']}»" if v.get("title") else "") for v in variants))
    if detail != "full" and any(ds.get("query") for ds in sets):
        out.append("Query texts of the data sets: detail=full.")
    return out


def rights_blocks(r: dict[str, Any], detail: str) -> list[str]:
    full = detail == "full"
    flags = r.get("flags") or {}
    out = ["**Role flags**: " + "; ".join(f"{k.replace('_', ' ')}: {'yes' if v else 'no'}"
                                         for k, v in flags.items())]
    objects = r.get("objects") or []
    shown = objects if detail != "brief" else objects[:BRIEF_ITEMS]
    out.append(f"**Rights** ({len(objects)} object(s)):")
    for o in shown:
        line = f"- {_c(o.get('object'))}: " + (", ".join(o.get("rights") or []) or "no rights granted")
        if o.get("denied") and detail != "brief":
            line += "; not granted: " + ", ".join(o["denied"])
        rls = o.get("rls") or {}
        if rls:
            line += "; RLS on " + ", ".join(rls)
            if full:
                line += "\n" + "\n".join(f"  RLS {k}:\n```\n{v}\n```" for k, v in rls.items())
        out.append(line)
    if len(shown) < len(objects):
        out.append(f"… {len(objects) - len(shown)} more object(s): detail=fields lists all")
    templates = r.get("templates") or []
    if templates:
        if full:
            out.append(f"**Restriction templates** ({len(templates)}):")
            out += [f"- {_c(t.get('name'))}:\n```\n{t.get('text', '')}\n```" for t in templates]
        else:
            out.append(f"**Restriction templates** ({len(templates)}): "
                       + ", ".join(_c(t.get("name")) for t in templates) + " (texts: detail=full)")
    return out


def roles_blocks(roles: list[dict[str, Any]], detail: str, role_word: str) -> list[str]:
    """Which roles grant what on this object (its card's ``roles``)."""
    shown = roles if detail != "brief" else roles[:BRIEF_ITEMS]
    out = [f"**Roles granting rights** ({len(roles)}):"]
    for r in shown:
        where = f" on {_c(r['part'])}" if r.get("part") else ""
        line = f"- {_c(role_word + '.' + str(r.get('role')))}{where}: " + ", ".join(r.get("rights") or [])
        if r.get("rls"):
            line += "; RLS on " + ", ".join(r["rls"])
        out.append(line)
    if len(shown) < len(roles):
        out.append(f"… {len(roles) - len(shown)} more: detail=fields lists all")
    return out
