"""Word families of the search index: the rule both halves share.

Russian derivation the stemmer keeps apart (касса/кассовый, приход/приходный, склад/складской):
a term that is a query word's stem cut by at most ``DERIVED_CUT`` letters, or that stem grown by
at most ``DERIVED_GROW`` letters, matches at ``W_DERIVED`` in the fields that name a document.
Stems shorter than ``DERIVED_MIN`` letters, and stems not starting with a Cyrillic letter, have no
family. A stem's family depends on the term table alone, not on the query, so the compiler
(``compiler/search/build.py``) stores every indexed stem's family and its postings merged with
the stem's own (``search.family_*``); the server (``server/search.py``) reads them and applies the
same rule live only to a stem the index lacks.
"""
from __future__ import annotations

W_DERIVED = 0.5
DERIVED_MIN, DERIVED_CUT, DERIVED_GROW, DERIVED_EXPANSIONS = 4, 3, 3, 2
# Fields that name a document: a word-family match counts only there (and a hit's relevance is
# the share of the query's words met in them).
NAMING_FIELDS = ("name", "alias", "synonym", "english", "name_en", "keys")


# Perfective prefixes of Russian -овать verbs: a user says what to do once (скопировать,
# закодировать, сформировать), the platform names the method by the imperfective (Копировать…,
# Кодировать…, Сформировать is rarer). The prefix is taken off only a verb stem ending in -ова
# whose remainder keeps ASPECT_MIN letters, and only where the index has the remainder as a term.
ASPECT_PREFIXES = ("пере", "рас", "раз", "про", "вы", "за", "по", "от", "на", "об", "с", "у")
ASPECT_SUFFIX, ASPECT_MIN = "ова", 6


def imperfective(term: str) -> list[str]:
    """The stem of a perfective -овать verb without its prefix (скопирова → копирова), longest
    prefix first; [] for any other stem."""
    if not term.endswith(ASPECT_SUFFIX) or not has_family(term):
        return []
    return [term[len(p):] for p in ASPECT_PREFIXES
            if term.startswith(p) and len(term) - len(p) >= ASPECT_MIN]


def has_family(term: str) -> bool:
    """The stem is long enough and Cyrillic: a word family is looked for."""
    return len(term) >= DERIVED_MIN and ("а" <= term[0] <= "я" or term[0] == "ё")


def cut_lengths(term: str) -> range:
    """Lengths of the stem's cuts to try, longest first: at most DERIVED_CUT letters off, and
    two thirds of the stem kept (кассов → касс, not професс → проф)."""
    shortest = max(DERIVED_MIN, len(term) - DERIVED_CUT, -(-2 * len(term) // 3))
    return range(len(term) - 1, shortest - 1, -1)


def naming_mask(fields: "list[str] | tuple[str, ...]") -> int:
    """The bit mask of the naming fields among a search index's ``fields`` (bit i = field i)."""
    return sum(1 << i for i, f in enumerate(fields) if f in NAMING_FIELDS)


def grows(stem_letters: int, completion_bytes: int) -> bool:
    """A completion of a stem of ``stem_letters`` letters, ``completion_bytes`` UTF-8 bytes long,
    grows it by one to DERIVED_GROW letters (2 bytes a Cyrillic letter: measured in bytes, so the
    server compares table offsets without decoding)."""
    return 2 * stem_letters < completion_bytes <= 2 * (stem_letters + DERIVED_GROW)


def families(terms: list[str], df: list[int], ix: dict[str, int] | None = None) -> list[list[int]]:
    """Every term's word family as term ids, in the order the server tries them: the longest
    cut that is a term, then the DERIVED_EXPANSIONS completions of most postings (ties: lower
    id). ``terms`` sorted as the term table, ``df`` their posting counts, ``ix`` term → id."""
    if ix is None:
        ix = {t: j for j, t in enumerate(terms)}
    stems = [j for j, t in enumerate(terms) if has_family(t)]
    grown: dict[int, list[int]] = {}
    for j in stems:
        u = terms[j]
        size = len(u.encode("utf-8"))
        # the stems u grows: its prefixes p with grows(len(p), size), each as long as
        # DERIVED_MIN and starting as u does (u itself too, should its bytes outgrow its
        # letters: the server leaves a stem out of its own family)
        for k in range(max(DERIVED_MIN, (size - 2 * DERIVED_GROW + 1) // 2), min(len(u), (size - 1) // 2) + 1):
            p = ix.get(u[:k])
            if p is not None:
                grown.setdefault(p, []).append(j)
    out: list[list[int]] = [[] for _ in terms]
    for j in stems:
        t = terms[j]
        fam = out[j]
        for k in cut_lengths(t):
            c = ix.get(t[:k])
            if c is not None:
                fam.append(c)
                break
        got = grown.get(j)
        if got:
            fam.extend(sorted(got, key=lambda g: (-df[g], g))[:DERIVED_EXPANSIONS])
    return out
