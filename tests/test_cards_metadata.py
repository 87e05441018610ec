"""Linker → documents and cards: names in both languages, English script variant, extension views,
configuration info. Hand-built models; the golden sample is in test_cards_sample.py."""
from __future__ import annotations

from pathlib import Path

from v8atlas.compiler.config import model as M
from v8atlas.compiler.config.link import link
from v8atlas.compiler.pipeline import LinkContext
from v8atlas.compiler.report import CompileReport
from v8atlas.compiler.links import ConfigModels
from v8atlas.compiler.sources import Project, Source


def ref(cls: str, name: str) -> M.TypeDescription:
    return M.TypeDescription([M.TypeRef(M.REF, ref_class=cls + "Ref", name=name)])


def num() -> M.TypeDescription:
    return M.TypeDescription([M.TypeRef(M.NUMBER, digits=15, fraction=3)])


def text() -> M.TypeDescription:
    return M.TypeDescription([M.TypeRef(M.STRING, length=0)])


def shop(name: str = "Магазин", script: str = "Russian") -> M.Configuration:
    return M.Configuration(name, script_variant=script, version="1.0.1", vendor="Я",
                           compatibility_mode="Version8_3_24", platform_version="8.3.24", objects=[
        M.MDObject("Catalog", "Товары", uuid="u-cat", props={"description_length": 100, "code_length": 9},
                   attributes=[M.Attribute("Comment", type=text())], synonym={"ru": "Товары", "en": "Goods"}),
        M.MDObject("Document", "Продажа", uuid="u-doc", props={
            "number_length": 9, "register_records": ["AccumulationRegister.Stock"]},
            tabular_sections=[M.TabularSection("Goods", attributes=[
                M.Attribute("Item", type=ref("Catalog", "Товары")), M.Attribute("Quantity", type=num())])]),
        M.MDObject("AccumulationRegister", "Stock", uuid="u-reg", props={"register_type": "Balance"},
                   dimensions=[M.Attribute("Item", type=ref("Catalog", "Товары"))],
                   resources=[M.Attribute("Quantity", type=num())]),
    ])


def run(*pairs: tuple[M.Configuration, dict]) -> LinkContext:
    ctx = LinkContext(project=Project([]), report=CompileReport())
    parsed = [(Source("configuration", "designer", Path(f"/src/{i}"), f"src{i}", opts), cfg)
              for i, (cfg, opts) in enumerate(pairs)]
    link(parsed, ctx)
    return ctx


def docs_by_key(ctx: LinkContext) -> dict:
    return {d.key: d for d in ctx.docs}


def test_russian_card_names_and_fields():
    ctx = run((shop(), {}))
    d = docs_by_key(ctx)["Магазин/Справочник.Товары"]
    assert d.domain == "metadata" and d.kind == "Catalog" and d.config == "Магазин"
    assert d.title == "Справочник.Товары"
    assert {"Справочник.Товары", "Catalog.Товары", "Товары", "СправочникСсылка.Товары",
            "CatalogRef.Товары"} <= set(d.names)
    assert d.fields["class"] == "Справочник Справочники Catalog Catalogs"   # case kept: search splits CamelCase
    assert d.fields["synonym"] == "Товары Goods"
    card = d.card
    assert (card["full_name"], card["full_name_alias"]) == ("Справочник.Товары", "Catalog.Товары")
    assert card["class_name"] == "Справочник" and card["language"] == "ru"
    assert [f["name"] for f in card["standard_attributes"]] == [
        "Ссылка", "ВерсияДанных", "ПометкаУдаления", "Код", "Наименование", "Предопределенный", "ИмяПредопределенныхДанных"]
    comment = card["attributes"][0]
    assert comment["type"] == "Строка (неогр.)" and comment["unlimited"] is True
    assert comment["recipe"] == "ПОДСТРОКА(Comment, 1, 1024)"
    main = card["query_tables"][0]
    assert main["name"] == "Справочник.Товары" and main["unlimited"] == ["Comment"]
    assert main["fields"][-1] == {"name": "Представление", "alias": "Presentation", "role": "virtual",
                                  "unverified": True}
    doc = docs_by_key(ctx)["Магазин/Документ.Продажа"].card
    assert doc["movements"] == {"registers": ["РегистрНакопления.Stock"]}
    assert doc["tabular_sections"][0]["attributes"][1]["type"] == "Число(15,3)"
    reg = docs_by_key(ctx)["Магазин/РегистрНакопления.Stock"].card
    assert reg["movements"] == {"recorders": ["Документ.Продажа"]}
    assert reg["relations"]["in"] == {"movement": 1}


def test_english_script_variant_names_answers_in_english_and_accepts_both():
    ctx = run((shop("Shop", "English"), {}))
    d = docs_by_key(ctx)["Shop/РегистрНакопления.Stock"]     # keys keep Russian class words
    assert d.title == "AccumulationRegister.Stock"
    card = d.card
    assert card["language"] == "en" and card["class_name"] == "AccumulationRegister"
    assert card["full_name_alias"] == "РегистрНакопления.Stock"
    tables = {t["name"]: t for t in card["query_tables"]}
    bt = tables["AccumulationRegister.Stock.BalanceAndTurnovers"]
    assert bt["alias"] == "РегистрНакопления.Stock.ОстаткиИОбороты"
    assert bt["params"] == ["BeginOfPeriod", "EndOfPeriod", "Periodicity", "AdditionMethod", "Condition"]
    names = [f["name"] for f in bt["fields"]]
    assert "QuantityClosingBalance" in names and "DayPeriod" in names and "Recorder" in names
    assert tables["AccumulationRegister.Stock.Balance"]["fields"][-1] == {
        "name": "QuantityBalance", "alias": "QuantityОстаток", "type": "Number(15,3)", "role": "generated"}
    assert [f["name"] for f in card["standard_attributes"]] == [
        "Period", "Recorder", "LineNumber", "Active", "RecordType"]
    assert card["standard_attributes"][1]["type"] == "DocumentRef.Продажа"
    assert card["standard_attributes"][4]["type"] == "AccumulationRecordType"
    assert {"AccumulationRegister.Stock.BalanceAndTurnovers", "РегистрНакопления.Stock.ОстаткиИОбороты",
            "РегистрНакопления.Stock"} <= set(d.names)
    cat = docs_by_key(ctx)["Shop/Справочник.Товары"].card
    assert cat["attributes"][0]["recipe"] == "SUBSTRING(Comment, 1, 1024)"
    assert cat["attributes"][0]["type"] == "String (unlimited)"
    info = ctx.info["configurations"][0]
    assert info["language"] == "en" and info["counts_by_class"] == {
        "Catalog": 1, "Document": 1, "AccumulationRegister": 1}


def test_configuration_info_names_and_platform_origin():
    ctx = run((shop(), {"name": "Торговля", "platform": "8.3.27"}), (shop("Второй"), {}))
    infos = {i["name"]: i for i in ctx.info["configurations"]}
    assert infos["Торговля"]["configuration_name"] == "Магазин"
    assert infos["Торговля"]["platform_version"] == "8.3.27"
    assert infos["Торговля"]["platform_version_from"] == "v8atlas.toml"
    assert infos["Второй"]["platform_version"] == "8.3.24"
    assert infos["Второй"]["platform_version_from"] == "compatibility_mode"
    assert infos["Второй"]["compatibility_mode"] == "Version8_3_24"
    assert ctx.links.need(ConfigModels).platforms == {"Торговля": "8.3.27", "Второй": "8.3.24"}
    assert "Торговля/Справочник.Товары" in docs_by_key(ctx)


def test_two_sources_with_one_name_is_an_error_naming_both():
    ctx = run((shop(), {}), (shop(), {}))
    assert len(ctx.info["configurations"]) == 1
    err = ctx.report.errors[0]
    assert err.code == "duplicate-configuration" and "src0" in err.message and "src1" in err.message


def extension() -> M.Configuration:
    return M.Configuration("Расш", is_extension=True, name_prefix="Расш_", objects=[
        M.MDObject("Catalog", "Товары", belonging=M.ADOPTED, extended_uuid="u-cat",
                   attributes=[M.Attribute("Расш_Цвет", type=text())]),
        M.MDObject("Catalog", "Расш_Цвета", props={"description_length": 25}),
    ])


def test_extension_gives_base_and_overlay_views():
    ctx = run((shop(), {}), (extension(), {"base": "Магазин"}))
    assert [i["name"] for i in ctx.info["configurations"]] == ["Магазин", "Магазин+Расш"]
    docs = docs_by_key(ctx)
    assert "Магазин/Справочник.Расш_Цвета" not in docs
    base_card = docs["Магазин/Справочник.Товары"].card
    assert "extension" not in base_card and len(base_card["attributes"]) == 1
    over = docs["Магазин+Расш/Справочник.Товары"].card
    assert over["extension"] == {"adopted_by": ["Расш"], "additions": {"Расш": ["Реквизит.Расш_Цвет"]}}
    assert over["attributes"][1]["origin"] == "Расш"
    assert docs["Магазин+Расш/Справочник.Расш_Цвета"].card["extension"] == {"added_by": "Расш"}
    adopted = [e for e in ctx.edges if e.kind == "adopted_from"]
    assert [(e.src, e.dst, e.label) for e in adopted] == [
        ("Магазин+Расш/Справочник.Товары", "Магазин/Справочник.Товары", "Расш")]
    info = ctx.info["configurations"][1]
    assert info["base"] == "Магазин" and info["extensions"] == ["Расш"] and info["adopted_objects"] == 1


def test_extension_without_its_base_is_compiled_alone_with_a_warning():
    ctx = run((extension(), {}))
    assert [i["name"] for i in ctx.info["configurations"]] == ["Расш"]
    assert any(w.code == "extension-without-base" for w in ctx.report.warnings)
    assert "Расш/Справочник.Расш_Цвета" in docs_by_key(ctx)


def test_cards_are_stable_across_runs():
    a = [(d.key, d.card) for d in run((shop(), {}), (extension(), {})).docs]
    b = [(d.key, d.card) for d in run((shop(), {}), (extension(), {})).docs]
    assert a == b


def test_extension_finds_a_renamed_base_by_its_own_name_and_is_alone_when_ambiguous():
    ext = extension()
    ext.base_name = "Магазин"                       # the name the base configuration gives itself
    ctx = run((shop(), {"name": "Торговля"}), (ext, {}))
    assert [i["name"] for i in ctx.info["configurations"]] == ["Торговля", "Торговля+Расш"]
    ctx = run((shop("А"), {}), (shop("Б"), {}), (extension(), {}))   # two bases, none named
    assert [i["name"] for i in ctx.info["configurations"]] == ["А", "Б", "Расш"]
    assert any(w.code == "extension-without-base" for w in ctx.report.warnings)
