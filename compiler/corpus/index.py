"""The corpus full-text index (segments in ``formats/corpus.py``): BM25 over weighted fields.

Terms come from ``formats.text.index_terms`` (with surface forms), the analyzer every other
index uses, so a query word means the same here as in ``search_metadata``.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any


from v8atlas.formats import corpus as C
from v8atlas.formats.text import index_terms

from ..links import DocIndex

if TYPE_CHECKING:
    from v8atlas.formats.writer import BundleWriter


@dataclass
class IndexedSection:
    key: str                        # the core document key
    corpus: int                     # index into CorpusSections.corpora
    file: int                       # the document it belongs to (numbered across corpora)
    fields: dict[str, str]          # WEIGHTS field → text


@dataclass
class CorpusSections:
    """What the corpus link hands to its build: the sections to index, in document order."""
    corpora: list[dict[str, Any]] = field(default_factory=list)
    sections: list[IndexedSection] = field(default_factory=list)


@lru_cache(maxsize=500_000)
def _token_terms(token: str) -> tuple[str, ...]:
    """``index_terms`` of one whitespace-separated token, memoized: a word never spans
    whitespace, so the terms of a text are its tokens' terms in order, and prose repeats
    its tokens (measured: index build 4x faster on the public corpora, docs/corpus.md)."""
    return tuple(index_terms(token, surfaces=True))


def build_index(ctx: Any, writer: "BundleWriter") -> None:
    # numpy here, not at the top: registering the domain must not import it (a compile imports
    # numpy while its parse workers parse: compiler/pipeline.py _AFTER_PARSE)
    import numpy as np

    from v8atlas.formats.strtable import build_string_table, sort_utf8

    from .assoc import association_table
    data = ctx.links.get(CorpusSections)
    if data is None or not data.sections:
        return
    ids = ctx.links.need(DocIndex).ids
    n = len(data.sections)
    tfs: list[Counter[str]] = []
    lengths = np.zeros(n, dtype=np.float64)
    for i, s in enumerate(data.sections):
        tf: Counter[str] = Counter()
        for name, text in s.fields.items():
            terms = [t for token in text.split() for t in _token_terms(token)]
            w = C.WEIGHTS[name]
            for t in terms:
                tf[t] += w
            if name == "body":
                lengths[i] = len(terms)
        tfs.append(tf)
    avg = float(lengths.mean()) or 1.0
    df: Counter[str] = Counter(t for tf in tfs for t in tf)
    terms = sort_utf8(df)
    term_ix = {t: j for j, t in enumerate(terms)}
    postings: list[list[tuple[int, float]]] = [[] for _ in terms]
    for i, tf in enumerate(tfs):
        norm = C.K1 * (1 - C.B + C.B * lengths[i] / avg)
        for t, f in tf.items():
            idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
            postings[term_ix[t]].append((i, idf * f * (C.K1 + 1) / (f + norm)))
    off = np.zeros(len(terms) + 1, dtype="<u8")
    off[1:] = np.cumsum([len(p) for p in postings])
    sec = np.fromiter((i for p in postings for i, _ in p), dtype="<u4", count=int(off[-1]))
    imp = np.fromiter((x for p in postings for _, x in p), dtype="<f4", count=int(off[-1]))
    t_off, t_blob = build_string_table(terms)
    writer.add_array(C.TERMS + ".off", t_off)
    writer.add_blob(C.TERMS + ".blob", t_blob)
    writer.add_array(C.POST_OFF, off)
    writer.add_array(C.POST_SEC, sec)
    writer.add_array(C.POST_IMP, imp)
    writer.add_array(C.SEC_DOC, np.array([ids[s.key] for s in data.sections], dtype="<u4"))
    writer.add_array(C.SEC_CORPUS, np.array([s.corpus for s in data.sections], dtype="<u2"))
    writer.add_array(C.SEC_FILE, np.array([s.file for s in data.sections], dtype="<u4"))
    buckets, table = subword_table(terms)
    writer.add_blob(C.SUBWORD, table)
    writer.add_blob(C.ASSOC, association_table(off, sec, imp, n))
    writer.add_json(C.META, {"corpora": data.corpora, "sections": n, "avg_length": round(avg, 3),
                             "unseen_idf": math.log(1 + (n + 0.5) / 0.5), "subword_buckets": buckets})


def subword_table(terms: list[str]) -> tuple[int, bytes]:
    """(buckets, compressed table) of the terms' n-grams (layout in ``formats/corpus.py``).
    Compressed: term ids delta-coded are small numbers, and the table is read whole, once,
    by the first query word the corpus does not hold."""
    import numpy as np

    grams = [C.subword_grams(t) for t in terms]
    every = [g for gs in grams for g in gs]
    distinct = dict.fromkeys(every)         # each gram hashed once
    buckets = 1 << max(4, (2 * len(distinct) - 1).bit_length())
    for g in distinct:
        distinct[g] = C.subword_bucket(g, buckets)
    bucket = np.fromiter(map(distinct.__getitem__, every), dtype=np.int64, count=len(every))
    term = np.repeat(np.arange(len(terms), dtype=np.int64), [len(gs) for gs in grams])
    keys = np.sort(bucket * max(len(terms), 1) + term)      # by bucket, then term
    if len(keys):                                           # (np.unique hashes: 10x slower here)
        keys = keys[np.r_[True, keys[1:] != keys[:-1]]]
    counts = np.bincount(keys // max(len(terms), 1), minlength=buckets)
    ids = keys % max(len(terms), 1)
    deltas = np.diff(ids, prepend=0)
    starts = np.cumsum(counts)[:-1][counts[1:] > 0]          # each bucket's first id is whole
    deltas[starts] = ids[starts]
    dtype = C.subword_dtype(len(terms))
    raw = counts.astype(dtype).tobytes() + deltas.astype(dtype).tobytes()
    return buckets, C.pack_blob(raw)
