"""Tokens of a 1C query text, with line and column, comments dropped.

Identifiers are Unicode words (Cyrillic or Latin); keywords are recognised later by the parser
from the folded word, so a field that happens to be named like a function (`Количество`) stays
an identifier wherever the grammar expects one.
"""
from __future__ import annotations

from dataclasses import dataclass

from v8atlas.formats.text import fold

IDENT, NUMBER, STRING, PARAM, PUNCT, FRAGMENT, EOF = "ident", "number", "string", "param", "punct", "fragment", "eof"

_TWO_CHAR = {"<>", "<=", ">="}
_ONE_CHAR = set(".,()=<>+-*/;{}%")


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str           # as written (string literals without quotes)
    word: str           # folded upper-case form for keyword matching ("" for non-words)
    line: int
    col: int
    offset: int


class LexError(Exception):
    def __init__(self, message: str, line: int, col: int) -> None:
        super().__init__(message)
        self.message, self.line, self.col = message, line, col


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def tokenize(text: str) -> list[Token]:
    """All tokens of ``text`` and a final EOF; raises LexError on an unterminated string."""
    out: list[Token] = []
    i, n, line, line_start = 0, len(text), 1, 0
    while i < n:
        ch = text[i]
        if ch == "\n":
            line, line_start, i = line + 1, i + 1, i + 1
            continue
        if ch.isspace() or ch == "|":   # `|` continues a module string literal: blank here
            i += 1
            continue
        col = i - line_start + 1
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if ch == '"':
            j, parts = i + 1, []
            while True:
                k = text.find('"', j)
                if k < 0:
                    raise LexError("unterminated string literal", line, col)
                parts.append(text[j:k])
                if k + 1 < n and text[k + 1] == '"':
                    parts.append('"')
                    j = k + 2
                    continue
                break
            literal = "".join(parts)
            out.append(Token(STRING, literal, "", line, col, i))
            line += text.count("\n", i, k)
            if "\n" in text[i:k]:
                line_start = text.rfind("\n", i, k) + 1
            i = k + 1
            continue
        if ch.isdigit():
            j = i
            while j < n and text[j].isdigit():
                j += 1
            if j + 1 < n and text[j] == "." and text[j + 1].isdigit():
                j += 1
                while j < n and text[j].isdigit():
                    j += 1
            out.append(Token(NUMBER, text[i:j], "", line, col, i))
            i = j
            continue
        if ch in "?@[]":
            # Template marks of modules that build texts (`Шапка?.Ссылка`, `@Справочник.X`,
            # `[ИмяПланаОбмена]`): not query syntax; the checker reports the text as dynamic.
            out.append(Token(FRAGMENT, ch, ch, line, col, i))
            i += 1
            continue
        if ch == "&" or ch == "#":
            j = i + 1
            while j < n and _is_word_char(text[j]):
                j += 1
            name = text[i + 1:j]
            # `#Имя` is no query syntax: a placeholder the module replaces before running.
            out.append(Token(PARAM if ch == "&" else FRAGMENT, name, fold(name).upper(), line, col, i))
            i = j
            continue
        if _is_word_char(ch):
            j = i
            while j < n and _is_word_char(text[j]):
                j += 1
            word = text[i:j]
            out.append(Token(IDENT, word, fold(word).upper(), line, col, i))
            i = j
            continue
        two = text[i:i + 2]
        if two in _TWO_CHAR:
            out.append(Token(PUNCT, two, two, line, col, i))
            i += 2
            continue
        if ch in _ONE_CHAR:
            out.append(Token(PUNCT, ch, ch, line, col, i))
            i += 1
            continue
        raise LexError(f"unexpected character {ch!r}", line, col)
    out.append(Token(EOF, "", "", line, i - line_start + 1, n))
    return out
