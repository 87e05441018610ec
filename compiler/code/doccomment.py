"""The doc comment of a procedure in the 1C standard format (standard 453, as БСП writes it)::

    // Описание, одна или несколько строк.
    //
    // Параметры:
    //  Ссылка    - ЛюбаяСсылка - описание
    //              продолжение описания
    //  Реквизиты - Строка, Массив - …
    //    * Поле - Тип - поле структуры
    //
    // Возвращаемое значение:
    //  Структура - описание
    //
    // Пример:
    //  Значение = Модуль.Функция(…);

``Устарела.``/``Deprecated.`` opening the description marks the procedure obsolete. English
headings (``Parameters:``, ``Returns:``, ``Example:``) are read the same way.
"""
from __future__ import annotations

import re
from typing import Any

from .lexer import _compiled

_HEADINGS = {
    "параметры": "params", "parameters": "params",
    "возвращаемоезначение": "returns", "returns": "returns", "returnvalue": "returns",
    "returnedvalue": "returns",
    "пример": "example", "примеры": "example", "example": "example", "examples": "example",
}
_HEADING = re.compile(r"^\s*([A-Za-zА-Яа-яЁё ]+?)\s*:\s*(.*)$")
_PARAM = re.compile(r"^(\s*)([^\W\d]\w*)\s+-\s*(.*)$")
_DEPRECATED = re.compile(r"^\s*(?:Устарела|Устарел|Deprecated)\b\.?\s*(.*)", re.IGNORECASE | re.DOTALL)
MAX_TEXT = 2000          # characters kept per section: a doc comment is a summary, not a manual


def _type_and_text(rest: str) -> tuple[str, str]:
    """``Строка, Неопределено - описание`` → (types, description)."""
    types, sep, text = rest.partition(" - ")
    if not sep:
        if rest.rstrip().endswith("-"):
            return rest.rstrip(" -"), ""
        return rest.strip(), ""
    return types.strip(), text.strip()


def parse_doc(doc: str) -> dict[str, Any]:
    """{description, deprecated?, params: [{name, type, text}], returns: {type, text}, example}."""
    if _doc_sections is not None:      # the line loop in C (``_sections`` is its reference)
        lines, params, returns_, example_ = _doc_sections(doc, _HEADINGS, _type_and_text, MAX_TEXT)
    else:
        lines, params, returns_, example_ = _sections(doc)
    out: dict[str, Any] = {}
    description = "\n".join(lines).strip()
    dep = _DEPRECATED.match(description)
    if dep:
        out["deprecated"] = " ".join(dep.group(1).split())[:MAX_TEXT] or True
    if description:
        out["description"] = description[:MAX_TEXT]
    if params:
        out["params"] = params
    returns = " ".join(x for x in returns_ if x).strip()
    if returns:
        types, text = _type_and_text(returns)
        out["returns"] = {"type": types, "text": text[:MAX_TEXT]}
    example = "\n".join(example_).strip("\n")
    if example.strip():
        out["example"] = example[:MAX_TEXT]
    return out


def _sections(doc: str) -> tuple[list[str], list[dict[str, str]], list[str], list[str]]:
    """A comment's lines by section: (the description's, the parameters, the return value's,
    the example's). A heading switches the section; in the parameters a line ``Имя - Тип -
    текст`` indented no deeper than the section's first one opens a parameter, other lines
    continue its text (``*`` lines, a structure's fields, on lines of their own). The
    reference of the compiled ``doc_sections`` (``_bslscan.c``), and what runs without it."""
    section = "description"
    chunks: dict[str, list[str]] = {"description": [], "params": [], "returns": [], "example": []}
    params: list[dict[str, str]] = []
    base_indent: int | None = None
    for raw in doc.split("\n"):
        h = _HEADING.match(raw) if ":" in raw else None    # a heading ends with a colon
        key = _HEADINGS.get(h.group(1).replace(" ", "").lower()) if h else None
        if key:
            section = key
            if h.group(2).strip():
                chunks[section].append(h.group(2).strip())
            base_indent = None
            continue
        if section == "params":
            m = _PARAM.match(raw)
            indent = len(m.group(1)) if m else 0
            if m and (base_indent is None or indent <= base_indent):
                base_indent = indent
                types, text = _type_and_text(m.group(3))
                params.append({"name": m.group(2), "type": types, "text": text})
                continue
            if params and raw.strip():
                sub = raw.strip()
                p = params[-1]
                p["text"] = (p["text"] + "\n" + sub if sub.startswith("*") else
                             (p["text"] + " " + sub).strip())[:MAX_TEXT]
            continue
        chunks[section].append(raw.strip() if section != "example" else raw.rstrip())
    return chunks["description"], params, chunks["returns"], chunks["example"]


_doc_sections = getattr(_compiled, "doc_sections", None)


def summary(description: str, limit: int = 160) -> str:
    """The first sentence (or line) of a description, for one-line lists."""
    text = " ".join(description.split())
    for stop in (". ", "; "):
        i = text.find(stop)
        if 0 < i < limit:
            return text[:i + 1]
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"
