"""Stand-in documents for search work before the real domains are merged (and for unit tests).

Reads just enough of the real data to exercise ranking: top-level objects of a Designer XML
dump (name, synonym, comment, attribute names) and the element list of the help fixtures'
manifest (names, English names, owners, parameter names). The real compilers produce richer
``Doc``s with the same field names (compiler/documents.py); this is not a parser to keep.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from v8atlas.compiler.documents import Doc

FOLDERS = {  # Designer folder → (class, Russian prefix)
    "Catalogs": ("Catalog", "Справочник"), "Documents": ("Document", "Документ"),
    "InformationRegisters": ("InformationRegister", "РегистрСведений"),
    "AccumulationRegisters": ("AccumulationRegister", "РегистрНакопления"),
    "Enums": ("Enum", "Перечисление"), "Constants": ("Constant", "Константа"),
    "CommonModules": ("CommonModule", "ОбщийМодуль"), "CommonPictures": ("CommonPicture", "ОбщаяКартинка"),
    "Roles": ("Role", "Роль"), "CommonForms": ("CommonForm", "ОбщаяФорма"),
    "StyleItems": ("StyleItem", "ЭлементСтиля"), "EventSubscriptions": ("EventSubscription", "ПодпискаНаСобытие"),
    "DataProcessors": ("DataProcessor", "Обработка"), "FunctionalOptions": ("FunctionalOption", "ФункциональнаяОпция"),
    "DefinedTypes": ("DefinedType", "ОпределяемыйТип"), "CommonCommands": ("CommonCommand", "ОбщаяКоманда"),
    "SessionParameters": ("SessionParameter", "ПараметрСеанса"), "XDTOPackages": ("XDTOPackage", "ПакетXDTO"),
    "ScheduledJobs": ("ScheduledJob", "РегламентноеЗадание"), "Reports": ("Report", "Отчет"),
    "CommonTemplates": ("CommonTemplate", "ОбщийМакет"), "WebServices": ("WebService", "WebСервис"),
    "CommonAttributes": ("CommonAttribute", "ОбщийРеквизит"), "CommandGroups": ("CommandGroup", "ГруппаКоманд"),
    "ChartsOfCharacteristicTypes": ("ChartOfCharacteristicTypes", "ПланВидовХарактеристик"),
    "FunctionalOptionsParameters": ("FunctionalOptionsParameter", "ПараметрФункциональныхОпций"),
    "Subsystems": ("Subsystem", "Подсистема"), "DocumentJournals": ("DocumentJournal", "ЖурналДокументов"),
    "HTTPServices": ("HTTPService", "HTTPСервис"), "BusinessProcesses": ("BusinessProcess", "БизнесПроцесс"),
    "ExchangePlans": ("ExchangePlan", "ПланОбмена"), "Tasks": ("Task", "Задача"),
    "FilterCriteria": ("FilterCriterion", "КритерийОтбора"), "SettingsStorages": ("SettingsStorage", "ХранилищеНастроек"),
    "Languages": ("Language", "Язык"),
}
_NAME = re.compile(r"<Name>([^<]+)</Name>")
_SYN = re.compile(r"<Synonym>\s*<v8:item>\s*<v8:lang>ru</v8:lang>\s*<v8:content>([^<]*)</v8:content>")
_COMMENT = re.compile(r"<Comment>([^<]*)</Comment>")
_ATTR = re.compile(r"<(?:Attribute|Dimension|Resource)\b[^>]*>\s*<Properties>\s*<Name>([^<]+)</Name>")


def metadata_docs(root: Path, config: str = "БСП") -> list[Doc]:
    docs = []
    for folder, (kind, ru) in FOLDERS.items():
        for xml in sorted((root / folder).glob("*.xml")):
            text = xml.read_text(encoding="utf-8", errors="replace")
            m = _NAME.search(text)
            if not m:
                continue
            name = m.group(1)
            syn = _SYN.search(text)
            com = _COMMENT.search(text)
            attrs = _ATTR.findall(text)
            title = f"{ru}.{name}"
            docs.append(Doc("metadata", f"{config}/{title}", kind, title, {"title": title},
                            names=[title, f"{kind}.{name}"],
                            fields={"name": name, "synonym": syn.group(1) if syn else "",
                                    "comment": com.group(1) if com else "",
                                    "attributes": " ".join(attrs)},
                            config=config))
    return docs


def help_docs(fixtures: Path, version: str = "8.3.27.2130") -> list[Doc]:
    data = json.loads(fixtures.read_text(encoding="utf-8"))
    docs = []
    for book in data["books"]:
        if book["version"] != version:
            continue
        query = book["kind"] == "shquery"
        for e in book["elements"]:
            name = e["name"]
            page = e.get("page", "")
            key = f"{'query' if query else 'platform'}/{page.removesuffix('.html') if query else name}"
            params = " ".join(p["name"] for p in e.get("params", []) if isinstance(p, dict))
            fields = {"name": name, "english": e.get("name_en") or "", "params": params}
            if not query:
                fields["owner"] = e.get("owner", "")
            docs.append(Doc("query" if query else "platform", key, e["kind"], name,
                            {"title": name, "page": page}, names=[name] + ([e["name_en"]] if e.get("name_en") else []),
                            fields=fields, since=e.get("since")))
    return docs


def build_bundle(docs: list[Doc], out: Path, name: str = "standin",
                 dictionary_tables: dict | None = None, edges: list | None = None):
    """Link and build a bundle from documents the way compile does (dictionary → docs → search)."""
    from v8atlas.compiler import build_docs, dictionary
    from v8atlas.compiler.pipeline import LinkContext
    from v8atlas.compiler.report import CompileReport
    from v8atlas.compiler.search import build as search_build
    from v8atlas.compiler.sources import Project
    from v8atlas.formats.writer import BundleWriter

    ctx = LinkContext(project=Project(sources=[]), report=CompileReport())
    ctx.docs = list(docs)
    ctx.edges = list(edges or [])
    parsed = []
    if dictionary_tables is not None:
        parsed = [(None, dictionary.from_tables(dictionary_tables, "dictionary.json", ctx.report))]
    dictionary.link(parsed, ctx)
    writer = BundleWriter(out, name, compiler_version="test")
    build_docs.build(ctx, writer)
    search_build.build(ctx, writer)
    writer.counts.update(ctx.counts)
    writer.report = ctx.report.as_dict()
    return writer.publish(), ctx
