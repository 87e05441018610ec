"""Markdown for agents: compact, exact names in backticks, every section countable.

Cards come from other domains (docs/cards-metadata.md, docs/cards-platform.md). The renderer
knows their main keys and shows any key it does not know as a plain ``key: value`` line, so
a card field added later is visible at once instead of dropped.
"""
from __future__ import annotations

import re
from typing import Any

# Composite types longer than this are summarized outside detail=full.
COMPOSITE_SHOWN = 3
# Unlimited strings: what to do with them in a query, shown on the field's own line.
UNLIMITED_RECIPE = ("to compare, group or order in queries use ПОДСТРОКА({field}, 1, N) with N "
                    "chosen for the field's meaning")

_UNLIMITED_RE = re.compile(r"^(строка|string)\s*(\(\s*0\s*\))?$", re.IGNORECASE)


def code(s: Any) -> str:
    s = str(s)
    return f"`{s}`" if s else ""


def text_of(v: Any) -> str:
    """A synonym or description that may be a plain string or {language: text}."""
    if v is None:
        return ""
    if isinstance(v, dict):
        for lang in ("ru", "en"):
            if v.get(lang):
                return str(v[lang])
        return next((str(x) for x in v.values() if x), "")
    if isinstance(v, (list, tuple)):
        return ", ".join(text_of(x) for x in v if x)
    return str(v)


def _type_names(t: Any) -> list[str]:
    if t is None:
        return []
    if isinstance(t, str):
        return [t]
    if isinstance(t, (list, tuple)):
        out: list[str] = []
        for x in t:
            out.extend(_type_names(x))
        return out
    if isinstance(t, dict):
        for k in ("types", "items", "names"):
            if isinstance(t.get(k), (list, tuple)):
                return _type_names(t[k])
        for k in ("text", "name", "type", "title"):
            if t.get(k):
                return [str(t[k])]
    return [str(t)]


def is_unlimited(field: dict[str, Any]) -> bool:
    if field.get("unlimited") or field.get("unlimited_length"):
        return True
    t = field.get("type")
    if isinstance(t, dict) and (t.get("unlimited") or t.get("unlimited_length")):
        return True
    names = _type_names(t)
    return len(names) == 1 and bool(_UNLIMITED_RE.match(names[0].strip())) and "(" in names[0] \
        or any("неогранич" in n.lower() or "unlimited" in n.lower() for n in names)


def type_text(t: Any, full: bool) -> str:
    names = _type_names(t)
    if not names:
        return ""
    if len(names) <= COMPOSITE_SHOWN or full:
        return " | ".join(names)
    return (f"composite of {len(names)} types: {' | '.join(names[:COMPOSITE_SHOWN])} | … "
            f"(all: detail=full)")


def field_line(f: Any, full: bool, indent: str = "") -> str:
    """``- `Имя`: Тип — Синоним`` plus flags; unlimited strings carry their recipe."""
    if not isinstance(f, dict):
        return f"{indent}- {code(text_of(f))}"
    name = f.get("name") or f.get("title") or "?"
    parts = [f"{indent}- {code(name)}"]
    types = f.get("types")
    t = type_text(types if isinstance(types, list) and types else f.get("type"), full)
    if t:
        parts.append(f": {t}")
    syn = text_of(f.get("synonym"))
    if syn and syn != name:
        parts.append(f" — {syn}")
    raw_flags = f.get("flags")
    if isinstance(raw_flags, dict):
        flags = [k if v is True else f"{k}: {value_text(v, full, 5)}" for k, v in raw_flags.items()
                 if v not in (None, False, "", [], {})]
    elif isinstance(raw_flags, list):
        flags = [str(x) for x in raw_flags]
    else:
        flags = []
    for k in ("indexing", "master", "balance", "use", "required"):
        v = f.get(k)
        if v and v is not True and k == "indexing":
            flags.append(f"index: {v}")
        elif v is True:
            flags.append(k)
    if f.get("extension") or f.get("origin"):
        flags.append(f"from extension {f.get('origin') or f['extension']}")
    if f.get("unverified"):
        flags.append("presence unverified")
    if flags:
        parts.append(f" [{', '.join(flags)}]")
    line = "".join(parts)
    if is_unlimited(f):
        recipe = f.get("recipe") or (f["type"].get("recipe") if isinstance(f.get("type"), dict) else None)
        line += " ⚠ unlimited string: " + (f"in queries use `{recipe}`" if recipe
                                           else UNLIMITED_RECIPE.format(field=name))
    if full and f.get("alias"):
        line += f" (en: {f['alias']})"
    if full and f.get("comment"):
        line += f" // {text_of(f['comment'])}"
    return line


# Lists longer than this are cut on their line (count + first items + how to see them all).
LIST_SHOWN = 20
# Keys of a dict item that name it (exchange plan content items name their `object`).
_NAME_KEYS = ("name", "object", "full_name", "title")


def is_type_value(v: Any) -> bool:
    """A rendered type as the cards write it: {"type": "Составной (2)", "types": [...]}."""
    return isinstance(v, dict) and ("types" in v or set(v) == {"type"})


def item_text(x: Any, full: bool = False) -> str:
    """One list item on one line: `Имя` — synonym [key: value, …]."""
    if isinstance(x, dict):
        if is_type_value(x):
            return type_text(x, full)
        name_key = next((k for k in _NAME_KEYS if x.get(k)), None)
        extras = []
        for k, v in x.items():
            if k == name_key or k in ("synonym", "children") or v in (None, "", [], {}):
                continue
            if k == "origin":
                extras.append(f"from extension `{v}`")
            elif k == "unverified":
                extras.append("presence unverified")
            elif k in ("type", "types"):
                extras.append(f"type: {type_text(v, full)}")
            else:
                extras.append(f"{k}: {value_text(v, full)}")
        syn = text_of(x.get("synonym"))
        out = code(x[name_key]) if name_key else ""
        if syn and syn != x.get(name_key):
            out += f" — {syn}"
        if isinstance(x.get("children"), list) and x["children"] and not full:
            extras.append(f"{len(x['children'])} nested")
        if extras:
            out = f"{out} [{', '.join(extras)}]" if out else ", ".join(extras)
        return out or "(empty)"
    if isinstance(x, (list, tuple)):
        return "[" + value_text(x, full) + "]"
    if isinstance(x, bool):
        return "yes" if x else "no"
    return code(x) if isinstance(x, str) else str(x)


def value_text(v: Any, full: bool = False, shown: int = LIST_SHOWN) -> str:
    """Any card value on one line, readable: lists cut after ``shown`` items with the count."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if is_type_value(v):
        return type_text(v, full)
    if isinstance(v, (list, tuple)):
        items = [item_text(x, full) for x in (v if full else v[:shown])]
        more = len(v) - len(items)
        return ", ".join(items) + (f", … {more} more" if more > 0 else "")
    if isinstance(v, dict):
        return "; ".join(f"{k}: {value_text(x, full, shown)}" for k, x in v.items()
                         if x not in (None, "", [], {}))
    return str(v)


# Kept under its old name: other modules (compare) render values with it.
scalar = value_text


def item_lines(items: list[Any], full: bool, indent: str = "") -> list[str]:
    """One line per item; nested ``children`` (predefined items) indented under their parent."""
    out = []
    for x in items:
        out.append(f"{indent}- {item_text(x, full)}")
        if full and isinstance(x, dict) and isinstance(x.get("children"), list):
            out.extend(item_lines(x["children"], full, indent + "  "))
    return out


def list_blocks(label: str, items: list[Any], full: bool, hint: str = "") -> list[str]:
    """A list as blocks: every item one per line at detail=full (the pager cuts pages), else
    the count, the first LIST_SHOWN items on one line and how to see them all."""
    if full and (len(items) > LIST_SHOWN or any(isinstance(x, dict) for x in items)):
        return [f"**{label}** ({len(items)}):"] + item_lines(items, full)
    line = f"**{label}** ({len(items)}): {value_text(items, full)}"
    if len(items) > LIST_SHOWN and not full:
        line += f" (all: detail=full{'; ' + hint if hint else ''})"
    return [line]


def generic_blocks(key: str, value: Any, full: bool) -> list[str]:
    """Any card value the renderer has no rule for: shown readably, never dropped."""
    if isinstance(value, list):
        return list_blocks(key, value, full)
    if isinstance(value, dict) and not is_type_value(value) and \
            any(isinstance(x, (dict, list)) for x in value.values()):
        blocks = [f"**{key}**:"]
        for k, v in value.items():
            if v not in (None, "", [], {}):
                blocks.append(f"- {k}: {value_text(v, full)}")
        return blocks
    return [f"**{key}**: {value_text(value, full)}"]
