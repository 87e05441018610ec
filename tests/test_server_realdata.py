"""The tools on a real bundle: SSL 3.1.12 (Designer dump) + the three help versions."""
from __future__ import annotations


import pytest

from v8atlas.formats import Bundle
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot

pytestmark = [pytest.mark.realdata, pytest.mark.slow]


@pytest.fixture(scope="module")
def snap(tmp_path_factory) -> Snapshot:
    import realdata
    ssl = realdata.extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst")
    help_dir = realdata.data_path("help")
    from v8atlas.compiler.pipeline import compile_bundle
    out = tmp_path_factory.mktemp("bundles")
    path = compile_bundle([str(next(ssl.rglob("Configuration.xml")).parent), str(help_dir)], out,
                          quiet=True).bundle_path
    return Snapshot(Bundle.open(path))


def call(snap, tool, /, **args):
    r = tools.call(snap, tool, args)
    assert r.outcome != "error", r.text
    return r


def test_sources_name_the_configuration_and_its_platform(snap):
    r = call(snap, "list_sources")
    assert "`БиблиотекаСтандартныхПодсистем`" in r.text and "version 3.1.12.238" in r.text
    assert "platform 8.3.24" in r.text
    assert "help versions loaded: 8.3.5.1570, 8.3.23.1997, 8.3.27.2130" in r.text


def test_object_card_fields_recipes_and_relations(snap):
    r = call(snap, "get_object", name="Справочник.Пользователи", detail="fields")
    assert r.outcome == "found"
    assert "ПОДСТРОКА(Комментарий, 1, 1024)" in r.text
    assert "`Справочник.Пользователи.КонтактнаяИнформация`" in r.text
    reg = call(snap, "get_object", name="РегистрСведений.ВерсииПодсистем", detail="fields")
    assert "**Dimensions**" in reg.text
    rel = call(snap, "get_relations", name="Справочник.Пользователи", direction="in")
    assert rel.outcome == "found" and rel.data["total"] > 0


def test_search_finds_by_words(snap):
    r = call(snap, "search_metadata", query="версии подсистем")
    assert r.data["hits"][0]["title"] == "РегистрСведений.ВерсииПодсистем"
    q = call(snap, "search_platform", query="количество дней между датами", scope="query")
    assert q.data["hits"][0]["title"] == "Запрос.РАЗНОСТЬДАТ"


def test_platform_answers_are_for_8_3_24(snap):
    r = call(snap, "get_platform", name="ЗаписьXML.ОткрытьФайл")
    assert r.outcome == "found" and "of other platform versions hidden" in r.text
    amb = call(snap, "get_platform", name="СтрНайти")
    assert amb.outcome == "ambiguous" and "`Запрос.СТРНАЙТИ`" in amb.text


def test_big_answers_are_paged_not_cut(snap):
    name = "ПланОбмена.ОбновлениеИнформационнойБазы"          # ~490 edges in SSL 3.1.12
    r = call(snap, "get_relations", name=name, weak=True)
    assert r.outcome == "found" and r.data["cursor"], "expected more than one page"
    pages, shown = 1, r.data["shown"]
    while r.data["cursor"]:
        assert len(r.text) <= 21_000 and "Continue: the same call with cursor=" in r.text
        r = call(snap, "get_relations", name=name, weak=True, cursor=r.data["cursor"])
        pages, shown = pages + 1, shown + r.data["shown"]
    assert pages > 1 and shown == r.data["total"]


def test_card_lists_are_rendered_not_counted(snap):
    import re
    dt = call(snap, "get_object", name="ОпределяемыйТип.ВладелецФайлов", detail="full")
    assert "**type**: БизнесПроцессСсылка.Задание | СправочникСсылка.ПапкиФайлов" in dt.text
    plan = call(snap, "get_object", name="ПланОбмена.ОбновлениеИнформационнойБазы")
    assert "**content** (414): `РегистрСведений." in plan.text and "… 394 more" in plan.text
    assert "kind=exchange_plan_content" in plan.text
    attr = call(snap, "get_object", name="ОбщийРеквизит.ОбластьДанныхОсновныеДанные", detail="full")
    assert "**content** (221):" in attr.text and "[use: DontUse]" in attr.text
    bp = call(snap, "get_object", name="БизнесПроцесс.Задание", detail="fields")
    assert "- `Старт` [kind: Start]" in bp.text
    assert "**Recorded by (documents)** (1): `Документ.Анкета`" in \
        call(snap, "get_object", name="РегистрСведений.ОтветыНаВопросыАнкет").text
    for r in (dt, plan, attr, bp):
        assert not re.search(r"\d+ (entries|items)\b", r.text)


def test_platform_cards_for_8_3_24(snap):
    zip_entry = call(snap, "get_platform", name="ЭлементZipФайла")     # marked deprecated since 8.3.26
    assert zip_entry.outcome == "found" and "Not recommended" not in zip_entry.text
    acos = call(snap, "get_platform", name="Глобальный контекст.ACos")
    assert acos.outcome == "found" and "no version mark; documented in help 8.3.23+" in acos.text
    joins = call(snap, "get_platform", name="Запрос.Соединения таблиц")
    assert "Nested table (row `ЛЕВОЕ`):\n| Товар | Остаток |" in joins.text
    two = call(snap, "get_platform", name="Массив.Найти(Значение, Другое)")
    assert "the call form passes 2 argument(s); the variant(s) of this version take 1" in two.text


def test_relations_of_a_busy_object_page_to_the_end(snap):
    name = "Справочник.Пользователи"
    r = call(snap, "get_relations", name=name, direction="in", weak=True)
    seen = len(r.data["edges"])
    while r.data["cursor"]:
        r = call(snap, "get_relations", name=name, direction="in", weak=True, cursor=r.data["cursor"])
        seen += len(r.data["edges"])
    assert seen == r.data["total"] > 150


def test_common_command_on_users_is_a_relation_of_users(snap):
    r = call(snap, "get_relations", name="Справочник.Пользователи", direction="in", kind="command_parameter")
    assert r.data["total"] >= 1 and "ОбщаяКоманда.ПраваДоступа" in r.text, r.text


def test_typo_search_answers_with_guesses(snap):
    r = call(snap, "search_metadata", query="ползователи")
    assert r.outcome == "not_found" and "nearest guesses" in r.text
    assert "`Справочник.Пользователи`" in r.text


def test_extension_marks_on_a_real_base_plus_extensions_view(tmp_path):
    import realdata
    from v8atlas.compiler.pipeline import compile_bundle
    sol = realdata.extracted("configs/mdclasses-testdata/mdclasses-test-resources.tar.zst") \
        / "src/test/resources/solutions/sol1"
    path = compile_bundle([str(sol / n) for n in ("Конфигурация", "Расширение1", "Расширение2")],
                          tmp_path, quiet=True).bundle_path
    snap = Snapshot(Bundle.open(path))
    view = "Конфигурация+Расширение1+Расширение2"
    adopted = call(snap, "get_object", name="Справочник.Справочник2", config=view)
    assert "Adopted by extension(s): `Расширение2`" in adopted.text
    added = call(snap, "get_object", name="Справочник.Расш1_Справочник3", config=view, detail="fields")
    assert "Added by extension `Расширение1` (not in the base configuration)." in added.text
    assert "- `ФормаЭлемента` — Форма элемента [type: Managed]" in added.text
