"""The corpus segments both sides agree on: document corpora (guides, format specs, standards,
code templates, project notes) and their own full-text index.

A corpus section is a core document (``docs.*``: card, title, exact names); the corpus index
is kept apart from the core one (``search.*``) so a corpus's relevance threshold does not move
when a configuration is added to the bundle, and an agent's notes never touch the postings
other answers are ranked by.

Segments (prefix ``corpus.``; written by ``compiler/corpus/index.py``, read by
``server/corpus_search.py``):

* ``corpus.terms.off/.blob``  sorted string table of terms (``formats/text.py`` terms)
* ``corpus.post_off``         uint64 V+1, CSR offsets of each term's postings
* ``corpus.post_sec``         uint32 section numbers (corpus-local), ascending within a run
* ``corpus.post_imp``         float32 BM25 impact of the term in that section
* ``corpus.sec_doc``          uint32 core document id of each section
* ``corpus.sec_corpus``       uint16 the corpus each section belongs to
* ``corpus.sec_file``         uint32 the document (file) each section belongs to
* ``corpus.subword``          blob, zstd: the terms' character n-grams (``subword_grams``)
                              hashed into ``meta["subword_buckets"]`` buckets: the term
                              count of each bucket, then each bucket's term ids ascending,
                              the first whole and the rest as deltas, all in
                              ``subword_dtype`` (a term → n-gram table, not per section: it only
                              finds the terms near a query word the corpus does not hold)
* ``corpus.assoc``           blob, zstd: each term's nearest terms in a latent space learned
                              from the corpus (``compiler/corpus/assoc.py``): a uint8 count per
                              term, then the neighbours' term ids (``subword_dtype``) term by
                              term, best first, then their cosines × 255 as uint8
* ``corpus.meta``             json: corpora (name, kind, counts), N, idf of an unseen term
"""
from __future__ import annotations

import zlib

import zstandard

DOC_DOMAIN = "corpus"          # Doc.domain of every corpus section
PREFIX = "corpus."
TERMS = "corpus.terms"
POST_OFF = "corpus.post_off"
POST_SEC = "corpus.post_sec"
POST_IMP = "corpus.post_imp"
SEC_DOC = "corpus.sec_doc"
SEC_CORPUS = "corpus.sec_corpus"
SEC_FILE = "corpus.sec_file"
META = "corpus.meta"
SUBWORD = "corpus.subword"
ASSOC = "corpus.assoc"

# What a corpus holds; a note is always shown as a note (written by people or agents, not
# checked against any configuration).
KINDS = ("docs", "formats", "standards", "templates", "notes")
NOTES = "notes"

# BM25 over weighted term frequencies: a term in the title or a heading counts more than one
# in the body; template descriptions and the identifiers of code count like headings.
K1 = 1.2
B = 0.75
WEIGHTS = {"title": 3.0, "heading": 2.0, "description": 2.0, "code": 1.5, "body": 1.0}

# Subword signal (fastText-style): a term's character 3- to 5-grams with "<" and ">" marking
# its ends, so «иска» (искать) meets «поиска» and "used" meets "unused". Buckets per gram:
# at least twice the distinct grams, a power of two (hashing keeps the gram strings out of
# the bundle; a collision only adds a candidate, which the server checks exactly).
SUBWORD_MIN, SUBWORD_MAX = 3, 5


def subword_grams(term: str) -> set[str]:
    marked = f"<{term}>"
    return {marked[i:i + n] for n in range(SUBWORD_MIN, SUBWORD_MAX + 1)
            for i in range(len(marked) - n + 1)}


def subword_bucket(gram: str, buckets: int) -> int:
    """The bucket of a gram: crc32 of its UTF-8 (stable across processes, unlike ``hash``)."""
    return zlib.crc32(gram.encode("utf-8")) & (buckets - 1)


def subword_dtype(terms: int) -> str:
    """uint16 while every term id (and so every bucket's count) fits, else uint32: the table
    is a quarter smaller compressed on the public corpora."""
    return "<u2" if terms <= 0xFFFF else "<u4"


# Associations (LSA neighbours): how many a term keeps, and the least cosine worth storing.
ASSOC_KEEP = 8
ASSOC_MIN_SIM = 0.3


def pack_blob(raw: bytes) -> bytes:
    """A ``corpus.subword``/``corpus.assoc`` blob as written (zstd level 3, no checksum: the
    bundle's own hash covers it)."""
    return zstandard.ZstdCompressor(level=3, write_checksum=False).compress(raw)


def unpack_blob(blob: memoryview | bytes) -> bytes:
    """The raw bytes of a blob ``pack_blob`` wrote."""
    return zstandard.ZstdDecompressor().decompress(blob)
