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
                 _field("Комментарий", "Строка (неогр.)", "Комментарий", unlimited=True,
                        recipe="ПОДСТРОКА(Комментарий, 1, 1024)"),
                 _field("Основание", "Составной (7)", "Основание документа", types=wide)]
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
            "movements": {"registers": ["РегистрНакопления.ТоварыНаСкладах"]},
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
            "movements": {"recorders": [doc_title]},
            "properties": {"registerType": "Balance"},
            "dimensions": [_field("Номенклатура", "СправочникСсылка.Номенклатура")],
            "resources": [_field("Количество", "Число(15,3)")],
            "query_tables": [
                {"name": reg_title, "fields": ["Период", "Регистратор", "Номенклатура", "Количество"]},
                {"name": f"{reg_title}.Остатки", "kind": "virtual", "params": ["Период", "Условие"],
                 "fields": ["Номенклатура", "КоличествоОстаток"]},
                {"name": f"{reg_title}.ОстаткиИОбороты", "kind": "virtual",
                 "params": ["НачалоПериода", "КонецПериода", "Периодичность", "МетодДополнения", "Условие"],
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
    # platform elements with version bounds (card schema: docs/cards-platform.md)
    def pcard(name: str, name_en: str, kind: str, **extra: Any) -> dict[str, Any]:
        owner, _, member = name.rpartition(".")
        return {"card": "platform", "v": 1, "kind": kind, "name": name, "name_en": name_en,
                "owner": owner or None, "member": member, "since": None, "since_source": None,
                "until": None, "present_in": ["8.3.5.1570", "8.3.20.1000", "8.3.24.1691"],
                "books": ["8.3.5.1570", "8.3.20.1000", "8.3.24.1691"], "description": "",
                "variants": [], "availability": [], "deprecated": [], "changed_in": [], "see_also": [],
                "page": f"objects/{name_en}.html", **extra}

    def variant(syntax: str, params: list[dict], returns: list[str] | None = None, **extra: Any) -> dict:
        return {"title": None, "syntax": syntax, "params": params, "description": "",
                "returns": returns or [], "returns_description": extra.pop("returns_description", ""),
                "since": None, "until": None, **extra}

    everywhere = [{"value": ["ТонкийКлиент", "Сервер"], "note": "", "since": None, "until": None}]
    docs += [
        Doc("platform", "platform/Массив.Найти", "method", "Массив.Найти", pcard(
            "Массив.Найти", "Array.Find", "method", description="Ищет элемент в массиве.",
            variants=[variant("Найти(<Значение>)", [{"name": "Значение", "required": True,
                                                      "types": ["Произвольный"],
                                                      "description": "Искомое значение."}],
                              ["Число", "Неопределено"], returns_description="Индекс или Неопределено.")],
            availability=everywhere),
            names=["Array.Find", "Найти", "Find"], fields={"name": "Найти"}),
        Doc("platform", "platform/Глобальный контекст.СтрРазделить", "global_method",
            "Глобальный контекст.СтрРазделить", pcard(
                "Глобальный контекст.СтрРазделить", "Global context.StrSplit", "global_method",
                since="8.3.6", since_source="mark", description="Разделяет строку на части по разделителю.",
                variants=[variant("СтрРазделить(<Строка>, <Разделитель>, <ВключатьПустые>)", [
                    {"name": "Строка", "required": True, "types": ["Строка"]},
                    {"name": "Разделитель", "required": True, "types": ["Строка"]},
                    {"name": "ВключатьПустые", "required": False, "types": ["Булево"], "default": "Истина"}],
                    ["Массив"])],
                older_platforms={"before": "8.3.6", "alternatives": [
                    {"kind": "bsp", "name": "СтроковыеФункцииКлиентСервер.РазложитьСтрокуВМассивПодстрок",
                     "caveat": "БСП function; its separator is one whole substring"}]}),
            names=["СтрРазделить", "StrSplit"], fields={"name": "СтрРазделить"}, since="8.3.6"),
        Doc("platform", "platform/Глобальный контекст.СтрНайти", "global_method",
            "Глобальный контекст.СтрНайти", pcard(
                "Глобальный контекст.СтрНайти", "Global context.StrFind", "global_method", since="8.3.6",
                description="Находит подстроку.",
                variants=[variant("СтрНайти(<Строка>, <ПодстрокаПоиска>)", [
                    {"name": "Строка", "required": True, "types": ["Строка"]},
                    {"name": "ПодстрокаПоиска", "required": True, "types": ["Строка"]}], ["Число"],
                    until="8.3.20"),
                    variant("СтрНайти(<Строка>, <ПодстрокаПоиска>, <НаправлениеПоиска>, <НачальнаяПозиция>)",
                            [], ["Число"], since="8.3.20")]),
            names=["СтрНайти", "StrFind"], fields={"name": "СтрНайти"}, since="8.3.6"),
        Doc("platform", "platform/Глобальный контекст.УстаревшийМетод", "global_method",
            "Глобальный контекст.УстаревшийМетод", pcard(
                "Глобальный контекст.УстаревшийМетод", "Global context.OldMethod", "global_method",
                until="8.3.20", description="Был в старых версиях.",
                deprecated=[{"deprecated_since": "8.3.10", "replacement": ["Глобальный контекст.СтрНайти"],
                             "replacement_keys": ["platform/Глобальный контекст.СтрНайти"],
                             "marked_since": "8.3.10", "until": "8.3.20"}]),
            names=["УстаревшийМетод", "OldMethod"], fields={"name": "УстаревшийМетод"}, until="8.3.20"),
        Doc("query", "query/Запрос.СТРНАЙТИ", "function", "Запрос.СТРНАЙТИ", {
            "card": "query", "v": 1, "kind": "function", "name": "СТРНАЙТИ", "name_en": "STRFIND",
            "title": "Функция СтрНайти(StrFind)", "address": "Запрос.СТРНАЙТИ", "since": "8.3.20",
            "since_source": "table", "until": None, "present_in": ["8.3.24.1691"],
            "signature": "СТРНАЙТИ(<Строка>, <ПодстрокаПоиска>)",
            "params": [{"name": "Строка", "required": True, "description": "Где искать."}],
            "description": "Функция языка запросов.",
            "body": [{"pre": "СТРНАЙТИ(<Строка>, <ПодстрокаПоиска>)"}, {"p": "Функция языка запросов."},
                     {"table": 0}],
            "tables": [{"rows": [["Параметр", "Описание"], ["Строка", "Где искать"]]}], "tables_dropped": False},
            names=["СтрНайти", "СТРНАЙТИ", "Query.STRFIND"], fields={"name": "СтрНайти"}, since="8.3.20"),
        Doc("query", "query/Запрос.ПОДСТРОКА", "function", "Запрос.ПОДСТРОКА", {
            "card": "query", "v": 1, "kind": "function", "name": "ПОДСТРОКА", "name_en": "SUBSTRING",
            "title": "Функция ПОДСТРОКА", "address": "Запрос.ПОДСТРОКА", "since": None,
            "signature": "ПОДСТРОКА(<Строка>, <Начало>, <Длина>)", "params": [],
            "description": "Выделяет подстроку; нужна для строк неограниченной длины.",
            "body": [{"p": "Выделяет подстроку; нужна для строк неограниченной длины."}], "tables": []},
            names=["ПОДСТРОКА", "SUBSTRING"], fields={"name": "ПОДСТРОКА"}),
    ]
    info = {"configurations": [{"name": c, "version": v, "platform_version": p,
                                "platform_version_from": "compatibility mode in Configuration.xml",
                                "compatibility_mode": p} for c, p, v in configs],
            "help": {"platform_versions": ["8.3.5", "8.3.20", "8.3.24"], "unused": ["8.3.5"]},
            "config_order": [c for c, _, _ in configs]}
    return docs, edges, info


def build_sample(out_dir: str | Path, *, second_config: bool = True, name: str = "fixture") -> Path:
    docs, edges, info = sample_docs(second_config)
    return build_bundle(out_dir, docs, edges=edges, info=info, name=name)


def synthetic_docs(objects: int = 10_000, platform: int = 5_000, configs: int = 1,
                   seed: int = 7) -> tuple[list[Doc], list[Edge], dict[str, Any]]:
    """A bigger bundle of the same shape for benchmarks (deterministic for a seed)."""
    import random
    rng = random.Random(seed)
    words = ["Заказ", "Покупатель", "Товар", "Склад", "Контрагент", "Договор", "Номенклатура", "Счет",
             "Оплата", "Поступление", "Реализация", "Остаток", "Цена", "Валюта", "Организация", "Партнер",
             "Сотрудник", "Подразделение", "Проект", "Задача", "Версия", "Подсистема", "Настройка", "Файл"]
    classes = [("Справочник", "Catalog"), ("Документ", "Document"), ("РегистрСведений", "InformationRegister"),
               ("РегистрНакопления", "AccumulationRegister"), ("ОбщийМодуль", "CommonModule"),
               ("Перечисление", "Enum")]
    docs: list[Doc] = []
    edges: list[Edge] = []
    info_configs = []
    for ci in range(configs):
        cfg = f"Конф{ci + 1}"
        info_configs.append({"name": cfg, "version": f"3.1.{ci}", "platform_version": "8.3.24"})
        titles = []
        for i in range(objects):
            ru, en = classes[i % len(classes)]
            name = "".join(rng.sample(words, 3)) + str(i)
            title = f"{ru}.{name}"
            titles.append(title)
            attrs = [_field(rng.choice(words) + str(j), rng.choice(["Строка(50)", "Число(15,2)", "Булево",
                                                                     "Строка(0)", "Дата"]))
                     for j in range(rng.randint(2, 25))]
            for a in attrs:
                if a["type"] == "Строка(0)":
                    a["unlimited"] = True
            card = {"name": name, "class": en, "synonym": " ".join(rng.sample(words, 3)).lower(),
                    "attributes": attrs,
                    "tabular_sections": [{"name": "Товары", "attributes": attrs[:5]}] if en == "Document" else [],
                    "query_tables": [{"name": title, "fields": [a["name"] for a in attrs]}]}
            docs.append(Doc("metadata", f"{cfg}/{title}", en, title, card, names=[f"{en}.{name}"],
                            fields={"name": name}, config=cfg))
            if i > 0 and i % 3 == 0:
                edges.append(Edge(f"{cfg}/{title}", f"{cfg}/{titles[rng.randrange(i)]}", "attribute_type",
                                  attrs[0]["name"]))
    for i in range(platform):
        name = rng.choice(words) + rng.choice(words) + str(i)
        since = rng.choice(["8.3.5", "8.3.10", "8.3.20", None])
        docs.append(Doc("platform", f"platform/{name}", "method", f"Тип{i % 200}.{name}", {
            "name": name, "description": " ".join(rng.sample(words, 8)).lower(),
            "variants": [{"syntax": f"{name}(Параметр)", "params": [{"name": "Параметр", "types": ["Строка"]}]}]},
            names=[name], fields={"name": name}, since=since))
    return docs, edges, {"configurations": info_configs, "help": {"platform_versions": ["8.3.5", "8.3.10", "8.3.20"]}}


def card_docs() -> tuple[list[Doc], list[Edge], dict[str, Any]]:
    """One configuration and its base+extension view, with the card keys of docs/cards-metadata.md
    that hold lists and nested dicts (defined types, exchange plan content, subscriptions,
    route points, other children, predefined items, extension marks, movements)."""
    base, view = "Баз", "Баз+Расш"
    docs: list[Doc] = []
    edges: list[Edge] = []

    def obj(cfg: str, title: str, cls: str, card: dict[str, Any]) -> Doc:
        name = title.split(".", 1)[1]
        return Doc("metadata", f"{cfg}/{title}", cls, title, {"name": name, "class": cls, **card},
                   fields={"name": name}, config=cfg)

    catalogs = [f"Справочник.Кат{i:02d}" for i in range(30)]
    for cfg in (base, view):
        docs += [obj(cfg, t, "Catalog", {}) for t in catalogs]
        docs.append(obj(cfg, "ОпределяемыйТип.ВладелецФайлов", "DefinedType", {"properties": {
            "type": {"type": "Составной (2)", "types": ["БизнесПроцессСсылка.Задание",
                                                        "СправочникСсылка.ПапкиФайлов"]}}}))
        docs.append(obj(cfg, "ОпределяемыйТип.Широкий", "DefinedType", {"properties": {
            "type": {"type": "Составной (6)", "types": [f"СправочникСсылка.Кат{i:02d}" for i in range(6)]}}}))
        docs.append(obj(cfg, "ПланОбмена.Полный", "ExchangePlan", {"properties": {
            "distributed_info_base": False,
            "content": [{"object": t, "auto_record": "Deny" if i % 2 else "Allow"}
                        for i, t in enumerate(catalogs)]}}))
        docs.append(obj(cfg, "ПодпискаНаСобытие.ПередЗаписью", "EventSubscription", {"properties": {
            "source": {"type": "Составной (2)", "types": ["СправочникОбъект.Кат00", "СправочникОбъект.Кат01"]},
            "event": "BeforeWrite", "handler": "ОбщийМодуль.События.ПередЗаписью"}}))
        docs.append(obj(cfg, "БизнесПроцесс.Задание", "BusinessProcess", {
            "route_points": [{"name": "Старт", "kind": "Start"}, {"name": "Выполнить", "kind": "Activity"},
                             {"name": "Завершение", "kind": "Completion"}]}))
        docs.append(obj(cfg, "HTTPСервис.Файлы", "HTTPService", {
            "other_children": {"URLTemplate": [{"name": "Файл", "synonym": "Файл по ссылке"}]}}))
        docs.append(obj(cfg, "ПланСчетов.Хозрасчетный", "ChartOfAccounts", {"predefined": [
            {"name": "Товары", "code": "41", "children": [{"name": "ТоварыНаСкладах", "code": "41.01"}]}]}))
        docs.append(obj(cfg, "Документ.Заказ", "Document", {
            "movements": {"registers": ["РегистрНакопления.Остатки"]},
            "attributes": [{"name": "Комментарий", "type": "Строка (неогр.)", "unlimited": True,
                            "recipe": "ПОДСТРОКА(Комментарий, 1, 1024)"},
                           {"name": "ДатаОтгрузки", "type": "Дата", "unverified": True},
                           {"name": "Автор", "type": "Строка(50)",
                            "flags": {"indexing": "Index", "references": [f"Документ.Д{i}.Реквизит.Автор"
                                                                          for i in range(8)]}}]}))
        docs.append(obj(cfg, "РегистрНакопления.Остатки", "AccumulationRegister", {
            "movements": {"recorders": ["Документ.Заказ"]}}))
        edges += [Edge(f"{cfg}/ПланОбмена.Полный", f"{cfg}/{t}", "exchange_plan_content") for t in catalogs]
    # the extension adopts Документ.Заказ (adds an attribute and a form) and adds its own catalog
    ext_doc = next(d for d in docs if d.key == f"{view}/Документ.Заказ")
    ext_doc.card["attributes"].append({"name": "Расш_Приоритет", "type": "Число(1,0)", "origin": "Расш"})
    ext_doc.card["extension"] = {"adopted_by": ["Расш"],
                                 "additions": {"Расш": ["Реквизит.Расш_Приоритет", "Форма.Расш_ФормаДокумента"]}}
    docs.append(obj(view, "Справочник.Расш_Метки", "Catalog", {"extension": {"added_by": "Расш"}}))
    docs += platform_card_docs()
    info = {"configurations": [
        {"name": base, "version": "1.0", "platform_version": "8.3.24"},
        {"name": view, "version": "1.0", "platform_version": "8.3.24", "base": base, "extensions": ["Расш"]}],
        "config_order": [base, view]}
    return docs, edges, info


def platform_card_docs() -> list[Doc]:
    """Platform and query cards for rendering (docs/cards-platform.md): a deprecation mark newer
    than the platform asked about, availability by range, an element documented only by a newer
    book (no since mark), a query page with a nested table and a syntax diagram."""
    def pcard(name: str, **extra: Any) -> dict[str, Any]:
        return {"card": "platform", "v": 1, "kind": "type", "name": name, "name_en": None, "since": None,
                "until": None, "present_in": ["8.3.23.1997", "8.3.27.2130"], "description": "",
                "variants": [], "availability": [], "deprecated": [], **extra}
    zip_avail = [{"value": ["Сервер"], "note": "", "since": None, "until": "8.3.23"},
                 {"value": ["Сервер", "МобильныйКлиент"], "note": "Поддерживает сериализацию.",
                  "since": "8.3.23", "until": None}]
    return [
        Doc("platform", "platform/ЭлементZipФайла", "type", "ЭлементZipФайла", pcard(
            "ЭлементZipФайла", availability=zip_avail,
            deprecated=[{"deprecated_since": "8.3.26", "replacement": ["ЭлементФайлаАрхива"],
                         "marked_since": "8.3.27", "until": None}]), names=["ZipFileEntry"]),
        Doc("platform", "platform/Глобальный контекст.ACos", "global_method", "Глобальный контекст.ACos", pcard(
            "Глобальный контекст.ACos", kind="global_method", documented_from="8.3.27",
            variants=[{"title": None, "syntax": "ACos(<Число>)", "since": None, "until": None,
                       "params": [{"name": "Число", "required": True, "types": ["Число"]}], "returns": ["Число"]}]),
            names=["ACos"]),
        Doc("query", "query/Запрос.Соединения", "article", "Запрос.Соединения", {
            "card": "query", "v": 1, "kind": "article", "name": "Соединения", "address": "Запрос.Соединения",
            "since": None, "until": None, "present_in": ["8.3.27.2130"], "example": "ВЫБРАТЬ 1",
            "body": [{"p": "Вид соединения."}, {"table": 0}, {"p": "Схема:", "quote": True}, {"table": 1},
                     {"pre": "ВЫБРАТЬ 1"}],
            "tables": [{"rows": [["Вид", "Пример"], ["ЛЕВОЕ", "Товар | Остаток; Чай | 5"], ["ПРАВОЕ"]],
                        "nested": [{"row": 1, "col": 1, "table": {"rows": [["Товар", "Остаток"], ["Чай", "5"]]}}]},
                       {"rows": [["ЛЕВОЕ", "|", "СОЕДИНЕНИЕ"]], "diagram": True}]}, names=["Соединения"]),
    ]


def build_cards(out_dir: str | Path, name: str = "cards") -> Path:
    docs, edges, info = card_docs()
    return build_bundle(out_dir, docs, edges=edges, info=info, name=name)


def sample_help_module():
    """tools/make_sample_help.py as a module (the synthetic help books' writer)."""
    import importlib.util
    import sys
    spec = importlib.util.spec_from_file_location("make_sample_help", Path(__file__).resolve().parent.parent
                                                  / "tools" / "make_sample_help.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod
