"""What a Searcher keeps per word (a word's alternatives, a slot's merged posting run) and the
page's names read on first access: every answer is the one a fresh Searcher gives, whatever was
asked before, after the caches are dropped, and when they are too small to hold a query."""
from __future__ import annotations

import json

import numpy as np
import pytest

try:   # tests/ is a package once tests/__init__.py exists (other branches add it)
    from tests.search_sets.standin import build_bundle
    from tests.test_search_family import DOCS as FAMILY_DOCS
    from tests.test_search_family import meta
except ImportError:
    from search_sets.standin import build_bundle
    from test_search_family import DOCS as FAMILY_DOCS
    from test_search_family import meta
from v8atlas.formats import Bundle
from v8atlas.server import search as search_module
from v8atlas.server.search import Searcher

# The word-family set, with a synonym group's word (контрагенты ↔ покупатели) and a perfective verb.
DOCS = FAMILY_DOCS + [
    meta("Catalog", "Контрагенты", "Контрагенты", comment="Партнеры и покупатели"),
    meta("Document", "ЗаказПоставщику", "Заказ поставщику", comment="Скопировать заказ поставщика"),
]
# Words shared between queries (касс, склад, пользовател), synonyms (one word, and phrases of
# another length: учетные записи ↔ пользователь), a typo, a prefix, a whole name.
QUERIES = ["кассовые", "касса магазина", "приходный кассовый ордер", "складские остатки", "склады",
           "пользовательские настройки", "пользователи", "настройки пользователей", "контрагенты",
           "покупатели", "ползователи", "заказ", "заказанные товары", "скопировать заказ",
           "Справочник.Кассы", "ПриходныйКассовыйОрдер", "регистр накопления склад",
           "учетные записи", "настройки учетных записей", "партнеры"]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    path, _ = build_bundle(DOCS, tmp_path_factory.mktemp("wordcache"))
    return Bundle.open(path)


def answer(s: Searcher, q: str, domain: str | None, offset: int) -> str:
    domains = [domain] if domain else None
    return json.dumps(s.search(q, domains=domains, limit=4, offset=offset).as_dict(), ensure_ascii=False)


def cases() -> list[tuple[str, str | None, int]]:
    return [(q, d, off) for q in QUERIES for d in (None, "metadata") for off in (0, 2)]


def test_answers_do_not_depend_on_what_was_asked_before(bundle):
    fresh = {c: answer(Searcher(bundle), *c) for c in cases()}
    assert sum(1 for a in fresh.values() if json.loads(a)["hits"]) > len(fresh) // 2
    warm = Searcher(bundle)
    for c in reversed(cases()):          # every word met before, in another order
        answer(warm, *c)
    assert {c: answer(warm, *c) for c in cases()} == fresh
    assert warm._syn_memo              # the synonym phrases' expansions were kept and reused
    warm.forget_words()
    assert not warm._word_alts and not warm._syn_memo and not warm._merged
    assert {c: answer(warm, *c) for c in cases()} == fresh


def test_caches_too_small_for_one_query_give_the_same_answers(bundle, monkeypatch):
    fresh = {c: answer(Searcher(bundle), *c) for c in cases()}
    monkeypatch.setattr(search_module, "WORD_CACHE", 1)
    monkeypatch.setattr(search_module, "MERGE_CACHE_BYTES", 64)
    tiny = Searcher(bundle)
    for _ in range(2):
        assert {c: answer(tiny, *c) for c in cases()} == fresh
    assert len(tiny._word_alts) <= len(QUERIES[0].split()) + 12   # cleared, not grown
    assert tiny._merged_bytes <= 64


def test_a_hits_names_are_its_documents(bundle):
    s = Searcher(bundle)
    hits = s.search("кассовый ордер", limit=10).hits
    assert len(hits) >= 2
    cat = s.catalog
    for h in hits:
        assert (h.key, h.title) == (cat.keys[h.doc], cat.titles[h.doc])
        assert h.domain == cat.domains[int(cat.domain[h.doc])] == "metadata"
        assert h.kind == cat.meta["kinds"][int(cat.kind[h.doc])]
        assert h.as_dict()["key"] == h.key


def test_the_coverage_table_has_the_bits_of_the_per_candidate_formula():
    # _bm25 gathers the coverage factor from a table; the scores (and so the ranking and the
    # answers' rounded scores) must be those of the formula applied to each candidate in numpy.
    for required in range(1, 13):
        for most in range(0, 30):
            covered = np.arange(most + 1)
            cov = np.minimum(covered / required, 1.0)
            direct = 0.25 + 0.75 * cov * cov
            assert search_module._coverage_factors(required, most).tobytes() == direct.tobytes()
