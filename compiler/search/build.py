"""Full-text index: BM25F over weighted document fields, with precomputed per-posting impacts.

Segments (prefix ``schema.SEARCH``; read by ``server/search.py``):

* ``search.terms.off/.blob``   sorted string table of terms (``formats/text.py`` terms),
                               ``search.terms.head``: their first 24 bytes (S24) for lookups
* ``search.post_off``          uint64, V+1: CSR offsets into the postings, one run per term
* ``search.post_doc``          uint32 doc ids, ascending within a run
* ``search.post_imp``          float32 BM25F impact idf·wtf·(k1+1)/(wtf+k1) of that term in that doc
* ``search.post_fields``       uint16 bit mask of the fields the term occurs in (explanations)
* ``search.dels.off/.blob``    sorted one-deletion variants of terms (typo tolerance) …
* ``search.dels_off/_term``    … and the CSR of term ids each variant comes from
* ``search.alias.off/.blob``   sorted alias phrase keys (stems joined by spaces) …
* ``search.alias_off/_doc``    … and the CSR of the documents each alias names
* ``search.alias_text.off/.blob`` the phrase of each alias key as written (explanations)
* ``search.family_off/_term``  CSR per term: its word family (``formats/word_family.py``) …
* ``search.family_post_off``   … and CSR per term of its postings merged with the family's:
* ``search.family_doc/_imp``   doc ids ascending, the best of the term's impact and W_DERIVED ×
                               a family term's impact in a naming field (empty: no family)
* ``search.prior``             float32 per doc: class prior (data objects before pictures)
* ``search.refs``              uint32 per doc: other documents referring to it by a strong edge
* ``search.meta``              json: fields and weights, class phrases, query phrases,
                               synonym groups with their origin, counts

Field weights of the built-in domains are declared once, here (``FIELDS``); a registered
domain declares its own (``Domain.search_fields``); an undeclared field gets ``DEFAULT_FIELD``.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from v8atlas.formats.classes import CLASSES
from v8atlas.formats import schema as S
from v8atlas.formats.strtable import build_string_table, encoded_string_table, sort_utf8
from v8atlas.formats.text import (Word, analyze, deletions, phrase_terms, stem_stop_words, whole_key,
                                  word_terms, words)
from v8atlas.formats.word_family import W_DERIVED, families, naming_mask

from .. import pool
from ..build_docs import add_encoded_string_table, outside_core_index
from ..links import DocIndex, SearchDictionary

if TYPE_CHECKING:
    from v8atlas.formats.writer import BundleWriter

    from ..pipeline import LinkContext

DATA_DIR = Path(__file__).parent / "data"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class FieldSpec:
    weight: float   # BM25F field weight
    b: float        # length normalisation inside the field (short name fields barely need it)


# The one declaration of field weights (docs/search.md explains the choice).
FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec(6.0, 0.3),          # identifier: ЗаказПокупателя / РАЗНОСТЬДАТ / Массив.Найти
    "alias": FieldSpec(6.0, 0.2),         # dictionary aliases of this object
    "synonym": FieldSpec(5.0, 0.4),       # the object's synonym (presentation)
    "english": FieldSpec(4.0, 0.3),       # English name of a platform/query element
    "name_en": FieldSpec(4.0, 0.3),       # the same, as the help domain names it
    "keys": FieldSpec(4.0, 0.3),          # query-language search keys (never shown)
    "class": FieldSpec(1.2, 0.0),         # class words: "регистр сведений", "InformationRegister"
    "owner": FieldSpec(1.5, 0.3),         # owner type of a member: "Массив"
    "comment": FieldSpec(1.0, 0.5),       # comment and explanation (what the object is for)
    # Where an object lives and what it holds: synonyms of its subsystems, predefined items,
    # command and form titles (compiler/config/link.py: _search_fields).
    "context": FieldSpec(0.8, 0.5),
    "params": FieldSpec(0.8, 0.5),        # parameter names
    "attributes": FieldSpec(0.6, 0.6),    # attribute names: "objects with field X"
    # Not a text field: "@" + a whole CamelCase attribute name (@владелецфайла), so a query
    # that types the attribute's exact name finds the objects that have it.
    "has": FieldSpec(6.0, 0.0),
    "description": FieldSpec(0.5, 0.75),
    # Not a text field: order-free keys of whole names/synonyms/aliases/keys
    # (formats.text.phrase_key), so a query that *is* a name beats names that contain it.
    "whole": FieldSpec(8.0, 0.0),
}
# Texts a domain gives under their own key but indexed in another field: a presentation is
# searched as a synonym (its own phrase after "|"), an explanation as a comment.
MERGED_INTO = {"presentation": "synonym", "explanation": "comment"}
# Measurement knob (docs/search.md, ablation table): compile-time signals left out, comma-
# separated: presentation, explanation, context, centrality, class_priors.
ABLATE_ENV = "V8ATLAS_SEARCH_ABLATE"
WHOLE_FROM = ("synonym", "alias", "keys")   # fields whose "|"-separated phrases are whole keys
DEFAULT_FIELD = FieldSpec(1.0, 0.5)
K1 = 1.2
MAX_FIELDS = 16        # the field mask is uint16
TYPO_MIN, TYPO_MAX = 4, 16   # term lengths that get a deletion neighbourhood


HAS_PREFIX = "@"


def _load(name: str) -> dict[str, Any]:
    with open(DATA_DIR / name, encoding="utf-8") as f:
        return json.load(f)


def load_classes() -> list[dict[str, Any]]:
    """Every metadata class with its search facts: ``kind``, ``words`` (the names from
    ``formats/classes.py`` — RU/EN, singular/plural, CamelCase split by the tokenizer —
    plus the extra words of ``data/classes.json``), ``data``, ``prior``, ``presentation``."""
    data = _load("classes.json")
    facts = {c["kind"]: c for c in data["classes"]}
    out = []
    for en, ru, en_plural, ru_plural in CLASSES:
        c = {**data["default"], **facts.get(en, {})}
        out.append({"kind": en, "words": [ru, ru_plural, en, en_plural, *c.get("words", [])],
                    "data": bool(c["data"]), "prior": float(c["prior"]),
                    "presentation": bool(c.get("presentation"))})
    return out


def load_phrase_forms() -> dict[str, Any]:
    """Class priors from a phrase's form (``data/phrase_forms.json``) as the server reads them:
    each form's phrases as analysed terms, its classes, lift and whether its words are consumed;
    the action-noun rule with its suffixes (folded surface endings) and words (terms)."""
    data = _load("phrase_forms.json")
    forms = [{"phrases": _phrase_terms(f["words"]), "kinds": f["kinds"], "lift": float(f["lift"]),
              "consume": bool(f.get("consume"))} for f in data["forms"]]
    a = data["action"]
    action = {"kinds": a["kinds"], "lift": float(a["lift"]), "suffixes": a["suffixes"],
              "words": sorted({t for p in _phrase_terms(a["words"]) for t in p})}
    return {"forms": forms, "action": action}


def load_abbreviations() -> dict[str, str]:
    """Abbreviation (a folded query word) → its expansion (words; the server tokenizes them)."""
    return dict(_load("abbreviations.json")["abbreviations"])


def has_terms(attribute_words: list[Word]) -> list[str]:
    """"@" terms of the whole CamelCase attribute names in a field's ``words`` ("@владелецфайла")."""
    return [HAS_PREFIX + w.term for w in attribute_words if w.whole]


def _phrase_terms(phrases: list[str]) -> list[list[str]]:
    out = []
    for p in phrases:
        t = analyze(p)
        if t and t not in out:
            out.append(t)
    return out


PREFIX_BYTES = 24   # fixed-width head of every table string: lookups bisect it in numpy


def _add_table(writer: "BundleWriter", prefix: str, strings: list[str]) -> None:
    """A sorted string table plus ``<prefix>.head``: each string's first PREFIX_BYTES bytes
    as a fixed-width ``S`` array (same order), so the server finds a string with one numpy
    searchsorted instead of a Python bisection over the blob."""
    _add_encoded_table(writer, prefix, [s.encode("utf-8") for s in strings])


def _add_encoded_table(writer: "BundleWriter", prefix: str, encoded: list[bytes]) -> None:
    """``_add_table`` of strings given UTF-8 encoded (in byte order, each once). The blob is
    written and dropped before the head is made: one of them held at a time."""
    add_encoded_string_table(writer, prefix, encoded)
    writer.add_array(f"{prefix}.head", _head(encoded))


def _head(encoded: list[bytes]) -> np.ndarray:
    """Each string's first PREFIX_BYTES bytes as a fixed-width ``S`` array (numpy cuts each
    string itself: a third of the instructions of a slice each)."""
    return np.array(encoded, dtype=f"S{PREFIX_BYTES}")


TableParts = tuple[np.ndarray, bytes, np.ndarray]   # offsets, blob, head: a table's segments


def _table_parts(encoded: list[bytes]) -> TableParts:
    """The segments ``_add_encoded_table`` writes, made where the strings are (a forked child
    sends these three back instead of a list of strings)."""
    return (*encoded_string_table(encoded), _head(encoded))


def _add_table_parts(writer: "BundleWriter", prefix: str, parts: TableParts) -> None:
    off_name, blob_name = S.table_segments(prefix)
    offsets, blob, head = parts
    writer.add_array(off_name, offsets)
    writer.add_blob(blob_name, blob)
    writer.add_array(f"{prefix}.head", head)


def _merged_fields(fields: dict[str, Any], ablate: set[str]) -> dict[str, Any]:
    """A document's fields with ``MERGED_INTO`` texts filed into their target field."""
    for src, dst in MERGED_INTO.items():
        text = fields.pop(src, None)
        if text and src not in ablate:
            sep = " | " if dst in WHOLE_FROM else " "
            fields[dst] = f"{fields[dst]}{sep}{text}" if fields.get(dst) else text
    for f in ablate & {"context"}:
        fields.pop(f, None)
    return fields


CENTRALITY = 0.1   # the most referenced metadata object gets ×1.1, an unreferenced one ×1.0


def _references(ctx: "LinkContext", docs: list, doc_index: dict[str, int]) -> np.ndarray:
    """How many other documents refer to each metadata object by a strong edge (an attribute
    typed by it, a document writing its records, a subsystem holding it…); 0 elsewhere."""
    refs = np.zeros(len(docs))
    sources: dict[int, set[int]] = {}
    for e in ctx.edges:
        if e.weak:
            continue
        dst, src = doc_index.get(e.dst), doc_index.get(e.src)
        if dst is not None and src is not None and src != dst:
            sources.setdefault(dst, set()).add(src)
    for dst, srcs in sources.items():
        if docs[dst].domain == "metadata":
            refs[dst] = len(srcs)
    return refs


def _centrality(refs: np.ndarray) -> np.ndarray:
    """Per-document factor from the references (log scale): of two objects matching the same
    words, the one the configuration is built around (Справочник.Пользователи,
    УчетныеЗаписиЭлектроннойПочты) comes first."""
    top = refs.max() if len(refs) else 0.0
    if top <= 0:
        return np.ones(len(refs))
    return 1.0 + CENTRALITY * np.log1p(refs) / np.log1p(top)


def _csr(keys: list[str], groups: dict[str, Any], dtype: str) -> tuple[np.ndarray, np.ndarray]:
    off = np.zeros(len(keys) + 1, dtype="<u4")
    values: list[int] = []
    for j, k in enumerate(keys):
        values.extend(sorted(groups[k]))
        off[j + 1] = len(values)
    return off, np.array(values, dtype=dtype)


def _add_families(writer: "BundleWriter", terms: list[str], term_ix: dict[str, int], df: np.ndarray,
                  post_off: np.ndarray, post_doc: np.ndarray, post_imp: np.ndarray,
                  post_fields: np.ndarray, naming_mask: int) -> None:
    """Each term's word family and the postings a query word of that stem is scored by: per
    document the best of the term's own impact and W_DERIVED × a family term's impact where that
    term is in a naming field — what the server merged per query before (a stem's family does
    not depend on the query). The same float32 products and maxima, so the same scores."""
    fams = families(terms, df.tolist(), term_ix)
    f_off = np.zeros(len(terms) + 1, dtype="<u4")
    f_off[1:] = np.cumsum([len(f) for f in fams])
    owners = [j for j, f in enumerate(fams) if f]
    # one row per (owner, member): the owner itself first (rank 0), then its family in order
    row_owner = np.array([j for j in owners for _ in range(len(fams[j]) + 1)], dtype=np.int64)
    row_term = np.array([t for j in owners for t in (j, *fams[j])], dtype=np.int64)
    row_rank = np.array([r for j in owners for r in range(len(fams[j]) + 1)], dtype=np.int64)
    lo, hi = post_off[row_term].astype(np.int64), post_off[row_term + 1].astype(np.int64)
    lens = hi - lo
    row = np.repeat(np.arange(len(row_term)), lens)
    at = np.repeat(lo - np.concatenate([[0], np.cumsum(lens)[:-1]]), lens) + np.arange(int(lens.sum()))
    own = row_rank[row] == 0
    keep = own | ((post_fields[at] & naming_mask) != 0)
    row, at, own = row[keep], at[keep], own[keep]
    imp = np.where(own, post_imp[at], post_imp[at] * np.float32(W_DERIVED)).astype("<f4")
    # per (owner, doc) the greatest impact. The rows come by owner, each run by doc: a stable
    # sort of the (owner, doc) key merges presorted runs.
    key = row_owner[row] * (int(post_doc.max(initial=0)) + 1) + post_doc[at]
    order = np.argsort(key, kind="stable")
    key, imp = key[order], imp[order]
    first = np.ones(len(key), dtype=bool)
    first[1:] = key[1:] != key[:-1]
    starts = np.flatnonzero(first)
    best = np.maximum.reduceat(imp, starts) if len(starts) else imp[:0]
    owner = row_owner[row[order[starts]]]
    p_off = np.zeros(len(terms) + 1, dtype="<u4")
    p_off[1:] = np.cumsum(np.bincount(owner, minlength=len(terms)))
    prefix = S.SEARCH
    writer.add_array(f"{prefix}.family_off", f_off)
    writer.add_array(f"{prefix}.family_term", np.array([t for f in fams for t in f], dtype="<u4"))
    writer.add_array(f"{prefix}.family_post_off", p_off)
    writer.add_array(f"{prefix}.family_doc", post_doc[at[order[starts]]].astype("<u4"))
    writer.add_array(f"{prefix}.family_imp", best.astype("<f4"))


def _csr_pairs(keys: list[str], names: list[str], values: list[int], dtype: str
               ) -> tuple[np.ndarray, np.ndarray]:
    """``_csr`` from (name, value) pairs: per key (in ``keys`` order) its distinct values,
    ascending — the same arrays, sorted and deduplicated by numpy instead of a set per key."""
    index = dict(zip(keys, range(len(keys))))
    key_ids = np.fromiter(map(index.__getitem__, names), dtype=np.int64, count=len(names))
    vals = np.array(values, dtype=np.int64)
    stride = int(vals.max()) + 1 if len(vals) else 1
    # sorted and deduplicated by hand: np.unique without an inverse imports numpy.ma (~25 ms)
    pairs = np.sort(key_ids * stride + vals)
    pairs = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))] if len(pairs) else pairs
    off = np.zeros(len(keys) + 1, dtype="<u4")
    off[1:] = np.cumsum(np.bincount(pairs // stride, minlength=len(keys)))
    return off, (pairs % stride).astype(dtype)


def _typo_table(terms: list[str]) -> tuple[TableParts, np.ndarray, np.ndarray]:
    """Typo tolerance: every one-deletion variant of a word term → the terms it comes from
    (the sorted variants' table segments, and their CSR of term ids). Run in a forked child:
    the table is encoded there, not in the search build waiting for it."""
    variants: list[str] = []
    variant_term: list[int] = []
    for j, t in enumerate(terms):
        if TYPO_MIN <= len(t) <= TYPO_MAX and not t.isdigit() and t[0] not in "=" + HAS_PREFIX:
            near = deletions(t)
            variants.extend(near)
            variant_term.extend(repeat(j, len(near)))
    pairs = sorted((v.encode("utf-8"), v) for v in set(variants))   # UTF-8 byte order
    d_off, d_term = _csr_pairs([v for _, v in pairs], variants, variant_term, "<u4")
    return _table_parts([b for b, _ in pairs]), d_off, d_term


def build(ctx: "LinkContext", writer: "BundleWriter") -> None:
    docs = ctx.docs                  # sorted and numbered by build_docs
    # Documents of a domain with its own index (Domain.core_index False) get no entry and do
    # not count in N: a corpus in the bundle leaves metadata and platform scores as they are.
    outside = outside_core_index(ctx)
    n = sum(1 for d in docs if d.domain not in outside)
    stop = stem_stop_words()
    class_data = _load("classes.json")
    classes = load_classes()

    # Field numbering: the declared ones first (stable masks), then any a domain added.
    field_names = list(FIELDS)
    for d in docs:
        for f in d.fields:
            if f not in field_names and f not in MERGED_INTO:
                field_names.append(f)
    if len(field_names) > MAX_FIELDS:
        dropped = field_names[MAX_FIELDS:]
        ctx.report.warn("search", f"more than {MAX_FIELDS} search fields; not indexed: {dropped}",
                        code="search-fields")
        field_names = field_names[:MAX_FIELDS]
    field_ix = {f: i for i, f in enumerate(field_names)}
    declared = {**{f.name: FieldSpec(f.weight, f.b) for d in ctx.domains for f in d.search_fields}, **FIELDS}
    specs = [declared.get(f, DEFAULT_FIELD) for f in field_names]

    # Pass 1: per-doc, per-field term counts and field lengths, flat: one row per (doc, field,
    # distinct term) in doc, field and first-occurrence order; one segment per (doc, field).
    e_term: list[str] = []
    e_tf: list[int] = []
    seg_doc: list[int] = []
    seg_field: list[int] = []
    seg_len: list[int] = []
    seg_rows: list[int] = []
    ablate = {a.strip() for a in os.environ.get(ABLATE_ENV, "").split(",") if a.strip()}
    # The same texts recur across documents (attribute lists, class words, subsystem
    # synonyms in "context", a phrase in several fields): each is tokenized once.
    terms_memo: dict[str, tuple[tuple[str, ...], tuple[int, ...], int]] = {}
    whole_memo: dict[str, tuple[str, str]] = {}
    has_memo: dict[str, list[str]] = {}
    # A text is often both a field and a whole phrase (a name, a synonym): split once for both.
    words_memo: dict[str, list] = {}

    def words_of(text: str) -> list:
        got = words_memo.get(text)
        if got is None:
            got = words_memo[text] = words(text)
        return got

    for doc_id, d in enumerate(docs):
        if d.domain in outside:
            continue
        fields = _merged_fields(dict(d.fields), ablate)
        if fields.get("attributes") and "has" in field_ix:
            attributes = str(fields["attributes"])
            has = has_memo.get(attributes)
            if has is None:
                has = has_memo[attributes] = has_terms(words_of(attributes))
            fields["has"] = has
        phrases = {p.strip() for f in WHOLE_FROM for p in str(fields.get(f) or "").split("|")}
        for nm in (d.title, *d.names):
            dots = nm.count(".")
            if dots == 0:
                phrases.add(nm)
            elif dots == 1:
                # The object's or member's own name: "РегистрСведений.КурсыВалют" → КурсыВалют,
                # "Глобальный контекст.СтрДлина" → СтрДлина. Deeper addresses (a register's
                # virtual table) are not the object itself; exact names find those. A metadata
                # class prefix stays out: "общий модуль пользователи" names a class, not a name.
                if d.domain != "metadata":
                    phrases.add(nm)
                phrases.add(nm.rsplit(".", 1)[1])
        wholes = set()
        for p in phrases:
            keys = whole_memo.get(p)
            if keys is None:
                stems = [t for t in phrase_terms(words_of(p)) if t not in stop]
                keys = whole_memo[p] = (whole_key(stems), whole_key(stems, ordered=True))
            wholes.update(keys)
        wholes.discard("")
        if wholes:
            fields["whole"] = wholes
        for f, text in fields.items():
            i = field_ix.get(f)
            if i is None or not text:
                continue
            if f == "whole" and isinstance(text, set):   # each key once: no counting
                row_terms = tuple(sorted(text))
                row_tf, length = (1,) * len(row_terms), len(row_terms)
            elif f in ("whole", "has"):
                counts = Counter(sorted(text))
                row_terms, row_tf, length = tuple(counts), tuple(counts.values()), len(text)
            else:
                key = text if isinstance(text, str) else " ".join(map(str, text))
                got = terms_memo.get(key)
                if got is None:
                    # a field's split is not needed again (terms_memo has its terms): dropped
                    ws = words_memo.pop(key, None)
                    counts = Counter(word_terms(ws if ws is not None else words(key), surfaces=True))
                    got = terms_memo[key] = (tuple(counts), tuple(counts.values()),
                                             sum(counts.values()))
                row_terms, row_tf, length = got
            if not length:
                continue
            e_term.extend(row_terms)
            e_tf.extend(row_tf)
            seg_doc.append(doc_id)
            seg_field.append(i)
            seg_len.append(length)
            seg_rows.append(len(row_terms))
    # Per field: its segments' lengths summed and counted (integers, exact in float64 in any
    # order: the same values a += per segment gave, without two numpy scalar updates each).
    words_memo.clear()     # pass 1 is over: its splits are not needed again
    s_field = np.array(seg_field, dtype=np.int64)
    s_len = np.array(seg_len, dtype=np.float64)
    field_len_sum = np.bincount(s_field, weights=s_len, minlength=len(field_names))
    field_docs = np.bincount(s_field, minlength=len(field_names)).astype(np.float64)
    avg_len = np.where(field_docs > 0, field_len_sum / np.maximum(field_docs, 1), 1.0)

    # Pass 2, in numpy: BM25F pseudo-frequency per (term, doc), impacts, CSR order. The same
    # floating-point operations in the same order as a per-document loop (a field's norm
    # 1 - b + b·len/avg; a row's weight·tf/norm; a (term, doc)'s rows summed from 0.0 in
    # field order, which bincount keeps), so the same bits.
    terms = sort_utf8(e_term)
    # The typo table reads the terms alone: built by a forked child while this process makes
    # the postings and the families (0.13 s of SSL's 0.65, the search build being the longest
    # step of the compile's tail).
    typos = pool.split_call(_typo_table, terms)
    term_ix = {t: j for j, t in enumerate(terms)}
    row_tid = np.fromiter(map(term_ix.__getitem__, e_term), dtype=np.int64, count=len(e_term))
    rows = np.array(seg_rows, dtype=np.int64)
    b = np.array([sp.b for sp in specs], dtype=np.float64)[s_field]
    s_norm = (1.0 - b) + b * s_len / avg_len[s_field]
    weight = np.array([sp.weight for sp in specs], dtype=np.float64)[s_field]
    contrib = (np.repeat(weight, rows) * np.array(e_tf, dtype=np.float64)) / np.repeat(s_norm, rows)
    # One posting per distinct (term, doc); keys sorted by term, then doc id ascending. The
    # stride is the number of documents (every doc id is below it), not BM25's N.
    stride = max(len(docs), 1)
    pair = row_tid * stride + np.repeat(np.array(seg_doc, dtype=np.int64), rows)
    keys, inverse = np.unique(pair, return_inverse=True)
    w = np.bincount(inverse, weights=contrib, minlength=len(keys))
    # the fields a term occurs in: distinct powers of two per posting, summed exactly
    mask = np.bincount(inverse, weights=np.repeat(np.left_shift(1, s_field), rows).astype(np.float64),
                       minlength=len(keys))
    tid = keys // stride
    df = np.bincount(tid, minlength=len(terms))
    idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
    total = len(tid)
    post_off = np.zeros(len(terms) + 1, dtype="<u8")
    post_off[1:] = np.cumsum(df)
    post_doc = (keys % stride).astype("<u4")
    post_imp = (idf[tid] * w * (K1 + 1.0) / (w + K1)).astype("<f4")
    post_fields = mask.astype(np.int64).astype("<u2")

    prefix = S.SEARCH
    _add_table(writer, f"{prefix}.terms", terms)
    writer.add_array(f"{prefix}.post_off", post_off)
    writer.add_array(f"{prefix}.post_doc", post_doc)
    writer.add_array(f"{prefix}.post_imp", post_imp)
    writer.add_array(f"{prefix}.post_fields", post_fields)

    _add_families(writer, terms, term_ix, df, post_off, post_doc, post_imp, post_fields,
                  naming_mask(field_names))

    dels, d_off, d_term = typos.result()
    _add_table_parts(writer, f"{prefix}.dels", dels)
    writer.add_array(f"{prefix}.dels_off", d_off)
    writer.add_array(f"{prefix}.dels_term", d_term)

    # Aliases: phrase key → documents (a phrase may name objects in several configurations).
    doc_index: dict[str, int] = ctx.links.need(DocIndex).ids
    dictionary = ctx.links.get(SearchDictionary) or SearchDictionary()
    aliases: dict[str, set[int]] = {}
    alias_phrase: dict[str, str] = {}   # key → the phrase as the dictionary wrote it (explanations)
    for a in dictionary.aliases:
        key = " ".join(t for t in analyze(a["phrase"]) if t not in stop)
        ids = {doc_index[k] for k in a["keys"] if k in doc_index}
        if key and ids:
            aliases.setdefault(key, set()).update(ids)
            alias_phrase.setdefault(key, a["phrase"])
    alias_keys = sort_utf8(aliases)
    _add_table(writer, f"{prefix}.alias", alias_keys)
    # Same order as the keys: row j is the phrase of key j (not searched, only shown).
    p_off, p_blob = build_string_table([alias_phrase[k] for k in alias_keys])
    p_off_name, p_blob_name = S.table_segments(f"{prefix}.alias_text")
    writer.add_array(p_off_name, p_off)
    writer.add_blob(p_blob_name, p_blob)
    a_off, a_doc = _csr(alias_keys, aliases, "<u4")
    writer.add_array(f"{prefix}.alias_off", a_off)
    writer.add_array(f"{prefix}.alias_doc", a_doc)

    # Class prior per document: a data question gets the catalog before the picture.
    prior_by_kind = {c["kind"]: c["prior"] if "class_priors" not in ablate else 1.0 for c in classes}
    # Kinds that are parts of an object, not classes with class words (an object's own Form and
    # Template, from the forms domain): their prior comes straight from classes.json.
    prior_by_kind.update({c["kind"]: float(c["prior"]) if "class_priors" not in ablate else 1.0
                          for c in class_data["classes"] if c["kind"] not in prior_by_kind})
    element_prior = {k: float(v) for k, v in class_data.get("element_priors", {}).items()}
    prior = np.array([prior_by_kind.get(d.kind, 1.0) if d.domain == "metadata" else element_prior.get(d.kind, 1.0)
                      for d in docs], dtype="<f8")
    refs = _references(ctx, docs, doc_index)
    if "centrality" not in ablate:
        prior *= _centrality(refs)
    writer.add_array(f"{prefix}.prior", prior.astype("<f4"))
    # The counts themselves: a search of the configuration alone weighs them much more than the
    # prior's 1.1 (server/search.py DOMAIN_CENTRALITY), where no platform method competes.
    writer.add_array(f"{prefix}.refs", refs.astype("<u4"))

    synonyms = [{"phrases": _phrase_terms(g["words"]), "words": g["words"], "origin": g["origin"],
                 "domains": g.get("domains")}
                for g in dictionary.synonyms]
    writer.add_json(f"{prefix}.meta", {
        "version": FORMAT_VERSION,
        "k1": K1,
        "fields": field_names,
        "weights": {f: [s.weight, s.b] for f, s in zip(field_names, specs)},
        "classes": [{"kind": c["kind"], "phrases": _phrase_terms(c["words"]), "data": c["data"],
                     "presentation": c["presentation"],
                     # the server lifts a named class's own prior off (plumbing asked for by name)
                     "prior": c["prior"] if "class_priors" not in ablate else 1.0} for c in classes],
        "query_phrases": _phrase_terms(class_data["query_phrases"]),
        "data_words": sorted({t for p in _phrase_terms(class_data["data_words"]) for t in p}),
        "abbreviations": load_abbreviations(),
        "phrase_forms": load_phrase_forms(),
        # English names of query-language elements (select, distinct, isnull): a phrase that
        # uses one is about queries, so query pages are not put behind platform elements.
        "query_names": sorted({t for d in docs if d.domain == "query"
                               for t in analyze(str(dict(d.fields).get("name_en") or ""))}),
        "synonyms": [s for s in synonyms if len(s["phrases"]) > 1],
        "aliases": len(alias_keys),
    })
    ctx.counts["search"] = {"terms": len(terms), "postings": int(total),
                            "typo_variants": len(d_off) - 1, "aliases": len(alias_keys),
                            "synonym_groups": len(synonyms)}
