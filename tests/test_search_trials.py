"""Signals measured and not served (docs/search.md, round 2, session 8): each is off unless a
measurement switches it on, and when on it does what it says — the head noun of a Russian
phrase met in a name lifts its object (``Searcher(trying=["head_noun"])``), and the code
domain files what an object's modules say of it as its ``module_doc`` words
(``V8ATLAS_SEARCH_TRY=module_doc``), leaving out sentences many objects' modules share."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

try:   # tests/ is a package once tests/__init__.py exists (other branches add it)
    from tests.search_sets.standin import build_bundle
except ImportError:
    from search_sets.standin import build_bundle
from v8atlas.compiler.documents import Doc, Edge
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats import Bundle
from v8atlas.formats.phrase_head import head_position
from v8atlas.server.search import Searcher

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "config-designer"


def test_head_is_the_first_russian_word_that_is_no_adjective_or_infinitive():
    def head(phrase: str) -> str | None:
        ws = phrase.split()
        p = head_position(ws, list(range(len(ws))))
        return None if p is None else ws[p]
    assert head("кассовый чек розничной продажи") == "чек"
    assert head("выставить счет фактуру покупателю") == "счет"
    assert head("долги клиентов") == "долги"
    assert head("кассовые аппараты") == "аппараты"
    assert head("bank accounts") is None            # English: no head (measured: it lost)
    assert head("чек") is None                      # one word: nothing to tell apart


def _meta(name: str, synonym: str, comment: str) -> Doc:
    title = f"Справочник.{name}"
    return Doc("metadata", f"УТ/{title}", "Catalog", title, {"title": title}, names=[title, name],
               fields={"name": name, "synonym": synonym, "comment": comment}, config="УТ")


@pytest.fixture(scope="module")
def head_bundle(tmp_path_factory):
    # Both objects hold both words; the shift (касса) is named by the rarer word, the receipt
    # (чек) by the phrase's head.
    docs = [_meta("КассоваяСмена", "Кассовая смена", "чек"),
            _meta("Чек", "Чек", "кассовый"),
            _meta("Прочее", "Прочее", "чек"),
            _meta("Другое", "Другое", "чек")]
    # a reference, so the bundle weighs graph importance (searches of the configuration alone)
    edges = [Edge("УТ/Справочник.Прочее", "УТ/Справочник.Другое", "attribute_type")]
    path, _ = build_bundle(docs, tmp_path_factory.mktemp("head"), edges=edges)
    return Bundle.open(path)


def _first(searcher: Searcher, query: str) -> str:
    return searcher.search(query, domains=["metadata"], limit=3).hits[0].title


def test_head_noun_trial_lifts_the_object_named_by_the_head(head_bundle):
    off = Searcher(head_bundle)
    on = Searcher(head_bundle, trying=["head_noun"])
    assert _first(off, "кассовый чек") == "Справочник.КассоваяСмена"
    assert _first(on, "кассовый чек") == "Справочник.Чек"
    # only in searches of the configuration alone
    assert on.search("кассовый чек", limit=3).hits[0].title == "Справочник.КассоваяСмена"


MANAGER = """// Возвращает цену прайс листа по умолчанию.
Функция ЦенаПоУмолчанию() Экспорт
	Возврат 0;
КонецФункции

// Определяет настройки версионирования объекта.
Процедура ПриОпределенииНастроек(Настройки) Экспорт
КонецПроцедуры
"""
SHARED = """// Определяет настройки версионирования объекта.
Процедура ПриОпределенииНастроек(Настройки) Экспорт
КонецПроцедуры
"""


@pytest.fixture(scope="module")
def dump(tmp_path_factory):
    root = tmp_path_factory.mktemp("trial") / "cf"
    shutil.copytree(EXAMPLES, root)
    (root / "Catalogs/Номенклатура/Ext").mkdir(parents=True, exist_ok=True)
    (root / "Catalogs/Номенклатура/Ext/ManagerModule.bsl").write_text(MANAGER, encoding="utf-8")
    for other in ("Склады", "Партнеры", "Договоры"):   # the library's interface sentence, shared
        (root / f"Catalogs/{other}/Ext").mkdir(parents=True, exist_ok=True)
        (root / f"Catalogs/{other}/Ext/ManagerModule.bsl").write_text(SHARED, encoding="utf-8")
    return root


def _searcher(dump: Path, out: Path) -> Searcher:
    result = compile_bundle([dump], out, quiet=True, cache=False)
    return Searcher(Bundle.open(result.bundle_path))


def test_module_doc_trial_files_an_objects_own_sentences(dump, tmp_path, monkeypatch):
    off = _searcher(dump, tmp_path / "off")
    assert not [h for h in off.search("прайс листа", domains=["metadata"]).hits
                if h.title == "Справочник.Номенклатура"]
    monkeypatch.setenv("V8ATLAS_SEARCH_TRY", "module_doc")
    on = _searcher(dump, tmp_path / "on")
    hit = next(h for h in on.search("прайс листа", domains=["metadata"]).hits
               if h.title == "Справочник.Номенклатура")
    assert any("module_doc" in w for w in hit.why)
    # the sentence four objects' modules share is no object's words
    assert not [h for h in on.search("версионирования", domains=["metadata"]).hits
                if any("module_doc" in w for w in h.why)]
