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

# (blanks, token): findall builds the pairs in C; the token's kind is read from its first
# character. Blanks include `|`, the continuation mark of module string literals.
_SPLIT = re.compile(r"""([\s|]*)(//[^\n]*|"(?:[^"]|"")*"?|\d+(?:\.\d+)?(?!\w)|[&#]\w*|%\d+|\w+|<>|<=|>=|.|\Z)""",
                    re.DOTALL)
_PUNCT = set(".,()=<>+-*/;{}%") | {"<>", "<=", ">="}


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
    pos, line, line_start = 0, 1, 0
    for pre, tok in _SPLIT.findall(text):
        if pre:
            if "\n" in pre:
                line += pre.count("\n")
                line_start = pos + pre.rfind("\n") + 1
            pos += len(pre)
        if not tok:
            break
        start, c = pos, tok[0]
        pos += len(tok)
        col = start - line_start + 1
        if c.isalpha() or c == "_":
            append(Token(IDENT, tok, word_key(tok), line, col, start))
        elif tok in _PUNCT:
            append(Token(PUNCT, tok, tok, line, col, start))
        elif c == '"':
            body = tok[1:]                   # closed when it ends in an odd run of quotes
            if (len(body) - len(body.rstrip('"'))) % 2 == 0:
                raise LexError("unterminated string literal", line, col)
            append(Token(STRING, tok[1:-1].replace('""', '"'), "", line, col, start))
            breaks = tok.count("\n")
            if breaks:
                line += breaks
                line_start = start + tok.rfind("\n") + 1
        elif c.isdigit():
            append(Token(NUMBER, tok, "", line, col, start))
        elif c == "/":                       # `//` comment (a lone `/` is punctuation above)
            continue
        elif c == "&":
            append(Token(PARAM, tok[1:], word_key(tok[1:]), line, col, start))
        elif c == "#":                       # `#Имя`: a placeholder the module replaces
            append(Token(FRAGMENT, tok[1:], word_key(tok[1:]), line, col, start))
        elif c == "%" or c in "?@[]":        # `%1`, `Шапка?.Ссылка`, `@Справочник.X`, `[Имя]`
            append(Token(FRAGMENT, tok, tok, line, col, start))
        else:
            raise LexError(f"unexpected character {tok!r}", line, col)
    append(Token(EOF, "", "", line, pos - line_start + 1, pos))
    return out
