"""The 1C brace ("скобочный") serialization: ``{value, value, {nested}, "string"}``.

Grammar (hbk-format.md §2.8): a value is a number, an unquoted atom (GUIDs, ``#base64:…``
blobs inside braces), a quoted string with ``""`` as the quote escape (it may span lines), or
a nested ``{…}`` list. Whitespace between tokens is insignificant; a UTF-8 BOM is dropped.

``parse(text)`` returns nested Python lists of ``str`` (quoted strings), ``int`` (integers)
and ``Atom`` (other unquoted tokens). Errors name the position (line:column) and what was
expected, e.g. an unbalanced brace says where the unclosed list began.
"""
from __future__ import annotations

import re
from typing import Union

__all__ = ["BraceError", "Atom", "parse", "parse_bytes", "dumps"]


class BraceError(ValueError):
    """Malformed brace text; ``pos`` is the character offset of the problem."""

    def __init__(self, message: str, text: str, pos: int) -> None:
        line = text.count("\n", 0, pos) + 1
        col = pos - (text.rfind("\n", 0, pos) + 1) + 1
        super().__init__(f"{message} at line {line}, column {col}")
        self.pos = pos
        self.line = line
        self.column = col


class Atom(str):
    """An unquoted token that is not an integer (GUID, float, ``#base64:…``, identifier)."""


Value = Union[int, str, Atom, list["Value"]]

# One regex drives the tokenizer: braces, commas, quoted strings, bare atoms.
_TOKEN = re.compile(r'\s*(?:(\{)|(\})|(,)|"((?:[^"]|"")*)"|([^\s{},"]+))', re.S)
_INT = re.compile(r"-?\d+\Z")
_MAX_INT_DIGITS = 40


def parse(text: str) -> Value:
    """Parse one brace value (normally a ``{…}`` list) from ``text``; trailing junk is an error."""
    if text.startswith("\ufeff"):
        text = text[1:]
    stack: list[tuple[list[Value], int]] = []     # open lists and where each began
    result: Value | None = None
    expect_value = True                           # after "{" or ",": a value (or "}") comes
    pos = 0
    n = len(text)
    while True:
        m = _TOKEN.match(text, pos)
        if m is None:
            rest = text[pos:]
            if rest.strip() == "":
                break
            if rest.lstrip().startswith('"'):
                raise BraceError("unterminated string", text, pos + len(rest) - len(rest.lstrip()))
            raise BraceError(f"unexpected character {rest.lstrip()[:1]!r}", text, pos)
        start = m.start(m.lastindex or 0)
        pos = m.end()
        if m.group(1):                           # {
            if not expect_value:
                raise BraceError("expected ',' or '}' before '{'", text, start)
            if result is not None and not stack:
                raise BraceError("text continues after the closing brace of the value", text, start)
            stack.append(([], start))
            expect_value = True
            continue
        if m.group(2):                           # }
            if not stack:
                raise BraceError("unbalanced '}' (no list is open)", text, start)
            items, _ = stack.pop()
            if expect_value and items:
                items.append("")                 # "{a,}" — an empty trailing value
            expect_value = False
            if stack:
                stack[-1][0].append(items)
            else:
                result = items
            continue
        if m.group(3):                           # ,
            if not stack:
                raise BraceError("',' outside any list", text, start)
            if expect_value:
                stack[-1][0].append("")          # "{a,,b}" — an empty value
            expect_value = True
            continue
        # a value
        if not stack:
            if result is not None:
                raise BraceError("text continues after the closing brace of the value", text, start)
        if not expect_value:
            raise BraceError("expected ',' or '}' between values", text, start)
        if m.group(4) is not None:
            val: Value = m.group(4).replace('""', '"')
        else:
            tok = m.group(5)
            # A 5,000-digit "integer" is no count or id (int() refuses it past 4,300 digits):
            # it stays a token, as written.
            val = int(tok) if len(tok) <= _MAX_INT_DIGITS and _INT.match(tok) else Atom(tok)
        expect_value = False
        if stack:
            stack[-1][0].append(val)
        else:
            result = val
        if pos >= n:
            break
    if stack:
        _, began = stack[-1]
        raise BraceError(f"unbalanced braces: {len(stack)} list(s) not closed; the innermost "
                         f"opened", text, began)
    if result is None:
        raise BraceError("empty text (expected '{')", text, 0)
    return result


def parse_bytes(data: bytes) -> Value:
    """UTF-8 (BOM tolerated) bytes → value; invalid UTF-8 raises ``BraceError``."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise BraceError(f"invalid UTF-8 (byte 0x{data[e.start]:02x})", "", 0) from None
    return parse(text)


def dumps(value: Value) -> str:
    """Serialize back to brace text (CR LF before nested lists, as the platform writes)."""
    if isinstance(value, list):
        parts = []
        for v in value:
            s = dumps(v)
            parts.append("\r\n" + s if isinstance(v, list) else s)
        return "{" + ",".join(parts) + "}"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int) or isinstance(value, Atom):
        return str(value)
    return '"' + str(value).replace('"', '""') + '"'
