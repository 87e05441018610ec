"""Ranking signals that do not depend on one query set: phrase forms, what an object says
about itself (presentations, explanations, subsystems), word families, the help domain prior,
and `found` only for a hit that clears the calibrated bar. Synthetic documents; each test
also switches its signal off to show the signal is what ranks (docs/search.md)."""
from __future__ import annotations

import pytest

try:   # tests/ is a package once tests/__init__.py exists (other branches add it)
    from tests.search_sets.standin import build_bundle
except ImportError:
    from search_sets.standin import build_bundle
from v8atlas.compiler.config import model as M
from v8atlas.compiler.config.confindex import ConfigIndex
from v8atlas.compiler.config.link import _search_fields, subsystem_words
from v8atlas.compiler.documents import Doc
from v8atlas.formats import Bundle
from v8atlas.server.search import Searcher

CLASS_RU = {"Catalog": "Справочник", "Document": "Документ", "AccumulationRegister": "РегистрНакопления",
            "Report": "Отчет", "InformationRegister": "РегистрСведений", "Constant": "Константа",
            "DefinedType": "ОпределяемыйТип"}


def meta(cls: str, name: str, synonym: str, **fields: str) -> Doc:
    title = f"{CLASS_RU[cls]}.{name}"
    return Doc("metadata", f"УТ/{title}", cls, title, {"title": title}, names=[title, f"{cls}.{name}", name],
               fields={"name": name, "synonym": synonym, **fields}, config="УТ")


def platform(name: str, desc: str, kind: str = "global_method") -> Doc:
    return Doc("platform", f"platform/{name}", kind, name, {"title": name},
               names=[name, name.rsplit(".", 1)[-1]], fields={"name": name, "description": desc})


def query(name: str, desc: str) -> Doc:
    return Doc("query", f"query/Запрос.{name}", "function", f"Запрос.{name}", {"title": name, "page": name},
               names=[f"Запрос.{name}", name], fields={"name": name, "name_en": name.lower(), "description": desc})


DOCS = [
    meta("Catalog", "Склады", "Склады", presentation="Склады и магазины",
         explanation="Места хранения и материально ответственные лица"),
    meta("Document", "АктОРасхождениях", "Акт о расхождениях", attributes="Склад СписокТоваров"),
    meta("Catalog", "Товары", "Товары"),
    meta("AccumulationRegister", "ТоварыОрганизаций", "Товары организаций"),
    meta("Document", "ПеремещениеТоваров", "Перемещение товаров"),
    meta("Report", "ПеремещениеТоваров", "Перемещение товаров"),
    meta("Document", "ПлатежноеПоручение", "Платежное поручение", context="Казначейство"),
    meta("Catalog", "ЦеныА", "Цены поставщиков"),
    meta("Catalog", "ЦеныБ", "Цены поставщиков"),
    meta("Catalog", "Поставки", "Поставки", comment="хранит сведения об отгрузках партнерам"),
    meta("Catalog", "Кассы", "Кассы"),
    meta("Catalog", "ГрафикиРаботы", "Графики работы"),
    meta("InformationRegister", "ИзмененияГрафиков", "Изменения графиков", attributes="Сотрудник"),
    platform("Глобальный контекст.Лев", "Первые символы строки слева."),
    query("ЛЕВ", "Первые символы строки слева."),
]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    path, _ = build_bundle(DOCS, tmp_path_factory.mktemp("gen"))
    return Bundle.open(path)


def first(bundle, q: str, disabled: tuple[str, ...] = (), **kw):
    r = Searcher(bundle, disabled=disabled).search(q, **kw)
    return r.hits[0] if r.hits else None, r


def test_a_list_phrase_asks_for_the_catalog_and_the_word_list_is_not_a_name_word(bundle):
    hit, _ = first(bundle, "список складов", domains=["metadata"])
    assert hit.title == "Справочник.Склады"
    assert any("phrase form «список» lifts Catalog" in w for w in hit.why)
    hit, _ = first(bundle, "список складов", disabled=("forms",), domains=["metadata"])
    assert hit.title == "Документ.АктОРасхождениях"   # "список" met in its attribute СписокТоваров


def test_a_balance_question_asks_for_a_register(bundle):
    hit, _ = first(bundle, "остатки товаров", domains=["metadata"])
    assert hit.title == "РегистрНакопления.ТоварыОрганизаций"
    hit, _ = first(bundle, "остатки товаров", disabled=("forms",), domains=["metadata"])
    assert hit.title != "РегистрНакопления.ТоварыОрганизаций"


def test_an_action_noun_asks_for_the_document(bundle):
    for q in ("перемещение товаров", "товаров перемещение"):
        hit, _ = first(bundle, q, domains=["metadata"])
        assert hit.title == "Документ.ПеремещениеТоваров", q
        assert any("phrase form «перемещение» lifts Document" in w for w in hit.why)


def test_presentation_explanation_and_subsystem_words_find_the_object(bundle):
    hit, _ = first(bundle, "магазины", domains=["metadata"])
    assert hit.title == "Справочник.Склады" and any("in synonym" in w for w in hit.why)
    hit, _ = first(bundle, "материально ответственные", domains=["metadata"])
    assert hit.title == "Справочник.Склады" and any("in comment" in w for w in hit.why)
    hit, _ = first(bundle, "казначейство", domains=["metadata"])
    assert hit.title == "Документ.ПлатежноеПоручение" and any("in context" in w for w in hit.why)


def test_a_word_family_meets_the_name_the_stemmer_keeps_apart(bundle):
    hit, _ = first(bundle, "кассовые", domains=["metadata"])
    assert hit.title == "Справочник.Кассы" and any("word family кассовые" in w for w in hit.why)
    hit, r = first(bundle, "кассовые", disabled=("derived",), domains=["metadata"])
    assert hit is None or hit.title != "Справочник.Кассы"


def test_a_run_of_the_phrase_that_is_a_whole_name_comes_first(bundle):
    hit, _ = first(bundle, "графики работы сотрудников", domains=["metadata"])
    assert hit.title == "Справочник.ГрафикиРаботы"
    assert any("a part of the phrase is its name" in w for w in hit.why)
    hit, r = first(bundle, "графики работы сотрудников", disabled=("part",), domains=["metadata"])
    assert not any("a part of the phrase" in w for h in r.hits for w in h.why)


def test_the_platform_function_before_the_query_one_unless_the_phrase_is_about_queries(bundle):
    hit, _ = first(bundle, "первые символы строки слева")
    assert hit.title == "Глобальный контекст.Лев"
    hit, _ = first(bundle, "первые символы строки слева в запросе")
    assert hit.title == "Запрос.ЛЕВ"
    hit, _ = first(bundle, "лев")          # an English/Latin query name is not needed for an exact name
    assert "exact name" in hit.why


def test_found_only_when_the_best_hit_clears_the_bar(bundle):
    _, r = first(bundle, "цены поставщиков", domains=["metadata"])
    assert not r.confident and "score alike" in r.notes[-1]          # two equal catalogs
    _, r = first(bundle, "сведения об отгрузках", domains=["metadata"])
    assert r.hits and r.hits[0].title == "Справочник.Поставки"
    assert not r.confident and "description" in r.notes[-1]          # met only in its comment
    _, r = first(bundle, "сведения об отгрузках", disabled=("threshold",), domains=["metadata"])
    assert r.confident
    _, r = first(bundle, "Справочник.ЦеныА")
    assert r.confident and r.hits[0].relevance == 1.0                 # an exact name is a find


def test_search_fields_carry_presentations_explanation_subsystems_predefined_commands():
    warehouses = M.MDObject("Catalog", "Склады", synonym={"ru": "Склады"},
                            props={"list_presentation": {"ru": "Склады и магазины"},
                                   "object_presentation": {"ru": "Склад"},     # only inflects the synonym
                                   "explanation": {"ru": "Места хранения товаров"}},
                            predefined=[M.PredefinedItem("ОсновнойСклад", description="Основной склад")],
                            commands=[M.Child("ПечатьЭтикеток", synonym={"ru": "Печать этикеток"})],
                            forms=[M.Child("ФормаСписка", synonym={"ru": "Форма списка"})])
    shown = M.MDObject("Subsystem", "Склад", synonym={"ru": "Склад и доставка"},
                       props={"include_in_command_interface": True, "content": ["Catalog.Склады"]})
    hidden = M.MDObject("Subsystem", "Служебные", synonym={"ru": "Служебные"},
                        props={"include_in_command_interface": False, "content": ["Catalog.Склады"]})
    cfg = M.Configuration("УТ", objects=[warehouses, shown, hidden])
    words = subsystem_words(ConfigIndex(cfg))
    assert words["Catalog.Склады"] == ["Склад и доставка"]
    f = _search_fields(warehouses, words["Catalog.Склады"])
    assert f["synonym"] == "Склады" and f["presentation"] == "Склады и магазины"
    assert f["explanation"] == "Места хранения товаров"
    assert f["context"] == "Склад и доставка ОсновнойСклад Основной склад Печать этикеток"


# Round 2 of issue 13: an object's own forms (the forms domain's Form documents) and plumbing
# named like the data object they serve; a class named in the query lifts its own prior off.
def owned_form(owner_cls: str, owner: str, owner_synonym: str, name: str, synonym: str) -> Doc:
    title = f"{CLASS_RU[owner_cls]}.{owner}.Форма.{name}"
    return Doc("metadata", f"УТ/{title}", "Form", title, {"title": title}, names=[title, name],
               fields={"name": name, "synonym": synonym, "owner": f"{owner} {owner_synonym}",
                       "class": "Форма Form"}, config="УТ")


CLASS_RU.update({"CommonModule": "ОбщийМодуль"})
ROUND2 = [
    meta("Catalog", "Номенклатура", "Номенклатура", context="Подбор товаров"),
    owned_form("Catalog", "Номенклатура", "Номенклатура", "ФормаПодбора", "Подбор товаров"),
    meta("Catalog", "Пользователи", "Пользователи"),
    meta("CommonModule", "Пользователи", "Пользователи"),
    meta("Document", "ЗаказКлиента", "Заказ клиента"),
    Doc("metadata", "SSL/Catalog.ExternalUsers", "Catalog", "Catalog.ExternalUsers", {"title": "Catalog.ExternalUsers"},
        names=["Catalog.ExternalUsers", "ExternalUsers"],
        fields={"name": "ExternalUsers", "synonym": "External users"}, config="SSL"),
]


@pytest.fixture(scope="module")
def round2(tmp_path_factory):
    path, _ = build_bundle(ROUND2, tmp_path_factory.mktemp("gen2"))
    return Bundle.open(path)


def test_an_objects_own_form_waits_behind_its_owner_unless_the_phrase_asks_for_a_form(round2):
    hit, r = first(round2, "подбор товаров", domains=["metadata"])
    assert hit.title == "Справочник.Номенклатура"                     # the form's title is its context
    assert [h.title for h in r.hits][:2] == ["Справочник.Номенклатура", "Справочник.Номенклатура.Форма.ФормаПодбора"]
    hit, _ = first(round2, "форма подбора товаров", domains=["metadata"])
    assert hit.title == "Справочник.Номенклатура.Форма.ФормаПодбора"
    assert any("phrase form «форма» lifts Form" in w for w in hit.why)
    _, off = first(round2, "форма подбора товаров", disabled=("forms",), domains=["metadata"])
    unlifted = next(h for h in off.hits if h.doc == hit.doc)
    assert hit.score > 2 * unlifted.score and not any("phrase form" in w for w in unlifted.why)


def test_plumbing_named_like_the_phrase_waits_unless_its_class_is_named(round2):
    hit, _ = first(round2, "пользователи", domains=["metadata"])
    assert hit.title == "Справочник.Пользователи"
    hit, r = first(round2, "общий модуль пользователи", domains=["metadata"])
    assert hit.title == "ОбщийМодуль.Пользователи"
    assert any(w == "class named in the query: CommonModule" for w in hit.why)
    # the module's own prior is lifted off: it leads the catalog by the boost over the demotion (×4)
    assert hit.score > 2 * r.hits[1].score       # with its prior 0.42 held: at most 2 × 0.42 / 0.5


def test_a_group_word_in_the_other_script_is_a_translation_not_a_guess(round2):
    # an English configuration asked in Russian: the built-in group пользователь/юзер/user
    hit, r = first(round2, "внешние пользователи", config="SSL", domains=["metadata"])
    assert hit.title == "Catalog.ExternalUsers" and r.confident, r.notes
    assert any(w.startswith("synonym пользовател → user") for w in hit.why)


def test_graph_importance_weighs_in_a_search_of_the_configuration_alone(tmp_path):
    # Two documents with the same words: the one many registers and documents refer to (the
    # configuration is built around it) comes first in search_metadata's search (domains =
    # metadata) and says why; a search of every domain keeps the platform function first.
    from v8atlas.compiler.documents import Edge
    docs = [meta("Document", "ЗаказНаПеремещение", "Заказ на перемещение товаров"),
            meta("Document", "ПеремещениеТоваров", "Перемещение товаров со склада"),
            platform("Глобальный контекст.ПеремещениеТоваров", "Перемещение товаров между складами.")]
    docs += [meta("AccumulationRegister", f"Товары{i}", f"Товары {i}") for i in range(6)]
    moved = "УТ/Документ.ПеремещениеТоваров"
    edges = [Edge(f"УТ/РегистрНакопления.Товары{i}", moved, "attribute_type", "Регистратор") for i in range(6)]
    edges.append(Edge(moved, "УТ/Документ.ЗаказНаПеремещение", "attribute_type", "Заказ"))
    path, _ = build_bundle(docs, tmp_path / "b", edges=edges)
    on, off = Searcher(Bundle.open(path)), Searcher(Bundle.open(path), disabled=["domain_centrality"])
    q = "перемещение товаров заказ склад"
    assert off.search(q, domains=["metadata"]).hits[0].title == "Документ.ЗаказНаПеремещение"
    first = on.search(q, domains=["metadata"]).hits[0]
    assert first.title == "Документ.ПеремещениеТоваров"
    assert "graph importance: 6 objects refer to it" in first.why
    everywhere = on.search("перемещение товаров между складами")
    assert everywhere.hits[0].title == off.search("перемещение товаров между складами").hits[0].title
    assert not any(w.startswith("graph importance") for h in everywhere.hits for w in h.why)


def test_a_bundle_without_reference_counts_searches_as_before(tmp_path, monkeypatch):
    # Bundles compiled before search.refs: the graph importance is simply not weighed.
    from v8atlas.compiler.documents import Edge
    docs = [meta("Document", "ЗаказНаПеремещение", "Заказ на перемещение товаров"),
            meta("Document", "ПеремещениеТоваров", "Перемещение товаров со склада")]
    docs += [meta("AccumulationRegister", f"Товары{i}", f"Товары {i}") for i in range(6)]
    edges = [Edge(f"УТ/РегистрНакопления.Товары{i}", "УТ/Документ.ПеремещениеТоваров", "attribute_type")
             for i in range(6)]
    path, _ = build_bundle(docs, tmp_path / "b", edges=edges)
    bundle = Bundle.open(path)
    has = bundle.has
    monkeypatch.setattr(bundle, "has", lambda name: name != "search.refs" and has(name))
    old, off = Searcher(bundle), Searcher(Bundle.open(path), disabled=["domain_centrality"])
    q = "перемещение товаров заказ склад"
    assert ([(h.title, h.score, h.why) for h in old.search(q, domains=["metadata"]).hits]
            == [(h.title, h.score, h.why) for h in off.search(q, domains=["metadata"]).hits])


# Round 2, session 4 of issue 13: one class per phrase, its head; the other aspect of a verb.
def eng(cls: str, name: str, synonym: str) -> Doc:
    title = f"{cls}.{name}"
    return Doc("metadata", f"SSL/{title}", cls, title, {"title": title}, names=[title, name],
               fields={"name": name, "synonym": synonym}, config="SSL")


def test_an_english_phrase_names_its_class_by_its_last_word(tmp_path):
    # "roles" qualifies the report; "report" is the head: Report.RolesRights, not a role.
    docs = [eng("Role", "FullRights", "Full rights"), eng("Report", "AccessRights", "Access rights"),
            eng("Report", "RolesRights", "Roles rights"), eng("Role", "ReadRights", "Read rights")]
    path, _ = build_bundle(docs, tmp_path / "b")
    b = Bundle.open(path)
    q = "which roles give which rights report"
    hit = Searcher(b).search(q, domains=["metadata"]).hits[0]
    assert hit.title == "Report.RolesRights"
    assert "class named in the query: Report" in hit.why
    both = Searcher(b, disabled=["class_head"]).search(q, domains=["metadata"]).hits[0]
    assert both.title != "Report.RolesRights"      # "roles" consumed as the Role class: a name word lost


def test_a_perfective_verb_meets_the_method_named_by_the_imperfective(tmp_path):
    from v8atlas.formats.word_family import imperfective
    assert imperfective("скопирова") == ["копирова"] and imperfective("закодирова") == ["кодирова"]
    assert imperfective("заполн") == [] and imperfective("выгруз") == [] and imperfective("копирова") == []
    docs = [platform("Глобальный контекст.СкопироватьЖурналРегистрации", "Копирует записи журнала в файл."),
            platform("Глобальный контекст.КопироватьФайл", "Копирует файл."),
            platform("Глобальный контекст.ПереместитьФайл", "Перемещает файл.")]
    path, _ = build_bundle(docs, tmp_path / "b")
    b = Bundle.open(path)
    hit = Searcher(b).search("скопировать файл").hits[0]
    assert hit.title == "Глобальный контекст.КопироватьФайл"
    assert "word family скопировать → копирова" in hit.why
    assert Searcher(b, disabled=["aspect"]).search("скопировать файл").hits[0].title \
        == "Глобальный контекст.СкопироватьЖурналРегистрации"


def _report_reads_bundle(tmp_path):
    from v8atlas.compiler.documents import Edge
    from bundle_factory import build_bundle as build_with_graph
    docs = [meta("Report", "ЗадолженностьКлиентов", "Задолженность клиентов"),
            meta("AccumulationRegister", "РасчетыСКлиентами", "Расчеты с клиентами"),
            meta("AccumulationRegister", "ТоварыОрганизаций", "Товары организаций"),
            meta("Catalog", "Клиенты", "Клиенты")]
    edges = [Edge("УТ/Отчет.ЗадолженностьКлиентов", "УТ/РегистрНакопления.РасчетыСКлиентами", "code_reads"),
             Edge("УТ/Отчет.ЗадолженностьКлиентов", "УТ/РегистрНакопления.ТоварыОрганизаций", "code_reads"),
             Edge("УТ/РегистрНакопления.РасчетыСКлиентами", "УТ/Справочник.Клиенты", "attribute_type")]
    return Bundle.open(build_with_graph(tmp_path / "rr", docs, edges=edges))


def test_a_report_found_by_its_words_lifts_the_registers_it_reads(tmp_path):
    # «задолженность клиентов» is the report's synonym; what the report shows is the register
    # of settlements it reads (the code domain's code_reads edges): docs/search.md, session 8.
    bundle = _report_reads_bundle(tmp_path)
    on, off = Searcher(bundle), Searcher(bundle, disabled=["report_reads"])

    def titles(s, q, **kw):
        return [h.title for h in s.search(q, domains=["metadata"], limit=4, **kw).hits]
    assert titles(off, "задолженность клиентов")[0] == "Отчет.ЗадолженностьКлиентов"
    got = on.search("задолженность клиентов", domains=["metadata"], limit=4).hits
    assert got[0].title == "РегистрНакопления.РасчетыСКлиентами"
    assert "read by the report Отчет.ЗадолженностьКлиентов, which the phrase matches" in got[0].why
    # a register the report reads but the phrase does not mention gains nothing
    assert "РегистрНакопления.ТоварыОрганизаций" not in titles(on, "задолженность клиентов")
    # asked for a report, or by its exact name, the report stays first; other domains: unchanged
    assert titles(on, "отчет задолженность клиентов")[0] == "Отчет.ЗадолженностьКлиентов"
    assert titles(on, "ЗадолженностьКлиентов")[0] == "Отчет.ЗадолженностьКлиентов"
    assert on.search("задолженность клиентов", limit=1).hits[0].title == "Отчет.ЗадолженностьКлиентов"
