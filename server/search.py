"""Search over a bundle: exact names, then aliases, then BM25F over the memory-mapped index.

Reads only ``formats/`` segments (written by ``compiler/search/build.py``). A query touches
the exact-name table, the alias table and the postings of its own terms; scores accumulate
in one dense float32 array per query (no Python loop over documents). Every hit says why it
matched. Fallbacks (prefix, typo, keyboard layout, transliteration) are bounded and reported.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from operator import itemgetter, ne
from typing import Any, Iterable

import numpy as np

from v8atlas.formats import schema as S
from v8atlas.formats.catalog import Catalog
from v8atlas.formats.graph import OUT, Graph, segment
from v8atlas.formats.platform_version import encode_version
from v8atlas.formats.reader import Bundle
from v8atlas.formats.strtable import StringTable
from v8atlas.formats.text import (WORD_RUNS, Word, deletions, fold, name_key, stem_stop_words, swap_layout,
                                  transliterate, whole_key, words)
from v8atlas.formats.word_family import (DERIVED_EXPANSIONS, DERIVED_GROW, W_DERIVED,
                                         cut_lengths, grows, has_family, imperfective, naming_mask)

MAX_QUERY_CHARS = 300      # longer input is cut (and the answer says so)
MAX_SLOTS = 12             # words of a query that take part in ranking
MAX_LIMIT = 100
PREFIX_MIN = 3             # shortest partial word that expands by prefix
PREFIX_EXPANSIONS = 8      # most frequent completions kept per partial word
TYPO_MIN = 4
TYPO_CANDIDATES = 6

# Relative weights of the ways a query word can match a term.
W_EXACT_TERM, W_SYNONYM, W_PREFIX, W_TYPO, W_WHOLE = 1.0, 0.8, 0.7, 0.6, 2.0
W_SYNONYM_PHRASE = 0.4   # a synonym phrase of another length: a hint, not a match
W_WHOLE_PART = 1.0       # a run of the query's words is a whole name (the rest describes it)
W_WHOLE_SYNONYM = 0.5    # the whole phrase met only with a synonym in place
MAX_WHOLE_VARIANTS = 16
W_HAS = 2.0              # the query types an attribute's exact name: objects that have it
# What a report shows is the registers it reads (round 2, session 8, `report_reads`): in a search
# of the configuration alone whose phrase does not ask for a report, each of the best
# REPORT_TOP hits that is a report found by its words (not by its exact name) passes
# REPORT_READS × its score, shared equally, to the registers its code reads (the code domain's
# edges, READ_EDGES) that the phrase's words match. 1.5 of {0.3, 0.6, 1.0, 1.5, 2.0, 3.0} on the
# tuning halves (docs/search.md).
REPORT_READS = 1.5
REPORT_TOP = 10
# The graph's edges that say a report reads a register: a query text naming it (code_reads) or
# any other mention in the report's code (code_uses: SSL reports list the tables they show in
# OnDefineUsedTables; a report writes nothing). code_reads alone: one English SSL tuning query less.
READ_EDGES = ("code_reads", "code_uses")
REGISTER_KINDS = ("AccumulationRegister", "InformationRegister", "AccountingRegister", "CalculationRegister")
W_ASPECT = 1.0           # скопировать → копирова: the same verb in the other aspect (a form, not a synonym)
# Word families (касса/кассовый: formats/word_family.py) are stored per stem by the compiler;
# the rule runs here only for a stem the index lacks.
DERIVED_PY_RANGE = 256   # completions of a stem looked at in plain Python (more: numpy)
FILTER_CACHE = 256       # distinct filters whose masks are kept (a session uses a handful)
# A word's alternatives (its terms, family, aspect, prefix/typo expansions) depend only on the
# word and the bundle: kept for this many distinct words, then all dropped at once (an agent's
# session repeats its vocabulary; ~1 KB a word). Never a whole query's answer.
WORD_CACHE = 4096
# The merged posting runs of a slot's alternatives (Searcher._merged_run) kept, in bytes; a run
# larger than an eighth of it is not kept.
MERGE_CACHE_BYTES = 32 << 20
BEST_PY_POSTINGS = 96    # a multi-alternative slot with at most this many postings: plain Python
EXACT_BONUS, ALIAS_BONUS = 1000.0, 500.0      # exact names first, then aliases, then text
# QUERY_LIFT: a phrase that says "в запросе"/"in a query" asks for the query language; its pages
# are lifted ×3 over platform elements of the same words (1.5 before: measured on the tuning halves).
CLASS_BOOST, QUERY_LIFT, DATA_BOOST = 2.0, 3.0, 1.15
CLASS_OTHERS = 0.5       # a class named in the query ("регистр сведений …") demotes the rest
# A search of the configuration alone (search_metadata: domains = metadata) weighs an object's
# graph importance much more than the prior's ×1.1: × (1 + DOMAIN_CENTRALITY·log(1+r)/log(1+r_max)),
# r = objects referring to it by a strong edge (search.refs). Only there: in a search of every
# domain it would push platform methods behind configuration objects (measured in round 2).
# 2.0 chosen on the tuning halves (1.5–3 gave the same P@1; docs/search.md, round 2, session 3).
DOMAIN_CENTRALITY = 2.0
# Pictures, styles, commands… (classes.json "presentation") lose to data objects that match
# the same words, unless the query names their class.
PRESENTATION_DEMOTE = 0.4
HAS_PREFIX = "@"         # compiler/search/build.py: "@" + whole attribute name
# A phrase that does not speak of queries asks for the platform element first: the query
# language's function of the same name (ПОДСТРОКА, МАКСИМУМ) waits behind it.
QUERY_DEMOTE = 0.6
ACTION_MIN_STEM = 3      # an action-noun suffix counts on words with at least this much before it
# `found` needs the best hit to clear both (calibrated on the tuning halves, docs/search.md
# "Relevance you can trust"): a quarter of the words in its naming fields, and a lead of 2 %
# over the second hit (a tie is two equally good guesses, not a find). Exact names and aliases
# are finds whatever the scores.
RELEVANCE_MIN, LEAD_MIN = 0.25, 0.02

# Control characters: line/tab-like ones separate words, the others are dropped where they
# stand ("поль\x01зов\x1bатели" is one word with junk inside, not three words).
_SEPARATOR_CHARS = re.compile(r"[\t\n\x0b\x0c\r\x85\u2028\u2029]+")
_INVISIBLE_CHARS = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\u200b-\u200f\u202a-\u202e"
                              r"\u2060\ufeff]+")


class _PageNames:
    """The keys, titles, domain and kind names of one page's documents, read from the catalog
    on the first access for the whole page at once (one gather each). The server's answers
    take names from the snapshot and read only a hit's document, score and explanations, so
    a search it serves decodes none of them."""

    __slots__ = ("_catalog", "_kinds", "_docs", "_got")

    def __init__(self, catalog: Catalog, kind_names: list[str], docs: list[int]) -> None:
        self._catalog, self._kinds, self._docs = catalog, kind_names, docs
        self._got: tuple[list[str], list[str], list[str], list[str]] | None = None

    def get(self) -> tuple[list[str], list[str], list[str], list[str]]:
        got = self._got
        if got is None:
            cat, ix = self._catalog, np.asarray(self._docs, dtype=np.int64)
            got = self._got = (cat.keys.get_many(self._docs), cat.titles.get_many(self._docs),
                               [cat.domains[i] for i in cat.domain[ix].tolist()],
                               [self._kinds[i] for i in cat.kind[ix].tolist()])
        return got


@dataclass(slots=True)
class Hit:
    doc: int
    score: float
    why: list[str] = field(default_factory=list)
    # A guess, not a find: no exact name or alias, and the words met only through a typo
    # correction, or fewer than half of the query's words matched.
    fuzzy: bool = False
    # Share of the query's words met in the fields that name this document (name, synonym,
    # presentation, alias, search keys, the whole phrase); 1.0 for an exact name or alias.
    relevance: float = 0.0
    # The "words:" reason as data: each query word as the user typed it and the fields it
    # matched in (the text says the indexed term, a stem); the dashboard renders these.
    matches: list[dict[str, Any]] = field(default_factory=list)
    # The page's names (key, title, domain, kind: the properties below) and this hit's row.
    names: _PageNames | None = field(default=None, repr=False, compare=False)
    row: int = field(default=0, repr=False, compare=False)

    def _name(self, which: int) -> str:
        return self.names.get()[which][self.row] if self.names is not None else ""

    # key, title, domain, kind: read for the whole page on first access (``_PageNames``)
    key = property(lambda self: self._name(0))
    title = property(lambda self: self._name(1))
    domain = property(lambda self: self._name(2))
    kind = property(lambda self: self._name(3))

    def as_dict(self) -> dict[str, Any]:
        return {"doc": self.doc, "key": self.key, "title": self.title, "domain": self.domain,
                "kind": self.kind, "score": round(self.score, 4), "why": self.why,
                "fuzzy": self.fuzzy, "relevance": round(self.relevance, 3), "matches": self.matches}


@dataclass
class SearchResult:
    hits: list[Hit]
    total: int
    rewrites: list[str] = field(default_factory=list)   # what was done to the query, in words
    notes: list[str] = field(default_factory=list)      # why the answer is empty or partial
    # True when the best hit is a find (an exact name, an alias, or most of the words matched
    # as typed, through synonyms or after a reported rewrite); False when there are no hits or
    # the best one is a guess (typo corrections, few words matched): "nearest guesses".
    confident: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"hits": [h.as_dict() for h in self.hits], "total": self.total,
                "rewrites": self.rewrites, "notes": self.notes, "confident": self.confident}


@dataclass
class _Alt:
    term: int          # term id
    weight: float
    reason: str        # "" for the word itself, else "prefix …", "typo …", "synonym …"
    text: str = ""     # the term itself when known (saves decoding it from the table)
    typo: bool = False  # a typo correction: a hit resting on it is a guess (Hit.fuzzy)
    # doc id → allowed, for a synonym of a group limited to some domains (business words match
    # configuration objects only); None: every document
    only: np.ndarray | None = None
    # A whole name met through a synonym of two or more query words ("exchange rate" → "курс
    # валют"), or a group word in the other script (users ↔ пользователи): a translation of the
    # query, as good as its own words (not a guess).
    phrase: bool = False
    # Field bit mask the match must fall in (0: any field): a word-family match counts only in
    # the fields that name a document, not in its description.
    fields: int = 0
    # The stem whose stored postings merged with its word family's (search.family_post_off)
    # score this alternative: the stem's own alternative and its family's carry its id and are
    # scored as one posting run; -1: scored by the term's own postings.
    family: int = -1
    # What a match through it says (term text, attribute, listed, own word, and per field mask
    # the "words:" text and field names): _hits works it out on the first page it explains; an
    # alternative kept per word or phrase reuses it.
    explain: tuple[str, bool, bool, bool, dict[int, tuple[str, list[str]]]] | None = field(
        default=None, init=False, repr=False, compare=False)
    # The term's posting range and its documents (a view), read by _hits on first use: a kept
    # alternative explains many pages.
    postings: tuple[int, np.ndarray] | None = field(default=None, init=False, repr=False, compare=False)


@dataclass
class _Slot:
    word: str                      # the query word (folded surface)
    alts: list[_Alt]
    required: bool = True          # counts for coverage (bonus slots do not)
    conj: bool = False             # all alternatives must match (a multi-word synonym phrase)
    covers: int = 0                # words of the query this bonus slot stands for (coverage)
    span: range = range(0)         # the word slots a synonym phrase slot stands in for
    whole: bool = False            # the whole-phrase bonus slot (its value carries the prior again)


@dataclass
class _Plan:
    slots: list[_Slot]
    kinds: set[int]                # metadata kinds named in the phrase ("регистр сведений")
    kind_words: list[str]
    query_lift: bool
    data_question: bool
    stop_only: bool
    # Class priors from the phrase's form (data/phrase_forms.json): (kind ids, lift, the words
    # that showed it), applied to metadata objects of those kinds.
    lifts: list[tuple[frozenset[int], float, str]] = field(default_factory=list)
    query_named: bool = False      # an English query-language name (select, isnull) is in it
    central: bool = False          # graph importance weighed (a search of the configuration alone)


# Query-time signals that can be switched off one at a time to measure what each one earns
# (tools/eval_search.py --ablate; docs/search.md, the ablation table). Never set in serving.
SIGNALS = ("forms", "action", "query_prior", "derived", "part", "threshold", "whole_prior",
           "domain_centrality", "class_head", "aspect", "report_reads")


class Searcher:
    def __init__(self, bundle: Bundle, disabled: Iterable[str] = (),
                 catalog: Catalog | None = None) -> None:
        """``catalog``: the bundle's catalog when the caller has one already (the server's
        snapshot), so its tables and the names' sketches are built once."""
        self.bundle = bundle
        self.disabled = frozenset(disabled)
        self.catalog = catalog if catalog is not None else Catalog(bundle)
        self.n = len(self.catalog)
        p = S.SEARCH
        self.has_index = bundle.has(f"{p}.post_off")
        self._stop = stem_stop_words()
        self._kind_names: list[str] = self.catalog.meta.get("kinds", [])
        # report_reads: the report kind, the register kinds (the graph is read on first use)
        self._report_kind = self._kind_names.index("Report") if "Report" in self._kind_names else -1
        self._register_kinds = {i for i, k in enumerate(self._kind_names) if k in REGISTER_KINDS}
        self._report_regs: dict[int, np.ndarray] | None = None    # see _reads
        # (domains, config, kind, version) → (allowed mask, notes): see _filter
        self._filters: dict[tuple[Any, ...], tuple[np.ndarray, tuple[str, ...]]] = {}
        # (stem, surface) → the word's alternatives (see _plan; the _Alt objects are never
        # changed once made, each plan copies the list)
        self._word_alts: dict[tuple[str, str], list[_Alt]] = {}
        # synonym phrase → what it brings (see _synonym_entries; bounded by the bundle's groups)
        self._syn_memo: dict[tuple[str, ...], list[Any]] = {}
        # alternatives → their merged run (_merged_run) or their documents in common (_phrase_run)
        self._merged: dict[tuple[Any, ...], tuple[np.ndarray, np.ndarray]] = {}
        self._merged_bytes = 0
        self._codes: tuple[list[int], list[int], list[int] | None] | None = None   # see _doc_codes
        self._central: np.ndarray | None = None   # graph importance factor (set below)
        self.refs: np.ndarray | None = None
        if not self.has_index:
            self.meta: dict[str, Any] = {"fields": [], "classes": [], "query_phrases": [],
                                         "data_words": [], "synonyms": []}
            self._abbreviations = {}
            return
        self.terms = _table(bundle, f"{p}.terms", in_memory=True)
        self.post_off = bundle.array(f"{p}.post_off")
        self.post_doc = bundle.array(f"{p}.post_doc")
        self.post_imp = bundle.array(f"{p}.post_imp")
        self.post_fields = bundle.array(f"{p}.post_fields")
        self.dels = _table(bundle, f"{p}.dels")
        self.dels_off = bundle.array(f"{p}.dels_off")
        self.dels_term = bundle.array(f"{p}.dels_term")
        # Word families and their merged postings (older bundles: none; the rule runs live).
        self.has_families = bundle.has(f"{p}.family_post_off")
        if self.has_families:
            self.family_off = bundle.array(f"{p}.family_off")
            self.family_term = bundle.array(f"{p}.family_term")
            self.family_post_off = bundle.array(f"{p}.family_post_off")
            self.family_doc = bundle.array(f"{p}.family_doc")
            self.family_imp = bundle.array(f"{p}.family_imp")
        self.alias = _table(bundle, f"{p}.alias")
        self.alias_off = bundle.array(f"{p}.alias_off")
        self.alias_doc = bundle.array(f"{p}.alias_doc")
        # The phrases as the dictionary wrote them, row j for alias key j (older bundles: none).
        text_off, text_blob = S.table_segments(f"{p}.alias_text")
        self.alias_text = (StringTable(bundle.array(text_off), bundle.blob(text_blob))
                           if bundle.has(text_off) else None)
        self.prior = bundle.array(f"{p}.prior")
        # Graph importance factor per document for searches of the configuration alone (older
        # bundles without search.refs: none).
        self.refs = bundle.array(f"{p}.refs") if bundle.has(f"{p}.refs") else None
        if self.refs is not None and len(self.refs) and (top := int(self.refs.max())) > 0:
            self._central = 1.0 + DOMAIN_CENTRALITY * np.log1p(self.refs) / np.log1p(top)
        self.meta = bundle.json(f"{p}.meta")
        # Small lookups from the meta (hundreds of entries at most, not per document).
        kinds = self.catalog.meta.get("kinds", [])
        kind_ix = {k: i for i, k in enumerate(kinds)}
        self._kind_names = kinds
        # Class prior per kind (search.meta; bundles before it: 1.0, the boost alone).
        self._kind_prior = np.ones(max(len(kinds), 1))
        for c in self.meta["classes"]:
            if c["kind"] in kind_ix:
                self._kind_prior[kind_ix[c["kind"]]] = float(c.get("prior", 1.0))
        self._class_phrases = sorted(
            ((tuple(ph), c["kind"], kind_ix.get(c["kind"])) for c in self.meta["classes"]
             for ph in c["phrases"]), key=lambda x: -len(x[0]))
        self._phrase_heads = {ph[0] for ph, _, _ in self._class_phrases} | {
            tuple(p)[0] for p in self.meta["query_phrases"]}   # a phrase can start only there
        # first word → its class phrases (in the order above), so a query looks only at those
        self._class_by_head: dict[str, list[tuple[int, tuple[tuple[str, ...], str, int | None]]]] = {}
        for order, c in enumerate(self._class_phrases):
            self._class_by_head.setdefault(c[0][0], []).append((order, c))
        self._data_kinds = {kind_ix[c["kind"]] for c in self.meta["classes"]
                            if c["data"] and c["kind"] in kind_ix}
        self._query_phrases = sorted((tuple(p) for p in self.meta["query_phrases"]),
                                     key=lambda x: -len(x))
        self._query_heads = frozenset(p[0] for p in self._query_phrases)
        self._data_words = set(self.meta["data_words"])
        self._presentation_kinds = {kind_ix[c["kind"]] for c in self.meta["classes"]
                                    if c.get("presentation") and c["kind"] in kind_ix}
        # kind → DATA_BOOST for the data classes (a data question lifts them), else 1
        self._data_factor = np.where(self._kind_table(self._data_kinds), DATA_BOOST, 1.0)
        self._abbreviations: dict[str, str] = self.meta.get("abbreviations", {})
        self._set_forms(self.meta.get("phrase_forms") or {}, kind_ix)
        self._query_names = frozenset(self.meta.get("query_names", ()))
        self._naming_mask = naming_mask(self.meta["fields"])
        self._whole_mask = sum(1 << i for i, f in enumerate(self.meta["fields"]) if f in ("whole", "has"))
        # The prior with presentation classes demoted: one gather per query (numpy, no Python
        # loop over documents).
        self._prior_demoted = self.prior * np.where(
            self._kind_table(self._presentation_kinds)[self.catalog.kind], np.float32(PRESENTATION_DEMOTE),
            np.float32(1.0)).astype(np.float32) if self._presentation_kinds else self.prior
        # … and with query-language pages put behind platform elements (the usual case).
        query_code = self.catalog.domain_code("query")
        self._query_factor = np.where(self.catalog.domain == (-1 if query_code is None else query_code),
                                      np.float32(QUERY_DEMOTE), np.float32(1.0)).astype(np.float32)
        self._prior_demoted_q = self._prior_demoted * self._query_factor
        self._synonyms: dict[tuple[str, ...], list[int]] = {}
        for g, group in enumerate(self.meta["synonyms"]):
            for ph in group["phrases"]:
                self._synonyms.setdefault(tuple(ph), []).append(g)
        self._max_syn_len = max((len(k) for k in self._synonyms), default=0)
        self._syn_heads = frozenset(k[0] for k in self._synonyms)   # a synonym phrase starts only there
        # Each group's phrases as term ids (-1: not in this bundle), found once, not per query.
        self._syn_ids: list[list[list[int]]] = [[[self.terms.find(t) for t in ph] for ph in g["phrases"]]
                                                for g in self.meta["synonyms"]]
        self._syn_only: list[np.ndarray | None] = [
            np.isin(self.catalog.domain, [self.catalog.domains.index(d) for d in g["domains"]
                                          if d in self.catalog.domains])
            if g.get("domains") else None for g in self.meta["synonyms"]]
        self._domain_ix = {d: i for i, d in enumerate(self.catalog.domains)}
        self._metadata_docs = self.catalog.domain == self._domain_ix.get("metadata", -1)
        self._mask_names: dict[int, tuple[str, list[str]]] = {}   # field bit mask → ("name, synonym", [name, synonym])
        self._graph_reasons: dict[int, str] = {}   # in-edges → the "graph importance" reason (a few hundred values)
        self._kind_names = kinds

    def _set_forms(self, forms: dict[str, Any], kind_ix: dict[str, int]) -> None:
        """Phrase forms → lookups: phrase (terms) → form index, longest phrases first."""
        self._forms = [(frozenset(kind_ix[k] for k in f["kinds"] if k in kind_ix), float(f["lift"]),
                        bool(f.get("consume"))) for f in forms.get("forms", [])]
        self._form_phrases = sorted(((tuple(ph), i) for i, f in enumerate(forms.get("forms", []))
                                     for ph in f["phrases"]), key=lambda x: -len(x[0]))
        # first word → (position in the list above, phrase, form): a query visits only its heads
        self._forms_by_head: dict[str, list[tuple[int, tuple[str, ...], int]]] = {}
        for order, (ph, fi) in enumerate(self._form_phrases):
            self._forms_by_head.setdefault(ph[0], []).append((order, ph, fi))
        a = forms.get("action") or {}
        self._action_kinds = frozenset(kind_ix[k] for k in a.get("kinds", []) if k in kind_ix)
        self._action_lift = float(a.get("lift", 1.0))
        self._action_suffixes = tuple(a.get("suffixes", ()))
        self._action_words = frozenset(a.get("words", ()))

    # --- public ---------------------------------------------------------------------------

    def forget_words(self) -> None:
        """Drop what is kept per word (alternatives, synonym phrases' expansions, merged runs):
        the next query is timed as the first one of its words (tools/bench_search_cpu.py --cold)."""
        self._word_alts.clear()
        self._syn_memo.clear()
        self._merged.clear()
        self._merged_bytes = 0

    def search(self, query: str, *, domains: Iterable[str] | None = None, config: str | None = None,
               kind: str | Iterable[str] | None = None, platform_version: str | int | None = None,
               limit: int = 10, offset: int = 0) -> SearchResult:
        limit = max(0, min(int(limit), MAX_LIMIT))
        offset = max(0, int(offset))
        rewrites: list[str] = []
        notes: list[str] = []
        if not isinstance(query, str):
            return SearchResult([], 0, notes=["the query must be text"])
        text = _INVISIBLE_CHARS.sub("", _SEPARATOR_CHARS.sub(" ", query))
        if len(text) > MAX_QUERY_CHARS:
            text = text[:MAX_QUERY_CHARS]
            rewrites.append(f"query cut to its first {MAX_QUERY_CHARS} characters "
                            f"(it had {len(query)})")
        text = " ".join(text.split())
        if not any(ch.isalnum() for ch in text):
            return SearchResult([], 0, rewrites, ["empty query: give a name or a few words"])
        allowed = self._filter(domains, config, kind, platform_version, notes)

        want = offset + limit
        # Only configuration objects compete: their graph importance can weigh more.
        central = (self._central is not None and "domain_centrality" not in self.disabled
                   and domains is not None and set([domains] if isinstance(domains, str) else domains) == {"metadata"})
        scored = self._run(text, allowed, want, central)
        if scored is not None and not scored[1]:
            # Nothing at all: the words may be typed on the wrong layout or in Latin letters.
            # (Only stop words is not "nothing matched": there is nothing to re-type.)
            for label, alt in self._fallbacks(text):
                alt_scored = self._run(alt, allowed, want, central)
                if alt_scored is not None and alt_scored[1]:
                    rewrites.append(f"{label}: {text!r} → {alt!r}")
                    scored = alt_scored
                    break
        if scored is None:
            return SearchResult([], 0, rewrites, notes + [
                "the query has no words to search for, only stop words or a phrase like "
                "\"в запросе\" (в, на, для, как, the, of…): add the name or what it does"])
        ranked, total, plan, why_extra = scored
        if not total:
            notes.append("nothing matches; try fewer words, a part of the name, or another domain")
        page = ranked[offset:offset + limit]
        if rewrites and total:
            # Each hit found through a rewrite says so (the dashboard shows hits one by one).
            for d, _ in page:
                why_extra.setdefault(d, []).extend(rewrites)
        synonym_only: set[int] = set()
        hits = self._hits(page, plan, why_extra, synonym_only)
        if plan is not None and len([sl for sl in plan.slots if sl.required]) >= MAX_SLOTS:
            notes.append(f"only the first {MAX_SLOTS} words were used")
        best = hits[0] if hits and offset == 0 else (
            self._hits(ranked[:1], plan, why_extra, synonym_only)[0] if ranked else None)
        confident = best is not None and not best.fuzzy
        weak = ""
        certain = best is not None and any(w == "exact name" or w.startswith("alias «") for w in best.why)
        if confident and best is not None and not certain and "threshold" not in self.disabled:
            second = ranked[1][1] if len(ranked) > 1 else 0.0
            if best.relevance < RELEVANCE_MIN:
                weak = "the words met only its description, not its name"
            elif best.score > 0 and (best.score - second) / best.score < LEAD_MIN:
                weak = "the first hits score alike"
            confident = not weak
        if best is not None and not confident:
            notes.append("no confident match: these are nearest guesses (" + (
                weak if weak
                else "typo corrections" if any("typo " in w for w in best.why)
                else "only synonyms of the query's words matched" if best.doc in synonym_only
                else "few of the query's words matched") + "); check the words or give a name")
        return SearchResult(hits, total, rewrites, notes, confident)

    # --- the steps --------------------------------------------------------------------------

    def _run(self, text: str, allowed: np.ndarray | None, want: int, central: bool = False
             ) -> tuple[list[tuple[int, float]], int, _Plan | None, dict[int, list[str]]] | None:
        """Exact names, then aliases, then text; the best ``want`` documents and the total.
        None when the query is only stop words."""
        why: dict[int, list[str]] = {}
        bonus: dict[int, float] = {}
        for d in self.catalog.lookup(text):
            if allowed is None or allowed[d]:
                bonus[d] = EXACT_BONUS + self._prior(d)
                why.setdefault(d, []).append("exact name")
        # A word's alternatives, found once per word and bundle (the plan without class words
        # below looks up the same words again; so do later queries).
        memo = self._word_alts
        if len(memo) >= WORD_CACHE:
            memo.clear()
        plan = self._plan(text, memo=memo) if self.has_index else None
        if plan is not None:
            plan.central = central
            for d, phrase in self._aliases(plan, allowed):
                bonus.setdefault(d, ALIAS_BONUS)
                why.setdefault(d, []).append(f"alias «{phrase}»")
        if plan is not None and plan.slots:
            cand, scores = self._bm25(plan, allowed)
            if plan.kinds and not self._kind_table(plan.kinds)[self.catalog.kind[cand]].any():
                # No document of the named class matches the other words: the class words
                # were name words after all ("справочник версии данных" with no catalog about
                # versions finds РегистрСведений.ВерсииСправочников by both words).
                plan = self._plan(text, classes=False, memo=memo)
                plan.central = central
                cand, scores = self._bm25(plan, allowed)
        else:
            cand, scores = np.empty(0, dtype=np.int64), np.empty(0)
        if not bonus and not len(cand) and plan is not None and plan.stop_only:
            return None
        n_text = len(cand)           # the text candidates, ascending (exact-name extras follow)
        if bonus:
            extra = np.fromiter(bonus, dtype=np.int64)
            add = np.fromiter(bonus.values(), dtype=np.float64)
            pos = np.searchsorted(cand, extra)
            hit = (pos < len(cand)) & (cand[np.minimum(pos, max(len(cand) - 1, 0))] == extra) \
                if len(cand) else np.zeros(len(extra), dtype=bool)
            scores[pos[hit]] += add[hit]     # scores are the query's own (score[cand] copied)
            cand = np.concatenate([cand, extra[~hit]])
            scores = np.concatenate([scores, add[~hit]])
        total = len(cand)
        if not total:
            return [], 0, plan, why
        k = min(want, total)
        reads = (plan is not None and plan.central and self._report_kind >= 0
                 and self._report_kind not in plan.kinds and "report_reads" not in self.disabled)
        if reads:
            # the best REPORT_TOP at least, so the reports among them are known; a report that
            # reads registers there (rare) lifts them, and the best are taken again
            k = min(max(want, REPORT_TOP), total)
        top = (-scores).argpartition(k - 1)[:k] if k < total else np.arange(total)   # the method: no wrapper
        if reads and self._report_reads(cand, scores, top, n_text, bonus, why):
            top = _best(scores, k)
        # best score first, then the lower document: by document, then stably by score descending
        # (two C-keyed sorts, no key function called per pair)
        order = sorted(zip(cand[top].tolist(), scores[top].tolist()))
        order.sort(key=itemgetter(1), reverse=True)
        return order, total, plan, why

    def _report_reads(self, cand: np.ndarray, scores: np.ndarray, top: np.ndarray, n_sorted: int,
                      named: dict[int, float], why: dict[int, list[str]]) -> bool:
        """Lift the registers the best-matching reports read (``REPORT_READS``), in place; True
        when a score changed. A phrase that matches a report's synonym («долги клиентов» →
        Отчет.ЗадолженностьКлиентов) asks about the data the report shows
        (РегистрНакопления.РасчетыСКлиентами), unless it asks for a report. ``top``: positions
        in ``cand`` of at least the best REPORT_TOP; ``cand[:n_sorted]`` ascending."""
        reads = self._reads()
        if not reads:
            return False
        docs = cand[top].tolist()
        if reads.keys().isdisjoint(docs):      # most queries: no reading report among the best
            return False
        best = top[_best(scores[top], REPORT_TOP)] if len(top) > REPORT_TOP else top
        reports = [d for d in cand[best].tolist() if d in reads and d not in named]
        if not reports:
            return False
        # the registers' places among the text candidates (ascending; the exact-name extras
        # appended after them are named, never lifted)
        lifted = False
        score_of = dict(zip(cand[best].tolist(), scores[best].tolist()))
        for r in reports:
            regs = reads[r]
            pos = np.searchsorted(cand[:n_sorted], regs)
            ok = (pos < n_sorted) & (cand[np.minimum(pos, max(n_sorted - 1, 0))] == regs)
            if ok.any():
                scores[pos[ok]] += REPORT_READS * score_of[r] / len(regs)
                lifted = True
                reason = f"read by the report {self.catalog.titles[r]}, which the phrase matches"
                for g in regs[ok].tolist():
                    why.setdefault(g, []).append(reason)
        return lifted

    def _reads(self) -> dict[int, np.ndarray]:
        """Report → the registers its code reads (strong ``READ_EDGES`` edges), for the reports
        that read any; empty without the code domain. Worked out on first use."""
        if self._report_regs is None:
            regs: dict[int, np.ndarray] = {}
            graph = Graph(self.bundle)
            edge_kinds = [graph.kinds.index(k) for k in READ_EDGES if k in graph.kinds]
            if graph.available and edge_kinds and self._report_kind >= 0:
                a = {name: self.bundle.array(segment(OUT, name)) for name in ("off", "dst", "kind", "weak")}
                src = np.repeat(np.arange(len(a["off"]) - 1), np.diff(a["off"].astype(np.int64)))
                register = np.zeros(max(len(self._kind_names), 1), dtype=bool)
                register[list(self._register_kinds)] = True
                kinds = np.asarray(self.catalog.kind)
                edge = (np.isin(a["kind"], edge_kinds) & (a["weak"] == 0)
                        & register[kinds[a["dst"]]] & (kinds[src] == self._report_kind))
                s, d = src[edge], a["dst"][edge].astype(np.int64)
                cuts = np.flatnonzero(np.diff(s)) + 1
                for part_s, part_d in zip(np.split(s, cuts), np.split(d, cuts)):
                    if len(part_s):
                        regs[int(part_s[0])] = np.unique(part_d)
            self._report_regs = regs
        return self._report_regs

    def _plan(self, text: str, classes: bool = True,
              memo: dict[tuple[str, str], list[_Alt]] | None = None) -> _Plan:
        ws = words(text)
        base, abbreviated = self._expand_abbreviations([w for w in ws if not w.whole])
        wholes = [w for w in ws if w.whole]
        stems = [w.term for w in base]

        query_lift = False
        drop: set[int] = set()
        heads = {st for st in stems if st in self._phrase_heads}
        if not self._query_heads.isdisjoint(heads):     # most queries: no query phrase starts here
            for ph in self._query_phrases:
                if ph[0] not in heads:
                    continue
                for i in _find(stems, ph):
                    if not drop.intersection(range(i, i + len(ph))):
                        drop.update(range(i, i + len(ph)))
                        query_lift = True
        kinds: set[int] = set()
        kind_words: list[str] = []
        class_pos: set[int] = set()
        found = sorted(((i, -len(ph), order, ph, kind_name, kix)
                        for head in (heads if classes else ())
                        for order, (ph, kind_name, kix) in self._class_by_head.get(head, ())
                        for i in _find(stems, ph)))
        if "class_head" not in self.disabled and found and all(_latin(stems[i]) for i, *_ in found):
            # An English noun phrase ends with its head ("which roles give which rights report",
            # "user group membership register"); a Russian one starts with it ("отчет права ролей").
            found.sort(key=lambda f: (-(f[0] - f[1]), f[1], f[2]))
        for i, _, _, ph, kind_name, kix in found:   # left to right, longest first
            span = set(range(i, i + len(ph)))
            if span & class_pos or span & drop:
                continue
            if kinds and "class_head" not in self.disabled:
                break          # one class per phrase: its head; a class word elsewhere qualifies the name
            if self.has_index and self.terms.find("=" + "+".join(sorted(
                    {s for j, s in enumerate(stems)
                     if j not in drop and j not in class_pos and s not in self._stop}))) >= 0:
                # The words left are a name: class words among them are part of it
                # ("дополнительные отчеты и обработки"; "отчет права ролей" → Report + ПраваРолей).
                break
            class_pos |= span
            if kix is not None:
                kinds.add(kix)
            kind_words.append(kind_name)
        data_question = any(s in self._data_words for s in stems)
        lifts, consumed = (self._phrase_forms(base, stems, drop | class_pos)
                           if classes and "forms" not in self.disabled else ([], set()))

        slots: list[_Slot] = []
        kept: list[int] = []
        for i, w in enumerate(base):
            if i in drop or i in consumed or w.term in self._stop or w.surface in self._stop:
                continue
            kept.append(i)
        stop_only = not kept and not class_pos
        if class_pos and any(i not in class_pos for i in kept):
            # The class words selected the class (the boost below): consumed, they do not count
            # again as name words ("регистр сведений версии" ≠ ЗагруженныеВерсииАдресныхСведений).
            kept = [i for i in kept if i not in class_pos]
            class_pos = set()
        kept = kept[:MAX_SLOTS]
        for i in kept:
            w = base[i]
            if memo is None or i in abbreviated:
                # fresh: an abbreviation's reason is written into its alternatives below
                alts = self._alternatives(w.term, w.surface)
            else:
                # a copy of the list (synonyms append to the slot's own); the alternatives
                # themselves are never changed once made
                # (read once: another thread's search may clear the shared cache meanwhile)
                got = memo.get(k := (w.term, w.surface))
                if got is None:
                    got = memo[k] = self._alternatives(w.term, w.surface)
                alts = list(got)
            if i in abbreviated:
                short, reason = abbreviated[i]
                for a in alts:
                    a.reason = a.reason or reason
                # The abbreviation itself still matches names that contain it (ДопРеквизиты).
                if (t := self.terms.find(short.term)) >= 0 and all(a.term != t for a in alts):
                    alts.append(_Alt(t, W_EXACT_TERM, "", short.term))
            slots.append(_Slot(w.surface, alts, required=i not in class_pos))
        # Whole identifiers typed as such ("ЗаказПокупателя") reward the exact identifier, and
        # the objects that have an attribute of exactly that name ("ВладелецФайла").
        typed = {fold(c): c for c in WORD_RUNS.findall(text)} if wholes else {}
        for w in wholes[:4]:
            t = self.terms.find(w.term)
            if t >= 0:
                slots.append(_Slot(w.surface, [_Alt(t, W_WHOLE, "")], required=False))
            t = self.terms.find(HAS_PREFIX + w.term)
            if t >= 0:
                slots.append(_Slot(typed.get(w.surface, w.surface), [_Alt(t, W_HAS, "")],
                                   required=False))
        subs = self._expand_synonyms([stems[i] for i in kept], slots)
        whole = self._whole_slot(kept, slots, class_pos, subs)
        if whole is not None:
            slots.append(whole)
        elif "part" not in self.disabled and (
                part := self._part_slot([stems[i] for i in kept if i not in class_pos])) is not None:
            slots.append(part)
        query_named = any(st in self._query_names for st in stems)
        return _Plan(slots, kinds, kind_words, query_lift, data_question, stop_only, lifts, query_named)

    def _phrase_forms(self, base: list[Word], stems: list[str], taken: set[int]
                      ) -> tuple[list[tuple[frozenset[int], float, str]], set[int]]:
        """Class priors the phrase's form shows (остатки → registers, список → catalogs, an
        action noun → documents) and the positions of form words that stop counting as name
        words. A form word is kept as a word when the phrase is itself a name ("список
        значений") or has no other word."""
        lifts: list[tuple[frozenset[int], float, str]] = []
        consumed: set[int] = set()
        used: set[int] = set(taken)
        words_left = [j for j, st in enumerate(stems) if j not in taken and st not in self._stop]
        present = set(stems)
        by_head = self._forms_by_head
        for _, ph, fi in sorted(x for st in present if st in by_head for x in by_head[st]):
            for i in _find(stems, ph):
                span = set(range(i, i + len(ph)))
                if span & used:
                    continue
                used |= span
                kinds, lift, consume = self._forms[fi]
                if kinds:
                    lifts.append((kinds, lift, " ".join(base[j].surface for j in sorted(span))))
                if consume and len(set(words_left) - span) > 0:
                    consumed |= span
        if consumed and self.has_index and self.terms.find(whole_key([stems[j] for j in words_left])) >= 0:
            consumed = set()    # the whole phrase is a name: its words are name words
        if self._action_kinds and "action" not in self.disabled:
            for j in words_left:
                w = base[j]
                if j in used:
                    continue
                # endswith(tuple) rejects most words in one C call before the per-suffix test
                if w.term in self._action_words or w.surface.endswith(self._action_suffixes) and any(
                        w.surface.endswith(x) and len(w.surface) >= len(x) + ACTION_MIN_STEM
                        for x in self._action_suffixes):
                    lifts.append((self._action_kinds, self._action_lift, w.surface))
                    break
        return lifts, consumed

    def _part_slot(self, seq: list[str]) -> _Slot | None:
        """A run of two or more of the query's words that is a whole name or synonym ("work
        schedule" in "work schedule of employees" → Work schedules): a bonus slot at
        W_WHOLE_PART, longest runs first, when the whole phrase is no name. Configuration
        objects only: a platform member's short name ("Количество строк") is part of many
        phrases about something else."""
        seq = [st for st in seq if st not in self._stop]
        found: dict[int, _Alt] = {}
        for length in range(len(seq) - 1, 1, -1):
            # The run starts at the first word: a Russian phrase names its object first and
            # describes it after ("инвентаризация товаров на складе" is no ТоварыНаСкладах).
            for i in range(1):
                run = seq[i:i + length]
                t = self.terms.find(whole_key(run))
                if t >= 0 and t not in found:
                    found[t] = _Alt(t, W_WHOLE_PART, f"a part of the phrase is its name: «{' '.join(run)}»",
                                    whole_key(run), only=self._metadata_docs)
            if found:
                break
        if not found:
            return None
        return _Slot("part of the phrase", list(found.values()), required=False)

    def _expand_abbreviations(self, base: list[Word]) -> tuple[list[Word], dict[int, tuple[Word, str]]]:
        """Query words that are abbreviations (доп, спр, рс…) become their expansion's words;
        returns the words and, for the first word of each expansion, the abbreviation and
        the reason shown in explanations."""
        if not self._abbreviations or not any(w.surface in self._abbreviations for w in base):
            return base, {}
        out: list[Word] = []
        marks: dict[int, tuple[Word, str]] = {}
        for w in base:
            expansion = self._abbreviations.get(w.surface)
            if not expansion:
                out.append(w)
                continue
            marks[len(out)] = (w, f"abbreviation {w.surface} → {expansion}")
            out.extend(x for x in words(expansion) if not x.whole)
        return out, marks

    def _whole_slot(self, kept: list[int], slots: list[_Slot], class_pos: set[int],
                    subs: list[tuple[int, int, tuple[str, ...], str, np.ndarray | None]]) -> _Slot | None:
        """The query *is* a name, synonym, alias or search key (class words aside, any order,
        or with a synonym / corrected word in place): one bonus slot of "=…" keys."""
        base: list[list[str]] = []
        for k, i in enumerate(kept):
            alts = slots[k].alts
            # A word not in the dictionary stands in by its best correction (prefix/typo).
            base.append([(alts[0].text or self.terms[alts[0].term]) if alts else "\x00"])  # \x00: no term
        variants: list[tuple[list[list[str]], str, np.ndarray | None, bool]] = [(base, "", None, False)]
        for pos, length, other, reason, only in subs:
            # a phrase of two or more words, or a translation, is as good as the query's words
            as_phrase = length >= 2 or _latin(other[0]) != _latin(slots[pos].word)
            end = pos + length
            for v, why, _, phrase in list(variants):
                if len(variants) >= MAX_WHOLE_VARIANTS:
                    break
                if v[pos:end] != base[pos:end]:     # a word of the span already replaced
                    continue
                nv = list(v)
                nv[pos] = list(other)
                for p in range(pos + 1, end):
                    nv[p] = []
                variants.append((nv, why or reason, only, phrase or as_phrase))
        found: dict[int, _Alt] = {}
        tried: set[str] = set()
        find = self.terms.find
        # the word positions taken without the class words, then (class words named) with them
        passes = ([k for k, i in enumerate(kept) if i not in class_pos], range(len(kept))) if class_pos else None
        for v, why, only, phrase in variants:
            for take in (passes or (None,)):
                toks = [t for part in v for t in part if t] if take is None else [t for k in take for t in v[k] if t]
                if not toks:
                    continue
                # The in-order key "=a_b" is indexed only beside its order-free "=a+b": look
                # it up only when that one exists.
                for key in (whole_key(toks), whole_key(toks, True)):
                    if not key or key in tried:
                        break
                    tried.add(key)
                    t = find(key)
                    if t < 0:
                        break
                    if t not in found:
                        w = W_WHOLE * (1.0 if not why else W_WHOLE_SYNONYM)
                        found[t] = _Alt(t, w, "the whole name or phrase" + (f" ({why})" if why else ""), key,
                                        only=only, phrase=phrase)
        if not found:
            return None
        return _Slot("whole phrase", sorted(found.values(), key=lambda a: -a.weight), required=False,
                     whole=True)

    def _alternatives(self, term: str, surface: str) -> list[_Alt]:
        t = self.terms.find(term)
        if t >= 0:
            alts = [_Alt(t, W_EXACT_TERM, "", term)]
            if surface != term:
                # Snowball stems some words of a family apart; the surface form may meet them.
                s = self.terms.find(surface)
                if s >= 0:
                    alts.append(_Alt(s, W_EXACT_TERM, "", surface))
            if "derived" not in self.disabled:
                alts += self._family(alts, surface) if self.has_families else \
                    self._derived(term, surface, {a.term for a in alts})
            return alts + self._aspect(term, surface, {a.term for a in alts})
        if surface != term and (s := self.terms.find(surface)) >= 0:
            return [_Alt(s, W_EXACT_TERM, "", surface)]
        alts: list[_Alt] = [] if "derived" in self.disabled else self._derived(term, surface, set())
        alts += self._aspect(term, surface, {a.term for a in alts})
        if len(term) >= PREFIX_MIN:
            for tid in self._prefix(term if len(term) <= len(surface) else surface):
                alts.append(_Alt(tid, W_PREFIX, f"prefix {surface}… → {self.terms[tid]}"))
        if not alts and len(term) >= TYPO_MIN and not term.isdigit():
            for tid in self._typos(term):
                alts.append(_Alt(tid, W_TYPO, f"typo {surface} → {self.terms[tid]}", typo=True))
        return alts

    def _family(self, alts: list[_Alt], surface: str) -> list[_Alt]:
        """The stored word family of the stem ``alts[0]`` as alternatives, the stem's own marked
        to be scored by the merged postings.

        ``alts`` are the word's own terms at full weight (the stem, its surface form). A family
        completion the word already has (пользовател → пользователи, typed so) is left out, as
        the rule leaves it out; the merged run still holds it at W_DERIVED, which its own
        alternative beats in every document, so the scores are those of the family without it.
        A cut the word already has would make the rule try a shorter one: it runs live then."""
        stem = alts[0]
        t = stem.term
        ids = self.family_term[self.family_off.item(t):self.family_off.item(t + 1)].tolist()
        if not ids:
            return []
        have = {a.term for a in alts}
        if have.intersection(ids):
            if any(len(self.terms[f]) < len(stem.text) for f in ids if f in have):
                return self._derived(stem.text, surface, have)
            ids = [f for f in ids if f not in have]
        stem.family = t
        return [_Alt(f, W_DERIVED, f"word family {surface} → {(text := self.terms[f])}", text,
                     fields=self._naming_mask, family=t) for f in ids]

    def _aspect(self, term: str, surface: str, have: set[int]) -> list[_Alt]:
        """The imperfective of a perfective verb (скопировать → копирова: КопироватьФайл), a
        member of the word's family: W_ASPECT in the naming fields."""
        if "aspect" in self.disabled:
            return []
        out = []
        for rest in imperfective(term):
            t = self.terms.find(rest)
            if t >= 0 and t not in have:
                out.append(_Alt(t, W_ASPECT, f"word family {surface} → {rest}", rest,
                                fields=self._naming_mask))
                break
        return out

    def _derived(self, term: str, surface: str, have: set[int]) -> list[_Alt]:
        """Terms of the same word family by shared stem: the stem cut short (кассов → касс) and
        the most frequent term that grows it a little (приход → приходн). Cyrillic words only."""
        if not has_family(term):
            return []
        found: dict[int, str] = {}
        for k in cut_lengths(term):
            t = self.terms.find(term[:k])
            if t >= 0 and t not in have:
                found[t] = term[:k]
                break
        r = self.terms.prefix_range(term)
        if len(r) > 1:
            lo, hi = r.start, r.stop
            # Byte lengths from the table's offsets (2 bytes a Cyrillic letter): no decoding.
            # A completion range is short (tens of terms): plain Python over two slices costs
            # less than five numpy calls on tiny arrays; a long one stays in numpy.
            if hi - lo <= DERIVED_PY_RANGE:
                off = self.terms.offsets(lo, hi).tolist()
                post = self.post_off[lo:hi + 1].tolist()
                grown = [(post[i] - post[i + 1], lo + i) for i in range(hi - lo)
                         if grows(len(term), off[i + 1] - off[i])]
                best = [t for _, t in sorted(grown)[:DERIVED_EXPANSIONS]]   # most postings, then id
            else:
                size = self.terms.byte_sizes(lo, hi)
                low, high = 2 * len(term), 2 * (len(term) + DERIVED_GROW)
                ids = lo + np.flatnonzero((size > low) & (size <= high))
                df = self.post_off[ids + 1].astype(np.int64) - self.post_off[ids].astype(np.int64)
                best = ids[np.argsort(-df, kind="stable")][:DERIVED_EXPANSIONS].tolist()
            for t in best:
                if t not in have:
                    found[t] = self.terms[t]
        return [_Alt(t, W_DERIVED, f"word family {surface} → {text}", text, fields=self._naming_mask)
                for t, text in found.items()]

    def _prefix(self, prefix: str) -> list[int]:
        r = self.terms.prefix_range(prefix)
        if not len(r):
            return []
        lo, hi = r.start, r.stop
        df = self.post_off[lo + 1:hi + 1].astype(np.int64) - self.post_off[lo:hi].astype(np.int64)
        top = np.argsort(-df, kind="stable")[:PREFIX_EXPANSIONS]
        return [lo + int(i) for i in top]

    def _typos(self, term: str) -> list[int]:
        """Terms one edit away (insert, delete, substitute, swap) by symmetric deletion."""
        found: dict[int, None] = {}
        # the term lost a letter: it is a deletion variant of a real term
        for tid in self._del_lookup(term):
            found[tid] = None
        for v in dict.fromkeys(deletions(term)):
            # the term has an extra letter: one deletion of it is a real term
            t = self.terms.find(v)
            if t >= 0:
                found[t] = None
            # a substituted or swapped letter: both lose one letter to meet
            for tid in self._del_lookup(v):
                found[tid] = None
            if len(found) >= 4 * TYPO_CANDIDATES:
                break
        # Symmetric deletion also meets some words two edits away (заказ/знака via "зака"):
        # keep only true one-edit neighbours.
        found = {t: None for t in found if _one_edit(term, self.terms[t])}
        if not found:
            return []
        ids = np.fromiter(found, dtype=np.int64)
        df = self.post_off[ids + 1].astype(np.int64) - self.post_off[ids].astype(np.int64)
        return [int(ids[i]) for i in np.argsort(-df, kind="stable")[:TYPO_CANDIDATES]]

    def _del_lookup(self, variant: str) -> np.ndarray:
        j = self.dels.find(variant)
        if j < 0:
            return np.empty(0, dtype=np.int64)
        return self.dels_term[int(self.dels_off[j]):int(self.dels_off[j + 1])]

    def _synonym_entries(self, key: tuple[str, ...]) -> list[tuple[tuple[str, ...], str, np.ndarray | None, bool,
                                                                    list[Any]]]:
        """What the phrase ``key`` of the synonym groups brings, worked out once per phrase (the
        groups are the bundle's): per other phrase of its groups, (the phrase, the reason, the
        domain mask, same length, alternatives). Same length: (offset in the key, alternative)
        for each word the bundle has; another length: the conjunction's alternatives, or none
        when a word is missing. The alternatives are never changed once made (shared by plans)."""
        got = self._syn_memo.get(key)
        if got is not None:
            return got
        out: list[tuple[tuple[str, ...], str, np.ndarray | None, bool, list[Any]]] = []
        length = len(key)
        label = " ".join(key)
        for g in self._synonyms[key]:
            group = self.meta["synonyms"][g]
            only = self._syn_only[g]
            for other, ids in zip(group["phrases"], self._syn_ids[g]):
                if tuple(other) == key:
                    continue
                reason = f"synonym {label} → {' '.join(other)} ({group['origin']})"
                if len(other) == length:
                    # The group's word in the other script is a translation (users ↔
                    # пользователи on an English or a Russian configuration): a find, not
                    # a guess; a same-script synonym (партнеры → контрагенты) stays a guess.
                    translation = _latin(other[0]) != _latin(key[0])
                    out.append((tuple(other), reason, only, True,
                                [(k, _Alt(tid, W_SYNONYM, reason, only=only, phrase=translation))
                                 for k, tid in enumerate(ids) if tid >= 0]))
                else:
                    # A phrase of another length counts only where all its words occur.
                    out.append((tuple(other), reason, only, False,
                                [_Alt(tid, W_SYNONYM_PHRASE * (length / len(other)), reason, only=only)
                                 for tid in ids] if all(tid >= 0 for tid in ids) else []))
        self._syn_memo[key] = out
        return out

    def _expand_synonyms(self, seq: list[str], slots: list[_Slot]
                         ) -> list[tuple[int, int, tuple[str, ...], str, np.ndarray | None]]:
        """A word or phrase of a synonym group also matches the group's other phrases.

        Returns the substitutions made (position, length, other phrase, reason) so the whole-
        phrase keys can try them too."""
        subs: list[tuple[int, int, tuple[str, ...], str, np.ndarray | None]] = []
        if not self._synonyms:
            return subs
        heads = self._syn_heads
        for length in range(min(self._max_syn_len, len(seq)), 0, -1):
            for i in range(len(seq) - length + 1):
                if seq[i] not in heads:
                    continue
                key = tuple(seq[i:i + length])
                if key not in self._synonyms:
                    continue
                for other, reason, only, same, alts in self._synonym_entries(key):
                    subs.append((i, length, other, reason, only))
                    if same:
                        for k, alt in alts:
                            slots[i + k].alts.append(alt)
                    elif alts:
                        # "учетные записи" ↔ "пользователь": a document with the synonym
                        # covers the words it replaces.
                        covers = sum(1 for k in range(i, i + length) if slots[k].required)
                        slots.append(_Slot(" ".join(key), list(alts), required=False, conj=True,
                                           covers=covers, span=range(i, i + length)))
        return subs

    def _aliases(self, plan: _Plan, allowed: np.ndarray | None) -> list[tuple[int, str]]:
        if not len(self.alias):
            return []
        key = " ".join(self.terms[a.term] for s in plan.slots if s.required for a in s.alts[:1]
                       if not a.reason)
        j = self.alias.find(key) if key else -1
        if j < 0:
            return []
        docs = self.alias_doc[int(self.alias_off[j]):int(self.alias_off[j + 1])]
        phrase = self.alias_text[j] if self.alias_text is not None else key
        return [(int(d), phrase) for d in docs if allowed is None or allowed[int(d)]]

    def _bm25(self, plan: _Plan, allowed: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Candidate documents (ascending ids) and their scores.

        Every slot contributes (doc, value) pairs — a multi-alternative slot its best value per
        document — and two ``bincount``s add them up: a handful of numpy calls per slot, none
        per document."""
        n = self.n
        parts_doc: list[np.ndarray] = []
        parts_val: list[np.ndarray] = []
        parts_cov: list[np.ndarray] = []
        required = 0
        slot_docs: list[np.ndarray | None] = []      # documents each word slot matched
        span_docs: dict[tuple[int, int], list[np.ndarray]] = {}   # credited by a synonym phrase
        for slot in plan.slots:
            slot_docs.append(None)
            if slot.required:
                required += 1
            if not slot.alts:
                continue
            if slot.conj:
                # Only for documents the replaced words themselves missed: a synonym phrase
                # stands in for its words, it does not add to them.
                # One synonym phrase per span and document: "дополнительные реквизиты" →
                # свойство | property must not count twice for Структура.Свойство.
                credited = span_docs.setdefault((slot.span.start, slot.span.stop), [])
                seen = [slot_docs[k] for k in slot.span if k < len(slot_docs) and slot_docs[k] is not None]
                got = self._conj(slot, seen + credited)
                if got is not None:
                    credited.append(got[0])
                    parts_doc.append(got[0])
                    parts_val.append(got[1])
                    if slot.covers:
                        parts_cov.extend([got[0]] * slot.covers)
                continue
            if slot.whole and "whole_prior" not in self.disabled:
                docs, vals = self._whole_run(slot.alts)
            else:
                docs, vals = self._slot_run(slot.alts)
            parts_doc.append(docs)
            parts_val.append(vals)
            slot_docs[-1] = docs
            if slot.required:
                parts_cov.append(docs)
        if not parts_doc:
            return np.empty(0, dtype=np.int64), np.empty(0)
        score = np.bincount(_joined(parts_doc), weights=_joined(parts_val), minlength=n)
        keep = score > 0
        if allowed is not None:
            keep &= allowed           # over the dense mask: no gather of the filtered-out documents
        cand = keep.nonzero()[0]     # flatnonzero without its ravel wrapper
        if not len(cand):
            return cand, np.empty(0)
        s = score[cand]
        if required:
            # Documents matching every word come first: coverage enters squared.
            covered = (np.bincount(_joined(parts_cov), minlength=n) if parts_cov
                       else np.zeros(n, dtype=np.int64))
            s = s * _coverage_factors(required, len(parts_cov))[covered[cand]]
        demote = not (plan.query_lift or plan.query_named or "query_prior" in self.disabled)
        if plan.kinds & self._presentation_kinds:
            # A presentation class is named: it is not demoted (the others still are).
            s = s * self.prior[cand] * np.where(self._kind_table(self._presentation_kinds - plan.kinds)[
                self.catalog.kind[cand]], PRESENTATION_DEMOTE, 1.0)
            if demote:
                s = s * self._query_factor[cand]
        else:
            s = s * (self._prior_demoted_q if demote else self._prior_demoted)[cand]
        if plan.central and self._central is not None:
            s = s * self._central[cand]
        # The factors below are per kind: a table over the kinds (tens), gathered once.
        kc = self.catalog.kind[cand] if plan.kinds or plan.lifts or plan.data_question else None
        if plan.kinds:
            # A class the query names is what is asked for: its own class prior (plumbing waits
            # behind data objects) no longer holds it back.
            s = s * np.where(self._kind_table(plan.kinds), CLASS_BOOST / self._kind_prior, CLASS_OTHERS)[kc]
        if plan.query_lift:
            s = s * np.where(self.catalog.domain[cand] == self._domain_ix["query"], QUERY_LIFT, 1.0)
        if plan.lifts:
            # One factor per kind (the form's kinds are metadata classes: no other domain has them).
            factor = np.ones(max(len(self._kind_names), 1))
            for kinds, lift, _ in plan.lifts:
                factor[list(kinds)] *= lift
            s = s * factor[kc]
        if plan.data_question and self._data_kinds:
            s = s * self._data_factor[kc]
        return cand, s.astype(np.float64, copy=False)   # float64 already (bincount): no copy

    def _slot_run(self, alts: list[_Alt]) -> tuple[np.ndarray, np.ndarray]:
        """A word slot's (document, value) run: one alternative's postings as weighed, or the
        best value per document over several (``_merged_run``)."""
        if len(alts) > 1:
            return self._merged_run(alts)
        return self._alt_run(alts[0])

    def _alt_run(self, a: _Alt) -> tuple[np.ndarray, np.ndarray]:
        """One alternative's postings, weighed, within its field and domain masks (the field
        mask first: it is aligned with the whole posting run)."""
        lo, hi = self.post_off.item(a.term), self.post_off.item(a.term + 1)
        # weight 1: the postings' own values (a read-only view; _best_per_doc copies
        # before it writes), not a multiplied copy
        d = self.post_doc[lo:hi]
        v = self.post_imp[lo:hi] if a.weight == 1.0 else self.post_imp[lo:hi] * np.float32(a.weight)
        if a.fields:
            keep = (self.post_fields[lo:hi] & a.fields) != 0
            d, v = d[keep], v[keep]
        if a.only is not None:
            keep = a.only[d]
            d, v = d[keep], v[keep]
        return d, v

    def _whole_run(self, alts: list[_Alt]) -> tuple[np.ndarray, np.ndarray]:
        """The whole-phrase slot's run with the class prior once more: a phrase that is the name
        of plumbing (a defined type, a session parameter, a role repeating a data object's
        words) is usually about the data object it serves. A function of the alternatives and
        the bundle: kept like the merged runs."""
        key = ("prior",) + _alts_key(alts)
        got = self._merged.get(key)
        if got is not None:
            return got
        docs, vals = self._slot_run(alts)
        return self._keep_run(key, docs, vals * self.prior[docs])

    def _merged_run(self, alts: list[_Alt]) -> tuple[np.ndarray, np.ndarray]:
        """Each document once with its best value over a slot's alternatives.

        The result is a function of the alternatives alone (their terms, weights, field masks,
        domain masks, stored family runs) and the bundle, so it is kept per distinct list of
        alternatives (a word's own terms and family, a synonym's, a whole-phrase key's: what a
        session repeats), within MERGE_CACHE_BYTES; a query's answer is never kept."""
        key = _alts_key(alts)
        got = self._merged.get(key)
        if got is not None:
            return got
        ds, vs = [], []
        # term → the highest weight an earlier, unrestricted alternative gave it: a later
        # one of that term at no more weight can never be the best value of a document
        # (a synonym group that repeats the word itself: общ → общ, common), so its
        # postings (thousands for a common word) are not merged again.
        plain: dict[int, float] = {}
        for a in alts:
            if a.family >= 0:
                if a.family == a.term:
                    # the stem and its word family: one stored run, merged at compile time
                    lo, hi = self.family_post_off.item(a.term), self.family_post_off.item(a.term + 1)
                    ds.append(self.family_doc[lo:hi])
                    vs.append(self.family_imp[lo:hi])
                    plain[a.term] = a.weight
                continue
            if plain.get(a.term, -1.0) >= a.weight:
                continue
            if not a.fields and a.only is None:
                plain[a.term] = a.weight
            d, v = self._alt_run(a)
            ds.append(d)
            vs.append(v)
        if len(ds) == 1:
            return ds[0], vs[0]
        return self._keep_run(key, *_best_per_doc(ds, vs))

    def _kind_table(self, kinds: set[int]) -> np.ndarray:
        """kind index → bool, for one vectorised lookup per candidate array."""
        table = np.zeros(max(len(self._kind_names), 1), dtype=bool)
        table[[k for k in kinds if k < len(table)]] = True
        return table

    def _conj(self, slot: _Slot, exclude: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
        """A phrase slot: documents holding all its words (except those of the runs ``exclude``),
        summed impacts."""
        common, vals = self._phrase_run(slot.alts)
        if len(common) and exclude:
            # A mark per document, not a sort of the replaced words' documents (thousands
            # for a common word, against the handful left in common); marked run by run, not
            # concatenated, and only when the phrase has documents at all (usually none).
            excluded = np.zeros(self.n, dtype=bool)
            for docs in exclude:
                excluded[docs] = True
            keep = ~excluded[common]
            common, vals = common[keep], vals[keep]
        return (common, vals) if len(common) else None

    def _phrase_run(self, alts: list[_Alt]) -> tuple[np.ndarray, np.ndarray]:
        """The documents holding every alternative's term (within its domain mask) and their
        summed impacts: a function of the alternatives alone, kept beside the merged runs
        (``_keep_run``); the query's exclusions are applied by ``_conj`` after."""
        key = ("all",) + _alts_key(alts)
        got = self._merged.get(key)
        if got is not None:
            return got
        common: np.ndarray | None = None
        parts = []
        for a in alts:
            lo, hi = self.post_off.item(a.term), self.post_off.item(a.term + 1)
            docs = self.post_doc[lo:hi]
            parts.append((docs, self.post_imp[lo:hi], np.float32(a.weight)))
            common = docs if common is None else common[_member(common, docs)]
            if a.only is not None:
                common = common[a.only[common]]
            if not len(common):
                break
        if common is None or not len(common):
            common, vals = np.empty(0, dtype=self.post_doc.dtype), np.empty(0)
        else:
            vals = np.zeros(len(common), dtype=np.float64)
            for docs, imp, weight in parts:
                # the same float32 products as weighing the whole run, only for the documents kept
                vals += imp[np.searchsorted(docs, common)] * weight
        return self._keep_run(key, common, vals)

    def _keep_run(self, key: tuple[Any, ...], docs: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Keep a run computed from alternatives alone (read-only) within MERGE_CACHE_BYTES."""
        docs.flags.writeable = False
        vals.flags.writeable = False
        size = docs.nbytes + vals.nbytes
        if self._merged_bytes + size > MERGE_CACHE_BYTES:
            self._merged.clear()
            self._merged_bytes = 0
        if size <= MERGE_CACHE_BYTES // 8:
            self._merged[key] = (docs, vals)
            self._merged_bytes += size
        return docs, vals

    def _filter(self, domains: Iterable[str] | None, config: str | None,
                kind: str | Iterable[str] | None, platform_version: str | int | None,
                notes: list[str]) -> np.ndarray | None:
        """Boolean mask of the documents the filters allow (None: all).

        The mask is a function of the filters alone: it is computed once per distinct filter
        (``np.isin`` over every document costs ~0.4 ms at 20k documents, as much as the scoring)
        and shared, read-only, with its notes."""
        if not (domains or config or kind or platform_version) or not self.n:
            return None
        key = (_filter_key(domains), config, _filter_key(kind), platform_version)
        got = self._filters.get(key)
        if got is None:
            made: list[str] = []
            mask = self._make_filter(domains, config, kind, platform_version, made)
            mask.flags.writeable = False
            got = (mask, tuple(made))
            if len(self._filters) >= FILTER_CACHE:
                self._filters.clear()
            self._filters[key] = got
        notes.extend(got[1])
        return got[0]

    def _make_filter(self, domains: Iterable[str] | None, config: str | None,
                     kind: str | Iterable[str] | None, platform_version: str | int | None,
                     notes: list[str]) -> np.ndarray:
        mask = np.ones(self.n, dtype=bool)
        cat = self.catalog
        if domains:
            wanted = [self._domain_ix_of(d, notes) for d in ([domains] if isinstance(domains, str)
                                                              else domains)]
            mask &= np.isin(cat.domain, [w for w in wanted if w is not None])
        if config:
            c = cat.config_index(config)
            if c is None:
                notes.append(f"no configuration named {config!r} in this bundle; "
                             f"known: {', '.join(cat.meta.get('configs', [])) or 'none'}")
            is_meta = cat.domain == cat.domains.index("metadata")
            mask &= ~is_meta | (cat.config == (c if c is not None else S.NO_CONFIG))
        if kind:
            names = [kind] if isinstance(kind, str) else list(kind)
            kinds = cat.meta.get("kinds", [])
            ix = [kinds.index(k) for k in names if k in kinds]
            if len(ix) < len(names):
                notes.append(f"unknown kind(s): {', '.join(k for k in names if k not in kinds)}")
            mask &= np.isin(cat.kind, ix)
        if platform_version:
            # "8.3.27", or already encoded (formats.platform_version) as the server's tools pass it.
            v = int(platform_version) if isinstance(platform_version, (int, np.integer)) \
                else encode_version(str(platform_version), 0)
            if not v:
                notes.append(f"platform version {platform_version!r} is not like 8.3.27; ignored")
            else:
                mask &= (cat.since <= v) & (v < cat.until)
        return mask

    def _domain_ix_of(self, d: str, notes: list[str]) -> int | None:
        domains = self.catalog.domains
        if d in domains:
            return domains.index(d)
        notes.append(f"unknown domain {d!r}; domains are {', '.join(domains)}")
        return None

    def _fallbacks(self, text: str) -> list[tuple[str, str]]:
        out = []
        swapped = swap_layout(text)
        if swapped != text:
            out.append(("keyboard layout", swapped))
        if re.search(r"[A-Za-z]", text):
            tr = transliterate(text)
            if tr != text:
                out.append(("transliteration", tr))
        return out

    # --- explanations -------------------------------------------------------------------------

    def _prior(self, d: int) -> float:
        return float(self.prior[d]) if self.has_index else 1.0

    def _doc_codes(self) -> tuple[list[int], list[int], list[int] | None]:
        """Every document's kind and domain code and graph in-edges as Python lists (read once:
        ~24 bytes a document), so a page reads its ten by list index."""
        got = self._codes
        if got is None:
            cat = self.catalog
            got = self._codes = (cat.kind.tolist(), cat.domain.tolist(),
                                 self.refs.tolist() if self.refs is not None else None)
        return got

    def _hits(self, page: list[tuple[int, float]], plan: _Plan | None,
              extra: dict[int, list[str]], synonym_only: set[int] | None = None) -> list[Hit]:
        """Hits of one page with their explanations: which words matched in which fields.
        ``synonym_only`` receives the guesses that matched only through synonyms.

        What is gathered per hit lives in lists by page position (the page's documents are
        distinct), not in dictionaries keyed by document: a list index per access."""
        page_docs = [d for d, _ in page]
        names = _PageNames(self.catalog, self._kind_names, page_docs)
        why = [list(extra[d]) if d in extra else [] for d in page_docs] if extra else [[] for _ in page_docs]
        if plan is None or not self.has_index or not page_docs:
            return [Hit(d, score, list(dict.fromkeys(why[j])), False, 1.0 if "exact name" in why[j] else 0.0,
                        [], names, j) for j, (d, score) in enumerate(page)]
        n_page = len(page_docs)
        # The postings' own dtype: searchsorted with another dtype would first convert the
        # whole posting list (thousands of entries for a common word). The page's documents
        # and each one + 1: one bisection gives a document's left position and (the left one
        # of d + 1) its right one, a document the term's postings hold lying between them.
        bounds = np.array(page_docs + [d + 1 for d in page_docs], dtype=self.post_doc.dtype)
        fields = self.meta["fields"]
        matched: list[list[str]] = [[] for _ in page_docs]
        # query word → its entry of Hit.matches ({"word", "fields"}), in the order met
        words: list[dict[str, dict[str, Any]]] = [{} for _ in page_docs]
        required = sum(1 for slot in plan.slots if slot.required)
        covered = [0] * n_page                    # required words each hit matched
        named = [0] * n_page                      # … of them in a naming field
        naming = self._naming_mask | self._whole_mask
        guessed = [False] * n_page                # hits resting on a typo correction
        own = [False] * n_page                    # hits matching a word of the query itself
        mask_names = self._mask_names
        post_off, post_doc, post_fields = self.post_off, self.post_doc, self.post_fields
        every = range(n_page)
        for slot in plan.slots:
            done = [False] * n_page               # page positions this slot has matched
            left = n_page
            add = 1 if slot.required else slot.covers
            word = slot.word
            for a in slot.alts:
                got_run = a.postings
                if got_run is None:
                    lo = post_off.item(a.term)
                    got_run = a.postings = (lo, post_doc[lo:post_off.item(a.term + 1)])
                lo, run = got_run
                if not len(run):
                    continue
                at = run.searchsorted(bounds).tolist()
                # the page positions whose left and right positions differ (compared in C)
                held = list(compress(every, map(ne, at, at[n_page:])))
                if left < n_page:
                    held = [j for j in held if not done[j]]
                if not held:
                    continue
                # What a match through this alternative says, worked out once per
                # alternative (not once per document it matches, nor per query for a kept one):
                # its term, attribute, listed, own word, and per field mask the "words:" text.
                info = a.explain
                if info is None:
                    term = a.text or self.terms[a.term]
                    attribute = term.startswith(HAS_PREFIX)
                    info = a.explain = (term, attribute, not attribute and not term.startswith("="),
                                        "synonym " not in a.reason or a.phrase, {})
                term, attribute, listed_term, own_word, texts = info
                only, need, reason, typo = a.only, a.fields, a.reason, a.typo
                for j in held:
                    if only is not None and not only[page_docs[j]]:
                        continue     # a business synonym does not reach this domain
                    m = post_fields.item(lo + at[j])   # the fields this posting is in
                    if need and not m & need:
                        continue     # a word-family match outside the naming fields
                    done[j] = True
                    left -= 1
                    if own_word:
                        own[j] = True
                    covered[j] += add
                    if m & naming:
                        named[j] += add
                    if typo:
                        guessed[j] = True
                    if attribute:
                        why[j].append(f"has attribute {word}")
                    elif listed_term:
                        got = texts.get(m)
                        if got is None:
                            names_of = mask_names.get(m)
                            if names_of is None:
                                listed = [f for i, f in enumerate(fields) if m >> i & 1]
                                names_of = (", ".join(listed), listed)
                                if len(mask_names) < 4096:
                                    mask_names[m] = names_of
                            got = texts[m] = (f"{term} in {names_of[0]}", names_of[1])
                        matched[j].append(got[0])
                        entry = words[j].get(word)
                        if entry is None:   # the usual case: one match a word
                            words[j][word] = {"word": word, "fields": list(got[1])}
                        else:
                            seen = entry["fields"]
                            seen.extend(f for f in got[1] if f not in seen)
                    if reason:
                        why[j].append(reason)
                if not left:
                    break
        # the page's kind and domain codes (and graph in-edges) from per-document lists:
        # ten list reads, not three numpy gathers
        kind_of, domain_of, refs_of = self._doc_codes()
        query_code = self._domain_ix.get("query", -1)
        metadata_code = self._domain_ix.get("metadata", -1)
        refs = refs_of if plan.central else None
        plan_kinds, query_lift, lifts = plan.kinds, plan.query_lift, plan.lifts
        graph_reasons = self._graph_reasons
        kind_names = self._kind_names
        # Exact names and aliases come only from ``extra`` (no slot gives such a reason).
        certain_docs = {d for d, ws in extra.items()
                        if any(w == "exact name" or w.startswith("alias «") for w in ws)}
        hits: list[Hit] = []
        for j, (d, score) in enumerate(page):
            reasons = why[j]
            certain = d in certain_docs
            # A hit through synonyms alone is a guess: "контрагенты" met only as "партнер"
            # is not what was asked for, only near it.
            fuzzy = not certain and (guessed[j] or not own[j] or 2 * min(covered[j], required) < required)
            relevance = 1.0 if certain else (min(named[j], required) / required if required else 0.0)
            if fuzzy and not own[j] and not guessed[j] and synonym_only is not None:
                synonym_only.add(d)
            if (texts := matched[j]):
                reasons.insert(len(extra[d]) if d in extra else 0,
                               "words: " + "; ".join(texts if len(set(texts)) == len(texts) else dict.fromkeys(texts)))
            k, domain = kind_of[d], domain_of[d]
            if plan_kinds and k in plan_kinds:
                reasons.append(f"class named in the query: {kind_names[k]}")
            if query_lift and domain == query_code:
                reasons.append("query-language phrase lifted query-language pages")
            if refs is not None and (r := refs[d]) and domain == metadata_code:
                text = graph_reasons.get(r)
                if text is None:
                    text = graph_reasons[r] = (f"graph importance: {r} "
                                               + ("object refers" if r == 1 else "objects refer") + " to it")
                reasons.append(text)
            if lifts and domain == metadata_code:
                for kinds, _, shown in lifts:
                    if k in kinds:
                        reasons.append(f"phrase form «{shown}» lifts {kind_names[k]}")
            # each reason once, in the order given (the usual case: no repeat, the list as it is)
            hits.append(Hit(d, score, reasons if len(set(reasons)) == len(reasons) else list(dict.fromkeys(reasons)),
                            fuzzy, relevance, list(words[j].values()), names, j))
        return hits


class _Table(StringTable):
    """A sorted string table found through its fixed-width head array (``<prefix>.head``):
    numpy narrows to the strings sharing the first bytes, Python compares only those.

    ``in_memory`` (the term table): every string is read once, on the first lookup, into a
    sorted Python list of bytes that ``bisect`` searches in C. A query makes ~13 term lookups
    and ~2 prefix ranges; through the head they cost 6 µs (a short key: numpy converts the key
    on every call) to 37 µs (a whole-phrase key "=a+b+c": its first 24 bytes are shared by
    hundreds of terms, bisected by blob reads), 0.29 ms a query at SSL ×8; from the list
    ~1.5 µs. The list costs ~80 bytes a term (5 MB for SSL ×8's 62,805 terms)."""

    def __init__(self, offsets: np.ndarray, blob: memoryview, head: np.ndarray | None,
                 in_memory: bool = False) -> None:
        super().__init__(offsets, blob)
        self._head = head
        self._width = head.dtype.itemsize if head is not None else 0
        self._in_memory = in_memory
        self._list: list[bytes] | None = None

    def _strings(self) -> list[bytes]:
        """Every string of the table as bytes, in table order (read once)."""
        got = self._list
        if got is None:
            blob = bytes(self._blob)
            off = self._off.tolist()
            got = self._list = [blob[off[i]:off[i + 1]] for i in range(self.n)]
        return got

    def __getitem__(self, i: int) -> str:
        if self._list is not None:
            return str(self._list[i], "utf-8")
        return super().__getitem__(i)

    def _range(self, key: bytes) -> tuple[int, int]:
        h = key[:self._width]
        return (int(self._head.searchsorted(h, "left")), int(self._head.searchsorted(h, "right")))

    def find(self, s: str) -> int:
        key = s.encode("utf-8")
        strings = self._list                    # the in-memory table, once read (~10 finds a query)
        if strings is None and self._in_memory and self.n:
            strings = self._strings()
        if strings is not None:
            i = bisect_left(strings, key)
            return i if i < self.n and strings[i] == key else -1
        if self._head is None or not self.n:
            return super().find(s)
        if len(key) < self._width:
            # The head is the whole string of every term shorter than the head: one bisection
            # of the head array and one compare of its element (no bytes read from the blob).
            lo = self._head.searchsorted(key).item()
            return lo if lo < self.n and self._head.item(lo) == key else -1
        lo, hi = self._range(key)
        while lo < hi:
            mid = (lo + hi) // 2
            if self._bytes(mid) < key:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < self.n and self._bytes(lo) == key else -1

    def offsets(self, lo: int, hi: int) -> np.ndarray:
        """The blob offsets of strings lo…hi-1 and the end of the last one (hi − lo + 1 values)."""
        return self._off[lo:hi + 1]

    def byte_sizes(self, lo: int, hi: int) -> np.ndarray:
        """UTF-8 byte lengths of strings lo…hi-1, from the offsets (nothing decoded)."""
        return np.diff(self._off[lo:hi + 1].astype(np.int64))

    def prefix_range(self, prefix: str) -> range:
        key = prefix.encode("utf-8")
        if self._in_memory and self.n:
            # UTF-8 has no 0xff byte: every string starting with key sorts before key + 0xff
            strings = self._strings()
            return range(bisect_left(strings, key), bisect_left(strings, key + b"\xff"))
        if self._head is None or len(key) >= self._width or not self.n:
            return super().prefix_range(prefix)
        lo = int(self._head.searchsorted(key, "left"))
        hi = int(self._head.searchsorted(key + b"\xff" * (self._width - len(key)), "right"))
        return range(lo, hi)


def _table(bundle: Bundle, prefix: str, in_memory: bool = False) -> _Table:
    off, blob = S.table_segments(prefix)
    head = bundle.array(f"{prefix}.head") if bundle.has(f"{prefix}.head") else None
    return _Table(bundle.array(off), bundle.blob(blob), head, in_memory)


def _one_edit(a: str, b: str) -> bool:
    """True when ``b`` is ``a`` with one letter inserted, deleted, replaced, or two swapped."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    i = 0
    while i < min(la, lb) and a[i] == b[i]:
        i += 1
    if la == lb:
        return a[i + 1:] == b[i + 1:] or (
            i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:])
    return a[i + 1:] == b[i:] if la > lb else a[i:] == b[i + 1:]


def _best_per_doc(ds: list[np.ndarray], vs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Each document once with its best value over several posting runs (doc ids ascending
    within a run). The longest run is the base; the others, usually short (word families,
    synonyms), are merged into it by bisection, and only what is left is sorted. The result is
    unique by document, not sorted (scores are summed by bincount)."""
    lens = [len(d) for d in ds]
    if sum(lens) <= BEST_PY_POSTINGS:
        # A few dozen postings (whole-phrase keys, rare words): a dict costs less than the dozen
        # numpy calls below. The first run's value wins a tie, as there.
        best: dict[int, float] = {}
        for d, v in zip(ds, vs):
            for doc, val in zip(d.tolist(), v.tolist()):
                if doc not in best or val > best[doc]:
                    best[doc] = val
        return (np.fromiter(best, dtype=ds[0].dtype, count=len(best)),
                np.fromiter(best.values(), dtype=vs[0].dtype, count=len(best)))
    big = lens.index(max(lens))     # the first longest run, as max() would pick
    docs, vals = ds[big], vs[big].copy()
    rest_d, rest_v = [], []
    for i, (d, v) in enumerate(zip(ds, vs)):
        if i == big or not lens[i]:
            continue
        if len(docs):
            pos = docs.searchsorted(d)
            np.minimum(pos, len(docs) - 1, out=pos)
            hit = docs[pos] == d
            if np.count_nonzero(hit) == len(hit):   # hit.all(), without its Python wrapper
                # The usual case (a surface form, a word family inside the stem's documents):
                # every document is already in the base run, nothing is left over.
                vals[pos] = np.maximum(vals[pos], v)
                continue
            at = pos[hit]
            vals[at] = np.maximum(vals[at], v[hit])
            miss = ~hit
            d, v = d[miss], v[miss]
        rest_d.append(d)
        rest_v.append(v)
    if rest_d:
        d = np.concatenate(rest_d)
        v = np.concatenate(rest_v)
        if len(rest_d) > 1 and len(d):
            order = np.lexsort((-v, d))
            d, v = d[order], v[order]
            first = np.empty(len(d), dtype=bool)
            first[0] = True
            np.not_equal(d[1:], d[:-1], out=first[1:])
            d, v = d[first], v[first]
        docs, vals = np.concatenate([docs, d]), np.concatenate([vals, v])
    return docs, vals


def _alts_key(alts: list[_Alt]) -> tuple[tuple[int, float, int, int, int], ...]:
    """What a run computed from alternatives depends on: each one's term, weight, field mask,
    stored family run and domain mask (the Searcher's own arrays, alive as long as it is:
    their ids name them)."""
    return tuple([(a.term, a.weight, a.fields, a.family, -1 if a.only is None else id(a.only)) for a in alts])


def _best(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the ``k`` highest scores (any order; all when there are fewer)."""
    return (-scores).argpartition(k - 1)[:k] if k < len(scores) else np.arange(len(scores))


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    """The arrays one after another; a single one as it is (bincount only reads it)."""
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


@lru_cache(maxsize=1024)
def _coverage_factors(required: int, most: int) -> np.ndarray:
    """0.25 + 0.75 · min(c / required, 1)² for each coverage count c = 0 … most: the factor of a
    candidate matching c of the ``required`` word slots, as a table gathered once per query
    instead of four passes over the candidates (the same IEEE double operations, in the same
    order, as numpy's over the candidates: the same bits). Read-only, shared."""
    table = np.array([0.25 + 0.75 * (cov := min(c / required, 1.0)) * cov for c in range(most + 1)])
    table.flags.writeable = False
    return table


def _filter_key(value: str | Iterable[str] | None) -> str | tuple[str, ...] | None:
    """A filter argument as a dictionary key (a list of domains or kinds becomes a tuple)."""
    return value if value is None or isinstance(value, str) else tuple(value)


def _member(values: np.ndarray, sorted_pool: np.ndarray) -> np.ndarray:
    """Boolean mask: which ``values`` occur in ``sorted_pool`` (one bisection, no sort)."""
    if not len(sorted_pool):
        return np.zeros(len(values), dtype=bool)
    pos = sorted_pool.searchsorted(values)
    np.minimum(pos, len(sorted_pool) - 1, out=pos)
    return sorted_pool[pos] == values


def _latin(word: str) -> bool:
    """The word is written in Latin letters (an English term), not Cyrillic ones."""
    return "a" <= word[:1] <= "z"


def _find(seq: list[str], phrase: tuple[str, ...]) -> list[int]:
    n = len(phrase)
    return [i for i in range(len(seq) - n + 1) if tuple(seq[i:i + n]) == phrase]


__all__ = ["Hit", "SearchResult", "Searcher", "name_key"]
