"""A large register's card (issue 14, item 5): query tables on the first page, one query table on
request, and the recorder documents listed once. A hand-built configuration compiled to a bundle."""
from __future__ import annotations

from pathlib import Path

import pytest
from v8atlas.compiler import build_docs
from v8atlas.compiler.config import model as M
from v8atlas.compiler.config.link import link
from v8atlas.compiler.pipeline import LinkContext
from v8atlas.compiler.report import CompileReport
from v8atlas.compiler.sources import Project, Source
from v8atlas.formats.reader import Bundle
from v8atlas.formats.writer import BundleWriter
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot

DOCUMENTS = 58
REGISTER = "РегистрНакопления.Себестоимость"


def number(name: str, comment: str = "") -> M.Attribute:
    return M.Attribute(name, comment=comment,
                       type=M.TypeDescription([M.TypeRef(M.NUMBER, digits=15, fraction=2)]))


def big_configuration() -> M.Configuration:
    long_comment = "Пояснение для разработчика о назначении этого поля и о том, как его заполнять. " * 4
    docs = [M.MDObject("Document", f"Документ{i:02d}", props={
        "number_length": 9, "register_records": ["AccumulationRegister.Себестоимость"]})
        for i in range(DOCUMENTS)]
    reg = M.MDObject("AccumulationRegister", "Себестоимость", props={"register_type": "Balance"},
                     dimensions=[number(f"Измерение{i:02d}", long_comment) for i in range(20)],
                     resources=[number("Количество"), number("Стоимость")],
                     attributes=[number(f"Реквизит{i:02d}", long_comment) for i in range(40)])
    return M.Configuration("ERP", objects=docs + [reg])


@pytest.fixture(scope="module")
def snap(tmp_path_factory) -> Snapshot:
    tmp: Path = tmp_path_factory.mktemp("register")
    ctx = LinkContext(project=Project([]), report=CompileReport())
    link([(Source("configuration", "designer", tmp, "erp", {}), big_configuration())], ctx)
    writer = BundleWriter(tmp / "bundles", "t", compiler_version="test")
    build_docs.build(ctx, writer)
    return Snapshot(Bundle.open(writer.publish()))


def pages(snap: Snapshot, **args) -> list[str]:
    out = []
    r = tools.call(snap, "get_object", args)
    out.append(r.text)
    while r.data.get("cursor"):
        r = tools.call(snap, "get_object", {**args, "cursor": r.data["cursor"]})
        out.append(r.text)
    return out


def test_first_page_of_a_full_card_shows_the_virtual_tables(snap):
    texts = pages(snap, name=REGISTER, detail="full")
    assert len(texts) > 1                      # the card is long enough to be paged
    first = texts[0]
    for vt in ("Остатки(Период, Условие)", "Обороты(НачалоПериода", "ОстаткиИОбороты("):
        assert f"`{REGISTER}.{vt}" in first, vt
    assert "КоличествоКонечныйОстаток" in first
    assert first.index("**Query tables**") < first.index("**Dimensions**")


def test_recorder_documents_are_listed_once(snap):
    text = "".join(pages(snap, name=REGISTER, detail="full"))
    for i in (0, 31, DOCUMENTS - 1):
        shown = text.count(f"Документ{i:02d}`") + text.count(f"Документ{i:02d} ") + text.count(f"Документ{i:02d}\n")
        assert shown == 1, (i, shown)
    recorder = next(line for line in text.splitlines() if line.startswith("- `Регистратор`"))
    assert f"{DOCUMENTS} documents under «Recorded by»" in recorder
    assert f"**Recorded by (documents)** ({DOCUMENTS}):" in text


def test_one_query_table_by_short_or_full_name(snap):
    r = tools.call(snap, "get_object", {"name": REGISTER, "table": "Остатки"})
    assert r.outcome == "found", r.text
    assert r.text.startswith(f"**Outcome: found** — query table `{REGISTER}.Остатки`(Период, Условие)")
    assert "- `КоличествоОстаток`: Число(15,2)" in r.text and "- `Измерение07`: Число(15,2)" in r.text
    assert "ОстаткиИОбороты" not in r.text and "**Dimensions**" not in r.text and "Документ05" not in r.text
    full = tools.call(snap, "get_object", {"name": REGISTER, "table": f"{REGISTER}.ОстаткиИОбороты"})
    assert full.outcome == "found" and "КоличествоНачальныйОстаток" in full.text
    english = tools.call(snap, "get_object", {"name": REGISTER, "table": "balance"})
    assert english.outcome == "found" and "КоличествоОстаток" in english.text


def test_unknown_query_table_names_the_ones_there_are(snap):
    r = tools.call(snap, "get_object", {"name": REGISTER, "table": "СрезПоследних"})
    assert r.outcome == "not_found"
    assert "has no query table 'СрезПоследних'" in r.text and f"`{REGISTER}.Обороты`" in r.text


def test_document_lists_its_registers_once(snap):
    text = "".join(pages(snap, name="Документ.Документ03", detail="full"))
    assert text.count("РегистрНакопления.Себестоимость") == 1, text
