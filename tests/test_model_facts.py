"""Facts of the configuration model that real use found wrong (issue 14, items 1–3 and 6):
ВерсияДанных, comparable ИмяПредопределенныхДанных, Произвольный, platform type names in the
card's language, the register fields of ФактическийПериодДействия and of the Субконто table.
Hand-built models; the real-data checks are at the end (skip when ../shared is absent)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree
from v8atlas.compiler.config import model as M
from v8atlas.compiler.config.confindex import ConfigIndex
from v8atlas.compiler.config.designer import type_member
from v8atlas.compiler.config.fields import render_type
from v8atlas.compiler.config.link import link
from v8atlas.compiler.config.query_tables import query_tables
from v8atlas.compiler.config.standard import standard_attributes
from v8atlas.compiler.pipeline import LinkContext
from v8atlas.compiler.report import CompileReport
from v8atlas.compiler.sources import Project, Source

REFERENCE_CLASSES = ("Catalog", "Document", "ChartOfCharacteristicTypes", "ChartOfAccounts",
                     "ChartOfCalculationTypes", "ExchangePlan", "BusinessProcess", "Task")


def cards(cfg: M.Configuration) -> dict[str, dict]:
    ctx = LinkContext(project=Project([]), report=CompileReport())
    link([(Source("configuration", "designer", Path("/src/0"), "src0", {}), cfg)], ctx)
    return {d.title: d.card for d in ctx.docs if d.domain == "metadata"}


def reference_objects() -> list[M.MDObject]:
    return [M.MDObject(cls, "X" + cls, props={"code_length": 9, "description_length": 50,
                                              "number_length": 9, "hierarchical": True})
            for cls in REFERENCE_CLASSES]


def test_data_version_is_a_comparable_string_of_every_reference_table():
    objs = reference_objects()
    others = [M.MDObject("Enum", "Виды"), M.MDObject("DocumentJournal", "Журнал"),
              M.MDObject("InformationRegister", "Курсы", props={"periodicity": "Day"})]
    cfg = M.Configuration("C", objects=objs + others)
    ix = ConfigIndex(cfg)
    for obj in objs:
        std = {f.ru: f for f in standard_attributes(obj, ix)}
        assert "ВерсияДанных" in std, obj.cls
        version = std["ВерсияДанных"]
        assert version.en == "DataVersion"
        assert render_type(version.type, "ru") == ("Строка", None)
        assert render_type(version.type, "en") == ("String", None)
        assert not any(t.unlimited for t in version.type.types)
        main = query_tables(obj, ix)[0]
        assert "ВерсияДанных" in [f.ru for f in main.fields], obj.cls
    for obj in others:
        assert "ВерсияДанных" not in [f.ru for f in standard_attributes(obj, ix)], obj.cls


def test_no_standard_attribute_is_an_unlimited_string_with_a_recipe():
    """Item 2: production code compares ИмяПредопределенныхДанных directly; audit all classes."""
    cfg = M.Configuration("C", objects=reference_objects())
    for title, card in cards(cfg).items():
        for f in card.get("standard_attributes", []):
            assert "recipe" not in f and not f.get("unlimited"), (title, f)
        for t in card.get("query_tables", []):
            standard = {f["name"] for f in t["fields"] if f.get("role") == "standard"}
            assert not standard & set(t.get("unlimited", [])), (title, t["name"])
    cat = cards(cfg)["Справочник.XCatalog"]
    name = next(f for f in cat["standard_attributes"] if f["name"] == "ИмяПредопределенныхДанных")
    assert name == {"name": "ИмяПредопределенныхДанных", "alias": "PredefinedDataName",
                    "type": "Строка", "role": "standard"}


def test_attribute_without_type_restriction_is_arbitrary_in_the_cards_language():
    proc = M.MDObject("DataProcessor", "Обмен", attributes=[
        M.Attribute("Значение", type=M.TypeDescription()),
        M.Attribute("Шаблон", type=M.TypeDescription([M.TypeRef(M.STRING, length=10)]))])
    ru = cards(M.Configuration("C", objects=[proc]))["Обработка.Обмен"]
    assert [(a["name"], a.get("type")) for a in ru["attributes"]] == [
        ("Значение", "Произвольный"), ("Шаблон", "Строка(10)")]
    en = cards(M.Configuration("C", script_variant="English", objects=[proc]))["DataProcessor.Обмен"]
    assert en["attributes"][0]["type"] == "Arbitrary"


def test_platform_types_are_named_in_the_cards_language():
    names = ("DataCompositionSettingsComposer", "Chart", "FixedMap", "FixedStructure", "Picture",
             "SpreadsheetDocument", "DataCompositionFilter", "FormattedString")
    proc = M.MDObject("Report", "Анализ", attributes=[
        M.Attribute(f"A{i}", type=M.TypeDescription([M.TypeRef(M.PLATFORM, name=n)]))
        for i, n in enumerate(names)])
    ru = cards(M.Configuration("C", objects=[proc]))["Отчет.Анализ"]
    shown = [a["type"] for a in ru["attributes"]]
    assert shown == ["КомпоновщикНастроекКомпоновкиДанных", "Диаграмма", "ФиксированноеСоответствие",
                     "ФиксированнаяСтруктура", "Картинка", "ТабличныйДокумент", "ОтборКомпоновкиДанных",
                     "ФорматированнаяСтрока"]
    assert not any(re.search("[A-Za-z]", t) for t in shown)
    en = cards(M.Configuration("C", script_variant="English", objects=[proc]))["Report.Анализ"]
    assert [a["type"] for a in en["attributes"]] == list(names)


def test_template_kinds_are_platform_types_in_the_cards_language():
    report = M.MDObject("Report", "Анализ", templates=[M.Child("Макет", props={"template_type": "SpreadsheetDocument"}),
                                                    M.Child("Схема", props={"template_type": "DataCompositionSchema"})])
    common = M.MDObject("CommonTemplate", "Штамп", props={"template_type": "HTMLDocument"})
    ru = cards(M.Configuration("C", objects=[report, common]))
    assert [t["type"] for t in ru["Отчет.Анализ"]["templates"]] == ["ТабличныйДокумент", "СхемаКомпоновкиДанных"]
    assert ru["ОбщийМакет.Штамп"]["properties"]["template_type"] == "HTMLДокумент"
    en = cards(M.Configuration("C", script_variant="English", objects=[report]))
    assert [t["type"] for t in en["Report.Анализ"]["templates"]] == ["SpreadsheetDocument", "DataCompositionSchema"]


def test_designer_composition_types_get_the_edt_names():
    el = etree.fromstring(
        '<T xmlns:dcsset="http://v8.1c.ru/8.1/data-composition-system/settings" '
        'xmlns:dcscor="http://v8.1c.ru/8.1/data-composition-system/core"/>')
    got = [type_member(el, v).name for v in ("dcsset:SettingsComposer", "dcsset:Filter", "dcscor:Field",
                                             "dcsset:DataCompositionComparisonType")]
    assert got == ["DataCompositionSettingsComposer", "DataCompositionFilter", "DataCompositionField",
                   "DataCompositionComparisonType"]


def _attr(name: str, **props) -> M.Attribute:
    return M.Attribute(name, type=M.TypeDescription([M.TypeRef(M.NUMBER, digits=15, fraction=2)]),
                       props=props)


def test_actual_action_period_table_has_the_registers_attributes():
    reg = M.MDObject("CalculationRegister", "Начисления", props={"action_period": True},
                     dimensions=[_attr("Сотрудник")], resources=[_attr("Результат")],
                     attributes=[_attr("ГрафикРаботы"), _attr("Подразделение")])
    ix = ConfigIndex(M.Configuration("C", objects=[reg]))
    vt = next(t for t in query_tables(reg, ix) if t.ru.endswith(".ФактическийПериодДействия"))
    assert [f.ru for f in vt.fields][-3:] == ["Сотрудник", "ГрафикРаботы", "Подразделение"]


def test_accounting_ext_dimension_table_has_period():
    chart = M.MDObject("ChartOfAccounts", "Хозрасчетный", props={
        "max_ext_dimension_count": 3, "ext_dimension_types": "ChartOfCharacteristicTypes.ВидыСубконто"})
    reg = M.MDObject("AccountingRegister", "Хозрасчетный",
                     props={"chart_of_accounts": "ChartOfAccounts.Хозрасчетный"})
    cfg = M.Configuration("C", objects=[M.MDObject("ChartOfCharacteristicTypes", "ВидыСубконто"), chart, reg])
    t = next(t for t in query_tables(reg, ConfigIndex(cfg)) if t.ru == "РегистрБухгалтерии.Хозрасчетный.Субконто")
    assert [f.ru for f in t.fields][:3] == ["Период", "Регистратор", "НомерСтроки"]
    assert [f.en for f in t.fields][0] == "Period"


# -- real data: SSL 3.1.12 production code reads these fields ------------------------------------

@pytest.mark.realdata
def test_ssl_production_queries_read_fields_the_cards_now_have():
    from realdata import extracted
    from v8atlas.compiler.config.plugin import read_configuration
    src = extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst") / "src" / "cf"
    selects = (src / "CommonModules" / "УправлениеСвойствамиСлужебный" / "Ext" / "Module.bsl").read_text("utf-8-sig")
    compares = (src / "Catalogs" / "ПрофилиГруппДоступа" / "Ext" / "ManagerModule.bsl").read_text("utf-8-sig")
    assert "Наборы.ВерсияДанных" in selects
    assert "ПрофилиГруппДоступа.ИмяПредопределенныхДанных = &ИмяПредопределенныхДанных" in compares
    all_cards = cards(read_configuration(src, CompileReport()))
    sets = all_cards["Справочник.НаборыДополнительныхРеквизитовИСведений"]["query_tables"][0]
    assert "ВерсияДанных" in [f["name"] for f in sets["fields"]]
    profiles = all_cards["Справочник.ПрофилиГруппДоступа"]["query_tables"][0]
    assert "ИмяПредопределенныхДанных" not in profiles.get("unlimited", [])
    composers = [a for c in all_cards.values() for a in c.get("attributes", [])
                 if a.get("type") == "КомпоновщикНастроекКомпоновкиДанных"]
    assert composers   # SSL reports and data processors hold settings composers
