"""Golden cards of the embedded sample (examples/): one object of every class, both formats.

The Designer and EDT copies of ДемоТорговля must give the same cards (the proof that the two
readers and the query model agree). Cards of one object per class are compared with
tests/golden/cards-sample.json; after an intended change regenerate it with
``V8ATLAS_UPDATE_GOLDEN=1 pytest tests/test_cards_sample.py`` and review the diff.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats.catalog import Catalog
from v8atlas.formats.graph import Graph
from v8atlas.formats.reader import Bundle

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
GOLDEN = Path(__file__).parent / "golden" / "cards-sample.json"
CONFIG = "ДемоТорговля"
EDT = "ДемоТорговля_EDT"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Bundle:
    if not (EXAMPLES / "config-designer").is_dir():
        pytest.skip("examples/ sample not present")
    out = tmp_path_factory.mktemp("bundles")
    result = compile_bundle([EXAMPLES], out, quiet=True, cache=False)
    return Bundle.open(result.bundle_path)


@pytest.fixture(scope="module")
def cards(bundle) -> dict[str, dict]:
    cat = Catalog(bundle)
    return {cat.keys[d]: cat.card(d) for d in range(len(cat)) if cat.domain_name(d) == "metadata"}


def comparable(card: dict) -> dict:
    c = dict(card)
    c.pop("config")
    c.pop("source_file", None)
    return c


def test_designer_and_edt_give_the_same_cards(cards):
    designer = {k.split("/", 1)[1]: v for k, v in cards.items() if k.startswith(CONFIG + "/")}
    edt = {k.split("/", 1)[1]: v for k, v in cards.items() if k.startswith(EDT + "/")}
    assert designer and sorted(designer) == sorted(edt)
    diffs = [k for k in designer if comparable(designer[k]) != comparable(edt[k])]
    assert diffs == []


def golden_selection(cards: dict[str, dict]) -> dict[str, dict]:
    """The first object of every class, plus every register (each register kind matters)."""
    chosen: dict[str, dict] = {}
    seen: set[str] = set()
    for key in sorted(k for k in cards if k.startswith(CONFIG + "/")):
        card = cards[key]
        if card["class"] not in seen or card["class"].endswith("Register"):
            seen.add(card["class"])
            chosen[key] = comparable(card)
    return chosen


def test_cards_match_golden(cards):
    chosen = golden_selection(cards)
    if os.environ.get("V8ATLAS_UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(chosen, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                          encoding="utf-8")
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(chosen) == sorted(golden)
    for key in golden:
        assert chosen[key] == golden[key], key


def tables(card: dict) -> dict[str, list[str]]:
    return {t["name"]: [f["name"] for f in t["fields"]] for t in card.get("query_tables", [])}


def test_sample_facts_every_class(cards):
    c = {k.split("/", 1)[1]: v for k, v in cards.items() if k.startswith(CONFIG + "/")}
    classes = {v["class"] for v in c.values()}
    assert {"Catalog", "Document", "AccumulationRegister", "InformationRegister", "ChartOfAccounts",
            "AccountingRegister", "ChartOfCalculationTypes", "CalculationRegister", "ExchangePlan",
            "BusinessProcess", "Task", "Enum", "DefinedType", "CommonModule", "EventSubscription",
            "ScheduledJob", "ChartOfCharacteristicTypes", "Subsystem"} <= classes
    # hierarchical catalog: Родитель/ЭтоГруппа; no owners → no Владелец; unlimited string with recipe
    nom = c["Справочник.Номенклатура"]
    std = [f["name"] for f in nom["standard_attributes"]]
    assert "Родитель" in std and "ЭтоГруппа" in std and "Владелец" not in std
    desc = next(a for a in nom["attributes"] if a.get("unlimited"))
    assert desc["recipe"].startswith("ПОДСТРОКА(") and desc["type"] == "Строка (неогр.)"
    # catalog with an owner
    owned = [v for v in c.values() if v["class"] == "Catalog" and v.get("properties", {}).get("owners")]
    assert owned and all("Владелец" in [f["name"] for f in v["standard_attributes"]] for v in owned)
    # a balance and a turnover accumulation register
    regs = [v for v in c.values() if v["class"] == "AccumulationRegister"]
    kinds = {v["properties"].get("register_type") for v in regs}
    assert kinds == {"Balance", "Turnovers"}
    for v in regs:
        names = [t["name"].rsplit(".", 1)[-1] for t in v["query_tables"]]
        if v["properties"]["register_type"] == "Balance":
            assert {"Остатки", "Обороты", "ОстаткиИОбороты"} <= set(names)
            assert "ВидДвижения" in [f["name"] for f in v["standard_attributes"]]
        else:
            assert "Остатки" not in names and "Обороты" in names
            assert "ВидДвижения" not in [f["name"] for f in v["standard_attributes"]]
    # periodic vs non-periodic information registers
    infos = [v for v in c.values() if v["class"] == "InformationRegister"]
    slices = {v["name"]: any(t["name"].endswith(".СрезПоследних") for t in v["query_tables"]) for v in infos}
    assert set(slices.values()) == {True, False}
    # accounting register over a chart of accounts with subconto
    acc = next(v for v in c.values() if v["class"] == "AccountingRegister")
    acc_tables = tables(acc)
    assert any(n.endswith(".ДвиженияССубконто") for n in acc_tables)
    assert any("Субконто1" in f or "СубконтоДт1" in f for f in acc_tables[acc["full_name"]])
    # calculation register with its chart of calculation types
    calc = next(v for v in c.values() if v["class"] == "CalculationRegister")
    assert calc["properties"]["chart_of_calculation_types"].startswith("ПланВидовРасчета.")
    # task: ЗадачиПоИсполнителю; business process: ТочкиМаршрута
    task = next(v for v in c.values() if v["class"] == "Task")
    assert any(n.endswith(".ЗадачиПоИсполнителю") for n in tables(task))
    bp = next(v for v in c.values() if v["class"] == "BusinessProcess")
    assert any(n.endswith(".ТочкиМаршрута") for n in tables(bp))
    assert {p["kind"] for p in bp["route_points"]} >= {"Start", "Completion"}
    # document movements match registers' recorders
    doc = c["Документ.ПриходТовара"]
    for reg in doc["movements"]["registers"]:
        assert "Документ.ПриходТовара" in c[reg]["movements"]["recorders"]


def test_sample_relations_in_bundle(bundle):
    cat, graph = Catalog(bundle), Graph(bundle)
    doc = cat.find_key(f"{CONFIG}/Документ.ПриходТовара")
    out = {(cat.keys[n.doc].split("/", 1)[1], n.kind) for n in graph.neighbors(doc, "out", include_weak=True)}
    assert any(k == "movement" for _, k in out)
    sub = next(d for d in range(len(cat)) if cat.config_name(d) == CONFIG and cat.kind_name(d) == "EventSubscription")
    kinds = {n.kind for n in graph.neighbors(sub, "out", include_weak=True)}
    assert {"subscription_source", "subscription_handler"} <= kinds
    job = next(d for d in range(len(cat)) if cat.config_name(d) == CONFIG and cat.kind_name(d) == "ScheduledJob")
    assert [n.kind for n in graph.neighbors(job, "out")] == ["scheduled_job_method"]


def test_english_script_variant_of_the_sample(tmp_path):
    """The Designer sample with <ScriptVariant>English: answers in English, both spellings resolve."""
    import shutil
    src = tmp_path / "cfg"
    shutil.copytree(EXAMPLES / "config-designer", src)
    xml = src / "Configuration.xml"
    text = xml.read_text(encoding="utf-8-sig")
    assert "<ScriptVariant>Russian</ScriptVariant>" in text
    xml.write_text(text.replace("<ScriptVariant>Russian</ScriptVariant>",
                                "<ScriptVariant>English</ScriptVariant>"), encoding="utf-8")
    result = compile_bundle([src], tmp_path / "out", quiet=True, cache=False)
    cat = Catalog(Bundle.open(result.bundle_path))
    reg = cat.find_key(f"{CONFIG}/РегистрНакопления.ОстаткиТоваров")
    assert cat.titles[reg] == "AccumulationRegister.ОстаткиТоваров"
    assert cat.lookup("AccumulationRegister.ОстаткиТоваров.BalanceAndTurnovers") == [reg]
    assert cat.lookup("РегистрНакопления.ОстаткиТоваров.ОстаткиИОбороты") == [reg]
    card = cat.card(reg)
    assert card["language"] == "en" and card["class_name"] == "AccumulationRegister"
    tables = {t["name"]: t for t in card["query_tables"]}
    bt = tables["AccumulationRegister.ОстаткиТоваров.BalanceAndTurnovers"]
    assert "КоличествоClosingBalance" in [f["name"] for f in bt["fields"]]
    assert [f["name"] for f in card["standard_attributes"]] == [
        "Period", "Recorder", "LineNumber", "Active", "RecordType"]
    nom = cat.card(cat.find_key(f"{CONFIG}/Справочник.Номенклатура"))
    desc = next(a for a in nom["attributes"] if a.get("unlimited"))
    assert desc["type"] == "String (unlimited)" and desc["recipe"].startswith("SUBSTRING(")


def test_cards_name_no_internal_spec_files(cards):
    """Card text reaches agents: notes say what is (un)confirmed in plain words, without
    references to our own spec files (domain-1c.md §…)."""
    leaks = [k for k, card in cards.items()
             if "domain-1c" in json.dumps(card, ensure_ascii=False) or "§" in json.dumps(card, ensure_ascii=False)]
    assert leaks == []
    notes = {t["note"] for card in cards.values() for t in card.get("query_tables", []) if t.get("note")}
    assert "Узел and НомерСообщения confirmed; the other key fields not confirmed by the platform documentation" \
        in notes
