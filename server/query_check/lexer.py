"""Tokens of a 1C query text, with line and column, comments dropped.

Identifiers are Unicode words (Cyrillic or Latin); keywords are recognised later by the parser
from the folded word, so a field that happens to be named like a function (`Количество`) stays
an identifier wherever the grammar expects one. One compiled regular expression does the work
(a character loop in Python costs ~10× more on a 200-line query).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from v8atlas.formats.text import fold

IDENT, NUMBER, STRING, PARAM, PUNCT, FRAGMENT, EOF = "ident", "number", "string", "param", "punct", "fragment", "eof"

_TOKEN = re.compile(r"""
[\s|]*                            # blanks; `|` continues a module string literal: blank here
(?:
  (?P<comment>//[^\n]*)
| (?P<string>"(?:[^"]|"")*")
| (?P<open>")
| (?P<number>\d+(?:\.\d+)?(?!\w))
| (?P<param>&\w*)
| (?P<hash>\#\w*)                  # `#Имя`: a placeholder the module replaces before running
| (?P<slot>%\d+)                   # `%1`: a StrTemplate slot
| (?P<mark>[?@\[\]])               # `Шапка?.Ссылка`, `@Справочник.X`, `[Имя]`: template marks
| (?P<word>\w+)
| (?P<punct><>|<=|>=|[.,()=<>+\-*/;{}%])
| (?P<end>\Z)
| (?P<bad>.)
)""", re.VERBOSE | re.DOTALL)


class Token(NamedTuple):
    """A NamedTuple, not a frozen dataclass: tokens are made by the thousand (3× cheaper)."""
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


@lru_cache(maxsize=1 << 15)
def word_key(word: str) -> str:
    return fold(word).upper()


@lru_cache(maxsize=1 << 15)
def name_fold(name: str) -> str:
    """``formats.text.fold`` remembered: a query names the same few fields again and again."""
    return fold(name)


def tokenize(text: str) -> list[Token]:
    """All tokens of ``text`` and a final EOF; raises LexError on what no query can hold."""
    out: list[Token] = []
    append = out.append
    count, rfind = text.count, text.rfind
    line, line_start, prev = 1, 0, 0
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "end":                # trailing blanks
            break
        start = m.start(kind)
        breaks = count("\n", prev, start)   # lines counted in C, not token by token
        if breaks:
            line += breaks
            line_start = rfind("\n", prev, start) + 1
        prev = start
        if kind == "comment":
            continue
        s = m.group(kind)
        if kind == "word":
            append(Token(IDENT, s, word_key(s), line, start - line_start + 1, start))
            continue
        col = start - line_start + 1
        if kind == "punct":
            append(Token(PUNCT, s, s, line, col, start))
        elif kind == "string":
            append(Token(STRING, s[1:-1].replace('""', '"'), "", line, col, start))
        elif kind == "number":
            append(Token(NUMBER, s, "", line, col, start))
        elif kind == "param":
            append(Token(PARAM, s[1:], word_key(s[1:]), line, col, start))
        elif kind == "hash":
            append(Token(FRAGMENT, s[1:], word_key(s[1:]), line, col, start))
        elif kind in ("slot", "mark"):
            append(Token(FRAGMENT, s, s, line, col, start))
        elif kind == "open":
            raise LexError("unterminated string literal", line, col)
        else:
            raise LexError(f"unexpected character {s!r}", line, col)
    n = len(text)
    breaks = count("\n", prev, n)
    if breaks:
        line += breaks
        line_start = rfind("\n", prev, n) + 1
    append(Token(EOF, "", "", line, n - line_start + 1, n))
    return out
