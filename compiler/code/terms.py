"""Search terms of a procedure, computed where it is read (worker processes, cached parse).

The same tokenizer as the main index and the server's queries (``formats.text.index_terms``),
memoized per chunk: names, CamelCase parts and description words repeat across thousands of
procedures, and the tokenizer's per-word cost would otherwise dominate the code domain's build.
"""
from __future__ import annotations

import itertools
import struct
import unicodedata
from array import array
from collections import defaultdict

import numpy as np

from v8atlas.formats.text import WORD_RUNS, chunk_terms

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
    for chunk in WORD_RUNS.findall(unicodedata.normalize("NFC", text)):
        t = _memo.get(chunk)
        if t is None:
            t = chunk_terms(chunk, surfaces=True)
            if len(_memo) < _MEMO_MAX:
                _memo[chunk] = t
        out.extend(t)
    return out


# The procedure's own fields, in the builder's field order (``build.FIELDS``, less "module").
PROC_FIELDS = ("name", "description", "params", "region")
_HEADER = len(PROC_FIELDS)     # a packed procedure opens with its fields' term counts
_COUNTS = struct.Struct(f"={_HEADER}I").pack   # native uint32, as ``array("I")``
_NONE = (0, b"")


class TermPacker:
    """Packs each procedure's terms by field into one ``bytes`` (``pack``): the four fields' term
    counts, then their term ids into the model's vocabulary, as native uint32. Done in the parent
    as the readers' results arrive: at ERP scale a dict of lists of strings per procedure was the
    largest part of the parsed model left at the build's peak (4 bytes a term instead of a list's
    8 plus a list and a dict per procedure). ``vocabulary()`` is the id → term list."""

    def __init__(self) -> None:
        # a term not seen yet takes the next id (in C: no Python call per occurrence)
        self._ids: defaultdict[str, int] = defaultdict(itertools.count().__next__)
        self._texts: dict[str, tuple[int, bytes]] = {}   # short text → (its terms, their ids)

    def pack_procedure(self, name: str, description: str, params: list[str], region: list[str]) -> bytes:
        """A procedure's fields packed: its name, the description's first ``DESCRIPTION_CHARS``
        characters, its parameter names, its innermost region. Each field's text → (term
        count, ids) is memoized per packer (names, parameter lists and regions repeat: SSL's
        38,310 procedures have about 12,000 distinct names)."""
        n0, ids0 = self._text_ids(name)
        n1, ids1 = self._text_ids(description[:DESCRIPTION_CHARS]) if description else _NONE
        n2, ids2 = self._text_ids(" ".join(params)) if params else _NONE
        n3, ids3 = self._text_ids(region[-1]) if region else _NONE
        return b"".join((_COUNTS(n0, n1, n2, n3), ids0, ids1, ids2, ids3))

    def _text_ids(self, text: str) -> tuple[int, bytes]:
        got = self._texts.get(text)
        if got is None:
            t = terms(text)
            got = (len(t), array("I", map(self._ids.__getitem__, t)).tobytes())
            if len(text) <= _WHOLE_MAX_CHARS:
                self._texts[text] = got
        return got

    def adopt(self, packed: list[bytes], vocabulary: list[str]) -> list[bytes]:
        """Procedures packed by another packer (a worker's, over one batch), with its
        ``vocabulary``, as this packer would have packed them: a term new here takes the next
        id in the order that packer met it — the order this one would have — so the ids are the
        same as packing the batch here. The ids mapped in numpy, the counts kept."""
        if not packed:
            return []
        table = np.fromiter(map(self._ids.__getitem__, vocabulary), dtype=np.uint32,
                            count=len(vocabulary))
        words = np.frombuffer(b"".join(packed), dtype=np.uint32).copy()
        ends = np.cumsum(np.fromiter(map(len, packed), dtype=np.int64, count=len(packed)) // 4)
        starts = np.concatenate((np.zeros(1, dtype=np.int64), ends[:-1]))
        is_id = np.ones(len(words), dtype=bool)
        is_id[(starts[:, None] + np.arange(_HEADER)).ravel()] = False    # each opens with counts
        words[is_id] = table[words[is_id]]
        buf = words.tobytes()
        return [buf[a:b] for a, b in zip((4 * starts).tolist(), (4 * ends).tolist())]

    def vocabulary(self) -> list[str]:
        return list(self._ids)
