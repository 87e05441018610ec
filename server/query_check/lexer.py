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
from itertools import accumulate, count
from operator import add
from typing import Callable, NamedTuple

from v8atlas.formats.text import fold

from .words import KEYWORD

IDENT, NUMBER, STRING, PARAM, PUNCT, FRAGMENT, EOF = "ident", "number", "string", "param", "punct", "fragment", "eof"

# (token, blanks after it), from the first token on: findall builds the pairs in C; a token's kind
# follows from its first character (_kind). Blanks include `|`, the continuation mark of module
# string literals. A word that does not start with a digit comes first, then one-character
# punctuation (most tokens are one of those; no later branch can start with their characters,
# so the order changes nothing but the time).
_SPLIT = re.compile(r"""([^\W\d]\w*|[.,();=*+\-{}]|//[^\n]*|"(?:[^"]|"")*"?|\d+(?:\.\d+)?(?!\w)"""
                    r"""|[&#]\w*|%\d+|\w+|<>|<=|>=|.|\Z)([\s|]*)""", re.DOTALL)
_BLANKS = re.compile(r"[\s|]*")
_PUNCT = set(".,()=<>+-*/;{}%") | {"<>", "<=", ">="}


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
    __slots__ = ("kinds", "texts", "kws", "offsets", "_line_starts")

    def __init__(self, kinds: list[str], texts: list[str], kws: list[str | None],
                 offsets: list[int], line_starts: list[int]) -> None:
        self.kinds = kinds                  # IDENT, NUMBER, …
        self.texts = texts                  # as written (string literals unquoted and unescaped)
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

    def word(self, i: int) -> str:
        """Folded upper-case form of token ``i`` for matching ("" for numbers and strings)."""
        return "" if self.kinds[i] in (STRING, NUMBER) else word_key(self.texts[i])

    def token(self, i: int) -> Token:
        line, col = self.pos(i)
        return Token(self.kinds[i], self.texts[i], self.word(i), line, col, self.offsets[i])

    def subset(self, keep: list[int]) -> Tokens:
        """The tokens at the indices ``keep`` (in order), positions unchanged."""
        return Tokens([self.kinds[i] for i in keep], [self.texts[i] for i in keep],
                      [self.kws[i] for i in keep], [self.offsets[i] for i in keep], self._line_starts)


@lru_cache(maxsize=1 << 15)
def word_key(word: str) -> str:
    return fold(word).upper()


@lru_cache(maxsize=1 << 15)
def name_fold(name: str) -> str:
    """``formats.text.fold`` remembered: a query names the same few fields again and again."""
    return fold(name)


def _kind(tok: str) -> str:
    """The kind of a token by its first character (the rule for every character)."""
    c = tok[:1]
    if not c:
        return EOF
    if c.isalpha() or c == "_":
        return IDENT
    if tok in _PUNCT:
        return PUNCT
    if c == '"':
        return STRING
    if c.isdigit():
        return NUMBER
    if c == "/":                         # `//` comment (a lone `/` is punctuation above)
        return _COMMENT
    if c == "&":
        return PARAM
    if c == "#" or c == "%" or c in "?@[]":   # `#Имя`, `%1`, `Шапка?.Ссылка`, `@Справочник.X`, `[Имя]`
        return FRAGMENT
    return _BAD


_COMMENT, _BAD = "comment", "bad"
_MAX_REMEMBERED = 1 << 15


class _Remembered(dict):
    """Token text as written → what ``compute`` says of it, worked out on the first sight only:
    ``map(memo.__getitem__, texts)`` runs in C and calls back into Python for new texts alone.
    Bounded: it starts over past ``_MAX_REMEMBERED`` texts (literals are mostly unique)."""

    def __init__(self, compute: Callable[[str], str | None]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, text: str) -> str | None:
        if len(self) >= _MAX_REMEMBERED:
            self.clear()
        got = self[text] = self.compute(text)
        return got


# Only a word can be a keyword: `"ИЗ"` and `&Из` are looked up with their mark, and are none.
_KIND_OF = _Remembered(_kind)
_KEYWORD_OF = _Remembered(lambda tok: KEYWORD.get(word_key(tok)) if _kind(tok) == IDENT else None)


def tokenize(text: str) -> Tokens:
    """All tokens of ``text`` and a final EOF; raises LexError on what no query can hold.

    Every step is one pass in C over the tokens (findall, list comprehensions, map); only the
    rare tokens that are not words or punctuation get a look of their own.
    """
    lead = _BLANKS.match(text).end()
    found = _SPLIT.findall(text, lead)          # (token, blanks) …, then ("", "") at the end
    texts = [tok for tok, _ in found]
    end = texts.index("")                        # the first empty token is the end of the text
    if end + 1 < len(found):
        del found[end + 1:], texts[end + 1:]
    offsets = list(accumulate([len(tok) + len(post) for tok, post in found], initial=lead))
    del offsets[-1]
    kinds = list(map(_KIND_OF.__getitem__, texts))
    # Offsets of line starts: line k starts after the k newlines and the characters before them.
    line_starts = list(map(add, accumulate(map(len, text.split("\n")), initial=0), count()))
    del line_starts[-1]
    kws = list(map(_KEYWORD_OF.__getitem__, texts))
    drop = False
    for i in [i for i, k in enumerate(kinds) if k is not IDENT and k is not PUNCT]:
        k, tok = kinds[i], texts[i]
        if k is STRING:
            body = tok[1:]                       # closed when it ends in an odd run of quotes
            if (len(body) - len(body.rstrip('"'))) % 2 == 0:
                raise _error("unterminated string literal", line_starts, offsets[i])
            texts[i] = tok[1:-1].replace('""', '"')
        elif k is PARAM or k is FRAGMENT and tok[0] == "#":
            texts[i] = tok[1:]
        elif k is _COMMENT:
            drop = True
        elif k is _BAD:
            raise _error(f"unexpected character {tok!r}", line_starts, offsets[i])
    if drop:
        keep = [i for i, k in enumerate(kinds) if k is not _COMMENT]
        return Tokens(kinds, texts, kws, offsets, line_starts).subset(keep)
    return Tokens(kinds, texts, kws, offsets, line_starts)


def _error(message: str, line_starts: list[int], offset: int) -> LexError:
    line = bisect_right(line_starts, offset)
    return LexError(message, line, offset - line_starts[line - 1] + 1)
