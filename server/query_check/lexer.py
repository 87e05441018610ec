"""Tokens of a 1C query text, with line and column, comments dropped.

Identifiers are Unicode words (Cyrillic or Latin); a word's keyword (if it is one) is looked up
here once, but the parser decides whether it counts as one, so a field that happens to be named
like a function (`Количество`) stays an identifier wherever the grammar expects one.

One compiled regular expression splits the text (a character loop in Python costs ~10× more on
a 200-line query). The tokens are kept as parallel lists (`Tokens`), not one object per token:
building ~1,000 objects was half the tokenizer's time, and the parser only ever asks "what kind,
what text, which keyword" of the token at an index. Line and column are worked out from the
offset only for the tokens that become nodes or errors.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import NamedTuple

from v8atlas.formats.text import fold

from .words import KEYWORD

IDENT, NUMBER, STRING, PARAM, PUNCT, FRAGMENT, EOF = "ident", "number", "string", "param", "punct", "fragment", "eof"

# (blanks, token): findall builds the pairs in C; the token's kind is read from its first
# character. Blanks include `|`, the continuation mark of module string literals. A word that
# does not start with a digit comes first (most tokens are words; no other branch can start
# with a letter, so the order changes nothing but the time).
_SPLIT = re.compile(r"""([\s|]*)([^\W\d]\w*|//[^\n]*|"(?:[^"]|"")*"?|\d+(?:\.\d+)?(?!\w)|[&#]\w*|%\d+|\w+|<>|<=|>=|."""
                    r"""|\Z)""", re.DOTALL)
_PUNCT = set(".,()=<>+-*/;{}%") | {"<>", "<=", ">="}
_NEWLINE = re.compile("\n")


class Token(NamedTuple):
    """One token as an object: for the few callers that keep tokens (template fragments)."""
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


class Tokens:
    """All tokens of a text as parallel lists, index ``i`` for token ``i``; the last is EOF."""
    __slots__ = ("kinds", "texts", "words", "kws", "offsets", "_line_starts")

    def __init__(self, kinds: list[str], texts: list[str], words: list[str], kws: list[str | None],
                 offsets: list[int], line_starts: list[int]) -> None:
        self.kinds = kinds                  # IDENT, NUMBER, …
        self.texts = texts                  # as written (string literals unquoted and unescaped)
        self.words = words                  # folded upper case ("" for numbers and strings)
        self.kws = kws                      # canonical keyword of a word (`ИЗ` → FROM), else None
        self.offsets = offsets              # character offset of the token in the text
        self._line_starts = line_starts     # offset of each line's first character

    def __len__(self) -> int:
        return len(self.kinds)

    def pos(self, i: int) -> tuple[int, int]:
        """1-based line and column of token ``i``."""
        off = self.offsets[i]
        line = bisect_right(self._line_starts, off)
        return line, off - self._line_starts[line - 1] + 1

    def token(self, i: int) -> Token:
        line, col = self.pos(i)
        return Token(self.kinds[i], self.texts[i], self.words[i], line, col, self.offsets[i])

    def subset(self, keep: list[int]) -> Tokens:
        """The tokens at the indices ``keep`` (in order), positions unchanged."""
        return Tokens([self.kinds[i] for i in keep], [self.texts[i] for i in keep],
                      [self.words[i] for i in keep], [self.kws[i] for i in keep],
                      [self.offsets[i] for i in keep], self._line_starts)


@lru_cache(maxsize=1 << 15)
def word_key(word: str) -> str:
    return fold(word).upper()


@lru_cache(maxsize=1 << 15)
def name_fold(name: str) -> str:
    """``formats.text.fold`` remembered: a query names the same few fields again and again."""
    return fold(name)


def tokenize(text: str) -> Tokens:
    """All tokens of ``text`` and a final EOF; raises LexError on what no query can hold."""
    kinds: list[str] = []
    texts: list[str] = []
    words: list[str] = []
    kws: list[str | None] = []
    offsets: list[int] = []
    line_starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]
    add_kind, add_text, add_word, add_kw, add_offset = (kinds.append, texts.append, words.append,
                                                        kws.append, offsets.append)
    keyword = KEYWORD.get
    pos = 0
    for pre, tok in _SPLIT.findall(text):
        pos += len(pre)
        if not tok:
            break
        c = tok[0]
        if c.isalpha() or c == "_":
            w = word_key(tok)
            add_kind(IDENT)
            add_text(tok)
            add_word(w)
            add_kw(keyword(w))
        elif tok in _PUNCT:
            add_kind(PUNCT)
            add_text(tok)
            add_word(tok)
            add_kw(None)
        elif c == '"':
            body = tok[1:]                   # closed when it ends in an odd run of quotes
            if (len(body) - len(body.rstrip('"'))) % 2 == 0:
                raise _error("unterminated string literal", line_starts, pos)
            add_kind(STRING)
            add_text(tok[1:-1].replace('""', '"'))
            add_word("")
            add_kw(None)
        elif c.isdigit():
            add_kind(NUMBER)
            add_text(tok)
            add_word("")
            add_kw(None)
        elif c == "/":                       # `//` comment (a lone `/` is punctuation above)
            pos += len(tok)
            continue
        elif c == "&":
            add_kind(PARAM)
            add_text(tok[1:])
            add_word(word_key(tok[1:]))
            add_kw(None)
        elif c == "#":                       # `#Имя`: a placeholder the module replaces
            add_kind(FRAGMENT)
            add_text(tok[1:])
            add_word(word_key(tok[1:]))
            add_kw(None)
        elif c == "%" or c in "?@[]":        # `%1`, `Шапка?.Ссылка`, `@Справочник.X`, `[Имя]`
            add_kind(FRAGMENT)
            add_text(tok)
            add_word(tok)
            add_kw(None)
        else:
            raise _error(f"unexpected character {tok!r}", line_starts, pos)
        add_offset(pos)
        pos += len(tok)
    add_kind(EOF)
    add_text("")
    add_word("")
    add_kw(None)
    add_offset(pos)
    return Tokens(kinds, texts, words, kws, offsets, line_starts)


def _error(message: str, line_starts: list[int], offset: int) -> LexError:
    line = bisect_right(line_starts, offset)
    return LexError(message, line, offset - line_starts[line - 1] + 1)
