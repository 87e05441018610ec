"""Search over the corpus index (``formats/corpus.py``): BM25 with a relevance threshold.

A hit must cover enough of the query: ``coverage`` is the share of the query's idf mass
(words not in the corpus count with the idf of an unseen term) that the section contains.
The thresholds were chosen on the tuning half of tests/search_sets/corpus_v8cs.json only
(docs/corpus.md has both halves' figures); below them the candidates are returned as
rejected, so the tool can say not_found and show them as guesses.
"""
from __future__ import annotations

import math
import threading
import weakref
from dataclasses import dataclass

import numpy as np

from v8atlas.formats import corpus as C
from v8atlas.formats.reader import Bundle
from v8atlas.formats.strtable import StringTable
from v8atlas.formats.text import stem_stop_words, words

# Chosen on the tuning half (docs/corpus.md): a hit covers ≥ MIN_COVERAGE of the query's idf
# mass and scores at least MIN_SCORE.
MIN_COVERAGE = 0.6
MIN_SCORE = 4.0
_STOP = stem_stop_words()


@dataclass(frozen=True)
class CorpusHit:
    doc: int              # core document id of the section
    score: float
    coverage: float
    matched: tuple[str, ...]   # query words the section contains


@dataclass
class CorpusFound:
    hits: list[CorpusHit]        # above the threshold, best first, one per document
    rejected: list[CorpusHit]    # nearest below it (guesses)
    words: list[str]             # the query words searched (stop words dropped)


class CorpusIndex:
    def __init__(self, bundle: Bundle) -> None:
        self.meta = bundle.json(C.META)
        self.terms = StringTable(bundle.array(C.TERMS + ".off"), bundle.blob(C.TERMS + ".blob"))
        self.post_off = bundle.array(C.POST_OFF)
        self.post_sec = bundle.array(C.POST_SEC)
        self.post_imp = bundle.array(C.POST_IMP)
        self.sec_doc = bundle.array(C.SEC_DOC)
        self.sec_corpus = bundle.array(C.SEC_CORPUS)
        self.sec_file = bundle.array(C.SEC_FILE)
        self.n = int(self.meta["sections"])
        self.corpora: list[dict] = self.meta["corpora"]

    def corpus_ids(self, corpus: str | None) -> list[int]:
        """Corpora named ``corpus`` (by name, else by kind); all when None."""
        if not corpus:
            return list(range(len(self.corpora)))
        by_name = [i for i, c in enumerate(self.corpora) if c["name"].lower() == corpus.lower()]
        return by_name or [i for i, c in enumerate(self.corpora) if c["kind"] == corpus.lower()]

    def _slots(self, query: str) -> list[tuple[str, list[int], bool]]:
        """(word, term ids, counts toward coverage) per distinct query word."""
        slots: list[tuple[str, list[int], bool]] = []
        seen: set[str] = set()
        for w in words(query):
            if w.term in _STOP or w.term in seen:
                continue
            seen.add(w.term)
            ids = [j for t in dict.fromkeys((w.term, w.surface)) if (j := self.terms.find(t)) >= 0]
            slots.append((w.surface, ids, not w.whole))
        return slots

    def search(self, query: str, corpora: list[int], limit: int) -> CorpusFound:
        slots = self._slots(query)
        scores = np.zeros(self.n, dtype=np.float32)
        covered = np.zeros(self.n, dtype=np.float32)
        matched: list[tuple[str, np.ndarray]] = []
        mass = 0.0
        for surface, ids, counts in slots:
            best = np.zeros(self.n, dtype=np.float32)
            df = 0
            for j in ids:
                a, b = self.post_off.item(j), self.post_off.item(j + 1)
                sec = self.post_sec[a:b]
                best[sec] = np.maximum(best[sec], self.post_imp[a:b])
                df = max(df, b - a)
            scores += best
            if counts:
                idf = math.log(1 + (self.n - df + 0.5) / (df + 0.5)) if df else self.meta["unseen_idf"]
                mass += idf
                covered += (best > 0) * np.float32(idf)
                matched.append((surface, best > 0))
        if not mass or not scores.any():
            return CorpusFound([], [], [s for s, _, c in slots if c])
        coverage = covered / mass
        allowed = np.isin(self.sec_corpus, corpora)
        rank = np.where(allowed, scores * coverage, 0)
        order = np.argsort(-rank, kind="stable")
        hits: list[CorpusHit] = []
        rejected: list[CorpusHit] = []
        files_seen: set[int] = set()      # one hit per document: its best section
        for s in order[:max(limit * 8, 64)]:
            s = int(s)
            if rank[s] <= 0 or (len(hits) >= limit and len(rejected) >= 5):
                break
            f = int(self.sec_file[s])
            if f in files_seen:
                continue
            files_seen.add(f)
            hit = CorpusHit(int(self.sec_doc[s]), float(scores[s]), float(coverage[s]),
                            tuple(w for w, m in matched if m[s]))
            if coverage[s] >= MIN_COVERAGE and scores[s] >= MIN_SCORE:
                hits.append(hit)
            elif len(rejected) < 5:
                rejected.append(hit)
        return CorpusFound(hits, rejected, [w for w, _ in matched])


_OPEN: "weakref.WeakKeyDictionary[Bundle, CorpusIndex | None]" = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def corpus_index(bundle: Bundle) -> CorpusIndex | None:
    """The bundle's corpus index (opened once per bundle), or None when it has none."""
    with _LOCK:
        if bundle not in _OPEN:
            _OPEN[bundle] = CorpusIndex(bundle) if bundle.has(C.META) else None
        return _OPEN[bundle]
