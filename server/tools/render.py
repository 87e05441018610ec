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
        flags = [k if v is True else f"{k}: {v}" for k, v in raw_flags.items() if v not in (None, False, "")]
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


def scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        if all(not isinstance(x, (dict, list)) for x in v):
            return ", ".join(code(x) if isinstance(x, str) else str(x) for x in v)
        return f"{len(v)} items"
    if isinstance(v, dict):
        if all(not isinstance(x, (dict, list)) for x in v.values()):
            return "; ".join(f"{k}: {scalar(x)}" for k, x in v.items())
        return f"{len(v)} entries"
    return str(v)


def generic_blocks(key: str, value: Any, full: bool) -> list[str]:
    """Any card value the renderer has no rule for: shown, never dropped."""
    if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
        blocks = [f"**{key}** ({len(value)}):"]
        blocks += [field_line(x, full) for x in value]
        return blocks
    if isinstance(value, dict) and any(isinstance(x, (dict, list)) for x in value.values()):
        blocks = [f"**{key}**:"]
        for k, v in value.items():
            blocks.append(f"- {k}: {scalar(v)}")
        return blocks
    return [f"**{key}**: {scalar(value)}"]
