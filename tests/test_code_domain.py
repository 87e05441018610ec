"""The code domain end to end on a small Designer dump: compile → search_code, get_procedure,
get_object (API by region, event handlers), get_relations (usages), and bad modules reported
with file and line while the rest compiles."""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from shared_read import one_claim_then_the_child
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats.reader import Bundle
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "config-designer"

COMMON = """#Область ПрограммныйИнтерфейс

// Возвращает значение реквизита объекта по ссылке.
//
// Параметры:
//  Ссылка - ЛюбаяСсылка - объект.
//  Имя - Строка - имя реквизита.
//
// Возвращаемое значение:
//  Произвольный - значение реквизита.
//
Функция ЗначениеРеквизита(Ссылка, Знач Имя) Экспорт
	Запрос = Новый Запрос("ВЫБРАТЬ
	|	Т.Количество
	|ИЗ
	|	РегистрНакопления.ОстаткиТоваров.Остатки КАК Т");
	Возврат Прочитать(Запрос);
КонецФункции

// Устарела. Следует использовать ЗначениеРеквизита.
Функция СтароеЗначение(Ссылка) Экспорт
	Возврат ЗначениеРеквизита(Ссылка, "Код");
КонецФункции

#КонецОбласти

#Область СлужебныеПроцедурыИФункции

Функция Прочитать(Запрос)
	Модуль = ОбщегоНазначения.ОбщийМодуль("ОбработчикиСобытий");
	Модуль.ПроверкаПриходаПередЗаписью(Неопределено, Ложь);
	Пусто = Справочники.Номенклатура.ПустаяСсылка();
	Возврат Запрос.Выполнить();
КонецФункции

#КонецОбласти
"""

OBJECT = """Процедура ПередЗаписью(Отказ)
	Код = ОбщегоНазначения.ЗначениеРеквизита(Ссылка, "Код");
	Элемент = Справочники.Номенклатура.СоздатьЭлемент();
КонецПроцедуры
"""

MANAGER = """Функция ЦенаПоУмолчанию() Экспорт
	Возврат 0;
КонецФункции
"""

FORM = """&НаСервере
Процедура ПриСозданииНаСервере(Отказ, СтандартнаяОбработка)
	Цена = Справочники.Номенклатура.ЦенаПоУмолчанию();
КонецПроцедуры
"""


def _write(root: Path, rel: str, data: bytes) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    root = tmp_path_factory.mktemp("code") / "cf"
    _make_dump(root)
    result = compile_bundle([root], tmp_path_factory.mktemp("out"), quiet=True, cache=False)
    return result, Snapshot(Bundle.open(result.bundle_path))


def _make_dump(root: Path) -> None:
    """The sample configuration with the modules above and a few bad ones."""
    shutil.copytree(EXAMPLES, root)
    bom = b"\xef\xbb\xbf"
    _write(root, "CommonModules/ОбщегоНазначения/Ext/Module.bsl", bom + COMMON.replace("\n", "\r\n").encode())
    _write(root, "Catalogs/Номенклатура/Ext/ObjectModule.bsl", OBJECT.encode())
    _write(root, "Catalogs/Номенклатура/Ext/ManagerModule.bsl", MANAGER.encode())
    _write(root, "Catalogs/Номенклатура/Forms/ФормаЭлемента/Ext/Form/Module.bsl", FORM.encode())
    # bad modules: each reported, the rest compiles
    _write(root, "Catalogs/Склады/Ext/ObjectModule.bsl", "Процедура А()\n".encode() + b"\x00\x01binary")
    _write(root, "Catalogs/Партнеры/Ext/ObjectModule.bsl", "Процедура А()\nКонецПроцедуры\n".encode() + b"\xff\n")
    _write(root, "Catalogs/Договоры/Ext/ObjectModule.bsl",
           "Процедура А()\n\nПроцедура Б()\nКонецПроцедуры\nПроцедура Б()\nКонецПроцедуры\n".encode())
    _write(root, "Catalogs/НетТакого/Ext/ObjectModule.bsl", "Процедура А()\nКонецПроцедуры\n".encode())
    _write(root, "Catalogs/Номенклатура/Forms/НетФормы/Ext/Form/Module.bsl", "Процедура А()\nКонецПроцедуры\n".encode())


def call(snap, tool, /, **args):
    r = tools.call(snap, tool, args)
    assert r.outcome != "error", r.text
    return r


def test_bad_modules_are_reported_with_file_and_line(compiled):
    result, _ = compiled
    problems = {(w.code, w.file, w.line) for w in result.report.errors + result.report.warnings}
    assert ("binary", "Catalogs/Склады/Ext/ObjectModule.bsl", 2) in problems
    assert ("encoding", "Catalogs/Партнеры/Ext/ObjectModule.bsl", 3) in problems
    assert ("unbalanced", "Catalogs/Договоры/Ext/ObjectModule.bsl", 3) in problems
    assert ("duplicate", "Catalogs/Договоры/Ext/ObjectModule.bsl", 5) in problems
    assert ("module-without-object", "Catalogs/НетТакого/Ext/ObjectModule.bsl", None) in problems
    assert ("form-without-descriptor", "Catalogs/Номенклатура/Forms/НетФормы/Ext/Form/Module.bsl", None) in problems


def test_get_procedure_by_the_address_bsl_calls_it(compiled):
    _, snap = compiled
    r = call(snap, "get_procedure", name="ОбщегоНазначения.ЗначениеРеквизита")
    assert r.outcome == "found"
    assert "Функция ЗначениеРеквизита(Ссылка, Знач Имя) Экспорт" in r.text
    assert "region: ПрограммныйИнтерфейс" in r.text
    assert r.data["procedure"]["callers"] == 2     # СтароеЗначение and the object module's ПередЗаписью
    full = call(snap, "get_procedure", name="ОбщийМодуль.ОбщегоНазначения.ЗначениеРеквизита", detail="full")
    assert "Справочник.Номенклатура.МодульОбъекта.ПередЗаписью" in full.text
    assert "РегистрНакопления.ОстаткиТоваров (reads)" in full.text
    body = call(snap, "get_procedure", name="ОбщегоНазначения.Прочитать", detail="body")
    assert 'ОбщийМодуль("ОбработчикиСобытий")' in body.text
    assert "ОбработчикиСобытий.ПроверкаПриходаПередЗаписью" in call(snap, "get_procedure", name="ОбщегоНазначения.Прочитать",
                                                     detail="full").text
    manager = call(snap, "get_procedure", name="Справочники.Номенклатура.ЦенаПоУмолчанию", detail="full")
    assert manager.data["procedure"]["address"] == "Справочник.Номенклатура.МодульМенеджера.ЦенаПоУмолчанию"
    assert "Справочник.Номенклатура.Форма.ФормаЭлемента.ПриСозданииНаСервере" in manager.text
    deprecated = call(snap, "get_procedure", name="ОбщегоНазначения.СтароеЗначение")
    assert "**Deprecated**" in deprecated.text
    assert call(snap, "get_procedure", name="ОбщегоНазначения.НетТакой").outcome == "not_found"


def test_search_code_puts_the_exported_api_first(compiled):
    _, snap = compiled
    r = call(snap, "search_code", query="значение реквизита")
    assert r.data["hits"][0]["address"] == "ОбщегоНазначения.ЗначениеРеквизита"
    assert all(h["export"] for h in r.data["hits"])
    everything = call(snap, "search_code", query="прочитать", scope="all")
    assert everything.data["hits"][0]["address"] == "ОбщегоНазначения.Прочитать"


def test_object_cards_list_api_and_handlers(compiled):
    _, snap = compiled
    module = call(snap, "get_object", name="ОбщийМодуль.ОбщегоНазначения")
    assert "**API — ПрограммныйИнтерфейс**" in module.text
    assert "`ЗначениеРеквизита` — Возвращает значение реквизита объекта по ссылке." in module.text
    assert "Прочитать" not in module.text.split("**API")[1]     # not exported: not API
    catalog = call(snap, "get_object", name="Справочник.Номенклатура")
    assert "`Справочник.Номенклатура.МодульОбъекта`: 1 procedure(s); event handlers: ПередЗаписью" in catalog.text


def test_usages_are_relations(compiled):
    _, snap = compiled
    r = call(snap, "get_relations", name="РегистрНакопления.ОстаткиТоваров", direction="in")
    assert any(e["kind"] == "code_reads" and "ОбщегоНазначения.ЗначениеРеквизита" in e["label"]
               for e in r.data["edges"])
    w = call(snap, "get_relations", name="ОбщийМодуль.ОбщегоНазначения", direction="out")
    assert any(e["kind"] == "code_reads" for e in w.data["edges"])
    cat = call(snap, "get_relations", name="Справочник.Номенклатура", direction="in", kind="code_uses")
    assert [(e["kind"], e["label"]) for e in cat.data["edges"]] == [("code_uses", "ОбщегоНазначения.Прочитать")]


EN_COMMON = """#Region Public
// Returns the price of an item.
//
// Parameters:
//  Item - CatalogRef.Номенклатура - the item.
//
// Returns:
//  Number - the price.
//
Function ItemPrice(Val Item) Export
	Query = New Query("SELECT Price FROM InformationRegister.ЦеныНоменклатуры.SliceLast");
	Return Helper(Item);
EndFunction
#EndRegion

Function Helper(Item)
	Return Catalogs.Номенклатура.EmptyRef();
EndFunction
"""


def test_an_english_script_dump_compiles_with_procedures_linked(tmp_path):
    root = tmp_path / "cf"
    shutil.copytree(EXAMPLES, root)
    cfg = root / "Configuration.xml"
    cfg.write_text(cfg.read_text(encoding="utf-8-sig").replace(
        "<ScriptVariant>Russian</ScriptVariant>", "<ScriptVariant>English</ScriptVariant>"), encoding="utf-8")
    _write(root, "CommonModules/ОбщегоНазначения/Ext/Module.bsl", EN_COMMON.encode())
    result = compile_bundle([root], tmp_path / "out", quiet=True, cache=False)
    snap = Snapshot(Bundle.open(result.bundle_path))
    r = call(snap, "get_procedure", name="CommonModule.ОбщегоНазначения.ItemPrice", detail="full")
    assert "Function ItemPrice(Val Item) Export" in r.text and "region: Public" in r.text
    assert "**Calls:** `ОбщегоНазначения.Helper`" in r.text
    assert "InformationRegister.ЦеныНоменклатуры (reads)" in r.text     # English script: English names
    assert call(snap, "search_code", query="item price").data["hits"][0]["address"] == "ОбщегоНазначения.ItemPrice"


SPLIT = """Функция РазложитьСтрокуВМассивПодстрок(Знач Строка, Знач Разделитель = ",") Экспорт
	Возврат Новый Массив;
КонецФункции
"""


def _with_library(root: Path, present: bool) -> None:
    """ДемоТорговля on platform 8.3.5, with or without СтроковыеФункцииКлиентСервер."""
    shutil.copytree(EXAMPLES, root)
    cfg = root / "Configuration.xml"
    text = cfg.read_text(encoding="utf-8-sig")
    if present:
        text = text.replace("<CommonModule>ОбщегоНазначения</CommonModule>",
                            "<CommonModule>ОбщегоНазначения</CommonModule>\n\t\t\t"
                            "<CommonModule>СтроковыеФункцииКлиентСервер</CommonModule>")
        module = (root / "CommonModules" / "ОбщегоНазначения.xml").read_text(encoding="utf-8-sig")
        (root / "CommonModules" / "СтроковыеФункцииКлиентСервер.xml").write_text(
            module.replace("<Name>ОбщегоНазначения</Name>", "<Name>СтроковыеФункцииКлиентСервер</Name>"),
            encoding="utf-8")
        _write(root, "CommonModules/СтроковыеФункцииКлиентСервер/Ext/Module.bsl", SPLIT.encode())
    cfg.write_text(text, encoding="utf-8")
    (root.parent / "v8atlas.toml").write_text(
        f'[[configuration]]\nsource = "{root.name}"\nplatform = "8.3.5"\n', encoding="utf-8")


@pytest.mark.parametrize("present", [True, False])
def test_a_library_replacement_is_offered_only_when_the_configuration_has_it(tmp_path, present):
    _with_library(tmp_path / "cf", present)
    help_book = EXAMPLES.parent / "help" / "8.3.27.2130" / "shcntx_ru.hbk"
    result = compile_bundle([tmp_path / "v8atlas.toml", help_book], tmp_path / "out", quiet=True, cache=False)
    snap = Snapshot(Bundle.open(result.bundle_path))
    r = tools.call(snap, "get_platform", {"name": "СтрРазделить"})
    assert r.outcome == "unavailable", r.text
    offered = "- bsp: `СтроковыеФункцииКлиентСервер.РазложитьСтрокуВМассивПодстрок`" in r.text
    assert offered == present
    assert ("is not in configuration `ДемоТорговля`: not offered" in r.text) == (not present)


EXT_MODULE = """&Перед("ОбновитьЦены")
Процедура Д_ПередОбновлениемЦен()
КонецПроцедуры

&ИзменениеИКонтроль("НетТакой")
Процедура Д_Другая()
	#Вставка
	А = 1;
	#КонецВставки
КонецПроцедуры
"""


def test_an_extension_procedure_is_linked_to_the_base_procedure_it_changes():
    """Base ДемоТорговля + an extension adopting ОбщегоНазначения with &Перед("ОбновитьЦены"):
    in the base+extension view the extension's procedure names the base one it changes."""
    from v8atlas.compiler import pipeline
    from v8atlas.compiler.code import link as code_link
    from v8atlas.compiler.code.lexer import scan_module
    from v8atlas.compiler.code.model import CodeModel, Module, ModuleRef
    from v8atlas.compiler.code.read import parse as code_parse
    from v8atlas.compiler.config import link as config_link
    from v8atlas.compiler.config.model import ADOPTED, Configuration, MDObject
    from v8atlas.compiler.config.plugin import read_configuration
    from v8atlas.compiler.report import CompileReport
    from v8atlas.compiler.sources import Project
    from v8atlas.formats.domain import Source

    base_src = Source("configuration", "designer", EXAMPLES, "base")
    ext_src = Source("configuration", "designer", Path("/nowhere/ext"), "ext")
    report = CompileReport()
    base = read_configuration(EXAMPLES, report, "base")
    ext = Configuration("Доработки", is_extension=True, name_prefix="Д_", source="ext")
    ext.objects = [MDObject("CommonModule", "ОбщегоНазначения", belonging=ADOPTED,
                            source_file="CommonModules/ОбщегоНазначения.xml"),
                   MDObject("Catalog", "Номенклатура", belonging=ADOPTED, source_file="Catalogs/Номенклатура.xml")]
    ext_code = CodeModel(source="ext", modules=[Module(
        ModuleRef("CommonModule.ОбщегоНазначения", "Module"), "CommonModules/ОбщегоНазначения/Ext/Module.bsl",
        scan_module(EXT_MODULE.encode()).procedures), Module(
        # the base has no object module: the annotation names the platform event itself
        ModuleRef("Catalog.Номенклатура", "ObjectModule"), "Catalogs/Номенклатура/Ext/ObjectModule.bsl",
        scan_module('&После("ПередЗаписью")\nПроцедура Д_ПередЗаписью(Отказ)\nКонецПроцедуры\n'.encode()).procedures)])
    ctx = pipeline.LinkContext(project=Project(sources=[base_src, ext_src]), report=report)
    config_link.link([(base_src, base), (ext_src, ext)], ctx)
    code_link.link([(base_src, code_parse(base_src, report)), (ext_src, ext_code)], ctx)
    index = ctx.links.need(code_link.CodeIndex)
    assert index.views == ["ДемоТорговля", "ДемоТорговля+Доработки"]
    cards = {(index.views[p.view], c["address"]): c
             for pid, p in enumerate(index.procs) for c in [index.card(pid)]}
    before = cards[("ДемоТорговля+Доработки", "ОбщегоНазначения.Д_ПередОбновлениемЦен")]
    assert before["changes"] == "ОбщегоНазначения.ОбновитьЦены" and before["extension"] == "Доработки"
    base_proc = cards[("ДемоТорговля+Доработки", "ОбщегоНазначения.ОбновитьЦены")]
    assert base_proc["changed_by"] == [["ОбщегоНазначения.Д_ПередОбновлениемЦен", "Before", "Доработки"]]
    other = cards[("ДемоТорговля+Доработки", "ОбщегоНазначения.Д_Другая")]
    assert other["annotation_unresolved"] and other["changes_blocks"] == {"inserted": 1, "deleted": 0}
    assert "changed_by" not in cards[("ДемоТорговля", "ОбщегоНазначения.ОбновитьЦены")]
    assert not other.get("annotation_event")            # НетТакой is no event of a common module
    event = cards[("ДемоТорговля+Доработки", "Справочник.Номенклатура.МодульОбъекта.Д_ПередЗаписью")]
    assert event["annotation_unresolved"] and event["annotation_event"] and "changes" not in event


def test_a_module_address_lists_its_api_in_both_tools(compiled):
    _, snap = compiled
    for tool, arg in (("search_code", "query"), ("get_procedure", "name")):
        r = call(snap, tool, **{arg: "ОбщегоНазначения"})
        assert "module `ОбщегоНазначения`" in r.text and "- `ЗначениеРеквизита` — Возвращает" in r.text
        assert "Прочитать" not in r.text       # not exported


def test_a_result_list_says_what_each_card_says(compiled):
    """search_code lists from flat tables (address, flags, stored one-line description) without
    opening cards: every row agrees with the procedure's card, deprecation included."""
    from v8atlas.formats.code import one_line
    _, snap = compiled
    code = snap.code
    for query in ("значение реквизита", "прочитать", "цена"):
        r = call(snap, "search_code", query=query, scope="all")
        assert r.data["hits"], query
        for i, hit in enumerate(r.data["hits"], 1):
            pid = code.lookup(hit["address"], None)[0][0]
            card = code.card(pid)
            assert hit["address"] == card["address"] and hit["export"] == card["export"]
            assert hit["config"] == card["config"]
            line = next(ln for ln in r.text.splitlines() if ln.startswith(f"{i}. "))
            desc = one_line(card.get("description") or "")
            assert (f" — {desc} · why:" in line) if desc else (" — " not in line)
            assert ("· deprecated" in line) == bool(card.get("deprecated"))
    deprecated = call(snap, "search_code", query="старое значение", scope="all")
    assert any("· deprecated" in ln for ln in deprecated.text.splitlines())



def test_postings_by_term_ranges_equal_those_of_all_terms_at_once(compiled, tmp_path, monkeypatch):
    """The build computes the search postings range of terms by range (memory bounded at
    scale); ranges of at most two occurrences give the same bundle, byte for byte, as one."""
    from v8atlas.compiler.code import build as code_build
    result, _snap = compiled
    root = tmp_path / "cf"
    _make_dump(root)
    ranges: list[int] = []
    by_range = code_build._term_ranges
    monkeypatch.setenv("V8ATLAS_JOBS", "1")   # the build in this process: the counter sees it
    monkeypatch.setattr(code_build, "POSTING_RANGE", 2)
    monkeypatch.setattr(code_build, "_term_ranges",
                        lambda per_term, budget: ranges.append(len(got := by_range(per_term, budget))) or got)
    again = compile_bundle([root], tmp_path / "out", quiet=True, cache=False)
    assert ranges and ranges[0] > 10          # the terms were split into many ranges
    assert Bundle.open(again.bundle_path).content_hash == Bundle.open(result.bundle_path).content_hash


def test_modules_read_by_this_process_and_a_child_give_the_same_bundle_and_report(compiled, tmp_path, monkeypatch):
    """Read by this process (its first claim) and a forked child (the rest, back as marshal rows,
    each module's bodies as one frame, its terms adopted claim after claim), the modules give
    the bundle and the report lines, in their order, of a read in one process."""
    result, _snap = compiled
    root = tmp_path / "cf"
    _make_dump(root)
    rows = _pooled(monkeypatch)
    again = compile_bundle([root], tmp_path / "out", quiet=True, cache=False)
    assert len(rows) > 1                      # the child's claims came back as rows
    assert Bundle.open(again.bundle_path).content_hash == Bundle.open(result.bundle_path).content_hash
    lines = lambda r: [(w.code, w.file, w.line, w.message) for w in r.report.errors + r.report.warnings]  # noqa: E731
    assert lines(again) == lines(result)


@pytest.mark.parametrize("split", ["one claim here", "the claims as they come"])
def test_a_shared_read_gives_the_model_and_term_ids_of_one_process(tmp_path, monkeypatch, split):
    """``read_modules`` shared with a forked child: the same modules, procedures and packed term
    ids (this process's share packed in place, the child's adopted after it) as in one process."""
    from v8atlas.compiler import pool
    from v8atlas.compiler.code import read as code_read
    from v8atlas.compiler.config.files import FolderFiles
    from v8atlas.compiler.report import CompileReport
    root = tmp_path / "cf"
    _make_dump(root)

    def read():
        report = CompileReport()
        with pool.session():
            model = code_read.read_modules(FolderFiles(root), False, "cf", report)
        return model, [(w.code, w.file, w.line, w.message) for w in report.errors + report.warnings]

    monkeypatch.setenv("V8ATLAS_JOBS", "1")
    alone, alone_lines = read()
    if split == "one claim here":
        rows = _pooled(monkeypatch)
    else:
        rows = []
        monkeypatch.setenv("V8ATLAS_JOBS", "2")
        monkeypatch.setattr(code_read, "POOL_THRESHOLD", 1)
        monkeypatch.setattr(code_read, "_STEP", 2)
    shared, shared_lines = read()
    received = shared.__dict__["_received"]
    if split == "one claim here":
        assert received.start == 1 and len(rows) == len(received.parts) > 1
    assert shared == alone and shared.vocabulary == alone.vocabulary
    terms = lambda m: [p.terms for x in m.modules for p in x.procedures]  # noqa: E731
    assert terms(shared) == terms(alone) and shared_lines == alone_lines


_NOTED: dict[str, Any] = {}   # where ``_write_cards_noting_pid`` notes, what it calls


def _write_cards_noting_pid(mids: list[int]) -> Any:
    """A card-writing task that notes the process it ran in (module level: the pool's
    workers find it by name)."""
    with open(_NOTED["log"], "a", encoding="utf-8") as f:
        f.write(f"{os.getpid()} {' '.join(map(str, mids))}\n")
    return _NOTED["write"](mids)


@pytest.mark.parametrize("calls_late", [False, True])
def test_cards_written_by_forked_workers_give_the_same_bundle(compiled, tmp_path, monkeypatch, calls_late):
    """The link writes a large view's cards in this process and one forked child
    (``pool.fork_share``), a batch of modules a task, each batch packed and compressed where it
    is written: taken in module order, the bundle is the one written in one process. The child
    is forked before this process resolves the calls; the cards it writes before the call
    counts are known get them once they are (``calls_late``: only after the child has written
    a batch)."""
    import time

    from v8atlas.compiler.code import link as code_link
    result, snap = compiled
    root = tmp_path / "cf"
    _make_dump(root)
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    monkeypatch.setenv("V8ATLAS_APART", "0")   # the link's cards shared, not the domain run apart
    # the card store keeps the batches' frames: the bundle of one process with these batches
    monkeypatch.setattr(code_link, "CARD_BATCH", 1)
    alone = Bundle.open(compile_bundle([root], tmp_path / "alone", quiet=True, cache=False).bundle_path)
    assert list(Snapshot(alone).code.cards) == list(snap.code.cards)     # every card as it was
    monkeypatch.setattr(code_link, "FORK_CARDS", 1)
    log = tmp_path / "pids"
    monkeypatch.setitem(_NOTED, "log", log)
    monkeypatch.setitem(_NOTED, "write", code_link._write_cards)
    monkeypatch.setattr(code_link, "_write_cards", _write_cards_noting_pid)
    child_wrote = []
    if calls_late:
        resolve = code_link._ViewLinker.resolve_calls

        def late_resolve(self: Any) -> None:
            deadline = time.monotonic() + 30
            while not child_wrote and time.monotonic() < deadline:
                pids = {line.split()[0] for line in log.read_text(encoding="utf-8").splitlines()} \
                    if log.exists() else set()
                child_wrote.extend(pids - {str(os.getpid())})
                time.sleep(0.005)
            resolve(self)

        monkeypatch.setattr(code_link._ViewLinker, "resolve_calls", late_resolve)
    again = compile_bundle([root], tmp_path / "out", quiet=True, cache=False)
    written = [line.split() for line in log.read_text(encoding="utf-8").splitlines()]
    modules = sorted(int(m) for _pid, *mids in written for m in mids)
    assert len(written) > 3 and modules == list(range(len(modules)))   # each batch written once
    assert bool(child_wrote) == calls_late
    # (which process takes which batch is the split's: tests/test_compile_pool.py)
    assert Bundle.open(again.bundle_path).content_hash == alone.content_hash


@pytest.mark.parametrize("reused", ["parse", "linked model"])
def test_a_cold_compile_s_caches_give_the_same_bundle(tmp_path, reused):
    """A cold compile with the cache on writes the code parse before the link (to a temporary
    file named once the fingerprint gives its key: the link then drops the tokens, parameters
    and doc fields it has read) and the linked model (the packed cards in their chunks) beside
    the build: relinked from that parse cache or built from that linked model, the bundle is
    the one a compile without any cache makes."""
    root = tmp_path / "cf"
    _make_dump(root)
    # without the bad modules (a compile with errors caches no linked model)
    for bad in ("Склады", "Партнеры", "Договоры", "НетТакого"):
        (root / "Catalogs" / bad / "Ext" / "ObjectModule.bsl").unlink()
    (root / "Catalogs/Номенклатура/Forms/НетФормы/Ext/Form/Module.bsl").unlink()
    result = compile_bundle([root], tmp_path / "plain", quiet=True, cache=False)
    out = tmp_path / "out"
    first = compile_bundle([root], out, quiet=True)           # cold: parse cache written after the link
    assert not first.report.errors and list((out / ".cache" / "parsed").glob("*.pickle"))
    assert not [p for p in (out / ".cache" / "parsed").iterdir() if p.name.startswith(".")]
    assert list((out / ".cache" / "linked").glob("*.pickle"))
    for later in ("linked", "builds") if reused == "parse" else ("builds",):
        shutil.rmtree(out / ".cache" / later, ignore_errors=True)
    again = compile_bundle([root], out, quiet=True)
    assert "parse code" not in again.report.timings
    assert ("link code" in again.report.timings) == (reused == "parse")
    assert Bundle.open(again.bundle_path).content_hash == Bundle.open(result.bundle_path).content_hash


def _clean_dump(root: Path) -> None:
    """The dump without its bad modules (a compile with errors caches no linked model)."""
    _make_dump(root)
    for bad in ("Склады", "Партнеры", "Договоры", "НетТакого"):
        (root / "Catalogs" / bad / "Ext" / "ObjectModule.bsl").unlink()
    (root / "Catalogs/Номенклатура/Forms/НетФормы/Ext/Form/Module.bsl").unlink()


def _pooled(monkeypatch) -> list[bytes]:
    """Modules read by this process and a forked child from here on (this process its first
    module, the child the others, a claim each); the rows read back, as a list."""
    from v8atlas.compiler.code import read as code_read
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    monkeypatch.setenv("V8ATLAS_APART", "0")   # the read shared, not the domain run apart
    monkeypatch.setattr(code_read, "POOL_THRESHOLD", 1)
    monkeypatch.setattr(code_read, "_STEP", 1)
    one_claim_then_the_child(monkeypatch)
    rows: list[bytes] = []
    from_rows = code_read._from_rows
    monkeypatch.setattr(code_read, "_from_rows", lambda blob, tasks: rows.append(blob) or from_rows(blob, tasks))
    return rows


def _code_parse_files(out: Path) -> list[tuple[Path, object]]:
    """(file, its parse) of every code-domain parse cache file of ``out``."""
    from v8atlas.compiler import cache
    from v8atlas.compiler.code.model import CodeModel
    got = []
    for path in sorted((out / ".cache" / "parsed").glob("*.pickle")):
        ok, entry = cache.load(path)
        if ok and isinstance(entry[0], CodeModel):
            got.append((path, entry))
    return got


def test_the_code_parse_cache_is_written_from_the_childs_rows(tmp_path, monkeypatch):
    """Read by this process and a forked child, the cold compile's code parse cache holds the
    child's rows as they were sent and rows of this process's share made by the cache's writer
    (not the model pickled again): a relink from it reads them back — every claim — and gives
    the bundle a compile without any cache makes."""
    root = tmp_path / "cf"
    _clean_dump(root)
    plain = compile_bundle([root], tmp_path / "plain", quiet=True, cache=False)
    rows = _pooled(monkeypatch)
    out = tmp_path / "out"
    first = compile_bundle([root], out, quiet=True)
    assert not first.report.errors and len(rows) > 1
    sent = list(rows)
    for later in ("linked", "builds"):
        shutil.rmtree(out / ".cache" / later)
    rows.clear()
    again = compile_bundle([root], out, quiet=True)
    assert "parse code" not in again.report.timings and "link code" in again.report.timings
    assert len(rows) == len(sent) + 1 and set(sent) <= set(rows)   # as sent, and this process's
    assert Bundle.open(again.bundle_path).content_hash == Bundle.open(plain.bundle_path).content_hash
    (model, _report), = [entry for _path, entry in _code_parse_files(out)]
    assert "_received" not in model.__dict__  # a model read back carries no rows of its own


@pytest.mark.parametrize("damage", ["junk", "an older row layout", "rows without the layout tag",
                                    "the layout before the cache's parts"])
def test_a_code_parse_cache_whose_rows_cannot_be_read_is_a_miss(tmp_path, monkeypatch, damage, capsys):
    """A parse cache file that is authentic (this user's key) but whose rows this compiler
    cannot read back — bytes that are not rows, or rows of another layout — is a miss: the
    source is parsed again, the bundle is the same, and the file is named on stderr."""
    import marshal

    from v8atlas.compiler import cache
    from v8atlas.compiler.code import read as code_read
    root = tmp_path / "cf"
    _clean_dump(root)
    plain = compile_bundle([root], tmp_path / "plain", quiet=True, cache=False)
    _pooled(monkeypatch)
    out = tmp_path / "out"
    compile_bundle([root], out, quiet=True)
    (path, (model, report)), = _code_parse_files(out)
    tasks = [(m.file, m.ref) for m in model.modules]
    claim = code_read._module_claims(("folder", str(root), ""), tasks)
    words, layout, rows, columns = marshal.loads(claim(0, len(tasks)))
    assert columns and columns[0]
    if damage == "junk":
        blobs = [b"\x00 not rows"]
    elif damage == "an older row layout":   # a column short, as a compiler with one field fewer wrote them
        blobs = [marshal.dumps((words, layout, rows, columns[:-1]))]
    elif damage == "rows without the layout tag":   # (vocabulary, (module rows, columns))
        blobs = [marshal.dumps((words.split("\n"), (rows, columns)))]
    else:   # the same rows, but read back by the interleaved batches of a pool (before 11v)
        blobs = [marshal.dumps((words, "v8atlas-code-rows-3", rows, columns))]
    model.__dict__["_received"] = code_read._Received(tasks, 0, 0, [(0, blob) for blob in blobs],
                                                      [(m, []) for m in model.modules])
    assert cache.save(path, (model, report))
    for later in ("linked", "builds"):
        shutil.rmtree(out / ".cache" / later)
    capsys.readouterr()
    again = compile_bundle([root], out, quiet=True)
    assert "parse code" in again.report.timings      # parsed again
    assert f"cache file {path} not used" in capsys.readouterr().err
    assert Bundle.open(again.bundle_path).content_hash == Bundle.open(plain.bundle_path).content_hash


def test_a_batch_vocabulary_crosses_the_pool_whole():
    """A batch's term vocabulary crosses to the parent as one string; a term that could not
    be told apart there (a line break in it) makes it cross as the list instead."""
    import marshal

    from v8atlas.compiler.code import read as code_read
    for vocabulary in (["заказ", "клиент", ""], ["а\nб", "в"], [], ["один"]):
        rows = code_read._rows(vocabulary, [(None, [])])
        got, modules = code_read._from_rows(marshal.dumps(rows), [("x.bsl", None)])
        assert got == vocabulary and modules == [(None, [])]
        if vocabulary and not any("\n" in t for t in vocabulary):
            assert isinstance(rows[0], str)      # one string, not a string a term


def test_procedure_terms_are_packed_field_by_field():
    """``TermPacker.pack_procedures`` packs the four fields' term counts, then their term ids:
    read back through the packer's vocabulary they are the terms of the name, of the
    description's first DESCRIPTION_CHARS characters, of the parameters and of the innermost
    region — repeated texts, an empty description, no parameters, no region, a long
    description cut, a text without terms; the same bytes and vocabulary whether the
    procedures come in one call or one by one."""
    from array import array
    from v8atlas.compiler.code.model import Param, Procedure
    from v8atlas.compiler.code.terms import DESCRIPTION_CHARS, PROC_FIELDS, TermPacker, terms
    cases = [("ПриСозданииНаСервере", "", ["Отказ", "СтандартнаяОбработка"], ["ОбработчикиСобытий"]),
             ("ПриСозданииНаСервере", "Описание.", [], []),
             ("GetValue", "Returns the value; " * 40, ["Key"], ["Public", "Internal"]),
             ("Ф", "...", ["А", "Б"], ["Служебные"]),
             ("ПолучитьЗначение", "Возвращает значение. " + "x" * DESCRIPTION_CHARS, [], ["ОбработчикиСобытий"]),
             ("GetValue", "Returns the value; " * 40, ["Key"], ["Public", "Internal"])]
    procs = [Procedure(name=name, is_function=False, params=[Param(x, False, None) for x in params],
                       region=region, info={"description": description} if description else {})
             for name, description, params, region in cases]
    packer, one_by_one = TermPacker(), TermPacker()
    packed = packer.pack_procedures(procs)
    assert [b for p in procs for b in one_by_one.pack_procedures([p])] == packed
    assert one_by_one.vocabulary() == packer.vocabulary()
    assert packer.pack_procedures([]) == []
    vocabulary = packer.vocabulary()
    assert len(set(vocabulary)) == len(vocabulary)
    for (name, description, params, region), blob in zip(cases, packed):
        words = array("I", blob).tolist()
        counts, ids = words[:len(PROC_FIELDS)], words[len(PROC_FIELDS):]
        want = [terms(name), terms(description[:DESCRIPTION_CHARS]) if description else [],
                terms(" ".join(params)) if params else [], terms(region[-1]) if region else []]
        assert counts == [len(t) for t in want]
        assert [vocabulary[i] for i in ids] == [t for field in want for t in field]
    assert packed[2] == packed[5]                       # the same fields, the same bytes
