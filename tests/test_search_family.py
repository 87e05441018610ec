"""Word families stored at compile time (search.family_*): the family of every indexed stem is the
one the rule finds live, its merged postings are the per-query merge they replace, and every
answer is the same whether the searcher reads them or runs the rule and the merge per query."""
from __future__ import annotations

import json

import numpy as np
import pytest

try:   # tests/ is a package once tests/__init__.py exists (other branches add it)
    from tests.search_sets.standin import build_bundle
except ImportError:
    from search_sets.standin import build_bundle
from v8atlas.compiler.documents import Doc
from v8atlas.formats import Bundle
from v8atlas.formats.text import words
from v8atlas.formats.word_family import W_DERIVED
from v8atlas.server.search import Searcher, _best_per_doc

RU = {"Catalog": "Справочник", "Document": "Документ", "AccumulationRegister": "РегистрНакопления",
      "InformationRegister": "РегистрСведений"}


def meta(cls: str, name: str, synonym: str, **fields: str) -> Doc:
    title = f"{RU[cls]}.{name}"
    return Doc("metadata", f"УТ/{title}", cls, title, {"title": title}, names=[title, f"{cls}.{name}", name],
               fields={"name": name, "synonym": synonym, **fields}, config="УТ")


DOCS = [
    meta("Catalog", "Кассы", "Кассы", comment="Кассовые места магазина"),
    meta("Document", "ПриходныйКассовыйОрдер", "Приходный кассовый ордер", comment="Поступление в кассу"),
    meta("Document", "РасходныйКассовыйОрдер", "Расходный кассовый ордер"),
    meta("Catalog", "Склады", "Склады", comment="Складские помещения и магазины"),
    meta("AccumulationRegister", "СкладскиеОстатки", "Складские остатки", attributes="Склад Номенклатура"),
    meta("Document", "ПриходТоваров", "Приход товаров", comment="Приходные документы склада"),
    meta("InformationRegister", "НастройкиПользователей", "Пользовательские настройки",
         comment="Настройки пользователя и пользовательские параметры"),
    meta("Catalog", "Пользователи", "Пользователи", comment="Пользователь программы"),
    meta("Catalog", "Профессии", "Профессии", comment="Профессиональные стандарты"),
    meta("Document", "ЗаказКлиента", "Заказ клиента", comment="Заказы клиентов, заказанные товары"),
]
QUERIES = ["кассовые", "касса", "кассовый ордер", "приходный", "приход на склад", "складской",
           "склады", "пользовательские настройки", "пользователи", "пользователь", "профессиональный",
           "заказанные товары", "заказы клиентов", "кассы магазина", "остатки складские", "ордер"]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    path, _ = build_bundle(DOCS, tmp_path_factory.mktemp("family"))
    return Bundle.open(path)


def test_every_stored_family_is_the_one_the_rule_finds_live(bundle):
    s = Searcher(bundle)
    assert s.has_families
    stored = 0
    for t in range(len(s.terms)):
        term = s.terms[t]
        ids = s.family_term[int(s.family_off[t]):int(s.family_off[t + 1])].tolist()
        assert [a.term for a in s._derived(term, term, {t})] == [f for f in ids if f != t], term
        stored += bool(ids)
    assert stored >= 5    # касс, приход, склад, пользовател… have families here


def test_merged_postings_are_the_merge_of_the_stem_and_its_family(bundle):
    s = Searcher(bundle)
    for t in range(len(s.terms)):
        ids = s.family_term[int(s.family_off[t]):int(s.family_off[t + 1])].tolist()
        lo, hi = int(s.family_post_off[t]), int(s.family_post_off[t + 1])
        if not ids:
            assert lo == hi
            continue
        runs_d, runs_v = [], []
        for f, w in [(t, 1.0)] + [(f, W_DERIVED) for f in ids]:
            a, b = int(s.post_off[f]), int(s.post_off[f + 1])
            keep = np.ones(b - a, dtype=bool) if f == t else (s.post_fields[a:b] & s._naming_mask) != 0
            runs_d.append(s.post_doc[a:b][keep])
            runs_v.append((s.post_imp[a:b] * np.float32(w))[keep])
        d, v = _best_per_doc(runs_d, runs_v)
        order = np.argsort(d)
        assert s.family_doc[lo:hi].tolist() == d[order].tolist()
        assert s.family_imp[lo:hi].tobytes() == v[order].astype("<f4").tobytes()


@pytest.mark.parametrize("domains", [None, ["metadata"]])
def test_answers_are_the_same_with_the_stored_families_and_without(bundle, domains):
    stored, live = Searcher(bundle), Searcher(bundle)
    live.has_families = False      # the rule and the merge per query, as bundles before them
    families_met = 0
    for q in QUERIES:
        a, b = stored.search(q, domains=domains), live.search(q, domains=domains)
        assert json.dumps(a.as_dict(), ensure_ascii=False) == json.dumps(b.as_dict(), ensure_ascii=False), q
        families_met += any("word family" in w for h in a.hits for w in h.why)
    assert families_met >= 3


def test_a_family_holding_the_words_surface_form_still_scores_by_the_stored_run(bundle):
    # "пользователи": the stem's family holds the surface form, which the word matches at full
    # weight already; it is left out of the family's alternatives (as the rule leaves it out)
    # and the stem is still scored by the stored run.
    s = Searcher(bundle)
    held = 0
    for word in (w for q in QUERIES for w in words(q) if not w.whole):
        t = s.terms.find(word.term)
        family = s.family_term[int(s.family_off[t]):int(s.family_off[t + 1])].tolist() if t >= 0 else []
        if not family:
            continue
        alts = s._alternatives(word.term, word.surface)
        assert alts[0].family == t, word
        assert [a.term for a in alts if a.reason.startswith("word family")] == [
            a.term for a in s._derived(word.term, word.surface, {a.term for a in alts[:2] if not a.reason})], word
        held += (u := s.terms.find(word.surface)) in family and u != t
    assert held >= 1
