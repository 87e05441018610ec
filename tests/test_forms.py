"""Forms, composition schemas and roles: both readers, the model, the answers, bad input.

Fixtures are built in code from the embedded sample (tests/forms_fixture.py), so the suite
needs nothing from ../shared.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import forms_fixture as F
from v8atlas.compiler.config.normalize import diff
from v8atlas.compiler.config.plugin import open_source, read_configuration
from v8atlas.compiler.forms import read as R
from v8atlas.compiler.forms.normalize import ui_dict
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.compiler.report import CompileReport
from v8atlas.formats import Bundle
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot
from v8atlas.server.tools.paging import MAX_ANSWER_CHARS

FORM = "Catalog.Номенклатура.Form.ФормаЭлемента"


def read(path: Path):
    report = CompileReport()
    cfg = read_configuration(path, report)
    return R.read_ui(open_source(path)[1], cfg, "src", report), report.as_dict()


@pytest.fixture(scope="module")
def dumps(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ui")
    return F.designer_dump(tmp), F.edt_project(tmp)


@pytest.fixture(scope="module")
def designer(dumps):
    return read(dumps[0])


@pytest.fixture(scope="module")
def snap(dumps, tmp_path_factory) -> Snapshot:
    result = compile_bundle([dumps[0]], tmp_path_factory.mktemp("bundles"), quiet=True, cache=False)
    return Snapshot(Bundle.open(result.bundle_path))


def call(snap, tool_name, /, **args):
    return tools.call(snap, tool_name, args)


def _form(ui, key=FORM):
    return next(f for f in ui.forms if R.form_key(f) == key)


def test_designer_and_edt_give_the_same_model(dumps):
    (a, _), (b, _) = read(dumps[0]), read(dumps[1])
    assert diff(ui_dict(a), ui_dict(b)) == []


def test_form_items_attributes_commands_parameters(designer):
    ui, _ = designer
    form = _form(ui)
    assert form.title == {"ru": "Товар"}
    assert [(i.kind, i.name) for i in form.items] == [
        ("AutoCommandBar", "ФормаКоманднаяПанель"), ("UsualGroup", "ГруппаШапка"), ("Pages", "Страницы")]
    head = form.items[1]
    assert [(i.name, i.data_path, i.props) for i in head.items] == [
        ("Наименование", "Объект.Description", {}), ("Код", "Объект.Code", {"read_only": True})]
    assert [(h.event, h.procedure) for h in head.items[0].handlers] == [("OnChange", "НаименованиеПриИзменении")]
    table = form.items[2].items[0].items[0]
    assert (table.kind, table.props, [c.data_path for c in table.items]) == ("Table", {"visible": False}, ["Цены.Цена"])
    assert form.items[0].items[0].command == "Form.Command.Пересчитать"
    attrs = {a.name: a for a in form.attributes}
    assert attrs["Объект"].main and attrs["Объект"].type.types[0].name == "Номенклатура"
    assert [(c.name, c.type.types[0].digits, c.type.types[0].fraction) for c in attrs["Цены"].columns] == [("Цена", 15, 2)]
    dyn = attrs["СписокПартнеров"]
    assert (dyn.main_table, dyn.custom_query) == ("Catalog.Партнеры", True)
    assert dyn.query_text.startswith("ВЫБРАТЬ\n\tПартнеры.Ссылка")
    assert [(c.name, c.action) for c in form.commands] == [("Пересчитать", "Пересчитать")]
    assert [(p.name, p.key) for p in form.parameters] == [("Партнер", True)]
    assert [(h.event, h.procedure) for h in form.handlers] == [("OnCreateAtServer", "ПриСозданииНаСервере"),
                                                             ("OnOpen", "ПриОткрытии")]


def test_unknown_item_kind_is_kept_and_counted(designer):
    ui, report = designer
    page = _form(ui).items[2].items[0]
    sparkle = page.items[1]
    assert (sparkle.kind, sparkle.name, sparkle.known) == ("Sparkle", "Блестка", False)
    assert any(u["what"] == "src: form item kind Sparkle" for u in report["unknown"])


def test_handlers_checked_against_the_code_domain_and_unchecked_without_it(tmp_path):
    root = F.designer_dump(tmp_path)
    module = root / "Catalogs/Номенклатура/Forms/ФормаЭлемента/Ext/Form/Module.bsl"
    # a procedure named only in a comment or a string is no procedure of the module
    module.write_text("\ufeff" + F.MODULE + "\n// Процедура ПриОткрытии(Отказ)\nА = \"Процедура ПриОткрытии(\";\n",
                      encoding="utf-8")
    result = compile_bundle([root], tmp_path / "out", quiet=True, cache=False)
    s = Snapshot(Bundle.open(result.bundle_path))
    brief = call(s, "get_object", name="Справочник.Номенклатура.Форма.ФормаЭлемента")
    assert "**Handlers without a procedure in the module** (1): OnOpen→`ПриОткрытии`" in brief.text
    assert "module: 4 procedures" in brief.text
    missing = [w for w in result.report.as_dict()["warnings"] if w["code"] == "form-handler-missing"]
    assert [w["message"].split(": ", 1)[1] for w in missing] == ["form OnOpen → ПриОткрытии"]
    # without the code domain nothing is checked: no marks, no module line, no warning
    result = compile_bundle([root], tmp_path / "out2", quiet=True, cache=False, skip=("code",))
    s = Snapshot(Bundle.open(result.bundle_path))
    brief = call(s, "get_object", name="Справочник.Номенклатура.Форма.ФормаЭлемента")
    assert brief.outcome == "found" and "OnCreateAtServer→`ПриСозданииНаСервере`" in brief.text
    assert "Handlers without a procedure" not in brief.text and "module:" not in brief.text
    assert not [w for w in result.report.as_dict()["warnings"] if w["code"] == "form-handler-missing"]


def test_schema_model(designer):
    ui, report = designer
    t = next(t for t in ui.templates if t.name == "Ценник")
    s = t.schema
    assert s.data_sources == [("ИсточникДанных1", "Local")]
    assert [(d.name, d.kind, d.known) for d in s.data_sets] == [("Цены", "query", True),
                                                              ("Странный", "DataSetSparkle", False)]
    fields = s.data_sets[0].fields
    assert [(f.data_path, f.title, f.role) for f in fields] == [
        ("Номенклатура", {"ru": "Товар"}, {"dimension": "true"}), ("Цена", {}, {})]
    assert "Справочник.Номенклатура КАК Номенклатура" in s.data_sets[0].query
    assert [(c.data_path, c.expression) for c in s.calculated_fields] == [("ЦенаСНДС", "Цена * 1.2")]
    assert [(r.data_path, r.aggregate) for r in s.resources] == [("Цена", "Максимум")]
    p = s.parameters[0]
    assert (p.name, p.type.types[0].kind, p.value) == ("Дата", "Date", "0001-01-01T00:00:00")
    assert s.variants == [("Основной", "Прайс-лист")]
    warn = [w for w in report["warnings"] if w["code"] == "schema-unknown-data-set"]
    line = next(i for i, t in enumerate(F.SCHEMA.splitlines(), 1) if "DataSetSparkle" in t)
    assert len(warn) == 1 and warn[0]["file"].endswith("Ценник/Ext/Template.xml") and warn[0]["line"] == line


def test_rights_model(designer):
    ui, _ = designer
    role = ui.roles[0]
    assert (role.name, role.set_for_new_objects, role.set_for_attributes_by_default) == ("Менеджер", False, True)
    obj = role.objects[1]
    assert obj.name == "Catalog.Номенклатура"
    assert obj.rights == {"Read": True, "Insert": False, "View": True}
    assert obj.restrictions == {"Read": "Номенклатура ГДЕ Номенклатура.ПометкаУдаления = ЛОЖЬ"}
    assert role.templates == [("ПоВладельцу(Поле)", "ГДЕ #Поле = &Владелец")]


def test_get_object_form_brief_fields_full(snap):
    brief = call(snap, "get_object", name="Справочник.Номенклатура.Форма.ФормаЭлемента")
    assert brief.outcome == "found"
    assert "Owner: `Справочник.Номенклатура`" in brief.text
    assert "OnCreateAtServer→`ПриСозданииНаСервере`" in brief.text
    assert "**Handlers without a procedure in the module** (1): OnOpen→`ПриОткрытии`" in brief.text
    assert "`Объект` (main)" in brief.text and "ЦенаНачалоВыбора" not in brief.text
    fields = call(snap, "get_object", name="Catalog.Номенклатура.Form.ФормаЭлемента", detail="fields")
    assert fields.data["object"]["title"] == "Справочник.Номенклатура.Форма.ФормаЭлемента"
    assert "  - InputField `Код` [Объект.Code] (read only)" in fields.text
    assert "- Table `Цены` [Цены] (not visible)" in fields.text
    assert "on StartChoice→`ЦенаНачалоВыбора`" in fields.text
    assert "main table `Справочник.Партнеры`; custom query" in fields.text
    assert "Справочник.Партнеры КАК Партнеры" not in fields.text
    full = call(snap, "get_object", name="Справочник.Номенклатура.Форма.ФормаЭлемента", detail="full")
    assert "Справочник.Партнеры КАК Партнеры" in full.text


def test_get_object_schema_and_other_templates(snap):
    r = call(snap, "get_object", name="Catalog.Номенклатура.Template.Ценник", detail="fields")
    assert r.outcome == "found" and "**Template** — type DataCompositionSchema" in r.text
    assert "- `Цены` — query (source `ИсточникДанных1`), 2 field(s)" in r.text
    assert "  - `Номенклатура` «Товар» role: dimension=true" in r.text
    assert "`Цена` Максимум" in r.text and "`Основной` «Прайс-лист»" in r.text
    assert "(kind unknown to the reader)" in r.text
    full = call(snap, "get_object", name="Справочник.Номенклатура.Макет.Ценник", detail="full")
    assert "Справочник.Номенклатура КАК Номенклатура" in full.text


def test_role_card_and_who_may_read_an_object(snap):
    role = call(snap, "get_object", name="Роль.Менеджер", detail="full")
    assert "- `Справочник.Номенклатура`: Read, View; not granted: Insert; RLS on Read" in role.text
    assert "Номенклатура ГДЕ Номенклатура.ПометкаУдаления = ЛОЖЬ" in role.text
    assert "`ПоВладельцу(Поле)`" in role.text
    obj = call(snap, "get_object", name="Справочник.Номенклатура")
    assert "**Roles granting rights** (1):\n- `Роль.Менеджер`: Read, View; RLS on Read" in obj.text
    rel = call(snap, "get_relations", name="Роль.Менеджер", kind="rights")
    assert "`Справочник.Номенклатура` via `Read, View`" in rel.text
    rel = call(snap, "get_relations", name="Справочник.Номенклатура", kind="form", direction="out")
    assert "Справочник.Номенклатура.Форма.ФормаЭлемента" in rel.text
    rel = call(snap, "get_relations", name="Справочник.Номенклатура.Форма.ФормаЭлемента", kind="form_data")
    assert "`Справочник.Партнеры` via `СписокПартнеров`" in rel.text


def test_search_finds_forms_schemas_roles_by_title(snap):
    r = call(snap, "search_metadata", query="менеджер по продажам")
    assert r.data["hits"][0]["title"] == "Роль.Менеджер"
    r = call(snap, "search_metadata", query="прайс-лист", kind="Template")
    assert r.data["hits"][0]["title"] == "Справочник.Номенклатура.Макет.Ценник"
    r = call(snap, "search_metadata", query="форма номенклатуры", kind="Form")
    assert {h["title"] for h in r.data["hits"]} >= {"Справочник.Номенклатура.Форма.ФормаЭлемента"}


def test_compile_report_names_missing_handler_and_unknown_right_target(snap):
    report = snap.bundle.report()
    missing = [w for w in report["warnings"] if w["code"] == "form-handler-missing"]
    assert len(missing) == 1 and "form OnOpen → ПриОткрытии" in missing[0]["message"]
    assert missing[0]["file"] == "Catalogs/Номенклатура/Forms/ФормаЭлемента/Ext/Form.xml"
    unknown = [w for w in report["warnings"] if w["code"] == "rights-unknown-object"]
    assert len(unknown) == 1 and "Catalog.НетТакого" in unknown[0]["message"]
    line = next(i for i, t in enumerate(F.RIGHTS.splitlines(), 1) if "Catalog.НетТакого" in t) - 1
    assert unknown[0]["file"] == "Roles/Менеджер/Ext/Rights.xml" and unknown[0]["line"] == line


def test_an_event_naming_no_procedure_is_no_handler(tmp_path):
    root = F.designer_dump(tmp_path)
    body = root / "Catalogs/Номенклатура/Forms/ФормаЭлемента/Ext/Form.xml"
    body.write_text(F.DESIGNER_FORM.replace('<Event name="OnOpen">ПриОткрытии</Event>', '<Event name="OnOpen"/>'),
                    encoding="utf-8")
    result = compile_bundle([root], tmp_path / "out", quiet=True, cache=False)
    assert not [w for w in result.report.as_dict()["warnings"] if w["code"] == "form-handler-missing"]
    s = Snapshot(Bundle.open(result.bundle_path))
    rel = call(s, "get_relations", name="Справочник.Номенклатура.Форма.ФормаЭлемента")
    assert rel.outcome == "found" and "ПриСозданииНаСервере" in rel.text
    assert "OnOpen" not in rel.text


def test_malformed_form_is_reported_with_line_and_the_rest_compiles(tmp_path):
    root = F.designer_dump(tmp_path)
    body = root / "Catalogs/Номенклатура/Forms/ФормаЭлемента/Ext/Form.xml"
    body.write_text(F.DESIGNER_FORM.replace("</Attributes>", "</Attribute>"), encoding="utf-8")
    result = compile_bundle([root], tmp_path / "out", quiet=True, cache=False)
    errors = result.report.as_dict()["errors"]
    assert [(e["code"], e["file"]) for e in errors] == [("xml", "Catalogs/Номенклатура/Forms/ФормаЭлемента/Ext/Form.xml")]
    assert errors[0]["line"] == next(i for i, t in enumerate(F.DESIGNER_FORM.splitlines(), 1) if "</Attributes>" in t)
    s = Snapshot(Bundle.open(result.bundle_path))
    form = call(s, "get_object", name="Справочник.Номенклатура.Форма.ФормаЭлемента")
    assert "Layout not read: its file is absent or could not be read" in form.text
    assert call(s, "get_object", name="Роль.Менеджер").outcome == "found"
    assert "Прайс-лист" in call(s, "get_object", name="Справочник.Номенклатура.Макет.Ценник").text


def test_a_100_mb_template_is_refused_and_the_rest_compiles(tmp_path):
    root = F.designer_dump(tmp_path)
    big = root / "Catalogs/Номенклатура/Templates/Ценник/Ext/Template.xml"
    with open(big, "w", encoding="utf-8") as f:
        f.write(F.SCHEMA.replace("</DataCompositionSchema>", ""))
        chunk = "<!--" + "x" * (1 << 20) + "-->\n"
        for _ in range(100):
            f.write(chunk)
        f.write("</DataCompositionSchema>\n")
    result = compile_bundle([root], tmp_path / "out", quiet=True, cache=False)
    errors = result.report.as_dict()["errors"]
    assert [(e["code"], e["file"], e["line"]) for e in errors] == [
        ("ui-file-too-large", "Catalogs/Номенклатура/Templates/Ценник/Ext/Template.xml", 1)]
    assert "100 MB" in errors[0]["message"]
    s = Snapshot(Bundle.open(result.bundle_path))
    assert "ЦенаНачалоВыбора" in call(s, "get_object", name="Справочник.Номенклатура.Форма.ФормаЭлемента",
                                      detail="fields").text


def test_ordinary_form_is_listed_with_the_reason(tmp_path):
    root = F.designer_dump(tmp_path)
    desc = root / "Catalogs/Номенклатура/Forms/ФормаСписка.xml"
    text = desc.read_text(encoding="utf-8-sig")
    desc.write_text(text.replace("<FormType>Managed</FormType>", "<FormType>Ordinary</FormType>"), encoding="utf-8")
    ui, _ = read(root)
    form = _form(ui, "Catalog.Номенклатура.Form.ФормаСписка")
    assert form.form_type == "Ordinary" and "ordinary (non-managed) form" in form.not_read


def test_largest_answer_pages_under_the_cap(tmp_path):
    root = F.designer_dump(tmp_path)
    body = root / "Catalogs/Номенклатура/Forms/ФормаЭлемента/Ext/Form.xml"
    many = "".join(f'<InputField name="Поле{i}" id="{1000 + i}"><DataPath>Объект.Реквизит{i}</DataPath>'
                   f'<Events><Event name="OnChange">Поле{i}ПриИзменении</Event></Events></InputField>'
                   for i in range(1500))
    body.write_text(F.DESIGNER_FORM.replace("</ChildItems>\n\t\t</UsualGroup>", many + "</ChildItems>\n\t\t</UsualGroup>"),
                    encoding="utf-8")
    result = compile_bundle([root], tmp_path / "out", quiet=True, cache=False)
    s = Snapshot(Bundle.open(result.bundle_path))
    seen, cursor, pages = set(), None, 0
    while True:
        r = call(s, "get_object", name="Справочник.Номенклатура.Форма.ФормаЭлемента", detail="fields",
                 **({"cursor": cursor} if cursor else {}))
        assert r.outcome == "found" and len(r.text) <= MAX_ANSWER_CHARS
        seen |= {line.split("`")[1] for line in r.text.splitlines() if "InputField `Поле" in line}
        pages += 1
        cursor = r.data["cursor"]
        if not cursor:
            break
    assert pages > 1 and len(seen) == 1500


def test_a_refused_configuration_leaves_the_other_sources_compiling(tmp_path):
    # The forms parse of the dump succeeds, the configuration domain refuses it: the forms
    # domain then links nothing (no model to own the forms) and the help book still compiles.
    root = F.designer_dump(tmp_path)
    (root / "Configuration.xml").write_text("<MetaDataObject><broken", encoding="utf-8")
    result = compile_bundle([root, F.REPO / "examples" / "help"], tmp_path / "out", quiet=True, cache=False)
    errors = result.report.as_dict()["errors"]
    assert [e["code"] for e in errors] == ["source-failed"] and "Configuration.xml:1" in errors[0]["message"]
    assert Bundle.open(result.bundle_path).counts["documents"] > 0


def test_get_relations_lists_form_handlers_with_procedure_addresses(snap):
    """form_handler relations: each event → the address get_procedure takes, the missing one marked."""
    r = call(snap, "get_relations", name="Справочник.Номенклатура.Форма.ФормаЭлемента")
    assert "kinds: form, form_data, form_handler" in r.text
    got = [(h["where"], h["procedure"], h["missing"]) for h in r.data["handlers"]]
    base = "Справочник.Номенклатура.Форма.ФормаЭлемента."
    assert got == [("form OnCreateAtServer", base + "ПриСозданииНаСервере", False),
                   ("form OnOpen", base + "ПриОткрытии", True),
                   ("Наименование OnChange", base + "НаименованиеПриИзменении", False),
                   ("ЦеныЦена StartChoice", base + "ЦенаНачалоВыбора", False),
                   ("command Пересчитать", base + "Пересчитать", False)]
    assert r.data["total"] == len(r.data["edges"]) + 5
    assert f"- form_handler → `{base}ПриОткрытии` via `form OnOpen` (no such procedure in the form module)" in r.text
    for _, proc, missing in got:
        assert call(snap, "get_procedure", name=proc).outcome == ("not_found" if missing else "found")
    # another kind asked: counted in all, not listed; incoming: none
    data = call(snap, "get_relations", name=base.rstrip("."), kind="form_data")
    assert "handlers" not in data.data and "(8 in all)" in data.text
    assert "handlers" not in call(snap, "get_relations", name=base.rstrip("."), direction="in").data
    # an object: its forms' handlers only when asked, the hint says how
    obj = call(snap, "get_relations", name="Справочник.Номенклатура")
    assert "handlers" not in obj.data and "kind=form_handler lists its forms' event handlers" in obj.text
    obj = call(snap, "get_relations", name="Справочник.Номенклатура", kind="form_handler")
    assert [h["procedure"] for h in obj.data["handlers"]] == \
        ["Справочник.Номенклатура.Форма.ФормаСписка.ПриСозданииНаСервере"] + [p for _, p, _ in got]
    assert obj.data["edges"] == [] and obj.data["total"] == 6


def test_form_handler_relations_page_after_the_edges(snap, monkeypatch):
    """Small pages: the cursor walks the graph's edges, then the handlers, each row once."""
    from v8atlas.server.tools import relations
    name = "Справочник.Номенклатура.Форма.ФормаЭлемента"
    whole = call(snap, "get_relations", name=name)
    monkeypatch.setattr(relations, "PAGE_EDGES", 2)
    edges, handlers, cursor, pages = [], [], None, 0
    while True:
        r = call(snap, "get_relations", name=name, **({"cursor": cursor} if cursor else {}))
        edges += r.data["edges"]
        handlers += r.data.get("handlers", [])
        pages += 1
        cursor = r.data["cursor"]
        if not cursor:
            break
    assert pages == 4 and edges == whole.data["edges"] and handlers == whole.data["handlers"]
