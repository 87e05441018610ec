"""Search terms of a procedure, computed where it is read (the parent and its reading child, cached parse).

The same tokenizer as the main index and the server's queries (``formats.text.index_terms``),
memoized per chunk: names, CamelCase parts and description words repeat across thousands of
procedures, and the tokenizer's per-word cost would otherwise dominate the code domain's build.
"""
from __future__ import annotations

import itertools
import unicodedata
from array import array
from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from v8atlas.formats.text import WORD_RUNS, chunk_memos, chunk_terms, forget_memos as forget_text_memos

from .lexer import _compiled

if TYPE_CHECKING:
    from .model import Procedure

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


def forget_memos() -> None:
    """Let the memos go, and ``formats.text``'s they filled: the parent's share of a shared read
    is over (``read.read_modules``), and kept they were ≈ 17 MB at the link's peak (SSL 3.1.12),
    where a pool worker's went with it."""
    _memo.clear()
    _whole.clear()
    forget_text_memos()


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
_ID_BYTES = array("I").itemsize   # a count or an id: native uint32 (4 bytes)


class TermPacker:
    """Packs each procedure's terms by field into one ``bytes`` (``pack_procedures``): the four
    fields' term counts, then their term ids into the packer's vocabulary, as native uint32.
    Done where the modules are read (the child packs each claim by a vocabulary of the claim's
    own; the parent ``adopt``s it): at ERP scale a dict of lists of strings per procedure was
    the largest part of the parsed model left at the build's peak (4 bytes a term instead of a
    list's 8 plus a list and a dict per procedure). ``vocabulary()`` is the id → term list."""

    def __init__(self) -> None:
        # a term not seen yet takes the next id (in C: no Python call per occurrence)
        self._ids: defaultdict[str, int] = defaultdict(itertools.count().__next__)

    def pack_procedures(self, procs: Iterable[Procedure]) -> list[bytes]:
        """Each procedure's fields packed: its name, its doc comment's description (``info``)
        cut to its first ``DESCRIPTION_CHARS`` characters, its parameter names, its innermost
        region; ids given in that order, procedure after procedure. A module at a time: each
        text's terms from this process's memos (``terms``: names, parameter lists and regions
        repeat), then all of them packed in one call (``_pack_procedures``, in C when built)."""
        return _pack_procedures(self._ids, procs if type(procs) is list else list(procs))

    def known(self, vocabulary: list[str]) -> np.ndarray:
        """The ids this packer has now for ``vocabulary``'s terms, -1 for one it has not met: an
        id never changes, so ``adopt`` later looks up only the -1s (the parent looks a child's
        claim up as it arrives, while the child still reads: not after)."""
        get = self._ids.get
        return np.fromiter((get(t, -1) for t in vocabulary), dtype=np.int64, count=len(vocabulary))

    def adopt(self, packed: list[bytes], vocabulary: list[str], known: np.ndarray | None = None
              ) -> list[bytes]:
        """Procedures packed by another packer (the reading child's, over one claim), with its
        ``vocabulary``, as this packer would have packed them: a term new here takes the next
        id in the order that packer met it — the order this one would have — so the ids are the
        same as packing the claim here. The ids mapped in numpy, the counts kept. ``known``:
        ``known(vocabulary)`` taken earlier (only its -1s are looked up now, in order)."""
        if not packed:
            return []
        table = self._table(vocabulary, known)
        words = np.frombuffer(b"".join(packed), dtype=np.uint32).copy()
        ends = np.cumsum(np.fromiter(map(len, packed), dtype=np.int64, count=len(packed)) // 4)
        starts = np.concatenate((np.zeros(1, dtype=np.int64), ends[:-1]))
        is_id = np.ones(len(words), dtype=bool)
        is_id[(starts[:, None] + np.arange(_HEADER)).ravel()] = False    # each opens with counts
        words[is_id] = table[words[is_id]]
        buf = words.tobytes()
        return [buf[a:b] for a, b in zip((4 * starts).tolist(), (4 * ends).tolist())]

    def _table(self, vocabulary: list[str], known: np.ndarray | None) -> np.ndarray:
        """``vocabulary``'s ids here, a term new here given the next (``adopt``)."""
        if known is None:
            return np.fromiter(map(self._ids.__getitem__, vocabulary), dtype=np.uint32,
                               count=len(vocabulary))
        table = known.astype(np.uint32)
        missing = np.flatnonzero(known < 0)
        table[missing] = np.fromiter(map(self._ids.__getitem__, map(vocabulary.__getitem__, missing.tolist())),
                                     dtype=np.uint32, count=len(missing))
        return table

    def vocabulary(self) -> list[str]:
        return list(self._ids)


def _pack_terms(ids: defaultdict[str, int], fields: list[list[str]]) -> list[bytes]:
    """Procedures' term lists, four a procedure, packed: each procedure's four counts, then
    each term's ``ids[term]``, native uint32."""
    counts = array("I", map(len, fields)).tobytes()
    flat = array("I", map(ids.__getitem__, itertools.chain.from_iterable(fields))).tobytes()
    each = iter(map(len, fields))        # a procedure's ids end where its four fields' end
    ends = list(itertools.accumulate(map(_ID_BYTES.__mul__, map(sum, zip(*[each] * _HEADER)))))
    step = _ID_BYTES * _HEADER
    return [counts[h:h + step] + flat[a:b]
            for h, a, b in zip(range(0, len(counts), step), itertools.chain((0,), ends), ends)]


def _procedure_texts(procs: list[Procedure]) -> list[str]:
    """Each procedure's four texts (``TermPacker.pack_procedures``), in order."""
    texts: list[str] = []
    add = texts.append
    for p in procs:
        add(p.name)
        add(p.info.get("description", "")[:DESCRIPTION_CHARS])
        add(" ".join([x.name for x in p.params]))
        add(p.region[-1] if p.region else "")
    return texts


def _pack_procedures_python(ids: defaultdict[str, int], procs: list[Procedure]) -> list[bytes]:
    """Each procedure's texts' ``terms``, packed (``_pack_terms``). The reference of the compiled
    ``pack_procedures`` (``_bslscan.c``: the same texts, memos, ids and bytes), and what runs
    when it is not built."""
    got = _whole.get
    return _pack_terms(ids, [got(t) or terms(t) for t in _procedure_texts(procs)])


def _pack_procedures_compiled(ids: defaultdict[str, int], procs: list[Procedure]) -> list[bytes]:
    return _compiled.pack_procedures(ids, procs, DESCRIPTION_CHARS,  # type: ignore[attr-defined]
                                     (_whole, _memo, _MEMO_MAX, _WHOLE_MAX_CHARS, terms), chunk_memos())


_pack_procedures = _pack_procedures_compiled if hasattr(_compiled, "pack_procedures") else _pack_procedures_python
