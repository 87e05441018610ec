"""SSL 3.1.12 (Designer dump): known facts of the query model, cards and graph on real data."""
from __future__ import annotations

import pytest

from realdata import extracted
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats.catalog import Catalog
from v8atlas.formats.graph import Graph
from v8atlas.formats.reader import Bundle

pytestmark = pytest.mark.realdata
SSL = "БиблиотекаСтандартныхПодсистем"

# Top-level objects by class, from the data README (Subsystems: 3 + 84 nested).
README_COUNTS = {
    "CommonPicture": 571, "CommonModule": 561, "InformationRegister": 192, "Constant": 173, "Role": 107,
    "CommonForm": 105, "Enum": 104, "StyleItem": 93, "EventSubscription": 91, "DataProcessor": 78,
    "FunctionalOption": 76, "Catalog": 74, "DefinedType": 72, "CommonCommand": 62, "SessionParameter": 62,
    "XDTOPackage": 53, "ScheduledJob": 51, "Report": 41, "CommonTemplate": 15, "WebService": 13,
    "Document": 11, "CommonAttribute": 7, "CommandGroup": 6, "ChartOfCharacteristicTypes": 4,
    "FunctionalOptionsParameter": 4, "Subsystem": 87, "DocumentJournal": 2, "HTTPService": 2,
    "BusinessProcess": 1, "ExchangePlan": 1, "FilterCriterion": 1, "Language": 1, "SettingsStorage": 1,
    "Task": 1,
}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Bundle:
    root = extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst") / "src" / "cf"
    result = compile_bundle([root], tmp_path_factory.mktemp("ssl"), quiet=True, cache=False)
    return Bundle.open(result.bundle_path)


@pytest.fixture(scope="module")
def catalog(bundle) -> Catalog:
    return Catalog(bundle)


def card(catalog: Catalog, name: str) -> dict:
    d = catalog.find_key(f"{SSL}/{name}")
    assert d is not None, name
    return catalog.card(d)


def test_configuration_info_and_counts(bundle):
    info = bundle.manifest["info"]["configurations"][0]
    assert info["name"] == SSL and info["version"] == "3.1.12.238"
    assert info["compatibility_mode"] == "Version8_3_24"
    assert info["platform_version"] == "8.3.24" and info["platform_version_from"] == "compatibility_mode"
    assert info["script_variant"] == "Russian"
    assert info["counts_by_class"] == README_COUNTS
    assert info["dangling_references"] == 0


def test_subsystem_versions_register_query_tables(catalog):
    c = card(catalog, "РегистрСведений.ВерсииПодсистем")
    tables = {t["name"]: t for t in c["query_tables"]}
    # non-periodic, independent: no Период/Регистратор, no slices; in the exchange plan → .Изменения
    assert list(tables) == ["РегистрСведений.ВерсииПодсистем", "РегистрСведений.ВерсииПодсистем.Изменения"]
    assert [f["name"] for f in tables["РегистрСведений.ВерсииПодсистем"]["fields"]] == [
        "ИмяПодсистемы", "Версия", "ПланОбновления", "ЭтоОсновнаяКонфигурация",
        "ВыполненаРегистрацияОтложенныхОбработчиков"]
    changes = tables["РегистрСведений.ВерсииПодсистем.Изменения"]
    assert [f["name"] for f in changes["fields"]] == ["Узел", "НомерСообщения", "ИмяПодсистемы"]
    assert changes["fields"][0]["type"] == "ПланОбменаСсылка.ОбновлениеИнформационнойБазы"
    assert c["dimensions"][0]["type"] == "Строка(100)"


def test_periodic_register_slices_and_unlimited_strings(catalog):
    rates = card(catalog, "РегистрСведений.КурсыВалют")
    names = [t["name"] for t in rates["query_tables"]]
    assert "РегистрСведений.КурсыВалют.СрезПоследних" in names and "РегистрСведений.КурсыВалют.СрезПервых" in names
    slice_last = next(t for t in rates["query_tables"] if t["name"].endswith("СрезПоследних"))
    assert slice_last["params"] == ["Период", "Условие"] and slice_last["fields"][0]["name"] == "Период"
    c = card(catalog, "Справочник.ПравилаПроверкиУчета")
    comment = next(a for a in c["attributes"] if a["name"] == "Комментарий")
    assert comment["unlimited"] and comment["recipe"] == "ПОДСТРОКА(Комментарий, 1, 1024)"
    main = c["query_tables"][0]
    assert "Комментарий" in main["unlimited"]
    assert next(f for f in main["fields"] if f["name"] == "Комментарий")["unlimited"] is True
    std = [f["name"] for f in c["standard_attributes"]]
    assert "Родитель" in std and "Владелец" not in std and "Код" not in std   # hierarchical, no code


def test_catalog_with_owner_and_documents(catalog):
    owned = [catalog.card(d) for d in range(len(catalog))
             if catalog.kind_name(d) == "Catalog" and catalog.card(d).get("properties", {}).get("owners")]
    assert owned
    for c in owned:
        assert "Владелец" in [f["name"] for f in c["standard_attributes"]], c["full_name"]
    users = card(catalog, "Справочник.Пользователи")
    assert users["ref_type"] == "СправочникСсылка.Пользователи"
    assert catalog.lookup("Catalog.Пользователи") == catalog.lookup("Справочник.Пользователи")


def test_graph_on_ssl(bundle, catalog):
    graph = Graph(bundle)
    meta = graph.meta
    assert meta["edges"] > 5000 and 0 < meta["weak"] < meta["edges"]
    users = catalog.find_key(f"{SSL}/Справочник.Пользователи")
    incoming = graph.neighbors(users, "in")
    assert any(n.kind == "attribute_type" for n in incoming)
    assert all(not n.weak for n in incoming)
    sub = catalog.find_key(f"{SSL}/ПодпискаНаСобытие.ПроверитьВозможностьЗаписиПредопределенного") \
        or next(d for d in range(len(catalog)) if catalog.kind_name(d) == "EventSubscription")
    kinds = {n.kind for n in graph.neighbors(sub, "out", include_weak=True)}
    assert "subscription_handler" in kinds
    assert sum(graph.count(d, "out", include_weak=True) for d in range(len(catalog))) == meta["edges"]
