"""Term associations learned from the corpus itself (LSA): a compact neighbour table.

The misses the subword signal cannot reach are vocabulary gaps: a query word that is in the
corpus, but not in the answer («каталог» for a text about «путь к файлам», "long" for one about
"size"). Words used in the same sections are related, and a truncated SVD of the term × section
matrix joins words whose sections are alike even when they never meet (latent semantic
analysis). The compiler keeps each term's nearest terms in that space (cosine), quantized; the
server looks them up for a query word (``server/corpus_search.py``): a lookup, no model at run
time. Layout in ``formats/corpus.py`` (``corpus.assoc``).

Deterministic: the random projection has a fixed seed, and the similarities are rounded to
1/255 before the neighbours are chosen (ties by term id), so a last-bit difference of the
floating-point sums cannot pick another neighbour unless it crosses a rounding edge.
"""
from __future__ import annotations

import numpy as np

from v8atlas.formats import corpus as C

DIMS = 64             # latent dimensions kept (chosen on the tuning halves: 64 over 32–200)
OVERSAMPLE, POWER = 20, 2     # randomized SVD (Halko et al.): extra columns, power iterations
MIN_DF = 2            # a term in one section has no association to learn
MAX_DF_SHARE = 0.2    # nor has a term in a fifth of the sections (a word of the genre)
MAX_TERMS = 16_384    # the all-pairs cosines grow with its square: a bigger corpus keeps the
                      # terms in most sections (the public corpora keep 12,052 of 19,305)
_BLOCK = 1024         # terms whose similarities are computed at once (a block × terms matrix)
_GROUP = 64           # columns whose maximum bounds a row's cosines (pruning, _neighbours)
_MARGIN = 0.01        # below that bound still checked exactly: float32's error is ~1e-6


def association_table(off: np.ndarray, sec: np.ndarray, imp: np.ndarray, sections: int) -> bytes:
    """The compressed neighbour table of the postings' terms (CSR: ``off`` per term, ``sec``
    and ``imp`` per posting; BM25 impacts are the matrix's weights, tf × idf already)."""
    terms = len(off) - 1
    df = np.diff(off.astype(np.int64))
    kept = np.flatnonzero((df >= MIN_DF) & (df <= sections * MAX_DF_SHARE))
    if len(kept) > MAX_TERMS:       # by df, ties by term id; then in term order again
        kept = np.sort(kept[np.lexsort((kept, -df[kept]))[:MAX_TERMS]])
    counts = np.zeros(terms, dtype=np.uint8)
    ids = np.zeros(0, dtype=np.int64)
    sims = np.zeros(0, dtype=np.uint8)
    if len(kept) > DIMS + OVERSAMPLE and sections > DIMS + OVERSAMPLE:
        vectors = _term_vectors(off, sec, imp, kept, sections)
        counts[kept], ids, sims = _neighbours(vectors, kept)
    dtype = C.subword_dtype(terms)
    raw = counts.tobytes() + ids.astype(dtype).tobytes() + sims.tobytes()
    return C.pack_blob(raw)


def _term_vectors(off: np.ndarray, sec: np.ndarray, imp: np.ndarray, kept: np.ndarray,
                  sections: int) -> np.ndarray:
    """Unit vectors (len(kept), DIMS) of the kept terms: rows of U·S of a rank-DIMS SVD of the
    kept terms' rows of the term × section matrix, float64 throughout (see the module doc)."""
    lengths = np.diff(off.astype(np.int64))[kept]
    row_starts = np.r_[0, np.cumsum(lengths)[:-1]]
    posting = np.repeat(off[kept].astype(np.int64) - row_starts, lengths) + np.arange(int(lengths.sum()))
    rows = np.repeat(np.arange(len(kept)), lengths)
    cols = sec[posting].astype(np.int64)
    vals = imp[posting].astype(np.float64)
    by_col = np.argsort(cols, kind="stable")
    col_ids, col_starts = np.unique(cols[by_col], return_index=True)
    x = _Sparse(cols, vals, row_starts)
    xt = _Sparse(rows[by_col], vals[by_col], col_starts)

    rng = np.random.default_rng(0)
    y = x.times(rng.standard_normal((sections, DIMS + OVERSAMPLE)), len(kept))
    for _ in range(POWER):
        y = x.times(_scatter(xt.times(np.linalg.qr(y)[0], len(col_ids)), col_ids, sections), len(kept))
    q = np.linalg.qr(y)[0]
    u, s, _ = np.linalg.svd(xt.times(q, len(col_ids)).T, full_matrices=False)
    vectors = (q @ u[:, :DIMS]) * s[:DIMS]
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1)


def _scatter(rows: np.ndarray, at: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros((n, rows.shape[1]))
    out[at] = rows
    return out


class _Sparse:
    """A CSR matrix with no empty row: ``times`` multiplies it by a dense matrix in chunks of
    rows (the gathered rows of the dense matrix would be postings × columns at once)."""
    _CHUNK = 1 << 15        # postings a chunk

    def __init__(self, cols: np.ndarray, vals: np.ndarray, starts: np.ndarray) -> None:
        self.cols, self.vals, self.starts = cols, vals, starts

    def times(self, m: np.ndarray, n_rows: int) -> np.ndarray:
        out = np.empty((n_rows, m.shape[1]))
        bounds = np.r_[self.starts, len(self.cols)]
        first = 0
        while first < n_rows:
            last = max(first + 1, int(np.searchsorted(bounds, bounds[first] + self._CHUNK, "right")) - 1)
            last = min(last, n_rows)
            a, b = bounds[first], bounds[last]
            out[first:last] = np.add.reduceat(self.vals[a:b, None] * m[self.cols[a:b]], self.starts[first:last] - a,
                                              axis=0)
            first = last
        return out


def _neighbours(vectors: np.ndarray, kept: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(count per kept term, neighbour term ids, similarities × 255) of each kept term's
    C.ASSOC_KEEP nearest terms at cosine ≥ C.ASSOC_MIN_SIM, best first, ties by term id.

    Per block of terms the cosines are computed in float32 only to prune: a row's columns are
    cut in groups whose maxima bound its keep-th largest cosine (at least keep cosines reach
    the keep-th largest group maximum), and the cosines within _MARGIN of that bound — far more
    than float32's error, so every true neighbour is among them — are computed again in
    float64 and quantized; the choice is made on those."""
    keep, floor = C.ASSOC_KEEP, int(np.ceil(C.ASSOC_MIN_SIM * 255))
    n = len(kept)
    fast = np.zeros((n + (-n) % _GROUP, vectors.shape[1]), dtype=np.float32)   # zero rows: cosine 0
    fast[:n] = vectors
    groups = len(fast) // _GROUP
    counts = np.zeros(n, dtype=np.uint8)
    ids: list[np.ndarray] = []
    sims: list[np.ndarray] = []
    k = min(keep, groups)
    for first in range(0, n, _BLOCK):
        block = fast[first:min(first + _BLOCK, n)] @ fast.T
        here = np.arange(len(block))
        block[here, first + here] = -1                          # not itself
        maxima = block.reshape(len(block), groups, _GROUP).max(axis=2)
        bound = np.maximum(np.partition(maxima, -k, axis=1)[:, -k], C.ASSOC_MIN_SIM) - _MARGIN
        gr, gg = np.nonzero(maxima >= bound[:, None])           # the groups worth a look
        cols = (gg[:, None] * _GROUP + np.arange(_GROUP)).ravel()
        rows = np.repeat(gr, _GROUP)
        take = (block[rows, cols] >= bound[rows]) & (cols < n)
        r, c = rows[take], cols[take]
        q = np.rint(np.clip(np.einsum("ij,ij->i", vectors[first + r], vectors[c]), 0, 1) * 255).astype(np.int64)
        good = (q >= floor) & (first + r != c)
        r, c, q = r[good], c[good], q[good]
        order = np.lexsort((kept[c], -q, r))
        r, c, q = r[order], c[order], q[order]
        rank = np.arange(len(r)) - np.searchsorted(r, r)        # position within its row
        r, c, q = r[rank < keep], c[rank < keep], q[rank < keep]
        counts[first:first + len(block)] = np.bincount(r, minlength=len(block))
        ids.append(kept[c])
        sims.append(q.astype(np.uint8))
    return counts, np.concatenate(ids) if ids else np.zeros(0, np.int64), \
        np.concatenate(sims) if sims else np.zeros(0, np.uint8)
