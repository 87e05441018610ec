"""Search over a bundle built from synthetic documents (the compiler's Doc contract)."""
from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

try:   # tests/ is a package once tests/__init__.py exists (other branches add it)
    from tests.search_sets.standin import build_bundle
except ImportError:
    from search_sets.standin import build_bundle
from v8atlas.cli import main
from v8atlas.compiler.documents import Doc
from v8atlas.formats import Bundle
from v8atlas.server.search import MAX_LIMIT, Searcher


def meta(cls: str, ru: str, name: str, synonym: str, attrs: str = "", config: str = "БСП") -> Doc:
    title = f"{ru}.{name}"
    return Doc("metadata", f"{config}/{title}", cls, title, {"title": title},
               names=[title, f"{cls}.{name}", name],
               fields={"name": name, "synonym": synonym, "attributes": attrs}, config=config)


def platform(name: str, en: str, kind: str = "method", owner: str = "", desc: str = "",
             since: str | None = None, until: str | None = None) -> Doc:
    member = name.rsplit(".", 1)[-1]
    return Doc("platform", f"platform/{name}", kind, name, {"title": name}, names=[name, en, member],
               fields={"name": name, "name_en": en, "owner": owner, "description": desc},
               since=since, until=until)


def query(name: str, en: str, page: str, kind: str = "function", desc: str = "") -> Doc:
    return Doc("query", f"query/Запрос.{name}", kind, f"Запрос.{name}", {"title": name, "page": page},
               names=[f"Запрос.{name}", name, en], fields={"name": name, "name_en": en, "description": desc})


DOCS = [
    meta("Catalog", "Справочник", "Пользователи", "Пользователи", "ФизическоеЛицо Подразделение"),
    meta("Catalog", "Справочник", "ВнешниеПользователи", "Внешние пользователи"),
    meta("CommonModule", "ОбщийМодуль", "Пользователи", "Пользователи"),
    meta("CommonPicture", "ОбщаяКартинка", "Пользователи", "Пользователи"),
    meta("InformationRegister", "РегистрСведений", "ВерсииПодсистем", "Версии подсистем", "ИмяПодсистемы Версия"),
    meta("InformationRegister", "РегистрСведений", "ВерсииПодсистемОбластейДанных", "Версии подсистем областей данных"),
    meta("Catalog", "Справочник", "ВерсииФайлов", "Версии файлов"),
    meta("InformationRegister", "РегистрСведений", "КурсыВалют", "Курсы валют", "Валюта Курс Кратность"),
    meta("Catalog", "Справочник", "Валюты", "Валюты"),
    meta("Catalog", "Справочник", "Контрагенты", "Контрагенты", config="ERP"),
    meta("Document", "Документ", "ЗаказПокупателя", "Заказ покупателя", "Контрагент Сумма", config="ERP"),
    platform("Массив.Найти", "Array.Find", owner="Массив Array", desc="Ищет элемент в массиве."),
    platform("Массив.Добавить", "Array.Add", owner="Массив Array", desc="Добавляет элемент в конец."),
    platform("Массив", "Array", kind="type", desc="Коллекция значений."),
    platform("Глобальный контекст.СтрДлина", "Global context.StrLen", kind="global_method",
             desc="Длина строки в символах."),
    platform("Глобальный контекст.СтрНайти", "Global context.StrFind", kind="global_method",
             desc="Находит подстроку.", since="8.3.6"),
    platform("Глобальный контекст.СтарыйМетод", "Global context.OldMethod", kind="global_method",
             desc="Удален.", until="8.3.10"),
    # "клиент" is the client application in 1C names: not a customer, not a контрагент.
    meta("CommonModule", "ОбщийМодуль", "ВзаимодействияКлиентСервер", "Взаимодействия клиент сервер"),
    platform("Глобальный контекст.ПолучитьИнформациюЭкрановКлиента", "Global context.GetClientDisplaysInformation",
             kind="global_method", desc="Информация об экранах клиента."),
    platform("Глобальный контекст.ПолучитьПартнера", "Global context.GetPartner", kind="global_method",
             desc="Партнер (для проверки: бизнес-синоним не доходит до платформы)."),
    query("РАЗНОСТЬДАТ", "DATEDIFF", "DATEDIFF", desc="Разность двух дат в заданных единицах."),
    query("РАЗЛИЧНЫЕ", "DISTINCT", "DISTINCT", kind="keyword", desc="Только неповторяющиеся строки."),
    query("ПОДСТРОКА", "SUBSTRING", "SUBSTRING", desc="Выделяет подстроку."),
    query("СТРНАЙТИ", "StrFind", "StrFind", desc="Позиция подстроки."),
]

DICTIONARY = {
    "synonyms": [["оператор", "пользователь"]],
    "aliases": [
        {"phrase": "кто работает в программе", "targets": ["Справочник.Пользователи"], "config": "БСП"},
        {"phrase": "нет такого", "targets": ["Справочник.НетТакого"], "config": "БСП"},
        {"phrase": "<b>кто сидит</b> в базе", "targets": ["Справочник.ВнешниеПользователи"]},
    ],
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("bundles")
    path, ctx = build_bundle(DOCS, out, dictionary_tables=DICTIONARY)
    return path, ctx


@pytest.fixture(scope="module")
def searcher(built):
    return Searcher(Bundle.open(built[0]))


def titles(result) -> list[str]:
    return [h.title for h in result.hits]


def test_exact_name_first_and_said(searcher):
    r = searcher.search("Массив.Найти")
    assert r.hits[0].title == "Массив.Найти" and "exact name" in r.hits[0].why
    r = searcher.search("InformationRegister.ВерсииПодсистем")
    assert r.hits[0].title == "РегистрСведений.ВерсииПодсистем"


def test_a_data_question_gets_the_catalog_before_the_module_and_the_picture(searcher):
    r = searcher.search("пользователи")
    assert titles(r)[:3] == ["Справочник.Пользователи", "ОбщийМодуль.Пользователи", "ОбщаяКартинка.Пользователи"]


def test_words_in_any_order_find_the_whole_name(searcher):
    for q in ("версии подсистем", "подсистем версии", "Версии Подсистем"):
        r = searcher.search(q)
        assert r.hits[0].title == "РегистрСведений.ВерсииПодсистем", q
        assert any("the whole name" in w for w in r.hits[0].why)
        assert any(w.startswith("words: ") and "name" in w for w in r.hits[0].why)


def test_class_words_boost_that_class(searcher):
    r = searcher.search("общий модуль пользователи")
    assert r.hits[0].title == "ОбщийМодуль.Пользователи"
    assert "class named in the query: CommonModule" in r.hits[0].why


def test_alias_outranks_text_and_missing_target_is_a_compile_warning(built, searcher):
    r = searcher.search("кто работает в программе")
    assert r.hits[0].title == "Справочник.Пользователи"
    assert "alias «кто работает в программе»" in r.hits[0].why   # the phrase, not its stems
    assert not r.hits[0].fuzzy and r.confident
    r = searcher.search("<b>кто сидит</b> в базе")
    assert r.hits[0].title == "Справочник.ВнешниеПользователи"
    # As the dictionary wrote it (the renderers escape markup), not "сид баз".
    assert "alias «<b>кто сидит</b> в базе»" in r.hits[0].why
    warnings = [w for w in built[1].report.as_dict().get("warnings", []) if w["code"] == "alias-missing-object"]
    assert len(warnings) == 1 and "Справочник.НетТакого" in warnings[0]["message"]


def test_synonyms_from_the_dictionary_and_built_in(searcher):
    r = searcher.search("операторы")
    assert r.hits[0].title == "Справочник.Пользователи"
    assert any("synonym" in w and "dictionary.json" in w for w in r.hits[0].why)
    r = searcher.search("заказ клиента", config="ERP")     # built-in group клиент/покупатель
    assert r.hits[0].title == "Документ.ЗаказПокупателя"
    assert any("built-in" in w for w in r.hits[0].why)


def test_query_language_keys_find_pages_but_stay_out_of_cards(built, searcher):
    r = searcher.search("количество дней между датами")
    assert r.hits[0].title == "Запрос.РАЗНОСТЬДАТ"
    assert any("keys" in w for w in r.hits[0].why)
    card = searcher.catalog.card(r.hits[0].doc)
    assert "количество дней" not in repr(card)
    assert searcher.search("убрать повторы").hits[0].title == "Запрос.РАЗЛИЧНЫЕ"


def test_query_keys_for_pages_the_book_lacks_are_reported(built):
    # Four query pages of the 61 keyed: a partial book, one "unknown" line for the rest.
    unknown = built[1].report.as_dict()["unknown"]
    line = next(u for u in unknown if "search-key pages" in u["what"])
    assert line["count"] == 61 - 4 and "DATEDIFF" not in line["example"]


def test_a_query_phrase_lifts_the_query_language(searcher):
    plain = searcher.search("найти подстроку")
    lifted = searcher.search("найти подстроку в запросе")
    assert lifted.hits[0].domain == "query"
    assert any("query-language phrase" in w for w in lifted.hits[0].why)
    assert plain.total >= 1


def test_partial_words_and_typos(searcher):
    r = searcher.search("версии подсист")
    assert r.hits[0].title == "РегистрСведений.ВерсииПодсистем"
    r = searcher.search("ползователи")
    assert r.hits[0].title == "Справочник.Пользователи"
    assert any(w.startswith("typo") for w in r.hits[0].why)
    r = searcher.search("курсы вал")
    assert r.hits[0].title == "РегистрСведений.КурсыВалют"
    assert any(w.startswith("prefix") for w in r.hits[0].why)


def test_keyboard_layout_and_transliteration_fallbacks(searcher):
    r = searcher.search("gjkmpjdfntkb")          # "пользователи" typed on the Latin layout
    assert r.hits and r.hits[0].title == "Справочник.Пользователи"
    assert r.rewrites and r.rewrites[0].startswith("keyboard layout")
    assert any(w.startswith("keyboard layout") for w in r.hits[0].why)
    r = searcher.search("kursy valyut")
    assert r.hits[0].title == "РегистрСведений.КурсыВалют"
    assert any(x.startswith("transliteration") for x in r.rewrites)


def test_filters_domain_config_kind_version(searcher):
    assert {h.domain for h in searcher.search("найти", domains=["platform"]).hits} == {"platform"}
    r = searcher.search("контрагенты", config="БСП")
    assert all(h.key.startswith("БСП/") or h.domain != "metadata" for h in r.hits)
    assert not any(h.title == "Справочник.Контрагенты" for h in r.hits)
    assert {h.kind for h in searcher.search("пользователи", kind="CommonModule").hits} == {"CommonModule"}
    old = [h.title for h in searcher.search("СтрНайти", platform_version="8.3.5").hits]
    assert "Глобальный контекст.СтрНайти" not in old
    new = [h.title for h in searcher.search("СтарыйМетод", platform_version="8.3.20").hits]
    assert "Глобальный контекст.СтарыйМетод" not in new
    assert searcher.search("СтарыйМетод", platform_version="8.3.9").hits[0].title == "Глобальный контекст.СтарыйМетод"
    from v8atlas.formats.platform_version import encode_version
    encoded = [h.title for h in searcher.search("СтарыйМетод", platform_version=encode_version("8.3.20")).hits]
    assert "Глобальный контекст.СтарыйМетод" not in encoded
    r = searcher.search("пользователи", config="НетТакой")
    assert any("no configuration named" in n for n in r.notes)


def test_a_repeated_filter_answers_the_same_and_keeps_its_notes(searcher):
    # The allowed mask is kept per distinct filter: the second query with the same filter must
    # get the same documents and the same notes, and another filter must not see the first's.
    first = searcher.search("контрагенты", domains=["metadata"], config="НетТакой")
    again = searcher.search("контрагенты", domains=["metadata"], config="НетТакой")
    assert any("no configuration named" in n for n in again.notes)
    assert again.notes == first.notes and [h.key for h in again.hits] == [h.key for h in first.hits]
    assert {h.domain for h in searcher.search("найти", domains=["platform"]).hits} == {"platform"}
    assert {h.domain for h in searcher.search("найти", domains=["query"]).hits} <= {"query"}
    assert all("unknown domain" not in n for n in searcher.search("найти", domains=["platform"]).notes)
    for _ in range(2):
        assert any("unknown domain" in n for n in searcher.search("найти", domains=["нет"]).notes)


@pytest.mark.parametrize("q", ["", "   ", "\x00\x01\x02", "!!!???", "\u200b"])
def test_empty_queries_get_a_clear_answer(searcher, q):
    r = searcher.search(q)
    assert r.hits == [] and r.total == 0 and r.notes and "empty" in r.notes[0]


def test_stop_words_only(searcher):
    r = searcher.search("в на для")
    assert r.hits == [] and "stop words" in r.notes[0]


def test_huge_and_hostile_input_is_bounded(searcher):
    q = "пользователи " * 1000            # 13,000 characters
    t0 = time.perf_counter()
    r = searcher.search(q, limit=10_000)
    elapsed = time.perf_counter() - t0
    assert len(r.hits) <= MAX_LIMIT
    assert any("cut" in x for x in r.rewrites)
    assert r.hits[0].title == "Справочник.Пользователи"
    assert elapsed < 5      # generous: a guard against a runaway loop, not a benchmark
    r = searcher.search("Пользователи\x07\x1b[31m")
    assert r.hits[0].title == "Справочник.Пользователи"
    r = searcher.search("вeрсии подсистем")    # a Latin "e" inside a Cyrillic word
    assert r.hits[0].title == "РегистрСведений.ВерсииПодсистем"
    assert searcher.search(12345).notes       # not text


def test_paging(searcher):
    first = searcher.search("пользователи", limit=2)
    second = searcher.search("пользователи", limit=2, offset=2)
    assert len(first.hits) == 2 and first.total == second.total
    assert not {h.doc for h in first.hits} & {h.doc for h in second.hits}


def test_bundle_without_search_segments_still_resolves_exact_names(tmp_path):
    from v8atlas.compiler import build_docs
    from v8atlas.compiler.pipeline import LinkContext
    from v8atlas.compiler.report import CompileReport
    from v8atlas.compiler.sources import Project
    from v8atlas.formats.writer import BundleWriter
    ctx = LinkContext(project=Project(sources=[]), report=CompileReport())
    ctx.docs = DOCS[:3]
    w = BundleWriter(tmp_path, "noindex", compiler_version="test")
    build_docs.build(ctx, w)
    s = Searcher(Bundle.open(w.publish()))
    assert s.search("Справочник.Пользователи").hits[0].title == "Справочник.Пользователи"
    assert s.search("что-то").total == 0


def test_bench_search_command(built, tmp_path):
    tsv = tmp_path / "set.tsv"
    tsv.write_text("# comment\nверсии подсистем\tРегистрСведений.ВерсииПодсистем\n"
                   "пользователи\tСправочник.Пользователи|ОбщийМодуль.Пользователи\tБСП\n"
                   "нет в бандле\tСправочник.НетТакого\n", encoding="utf-8")
    runner = CliRunner()
    args = ["bench", "search", "--bundles", str(built[0]), "--set", str(tsv), "--results", str(tmp_path / "r")]
    first = runner.invoke(main, args)
    assert first.exit_code == 0, first.output
    for metric in ("p@1", "p@3", "p@5", "p@10", "mrr", "other_domain_first", "median_gap",
                   "latency_ms_p50", "latency_ms_p99"):
        assert metric in first.output
    assert "not in this bundle" in first.output
    again = runner.invoke(main, args + ["--json"])
    assert again.exit_code == 0 and '"previous"' in again.output
    bad = tmp_path / "bad.tsv"
    bad.write_text("only a query\n", encoding="utf-8")
    r = runner.invoke(main, ["bench", "search", "--bundles", str(built[0]), "--set", str(bad)])
    assert r.exit_code != 0 and "bad.tsv:1" in r.output


def test_typo_candidates_are_one_edit_away(searcher):
    from v8atlas.server.search import _one_edit
    assert _one_edit("ползовател", "пользовател") and _one_edit("валтю", "валют")
    assert not _one_edit("заказ", "знака")      # symmetric deletion meets these two; one edit does not
    r = searcher.search("вылюты")                # валюты with one wrong letter
    assert r.hits[0].title == "Справочник.Валюты"


def test_business_synonyms_stay_in_the_metadata_domain_and_a_synonym_only_hit_is_a_guess(searcher):
    r = searcher.search("контрагенты")
    assert r.hits[0].title == "Справочник.Контрагенты" and r.confident
    # Neither the client-application objects ("клиент") nor platform methods come through it.
    assert {h.domain for h in r.hits} == {"metadata"}
    assert not [h for h in r.hits if "Клиент" in h.title]
    assert searcher.search("контрагенты", domains=["platform"]).hits == []
    # A business word meets a platform element only by its own letters, never as a synonym.
    r = searcher.search("контрагенты", domains=["platform", "query"])
    assert r.total == 0
    # "партнеры" is a synonym of контрагент: the catalog is a near guess, not a find …
    r = searcher.search("партнеры", domains=["metadata"])
    assert r.hits[0].title == "Справочник.Контрагенты"
    assert r.hits[0].fuzzy and not r.confident
    assert any("synonym партнер → контрагент (built-in)" == w for w in r.hits[0].why)
    assert "only synonyms of the query's words matched" in r.notes[-1]
    # … while the platform element with the word itself is a find.
    r = searcher.search("партнеры", domains=["platform"])
    assert r.hits[0].title == "Глобальный контекст.ПолучитьПартнера" and r.confident


def test_a_phrase_translated_by_a_synonym_is_a_find_not_a_guess(searcher):
    # "exchange rate" → "курс валют": the whole query is a translation of the whole name, so
    # the register is found; a single word met only through a synonym stays a guess (above).
    r = searcher.search("exchange rates", domains=["metadata"])
    assert r.hits[0].title == "РегистрСведений.КурсыВалют"
    assert not r.hits[0].fuzzy and r.confident


def test_the_in_memory_term_table_finds_what_the_head_finds(built):
    # The searcher reads its term table into a list once (server/search.py _Table in_memory):
    # every term, whole-phrase key and prefix must resolve as through the head array and blob.
    from v8atlas.server.search import _table
    bundle = Bundle.open(built[0])
    listed, headed = _table(bundle, "search.terms", in_memory=True), _table(bundle, "search.terms")
    terms = [headed[i] for i in range(len(headed))]
    assert any(t.startswith("=") for t in terms) and len(terms) > 50
    for t in terms + [t + "я" for t in terms[::3]] + ["", "\uffff", "=", "zzzz"]:
        assert listed.find(t) == headed.find(t), t
        assert listed.prefix_range(t) == headed.prefix_range(t), t
    assert [listed[i] for i in range(len(listed))] == terms
