"""Search terms of a procedure, computed where it is read (worker processes, cached parse).

The same tokenizer as the main index and the server's queries (``formats.text.index_terms``),
memoized per chunk: names, CamelCase parts and description words repeat across thousands of
procedures, and the tokenizer's per-word cost would otherwise dominate the code domain's build.
"""
from __future__ import annotations

import re
import unicodedata

from v8atlas.formats.text import index_terms

_CHUNK = re.compile(r"[0-9A-Za-zА-Яа-яЁё]+")
DESCRIPTION_CHARS = 300        # the first sentences say what a procedure does; the rest is detail
_memo: dict[str, list[str]] = {}
_MEMO_MAX = 500_000


_whole: dict[str, list[str]] = {}     # short texts that repeat whole: handler names, regions
_WHOLE_MAX_CHARS = 80


def terms(text: str) -> list[str]:
    """Search terms of ``text``; the list returned may be shared: callers only read it."""
    if len(text) <= _WHOLE_MAX_CHARS:
        got = _whole.get(text)
        if got is None:
            got = _terms(text)
            if len(_whole) < _MEMO_MAX:
                _whole[text] = got
        return got
    return _terms(text)


def _terms(text: str) -> list[str]:
    out: list[str] = []
    for chunk in _CHUNK.findall(unicodedata.normalize("NFC", text)):
        t = _memo.get(chunk)
        if t is None:
            t = index_terms(chunk, surfaces=True)
            if len(_memo) < _MEMO_MAX:
                _memo[chunk] = t
        out.extend(t)
    return out


def procedure_fields(name: str, description: str, params: list[str], region: list[str]) -> dict[str, list[str]]:
    """Field → terms; the module's own field is added by the builder (one per module)."""
    out = {"name": terms(name)}
    if description:
        out["description"] = terms(description[:DESCRIPTION_CHARS])
    if params:
        out["params"] = terms(" ".join(params))
    if region:
        out["region"] = terms(region[-1])
    return out
