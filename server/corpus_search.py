"""Search over the corpus index (``formats/corpus.py``): BM25 with a relevance threshold.

A hit must cover enough of the query: ``coverage`` is the share of the query's idf mass
(words not in the corpus count with the idf of an unseen term) that the section contains.
The thresholds were chosen on the tuning half of tests/search_sets/corpus_v8cs.json only
(docs/corpus.md has both halves' figures); below them the candidates are returned as
rejected, so the tool can say not_found and show them as guesses.
"""
from __future__ import annotations

import bisect
import math
import threading
import weakref
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from v8atlas.formats import corpus as C
from v8atlas.formats.reader import Bundle
from v8atlas.formats.strtable import StringTable
from v8atlas.formats.text import stem, stem_stop_words, words

# Chosen on the tuning half (docs/corpus.md): a hit covers ≥ MIN_COVERAGE of the query's idf
# mass and scores at least MIN_SCORE.
MIN_COVERAGE = 0.6
MIN_SCORE = 1.0     # a floor for one-word queries of common words; BM25 scores shrink with N
# Words of a question's form, not its topic ("почему нельзя …"): they would count against a
# section's coverage. A rule chosen on the tuning half (docs/corpus.md), not a synonym list.
QUESTION_WORDS = ("почему", "зачем", "нельзя", "следует", "стоит", "why", "should", "can")
PREFIX_MIN, PREFIX_MAX, PREFIX_FACTOR = 5, 12, 0.6
_STOP = stem_stop_words() | {stem(w) for w in QUESTION_WORDS}


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
    stems: list[str] = field(default_factory=list)   # their stems (fragments are found by them)
    total: int = 0               # documents above the threshold


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

    def parts(self, first_doc: int, count: int) -> list[int]:
        """Core ids of a document's parts, given its first part's id (parts are consecutive)."""
        where = np.flatnonzero(self.sec_doc == first_doc)
        if not len(where):
            return [first_doc]
        s = int(where[0])
        return [int(d) for d in self.sec_doc[s:s + count]]

    def corpus_ids(self, corpus: str | None) -> list[int]:
        """Corpora named ``corpus`` (by name, else by kind); all when None."""
        if not corpus:
            return list(range(len(self.corpora)))
        by_name = [i for i, c in enumerate(self.corpora) if c["name"].lower() == corpus.lower()]
        return by_name or [i for i, c in enumerate(self.corpora) if c["kind"] == corpus.lower()]

    @cached_property
    def _sorted_terms(self) -> list[str]:
        """The terms as Python strings, built once per bundle (tens of thousands: a few ms,
        ~2 MB): UTF-8 byte order is code point order, so ``bisect`` finds prefixes in C
        instead of bisecting the mapped table in Python."""
        return [self.terms[j] for j in range(len(self.terms))]

    @cached_property
    def _term_ids(self) -> dict[str, int]:
        return {t: j for j, t in enumerate(self._sorted_terms)}

    def _prefixed(self, prefix: str) -> range:
        terms = self._sorted_terms
        lo = bisect.bisect_left(terms, prefix)
        return range(lo, bisect.bisect_left(terms, prefix + "\U0010ffff", lo))

    def _slots(self, query: str) -> list[tuple[str, str, list[tuple[int, float]]]]:
        """(word, stem, [(term id, factor)]) per distinct query word that counts (stop words
        and the whole-identifier extras dropped). The stem and the surface form are both exact
        terms (both are indexed: Snowball stems обмен → обм but обмену → обмен); terms sharing
        all but the stem's last two letters (выполнять / выполнение: derived forms stemmed
        apart) count at PREFIX_FACTOR."""
        ids = self._term_ids
        slots: list[tuple[str, str, list[tuple[int, float]]]] = []
        seen: set[str] = set()
        for w in words(query):
            if w.whole or w.term in _STOP or w.term in seen:
                continue
            seen.add(w.term)
            exact = {j for t in (w.term, w.surface) if (j := ids.get(t, -1)) >= 0}
            terms = [(j, 1.0) for j in sorted(exact)]
            if len(w.term) >= PREFIX_MIN + 2:
                near = self._prefixed(w.term[:max(PREFIX_MIN, len(w.term) - 2)])
                terms += [(j, PREFIX_FACTOR) for j in list(near)[:PREFIX_MAX] if j not in exact]
            slots.append((w.surface, w.term, terms))
        return slots

    def search(self, query: str, corpora: list[int], limit: int) -> CorpusFound:
        slots = self._slots(query)
        found_words = [s for s, _, _ in slots]
        stems = [t for _, t, _ in slots]
        scores = np.zeros(self.n, dtype=np.float32)
        covered = np.zeros(self.n, dtype=np.float32)
        runs: list[np.ndarray | None] = []
        mass = 0.0
        for _, _, terms in slots:
            if not terms:
                mass += self.meta["unseen_idf"]
                runs.append(None)
                continue
            best = np.zeros(self.n, dtype=np.float32) if len(terms) > 1 else None
            df = 0
            for j, factor in terms:
                a, b = self.post_off.item(j), self.post_off.item(j + 1)
                sec = self.post_sec[a:b]
                if factor == 1.0:
                    df = max(df, b - a)
                if best is None:
                    scores[sec] += self.post_imp[a:b]       # sections are unique within a run
                else:
                    best[sec] = np.maximum(best[sec], self.post_imp[a:b] * np.float32(factor))
            if best is not None:
                scores += best
                hit = np.flatnonzero(best)
            else:
                hit = sec
            df = df or len(hit)
            idf = math.log(1 + (self.n - df + 0.5) / (df + 0.5))
            covered[hit] += idf
            mass += idf
            runs.append(hit)
        if not mass or not any(r is not None for r in runs):
            return CorpusFound([], [], found_words, stems)
        coverage = covered / np.float32(mass)
        rank = scores * coverage
        if len(corpora) < len(self.corpora):
            rank[~np.isin(self.sec_corpus, corpora)] = 0
        want = max(limit * 8, 64)
        top = np.argpartition(-rank, min(want, self.n - 1))[:want] if self.n > want else np.arange(self.n)
        order = top[np.argsort(-rank[top], kind="stable")]
        hit_secs: list[int] = []
        rejected_secs: list[int] = []
        files_seen: set[int] = set()      # one hit per document: its best section
        for sec in order.tolist():
            if rank[sec] <= 0 or len(hit_secs) >= limit:
                break
            f = self.sec_file.item(sec)
            if f in files_seen:
                continue
            files_seen.add(f)
            if coverage[sec] >= MIN_COVERAGE and scores[sec] >= MIN_SCORE:
                hit_secs.append(sec)
            elif len(rejected_secs) < 5:
                rejected_secs.append(sec)

        def hit(sec: int) -> CorpusHit:
            matched = tuple(w for w, r in zip(found_words, runs) if r is not None and _has(r, sec))
            return CorpusHit(self.sec_doc.item(sec), float(scores[sec]), float(coverage[sec]), matched)

        hits = [hit(x) for x in hit_secs]
        rejected = [hit(x) for x in rejected_secs] if not hits else []
        above = (coverage >= MIN_COVERAGE) & (scores >= MIN_SCORE) & (rank > 0)
        total = int(np.unique(self.sec_file[above]).size) if hits else 0
        return CorpusFound(hits, rejected, found_words, stems, total)


def _has(run: np.ndarray, s: int) -> bool:
    i = int(np.searchsorted(run, s))
    return i < len(run) and run.item(i) == s


_OPEN: "weakref.WeakKeyDictionary[Bundle, CorpusIndex | None]" = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def corpus_index(bundle: Bundle) -> CorpusIndex | None:
    """The bundle's corpus index (opened once per bundle), or None when it has none."""
    with _LOCK:
        if bundle not in _OPEN:
            _OPEN[bundle] = CorpusIndex(bundle) if bundle.has(C.META) else None
        return _OPEN[bundle]
