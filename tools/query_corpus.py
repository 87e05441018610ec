"""Complete query texts of a Designer dump: module string literals and composition schemas.

A module query is a string literal (its `|` continuation lines joined) that starts with
ВЫБРАТЬ/SELECT and forms a whole expression by itself — the literal, or literals joined by `+`,
up to `;` or `)`. A literal glued to a variable or a call (`"ВЫБРАТЬ …" + Условие`) is a
dynamic text and is left out. Composition-schema queries are the `<query>` elements of every
`Templates/*/Ext/Template.xml` whose root is a DataCompositionSchema.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

_START = re.compile(r"^\s*(ВЫБРАТЬ|SELECT)\s", re.IGNORECASE)
# Only the head of a query (`"ВЫБРАТЬ РАЗРЕШЕННЫЕ"` extended later by the module): not complete.
_HEAD_ONLY = re.compile(r"^\s*(ВЫБРАТЬ|SELECT)(\s+(РАЗРЕШЕННЫЕ|РАЗЛИЧНЫЕ|ALLOWED|DISTINCT|"
                        r"ПЕРВЫЕ\s+\d+|TOP\s+\d+))*\s*$", re.IGNORECASE)
_DCS_NS = "http://v8.1c.ru/8.1/data-composition-system/schema"


# Marks of texts a module assembles (`#Условие`, `%1`, `Шапка?.Ссылка`, `@Справочник.X`,
# `[ИмяТаблицы]`) outside string literals: dynamic, not complete queries.
_TEMPLATE = re.compile(r'#\w|%\d|[?@\[]')


def is_dynamic(text: str) -> bool:
    return bool(_TEMPLATE.search(re.sub(r'"(?:[^"]|"")*"', '""', text)))


@dataclass(frozen=True)
class QueryText:
    source: str          # path inside the dump
    line: int            # line of the literal / of the <query> element in that file
    text: str
    origin: str          # "module" | "schema"


def _literal_end(src: str, i: int) -> int:
    """Index after the closing quote of the literal opening at ``i`` (``""`` is an escaped quote)."""
    j = i + 1
    while True:
        k = src.find('"', j)
        if k < 0:
            return len(src)
        if k + 1 < len(src) and src[k + 1] == '"':
            j = k + 2
            continue
        return k + 1


def _literal_text(raw: str) -> str:
    """The value of a module literal: `|` continuation prefixes and escaped quotes undone."""
    body = raw[1:-1]
    lines = body.split("\n")
    out = [lines[0]]
    for ln in lines[1:]:
        s = ln.lstrip()
        out.append(s.removeprefix("|"))
    return "\n".join(out).replace('""', '"')


def module_tokens(src: str) -> list[tuple[str, str, int]]:
    """(kind, text, offset) of a BSL module: literals, words, punctuation; comments dropped."""
    out: list[tuple[str, str, int]] = []
    i, n = 0, len(src)
    while i < n:
        ch = src[i]
        if ch == '"':
            j = _literal_end(src, i)
            out.append(("str", src[i:j], i))
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif ch.isspace():
            i += 1
        elif ch.isalnum() or ch == "_":
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            out.append(("word", src[i:j], i))
            i = j
        else:
            out.append(("punct", ch, i))
            i += 1
    return out


def module_queries(src: str, source: str) -> list[QueryText]:
    toks = module_tokens(src)
    found = []
    for k, (kind, text, off) in enumerate(toks):
        if kind != "str":
            continue
        value = _literal_text(text)
        if not _START.match(value + " ") or _HEAD_ONLY.match(value):
            continue
        prev = toks[k - 1] if k else ("punct", ";", 0)
        if prev[0] == "punct" and prev[1] == "+":
            continue                                  # the tail of a longer expression
        parts, j, ok = [value], k + 1, True
        while j < len(toks):
            t = toks[j]
            if t[0] == "punct" and t[1] in ";),":
                break
            if t[0] == "punct" and t[1] == "+" and j + 1 < len(toks) and toks[j + 1][0] == "str":
                parts.append(_literal_text(toks[j + 1][1]))
                j += 2
                continue
            ok = False                                # glued to a variable, a call, an operator
            break
        if ok and not _HEAD_ONLY.match("".join(parts)):
            found.append(QueryText(source, src.count("\n", 0, off) + 1, "".join(parts), "module"))
    return found


def schema_queries(path: Path, source: str, problems: list[str] | None = None) -> list[QueryText]:
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        if problems is not None:
            problems.append(f"{source}: not well-formed XML ({e}); its queries are left out")
        return []
    if not root.tag.endswith("DataCompositionSchema"):
        return []
    out = []
    for el in root.iter(f"{{{_DCS_NS}}}query"):
        text = el.text or ""
        if _START.match(text):
            out.append(QueryText(source, 0, text, "schema"))
    return out


def dump_queries(root: Path, problems: list[str] | None = None) -> list[QueryText]:
    """Every complete query text of the dump at ``root``, modules first, in path order.

    A file that cannot be read is named in ``problems`` and skipped; the rest is kept."""
    out: list[QueryText] = []
    for p in sorted(root.rglob("*.bsl")):
        try:
            src = p.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as e:
            if problems is not None:
                problems.append(f"{p.relative_to(root)}: cannot be read ({e}); its queries are left out")
            continue
        if "ВЫБРАТЬ" in src or "SELECT" in src.upper():
            out += module_queries(src, str(p.relative_to(root)))
    for p in sorted(root.glob("**/Templates/*/Ext/Template.xml")):
        out += schema_queries(p, str(p.relative_to(root)), problems)
    return out


def is_fragment(text: str) -> bool:
    """A part of a longer text (`… ИЗ` and the table follows elsewhere)."""
    words = text.replace("\n", " ").split()
    return bool(words) and words[-1].upper() in ("ИЗ", "FROM", "ГДЕ", "WHERE", "И", "AND", "ИЛИ", "OR", ",")
