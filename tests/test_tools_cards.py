"""get_object renders every card key of docs/cards-metadata.md readably (bundle_factory.card_docs)."""
from __future__ import annotations

import re

import pytest

from bundle_factory import build_cards
from v8atlas.formats import Bundle
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot


@pytest.fixture(scope="module")
def snap(tmp_path_factory) -> Snapshot:
    return Snapshot(Bundle.open(build_cards(tmp_path_factory.mktemp("cards"))))


def obj(snap, name, config="Баз", detail="brief"):
    r = tools.call(snap, "get_object", {"name": name, "config": config, "detail": detail})
    assert r.outcome == "found", r.text
    assert not re.search(r"\d+ (entries|items)\b", r.text), r.text   # never a bare count
    assert "{'" not in r.text and "['" not in r.text, r.text           # never a raw dict or list
    return r.text


def test_defined_type_lists_its_types(snap):
    for detail in ("brief", "full"):
        assert "**type**: БизнесПроцессСсылка.Задание | СправочникСсылка.ПапкиФайлов" in \
            obj(snap, "ОпределяемыйТип.ВладелецФайлов", detail=detail)
    wide = obj(snap, "ОпределяемыйТип.Широкий")
    assert "composite of 6 types" in wide and "(all: detail=full)" in wide
    assert "СправочникСсылка.Кат05" in obj(snap, "ОпределяемыйТип.Широкий", detail="full")


def test_exchange_plan_content_is_bounded_with_a_way_to_see_all(snap):
    brief = obj(snap, "ПланОбмена.Полный")
    assert "**content** (30): `Справочник.Кат00` [auto_record: Allow], `Справочник.Кат01` [auto_record: Deny]" in brief
    assert "… 10 more" in brief and "Кат29" not in brief
    assert "get_relations name=`ПланОбмена.Полный` kind=exchange_plan_content" in brief
    full = obj(snap, "ПланОбмена.Полный", detail="full")
    assert "- `Справочник.Кат29` [auto_record: Deny]" in full and "more" not in full.split("**Relations**")[0]


def test_subscription_source_route_points_other_children_predefined(snap):
    assert "**source**: СправочникОбъект.Кат00 | СправочникОбъект.Кат01" in obj(snap, "ПодпискаНаСобытие.ПередЗаписью")
    bp = obj(snap, "БизнесПроцесс.Задание", detail="fields")
    assert "- `Выполнить` [kind: Activity]" in bp
    http = obj(snap, "HTTPСервис.Файлы")
    assert "**URLTemplate** (1): `Файл` — Файл по ссылке" in http
    chart = obj(snap, "ПланСчетов.Хозрасчетный", detail="full")
    assert "- `Товары` [code: 41]" in chart and "  - `ТоварыНаСкладах` [code: 41.01]" in chart


def test_movements_are_labelled_by_direction(snap):
    doc = obj(snap, "Документ.Заказ")
    assert "**Writes to registers** (1): `РегистрНакопления.Остатки`" in doc
    reg = obj(snap, "РегистрНакопления.Остатки")
    assert "**Recorded by (documents)** (1): `Документ.Заказ`" in reg
    fields = obj(snap, "Документ.Заказ", detail="fields")
    assert "⚠ unlimited string: in queries use `ПОДСТРОКА(Комментарий, 1, 1024)`" in fields
    assert "`ДатаОтгрузки`: Дата [presence unverified]" in fields
    assert "`Автор`: Строка(50) [indexing: Index, references: `Документ.Д0.Реквизит.Автор`, " in fields
    assert "… 3 more]" in fields


def test_extension_marks_say_which_extension_did_what(snap):
    adopted = obj(snap, "Документ.Заказ", config="Баз+Расш", detail="fields")
    assert "Adopted by extension(s): `Расш`" in adopted
    assert "**Added by extension `Расш`** (2): `Реквизит.Расш_Приоритет`, `Форма.Расш_ФормаДокумента`" in adopted
    assert "`Расш_Приоритет`: Число(1,0) [from extension Расш]" in adopted
    assert "Added by extension `Расш`" in obj(snap, "Справочник.Расш_Метки", config="Баз+Расш")


def plat(snap, name, config="Баз"):
    r = tools.call(snap, "get_platform", {"name": name, "config": config})
    assert "{'" not in r.text and '{"' not in r.text and "?" not in r.text.replace("?`", ""), r.text
    return r


def test_no_deprecation_warning_before_deprecated_since(snap):
    r = plat(snap, "ЭлементZipФайла")                # the configuration is on 8.3.24; marked since 8.3.26
    assert r.outcome == "found" and "Not recommended" not in r.text
    assert "**Availability:** Сервер, МобильныйКлиент. Поддерживает сериализацию." in r.text
    assert "**Availability:** Сервер\n" not in r.text          # the entry of older platforms is not this one


def test_element_without_since_mark_documented_by_a_newer_book_is_found(snap):
    r = plat(snap, "ACos")
    assert r.outcome == "found", r.text
    assert "no version mark; documented in help 8.3.27+" in r.text


def test_query_page_body_in_order_with_nested_table_and_diagram(snap):
    r = plat(snap, "Запрос.Соединения")
    text = r.text
    assert r.outcome == "found"
    assert text.index("Вид соединения.") < text.index("| Вид | Пример |") < text.index("> Схема:")
    assert "| ЛЕВОЕ | Товар \\| Остаток; Чай \\| 5 |" in text and "| ПРАВОЕ |  |" in text
    assert "Nested table (row `ЛЕВОЕ`):\n| Товар | Остаток |\n|---|---|\n| Чай | 5 |" in text
    assert "```\nЛЕВОЕ | СОЕДИНЕНИЕ\n```" in text
    assert text.count("ВЫБРАТЬ 1") == 1             # the example is the body's last block, not repeated


def test_call_form_with_an_argument_count_no_variant_takes_gets_a_note(snap):
    r = plat(snap, "ACos(1, 2)")
    assert r.outcome == "found"
    assert "Note: the call form passes 2 argument(s); the variant(s) of this version take 1." in r.text
    assert "Note:" not in plat(snap, "ACos(Угол)").text
    assert "Note:" not in plat(snap, 'ACos(Макс(1, 2))').text


def test_relations_page_through_edges_decoding_only_the_page(snap, monkeypatch):
    from v8atlas.server.tools import relations
    monkeypatch.setattr(relations, "PAGE_EDGES", 7)
    graph = snap.graph.graph
    asked = []
    real = graph.neighbors

    def spy(*a, **kw):
        asked.append(kw.get("limit"))
        return real(*a, **kw)

    monkeypatch.setattr(graph, "neighbors", spy)
    args = {"name": "ПланОбмена.Полный", "config": "Баз", "direction": "out", "kind": "Exchange_Plan_Content"}
    r = tools.call(snap, "get_relations", args)
    seen = []
    while True:
        assert r.outcome == "found" and r.data["total"] == 30, r.text
        seen += [e["dst"] for e in r.data["edges"]]
        if not r.data["cursor"]:
            break
        assert "more relation(s)" in r.text
        r = tools.call(snap, "get_relations", {**args, "cursor": r.data["cursor"]})
    assert len(seen) == len(set(seen)) == 30 and len(asked) == 5 and set(asked) == {7}
    titles = {snap.title(d) for d in seen}
    assert "Справочник.Кат29" in titles


def test_search_passes_rewrites_notes_and_total(snap):
    r = tools.call(snap, "search_metadata", {"query": "dkfltktw afqkjd", "config": "Баз", "limit": 1})
    assert r.outcome == "found", r.text
    assert "\nQuery rewritten: keyboard layout: 'dkfltktw afqkjd' → 'владелец файлов'\n" in r.text
    assert r.data["rewrites"] and r.data["total"] >= 1 and r.data["confident"] is True
    many = tools.call(snap, "search_metadata", {"query": "файлов", "config": "Баз", "limit": 1})
    assert f"1 of {many.data['total']} object(s)" in many.text and many.data["total"] > 1
    none = tools.call(snap, "search_metadata", {"query": "зюзюка", "config": "Баз"})
    assert none.outcome == "not_found" and "\nNote: " in none.text and none.data["notes"]


def test_search_with_only_typo_guesses_is_not_found_with_nearest_guesses(snap):
    r = tools.call(snap, "search_metadata", {"query": "владелиц файлов", "config": "Баз"})
    assert r.outcome == "not_found", r.text
    assert "no confident match" in r.text and "nearest guesses (not matches" in r.text
    assert "`ОпределяемыйТип.ВладелецФайлов`" in r.text and r.data["confident"] is False
    assert r.data["hits"][0]["fuzzy"] is True


def test_kind_accepts_any_spelling_of_the_class_table(snap):
    for kind in ("ПланыОбмена", "ExchangePlans", "планобмена", "ExchangePlan"):
        r = tools.call(snap, "search_metadata", {"query": "полный", "config": "Баз", "kind": kind})
        assert r.outcome == "found" and "(ExchangePlan)" in r.text, (kind, r.text)


def test_compare_shows_extension_marks_as_text(snap):
    r = tools.call(snap, "compare_configurations", {"a": "Баз", "b": "Баз+Расш"})
    assert r.outcome == "found", r.text
    assert "+ Расширение › Заимствован расширениями: `Расш`" in r.text, r.text
    assert "{'" not in r.text and "+ Реквизиты: `Расш_Приоритет`" in r.text


def test_without_a_configuration_every_availability_and_mark_shows_its_bounds(tmp_path):
    from bundle_factory import build_bundle, platform_card_docs
    bare = Snapshot(Bundle.open(build_bundle(tmp_path / "help", platform_card_docs(), name="help")))
    r = tools.call(bare, "get_platform", {"name": "ЭлементZipФайла"})
    assert r.outcome == "found", r.text
    assert "**Availability:** Сервер (until 8.3.23)" in r.text
    assert "**Availability:** Сервер, МобильныйКлиент. Поддерживает сериализацию. (since 8.3.23)" in r.text
    assert "⚠ Not recommended since 8.3.26; use `ЭлементФайлаАрхива`" in r.text
