"""Small bundles built in code for tests: hand-made ``Doc``s through the real index builders.

``build_bundle(out_dir, docs, info=…)`` publishes a bundle with ``BundleWriter`` and
``compiler/build_docs.py`` (plus the graph and search builders when their modules exist and
edges are given), exactly as `v8atlas compile` would. ``sample_docs()`` is a two-configuration
fixture with platform and query-language elements of several platform versions; other
tests may use either.
"""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from v8atlas.compiler.documents import Doc, Edge
from v8atlas.compiler.pipeline import LinkContext
from v8atlas.compiler.report import CompileReport
from v8atlas.formats.writer import BundleWriter

OPTIONAL_BUILDERS = ("v8atlas.compiler.config.graph", "v8atlas.compiler.search.build")


def build_bundle(out_dir: str | Path, docs: list[Doc], *, edges: list[Edge] | None = None,
                 info: dict[str, Any] | None = None, name: str = "fixture",
                 with_optional: bool = True) -> Path:
    ctx = LinkContext(project=None, report=CompileReport())  # type: ignore[arg-type]
    ctx.docs = list(docs)
    ctx.edges = list(edges or [])
    ctx.info.update(info or {})
    writer = BundleWriter(out_dir, name, compiler_version="test")
    try:
        from v8atlas.compiler import build_docs
        build_docs.build(ctx, writer)
        if with_optional:
            for mod_name in OPTIONAL_BUILDERS:
                try:
                    mod = importlib.import_module(mod_name)
                except ModuleNotFoundError:
                    continue
                mod.build(ctx, writer)
        writer.info.update(ctx.info)
        writer.counts.update(ctx.counts)
        return writer.publish(reuse_identical=False)
    except BaseException:
        writer.abort()
        raise


def _field(name: str, type_: Any, synonym: str = "", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, "synonym": synonym, **extra}


def _catalog(config: str, name: str, synonym: str, attributes: list[dict], **extra: Any) -> Doc:
    title = f"Справочник.{name}"
    card = {"name": name, "class": "Catalog", "synonym": synonym,
            "standard_attributes": [_field("Ссылка", f"СправочникСсылка.{name}"),
                                    _field("Код", "Строка(9)"), _field("Наименование", "Строка(100)")],
            "attributes": attributes,
            "query_tables": [{"name": title, "fields": ["Ссылка", "Код", "Наименование"]
                              + [a["name"] for a in attributes]}], **extra}
    return Doc("metadata", f"{config}/{title}", "Catalog", title, card,
               names=[f"Catalog.{name}"], fields={"name": name, "synonym": synonym}, config=config)


def sample_docs(second_config: bool = True) -> tuple[list[Doc], list[Edge], dict[str, Any]]:
    """Two configurations (platform 8.3.10 and 8.3.24), platform help of 8.3.5–8.3.24."""
    docs: list[Doc] = []
    edges: list[Edge] = []
    configs = [("Демо", "8.3.10", "1.0.1")] + ([("Демо2", "8.3.24", "2.0.0")] if second_config else [])
    for cfg, platform, version in configs:
        wide = [f"СправочникСсылка.Вид{i}" for i in range(7)]
        attrs = [_field("Контрагент", "СправочникСсылка.Контрагенты", "Контрагент"),
                 _field("Комментарий", "Строка(0)", "Комментарий", unlimited=True),
                 _field("Основание", wide, "Основание документа")]
        if cfg == "Демо2":
            attrs.append(_field("Склад", "СправочникСсылка.Склады", "Склад"))
        docs.append(_catalog(cfg, "Контрагенты", "Контрагенты", [
            _field("ИНН", "Строка(12)", "ИНН"), _field("Родитель", "СправочникСсылка.Контрагенты")]))
        docs.append(_catalog(cfg, "Номенклатура", "Номенклатура (товары и услуги)", [
            _field("Артикул", "Строка(25)", "Артикул"), _field("Описание", "Строка(0)", "Описание",
                                                                 unlimited=True)]))
        if cfg == "Демо2":
            docs.append(_catalog(cfg, "Склады", "Склады", [_field("Адрес", "Строка(200)")]))
        doc_title = "Документ.ЗаказПокупателя"
        docs.append(Doc("metadata", f"{cfg}/{doc_title}", "Document", doc_title, {
            "name": "ЗаказПокупателя", "class": "Document", "synonym": "Заказ покупателя",
            "properties": {"posting": True, "numberLength": 11},
            "standard_attributes": [_field("Ссылка", "ДокументСсылка.ЗаказПокупателя"),
                                    _field("Дата", "ДатаВремя"), _field("Номер", "Строка(11)"),
                                    _field("Проведен", "Булево")],
            "attributes": attrs,
            "tabular_sections": [{"name": "Товары", "synonym": "Товары", "attributes": [
                _field("Номенклатура", "СправочникСсылка.Номенклатура"), _field("Количество", "Число(15,3)"),
                _field("Цена", "Число(15,2)")]}],
            "movements": ["РегистрНакопления.ТоварыНаСкладах"],
            "query_tables": [{"name": doc_title, "fields": ["Ссылка", "Дата", "Номер", "Контрагент",
                                                            "Комментарий"]},
                             {"name": f"{doc_title}.Товары", "fields": ["Ссылка", "НомерСтроки",
                                                                        "Номенклатура", "Количество"]}],
            "future_key": {"note": "rendered generically"},
        }, names=["Document.ЗаказПокупателя"], fields={"name": "ЗаказПокупателя",
                                                       "synonym": "Заказ покупателя"}, config=cfg))
        reg_title = "РегистрНакопления.ТоварыНаСкладах"
        docs.append(Doc("metadata", f"{cfg}/{reg_title}", "AccumulationRegister", reg_title, {
            "name": "ТоварыНаСкладах", "class": "AccumulationRegister", "synonym": "Товары на складах",
            "properties": {"registerType": "Balance"},
            "dimensions": [_field("Номенклатура", "СправочникСсылка.Номенклатура")],
            "resources": [_field("Количество", "Число(15,3)")],
            "query_tables": [
                {"name": reg_title, "fields": ["Период", "Регистратор", "Номенклатура", "Количество"]},
                {"name": f"{reg_title}.Остатки", "parameters": [{"name": "Период"}, {"name": "Условие"}],
                 "fields": ["Номенклатура", "КоличествоОстаток"]},
                {"name": f"{reg_title}.ОстаткиИОбороты",
                 "parameters": [{"name": "НачалоПериода"}, {"name": "КонецПериода"},
                                {"name": "Периодичность"}, {"name": "МетодДополнения"},
                                {"name": "Условие"}],
                 "fields": ["Номенклатура", "КоличествоНачальныйОстаток", "КоличествоПриход",
                            "КоличествоРасход", "КоличествоКонечныйОстаток"]}],
        }, names=["AccumulationRegister.ТоварыНаСкладах"], fields={"name": "ТоварыНаСкладах"}, config=cfg))
        # a name shared by two classes of one configuration: exact lookup is ambiguous
        docs.append(Doc("metadata", f"{cfg}/ОбщийМодуль.Контрагенты", "CommonModule",
                        "ОбщийМодуль.Контрагенты", {"name": "Контрагенты", "class": "CommonModule",
                                                    "properties": {"server": True}},
                        names=["Контрагенты"], fields={"name": "Контрагенты"}, config=cfg))
        edges += [Edge(f"{cfg}/{doc_title}", f"{cfg}/Справочник.Контрагенты", "attribute_type", "Контрагент"),
                  Edge(f"{cfg}/{doc_title}", f"{cfg}/{reg_title}", "movement"),
                  Edge(f"{cfg}/{doc_title}", f"{cfg}/Справочник.Номенклатура", "attribute_type",
                       "Товары.Номенклатура"),
                  Edge(f"{cfg}/{doc_title}", f"{cfg}/Справочник.Номенклатура", "attribute_type",
                       "Основание", weak=True)]
    # platform elements with version bounds
    docs += [
        Doc("platform", "platform/Массив.Найти", "method", "Массив.Найти", {
            "name": "Найти", "name_en": "Find", "owner": "Массив",
            "description": "Ищет элемент в массиве.",
            "variants": [{"syntax": "Найти(Значение)", "params": [
                {"name": "Значение", "types": ["Произвольный"], "required": True,
                 "description": "Искомое значение."}],
                "returns": {"types": ["Число", "Неопределено"], "description": "Индекс или Неопределено."}}],
            "availability": ["Сервер", "Тонкий клиент"]},
            names=["Array.Find", "Найти"], fields={"name": "Найти"}, since="8.3.5"),
        Doc("platform", "platform/СтрРазделить", "function", "СтрРазделить", {
            "name": "СтрРазделить", "name_en": "StrSplit",
            "description": "Разделяет строку на части по разделителю.",
            "variants": [{"syntax": "СтрРазделить(Строка, Разделитель, ВключатьПустые)", "params": [
                {"name": "Строка", "types": ["Строка"], "required": True},
                {"name": "Разделитель", "types": ["Строка"], "required": True},
                {"name": "ВключатьПустые", "types": ["Булево"], "required": False}],
                "returns": {"types": ["Массив"]}}],
            "replacement": {"name": "РазложитьСтрокуВМассивПодстрок",
                            "caveat": "БСП: СтроковыеФункцииКлиентСервер; differs in trimming"}},
            names=["StrSplit"], fields={"name": "СтрРазделить"}, since="8.3.6"),
        Doc("platform", "platform/СтрНайти", "function", "СтрНайти", {
            "name": "СтрНайти", "name_en": "StrFind", "description": "Находит подстроку.",
            "variants": [{"syntax": "СтрНайти(Строка, ПодстрокаПоиска)", "params": [
                {"name": "Строка", "types": ["Строка"]}, {"name": "ПодстрокаПоиска", "types": ["Строка"]}]},
                {"syntax": "СтрНайти(Строка, ПодстрокаПоиска, НаправлениеПоиска, НачальнаяПозиция)",
                 "since": "8.3.20", "params": []}]},
            names=["StrFind"], fields={"name": "СтрНайти"}, since="8.3.6"),
        Doc("platform", "platform/УстаревшийМетод", "function", "УстаревшийМетод", {
            "name": "УстаревшийМетод", "description": "Был в старых версиях."},
            names=["OldMethod"], fields={"name": "УстаревшийМетод"}, since="8.3.5", until="8.3.20"),
        Doc("query", "query/СтрНайти", "function", "Запрос.СтрНайти", {
            "name": "СТРНАЙТИ", "description": "Функция языка запросов.", "tables": [
                [["Параметр", "Описание"], ["Строка", "Где искать"]]]},
            names=["СтрНайти", "Query.StrFind"], fields={"name": "СтрНайти"}, since="8.3.20"),
        Doc("query", "query/ПОДСТРОКА", "function", "Запрос.ПОДСТРОКА", {
            "name": "ПОДСТРОКА", "name_en": "SUBSTRING",
            "description": "Выделяет подстроку; нужна для строк неограниченной длины."},
            names=["ПОДСТРОКА", "SUBSTRING"], fields={"name": "ПОДСТРОКА"}),
    ]
    info = {"configurations": [{"name": c, "version": v, "platform_version": p,
                                "platform_version_source": "compatibility mode in Configuration.xml",
                                "compatibility_mode": p} for c, p, v in configs],
            "help": {"loaded": ["8.3.5", "8.3.20", "8.3.24"], "unused": ["8.3.5"]},
            "config_order": [c for c, _, _ in configs]}
    return docs, edges, info


def build_sample(out_dir: str | Path, *, second_config: bool = True, name: str = "fixture") -> Path:
    docs, edges, info = sample_docs(second_config)
    return build_bundle(out_dir, docs, edges=edges, info=info, name=name)
