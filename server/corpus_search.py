"""Search over the corpus index (``formats/corpus.py``): BM25 with a relevance threshold.

A hit must cover enough of the query: ``coverage`` is the share of the query's idf mass
(words not in the corpus count with the idf of an unseen term) that the section contains.
The thresholds were chosen on the tuning half of tests/search_sets/corpus_public.json only
(docs/corpus.md has both halves' figures); below them the candidates are returned as
rejected, so the tool can say not_found and show them as guesses.
"""
from __future__ import annotations

import bisect
import json
import math
import threading
import weakref
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

import numpy as np

from v8atlas.formats import corpus as C
from v8atlas.formats.reader import Bundle
from v8atlas.formats.strtable import StringTable
from v8atlas.formats.text import stem, stem_stop_words, words

# Chosen on the tuning half (docs/corpus.md): a hit covers ≥ MIN_COVERAGE of the query's idf
# mass and scores at least MIN_SCORE.
MIN_COVERAGE = 0.6
MIN_SCORE = 1.0     # a floor for one-word queries of common words; BM25 scores shrink with N
# A strong match (docs/corpus.md, chosen on the tuning halves): a section covering less of the
# query, ≥ STRONG_COVERAGE, is a hit when its score reaches STRONG_SCORE × the query's idf mass —
# the words it holds are dense in it (a short rule), not scattered over a long listing.
STRONG_COVERAGE, STRONG_SCORE = 0.4, 0.7
# Words of a question's form, not its topic ("почему нельзя …"): they would count against a
# section's coverage. A rule chosen on the tuning half (docs/corpus.md), not a synonym list.
QUESTION_WORDS = ("почему", "зачем", "нельзя", "следует", "стоит", "why", "should", "can")
PREFIX_MIN, PREFIX_MAX, PREFIX_FACTOR = 5, 12, 0.6
# A stem shorter than PREFIX_MIN + 2 (so with no letters to spare) but of SHORT_STEM_MIN letters
# or more reaches the terms that extend it whole (передаю → передаваемых, много → многократное),
# at PREFIX_FACTOR like the longer stems' range (docs/corpus.md, round 2 session 5).
SHORT_STEM_MIN = 4
_STOP = stem_stop_words() | {stem(w) for w in QUESTION_WORDS}
# The subword signal (docs/corpus.md), chosen on the tuning halves: for a query word with no
# exact term, the SUBWORD_TERMS terms most like it (Dice of their n-grams ≥ SUBWORD_SIM) count
# at SUBWORD_FACTOR × similarity of their impact — below any real match — and a section they
# reach holds SUBWORD_COVERAGE of the word's idf: a hit still needs most words really there.
SUBWORD_SIM, SUBWORD_TERMS, SUBWORD_FACTOR, SUBWORD_COVERAGE = 0.3, 8, 0.3, 0.5
# Associations (docs/corpus.md), chosen on the tuning halves: for a query word the corpus holds,
# its ASSOC_TERMS nearest terms in the corpus's latent space (cosine ≥ ASSOC_SIM, learned at
# compile time) count at ASSOC_FACTOR × cosine of their impact, and a section holding one but
# not the word itself holds ASSOC_COVERAGE of the word's idf.
ASSOC_SIM, ASSOC_TERMS, ASSOC_FACTOR, ASSOC_COVERAGE = 0.5, 4, 0.3, 0.5


def _load_negation() -> tuple[frozenset[str], tuple[str, ...]]:
    """(negator words, negating prefixes) of data/negation.json (why each: its "about")."""
    data = json.loads((Path(__file__).with_name("data") / "negation.json").read_text(encoding="utf-8"))
    return frozenset(data["negators"]), tuple(data["prefixes"])


NEGATORS, NEGATING_PREFIXES = _load_negation()
_SLOTS_KEPT = 65_536   # query words whose term lookups are kept (a slot is a function of the
                       # bundle and the word; a few hundred bytes each)
_BATCH = 16         # words scored together (a row of N float32 each): bounds a long query's memory


class _Slot(NamedTuple):          # a tuple: built per query word, so kept cheap
    word: str             # the query word as typed (folded)
    stem: str
    exact: list[int]      # term ids of its stem and surface form
    near: range           # term ids sharing its stem's beginning (PREFIX_FACTOR)
    terms: int            # distinct terms of both

    @property
    def lone(self) -> int:
        """The one term of a slot with ``terms == 1``: its stem or surface form, else the single
        term of its prefix range."""
        return self.exact[0] if self.exact else self.near.start


class CorpusHit(NamedTuple):      # a tuple: up to limit + 5 are built per query
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
        self._bundle = bundle
        self.meta = bundle.json(C.META)
        self.terms = StringTable(bundle.array(C.TERMS + ".off"), bundle.blob(C.TERMS + ".blob"))
        self.post_off = bundle.array(C.POST_OFF)
        self.post_sec = bundle.array(C.POST_SEC)
        self.post_imp = bundle.array(C.POST_IMP)
        self.sec_doc = bundle.array(C.SEC_DOC)
        self.sec_corpus = bundle.array(C.SEC_CORPUS)
        self.sec_file = bundle.array(C.SEC_FILE)
        self.n = int(self.meta["sections"])
        self.files = int(self.sec_file.max()) + 1 if self.n else 0
        self.corpora: list[dict] = self.meta["corpora"]
        self._assoc_words: dict[tuple[int, ...], list[tuple[float, int]]] = {}   # word → its chosen
        self._slot_cache: dict[tuple[str, str, bool], _Slot] = {}   # (stem, surface, after a negator) → its slot
        self._subword_words: dict[tuple[str, str], list[tuple[float, int]]] = {}   # (stem, word) → its relatives

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
    def _off(self) -> list[int]:
        """The postings' offsets per term as Python ints (a list index is a fraction of a
        numpy ``item`` call, and a query reads two a term)."""
        return self.post_off.tolist()

    @cached_property
    def _term_ids(self) -> dict[str, int]:
        return {t: j for j, t in enumerate(self._sorted_terms)}

    @cached_property
    def _subword(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(bucket offsets, term ids, buckets of each term) of the n-gram table, decompressed
        on first use (~10 ms), or None in a bundle written before it."""
        buckets = self.meta.get("subword_buckets")
        if not buckets or not self._bundle.has(C.SUBWORD):
            return None
        raw = C.unpack_blob(self._bundle.blob(C.SUBWORD))
        dtype = np.dtype(C.subword_dtype(len(self.terms)))
        counts = np.frombuffer(raw, dtype=dtype, count=buckets)
        offsets = np.zeros(buckets + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        sums = np.cumsum(np.frombuffer(raw, dtype=dtype, offset=buckets * dtype.itemsize), dtype=np.int64)
        # a bucket's first value is a whole id: take away what the cumsum carried into it
        starts = offsets[:-1][counts > 0]
        carried = np.where(starts > 0, sums[starts - 1], 0)
        ids = sums - np.repeat(carried, counts[counts > 0])
        return offsets, ids, np.bincount(ids, minlength=len(self.terms))

    def _subword_terms(self, slot: _Slot) -> list[tuple[float, int]]:
        """(similarity, term id) of the SUBWORD_TERMS terms most like a word (Dice of their
        n-grams ≥ SUBWORD_SIM), best first, ties in term order. Kept per word once chosen
        (a function of the bundle and the word: ~0.25 ms a word to count over every term)."""
        table = self._subword
        if table is None:
            return []
        key = (slot.stem, slot.word)
        got = self._subword_words.get(key)
        if got is None:
            got = self._subword_choose(slot, table)
            if len(self._subword_words) >= _SLOTS_KEPT:     # bounded like the slots
                self._subword_words.clear()
            self._subword_words[key] = got
        return got

    def _subword_choose(self, slot: _Slot, table: tuple[np.ndarray, np.ndarray, np.ndarray]
                        ) -> list[tuple[float, int]]:
        offsets, ids, term_buckets = table
        buckets = len(offsets) - 1
        query = C.subword_grams(slot.stem) | C.subword_grams(slot.word)
        rows = Counter(C.subword_bucket(g, buckets) for g in query)     # bucket → query grams in it
        # the buckets' spans of term ids gathered in one index array (bucket order), each id
        # weighted by its bucket's query grams
        order = sorted(rows)
        first = offsets[order]
        lens = offsets[np.add(order, 1)] - first
        before = np.cumsum(lens) - lens
        members = ids[np.arange(int(lens.sum()), dtype=np.int64) + np.repeat(first - before, lens)]
        counts = np.bincount(members, minlength=len(term_buckets),
                             weights=np.repeat([rows[b] for b in order], lens))
        # Dice over buckets (fastText hashes its n-grams too): a collision can only raise it,
        # and with twice as many buckets as grams it rarely does. Only the terms sharing a
        # bucket can reach SUBWORD_SIM: the Dice is taken over them, not over every term (a
        # few vocabulary-wide float temporaries were most of a new word's memory traffic)
        shared = np.flatnonzero(counts > 0)        # (a bool array's nonzero is the fast one)
        sim = 2 * counts[shared] / (len(query) + term_buckets[shared])
        good = sim >= SUBWORD_SIM
        cand, sim = shared[good].tolist(), sim[good].tolist()
        exact, near = set(slot.exact), slot.near
        out = sorted((-x, j) for x, j in zip(sim, cand) if j not in exact and j not in near)[:SUBWORD_TERMS]
        return [(-neg, j) for neg, j in out]

    @cached_property
    def _assoc(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(offsets per term, neighbour term ids, packed keys) of the association table,
        decompressed on first use, or None in a bundle written before it. A key is one int per
        neighbour, ``(255 - its cosine byte) << _assoc_shift | its term id``: Python ints sort
        as the (-cosine, term id) pairs they stand for, so a word's lookup reads one slice and
        builds no tuple until it has chosen (the pairs per term were most of a new word's cost)."""
        if not self._bundle.has(C.ASSOC):
            return None
        raw = C.unpack_blob(self._bundle.blob(C.ASSOC))
        terms = len(self.terms)
        counts = np.frombuffer(raw, dtype=np.uint8, count=terms)
        offsets = np.zeros(terms + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        dtype = np.dtype(C.subword_dtype(terms))
        total = int(offsets[-1])
        ids = np.frombuffer(raw, dtype=dtype, offset=terms, count=total)
        sims = np.frombuffer(raw, dtype=np.uint8, offset=terms + total * dtype.itemsize, count=total)
        keys = ((255 - sims.astype(np.int64)) << self._assoc_shift) | ids
        return offsets, ids, keys

    @cached_property
    def _assoc_shift(self) -> int:
        return max(1, len(self.terms)).bit_length()

    @cached_property
    def _assoc_weakest(self) -> int:
        """The largest ``255 - cosine byte`` whose cosine (byte / 255, as stored) is ≥ ASSOC_SIM."""
        return max((255 - q for q in range(256) if q / 255.0 >= ASSOC_SIM), default=-1)

    def _assoc_terms(self, slot: _Slot) -> list[tuple[float, int]]:
        """(cosine, term id) of the ASSOC_TERMS nearest terms of a word's exact terms (cosine ≥
        ASSOC_SIM; the word's own terms and its near range left out), best first, ties by id.
        Kept per word once chosen: a function of the bundle and the word, and bounded by the
        corpus's vocabulary (a word with no exact term never gets here). A term's neighbours
        are stored best first, ties by id: the keys' order, so one term's slice is in order and
        several terms' are merged by sorting their keys (a term at its best cosine first)."""
        if self._assoc is None or not slot.exact:
            return []
        key = (*slot.exact, slot.near.start, slot.near.stop)
        got = self._assoc_words.get(key)
        if got is not None:
            return got
        offsets, _, keys = self._assoc
        if len(slot.exact) == 1:
            j = slot.exact[0]
            every = keys[offsets.item(j):offsets.item(j + 1)].tolist()
        else:
            every = []
            for j in slot.exact:
                every += keys[offsets.item(j):offsets.item(j + 1)].tolist()
            every.sort()
        shift, weakest = self._assoc_shift, self._assoc_weakest
        mask = (1 << shift) - 1
        seen = set(slot.exact)
        near = slot.near
        got = []
        for k in every:
            if k >> shift > weakest:        # below ASSOC_SIM: so is everything after it
                break
            t = k & mask
            if t not in seen and t not in near:
                seen.add(t)
                got.append(((255 - (k >> shift)) / 255.0, t))
                if len(got) == ASSOC_TERMS:
                    break
        self._assoc_words[key] = got
        return got

    def _related(self, slot: _Slot) -> tuple[list[tuple[float, int]], float, float]:
        """(related terms, impact factor, coverage share) of a word: its associations when the
        corpus holds it, else its subword relatives."""
        if slot.exact:
            return self._assoc_terms(slot), ASSOC_FACTOR, ASSOC_COVERAGE
        return self._subword_terms(slot), SUBWORD_FACTOR, SUBWORD_COVERAGE

    def _prefixed(self, prefix: str, most: int) -> range:
        """The first ``most`` terms starting with ``prefix``, in term order (the end is looked
        for only that far: a few comparisons, not a bisection of the whole vocabulary)."""
        terms = self._sorted_terms
        lo = bisect.bisect_left(terms, prefix)
        return range(lo, bisect.bisect_left(terms, prefix + "\U0010ffff", lo, min(len(terms), lo + most)))

    def _slots(self, query: str) -> list[_Slot]:
        """One slot per distinct query word that counts (stop words and the whole-identifier
        extras dropped). The stem and the surface form are both exact terms (both are indexed:
        Snowball stems обмен → обм but обмену → обмен); terms sharing all but the stem's last
        two letters (выполнять / выполнение: derived forms stemmed apart) count at
        PREFIX_FACTOR: the first PREFIX_MAX of them in term order, a contiguous range of term
        ids, so their postings are one slice of the CSR arrays (``_near_range``). A word right
        after a negator also has its negating-prefix forms among its exact terms
        (``_negated_terms``), so its slot is kept per (stem, surface, negated)."""
        ids, known = self._term_ids, self._slot_cache
        slots: list[_Slot] = []
        seen: set[str] = set()
        negated = False                 # the last word read is a negator (stop words count too)
        for w in words(query):
            if w.whole:
                continue
            after_negator, negated = negated, w.surface in NEGATORS
            if w.term in _STOP or w.term in seen:
                continue
            seen.add(w.term)
            slot = known.get((w.term, w.surface, after_negator))
            if slot is None:
                a, b = ids.get(w.term, -1), ids.get(w.surface, -1)
                exact = sorted({a, b}) if a >= 0 and b >= 0 else [j for j in (a, b) if j >= 0]
                if after_negator:
                    exact = sorted(set(exact).union(self._negated_terms(w.term)))
                near = self._near_range(w.term)
                inside = 0                          # exact terms inside the near range
                for j in exact:
                    inside += j in near
                slot = _Slot(w.surface, w.term, exact, near, len(exact) + len(near) - inside)
                if len(known) >= _SLOTS_KEPT:       # bounded: query words are the callers'
                    known.clear()
                known[(w.term, w.surface, after_negator)] = slot
            slots.append(slot)
        return slots

    def _near_range(self, stem: str) -> range:
        """Term ids a word's stem reaches by its beginning (PREFIX_FACTOR): those sharing all but
        its last two letters (at least PREFIX_MIN), or for a stem of SHORT_STEM_MIN to
        PREFIX_MIN + 1 letters those extending it whole; the first PREFIX_MAX in term order."""
        if len(stem) >= PREFIX_MIN + 2:
            return self._prefixed(stem[:max(PREFIX_MIN, len(stem) - 2)], PREFIX_MAX)
        if len(stem) >= SHORT_STEM_MIN:
            return self._prefixed(stem, PREFIX_MAX)
        return range(0)

    def _negated_terms(self, stem: str) -> list[int]:
        """Term ids of the word negated by a prefix (data/negation.json: "never used" → unused,
        «не используется» → неиспользуемый): the terms beginning with a negating prefix and the
        word's stem, the first PREFIX_MAX of each prefix in term order. They join the word's
        exact terms when a negator stands right before it."""
        return [j for p in NEGATING_PREFIXES for j in self._prefixed(p + stem, PREFIX_MAX)]

    def _best_impacts(self, slots: list[_Slot], related: list[list[tuple[float, int]]],
                      weights: list[float]) -> tuple[np.ndarray, np.ndarray]:
        """(len(slots), N) float32 twice: each word's impact in each section, the best of its
        terms (a lone term counts whole, as it always has; beside exact terms, the near range
        counts at PREFIX_FACTOR, and an exact term inside that range keeps its exact impact as
        the max); and the best of its related terms (similarity, term id), each at factor ×
        similarity (a word without any: a row of zeros). The words' posting slices are
        concatenated and scatter-maxed in one call: on a few thousand sections each numpy
        call's overhead, not its work, was the search's time, so the calls are counted."""
        off, n = self._off, self.n
        starts: list[int] = []          # each span's first posting, its end, its row's offset
        ends: list[int] = []
        rows: list[int] = []
        factors: list[float] = []       # each span's (multiplied once, at the end)
        plain = True                    # every factor 1.0 (then nothing is multiplied)
        for k, slot in enumerate(slots):
            if not slot.terms:
                continue
            if slot.terms == 1:
                j = slot.lone
                starts.append(off[j])
                ends.append(off[j + 1])
                rows.append(k * n)
                factors.append(1.0)
                continue
            for j in slot.exact:
                starts.append(off[j])
                ends.append(off[j + 1])
                rows.append(k * n)
                factors.append(1.0)
            if slot.near:
                starts.append(off[slot.near.start])
                ends.append(off[slot.near.stop])
                rows.append(k * n)
                factors.append(PREFIX_FACTOR)
                plain = False
        for k, (terms, factor) in enumerate(zip(related, weights), len(slots)):
            for sim, j in terms:
                starts.append(off[j])
                ends.append(off[j + 1])
                rows.append(k * n)
                factors.append(factor * sim)
                plain = False
        best = np.zeros(2 * len(slots) * n, dtype=np.float32)
        if starts:
            # the spans' postings gathered in one index array (a slice a span was two numpy
            # views, a list append and a concatenate of them all: the search's Python time)
            first = np.array(starts, dtype=np.int64)
            lens = np.array(ends, dtype=np.int64) - first
            total = int(lens.sum())
            before = np.cumsum(lens) - lens             # where each span starts in the gather
            at = np.arange(total, dtype=np.int64) + np.repeat(first - before, lens)
            where = self.post_sec[at] + np.repeat(np.array(rows, dtype=np.int64), lens)
            impact = self.post_imp[at]
            if not plain:                           # float32 × 1.0 is exact: same values
                impact = impact * np.repeat(np.array(factors, dtype=np.float32), lens)
            np.maximum.at(best, where, impact)
        both = best.reshape(2 * len(slots), n)
        return both[:len(slots)], both[len(slots):]

    def search(self, query: str, corpora: list[int], limit: int) -> CorpusFound:
        slots = self._slots(query)
        found_words = [s.word for s in slots]
        stems = [s.stem for s in slots]
        scores = covered = np.zeros(self.n, dtype=np.float32)     # no words: nothing covered
        impacts: list[np.ndarray] = []      # a row a word (matched words are read from them)
        mass = 0.0
        seen = False                        # some word matched a term (exact, near or subword)
        off = self._off
        for first in range(0, len(slots), _BATCH):
            batch = slots[first:first + _BATCH]
            related = [self._related(slot) for slot in batch]
            best, near = self._best_impacts(batch, [r[0] for r in related], [r[1] for r in related])
            holds = best > 0                        # impacts are > 0: the sections holding each word
            widened = best                          # (the word's own impacts are read once, above)
            if any(r[0] for r in related):
                widened = np.maximum(best, near, out=best)
            # each word's idf where it is and its share of it where only a relative is: one row a
            # word (a section either holds the word or is reached by a relative, so the row is
            # the held and the reached parts' sum exactly), the rows summed in order, float32
            held_w = [0.0] * len(batch)
            reach_w = [0.0] * len(batch)
            for k, (slot, (rel, _, share)) in enumerate(zip(batch, related)):
                impacts.append(widened[k])
                if not slot.terms and not rel:
                    mass += self.meta["unseen_idf"]
                    continue
                if not slot.terms:                  # known only by its subword terms
                    idf = self.meta["unseen_idf"]
                else:
                    if slot.terms == 1:
                        j = slot.lone
                        df = off[j + 1] - off[j]
                    else:
                        df = max((off[j + 1] - off[j] for j in slot.exact), default=0)
                    df = df or int(np.count_nonzero(holds[k]))
                    idf = math.log(1 + (self.n - df + 0.5) / (df + 0.5))
                held_w[k] = idf
                if rel:
                    reach_w[k] = idf * share
                mass += idf
                seen = True
            # written over the relatives' rows (read into ``widened`` already): a batch's memory
            # is the one (2 × words, N) array and its bool rows
            part = np.multiply(widened > 0, np.array(reach_w, dtype=np.float32)[:, None], out=near)
            np.copyto(part, np.array(held_w, dtype=np.float32)[:, None], where=holds)
            if first:       # a long query's later batch: added to the running sums, in order
                covered = np.concatenate((covered[None], part)).sum(axis=0)
                scores = np.concatenate((scores[None], widened)).sum(axis=0)
            else:           # 0 + x is x: the first batch's rows need no zeros row before them
                covered = part.sum(axis=0)
                # the words' impacts added in query order (a skipped word's row is zeros)
                scores = widened.sum(axis=0)
        if not mass or not seen:
            return CorpusFound([], [], found_words, stems)
        coverage = covered / np.float32(mass)
        rank = scores * coverage
        filtered = len(corpora) < len(self.corpora)
        if filtered:
            rank[~np.isin(self.sec_corpus, corpora)] = 0
        want = max(limit * 8, 64)
        top = np.argpartition(-rank, min(want, self.n - 1))[:want] if self.n > want else np.arange(self.n)
        order = top[np.argsort(-rank[top], kind="stable")]
        # a strong match: its words dense enough for a BM25 score of STRONG_SCORE a unit of the
        # query's idf mass (float32, as the scores are compared in the total below)
        strong = float(np.float32(STRONG_SCORE * mass))
        hit_secs: list[int] = []
        rejected_secs: list[int] = []
        files_seen: set[int] = set()      # one hit per document: its best section
        for sec, r, f, cov, score in zip(order.tolist(), rank[order].tolist(), self.sec_file[order].tolist(),
                                         coverage[order].tolist(), scores[order].tolist()):
            if r <= 0 or len(hit_secs) >= limit:
                break
            if f in files_seen:
                continue
            files_seen.add(f)
            if (cov >= MIN_COVERAGE and score >= MIN_SCORE) or (cov >= STRONG_COVERAGE and score >= strong):
                hit_secs.append(sec)
            elif len(rejected_secs) < 5:
                rejected_secs.append(sec)

        def hit(sec: int) -> CorpusHit:
            matched = tuple(w for w, row in zip(found_words, impacts) if row.item(sec) > 0)
            return CorpusHit(self.sec_doc.item(sec), scores.item(sec), coverage.item(sec), matched)

        hits = [hit(x) for x in hit_secs]
        rejected = [hit(x) for x in rejected_secs] if not hits else []
        total = 0
        if hits:
            # rank > 0 follows from the two floors unless other corpora were zeroed
            above = ((coverage >= MIN_COVERAGE) & (scores >= MIN_SCORE)) | \
                ((coverage >= STRONG_COVERAGE) & (scores >= np.float32(strong)))
            if filtered:
                above &= rank > 0
            files = np.zeros(self.files, dtype=bool)     # documents above it (no sort needed)
            files[self.sec_file[above]] = True
            total = int(np.count_nonzero(files))
        return CorpusFound(hits, rejected, found_words, stems, total)


_OPEN: "weakref.WeakKeyDictionary[Bundle, CorpusIndex | None]" = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def corpus_index(bundle: Bundle) -> CorpusIndex | None:
    """The bundle's corpus index (opened once per bundle), or None when it has none."""
    with _LOCK:
        if bundle not in _OPEN:
            _OPEN[bundle] = CorpusIndex(bundle) if bundle.has(C.META) else None
        return _OPEN[bundle]
