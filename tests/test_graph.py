"""Relations → bundle graph (CSR both ways) → formats.graph.Graph, on a hand-built configuration."""
from __future__ import annotations

from pathlib import Path

import pytest

from v8atlas.compiler import build_docs
from v8atlas.compiler.config import graph as graph_builder
from v8atlas.compiler.config import model as M
from v8atlas.compiler.config.confindex import ConfigIndex
from v8atlas.compiler.config.link import link
from v8atlas.compiler.config.relations import USED_EVERYWHERE, WIDE_TYPE, relations
from v8atlas.compiler.pipeline import LinkContext
from v8atlas.compiler.report import CompileReport
from v8atlas.compiler.sources import Project, Source
from v8atlas.formats.catalog import Catalog
from v8atlas.formats.graph import Graph
from v8atlas.formats.reader import Bundle
from v8atlas.formats.writer import BundleWriter


def ref(cls: str, name: str) -> M.TypeRef:
    return M.TypeRef(M.REF, ref_class=cls + "Ref", name=name)


def td(*types: M.TypeRef) -> M.TypeDescription:
    return M.TypeDescription(list(types))


def sample() -> M.Configuration:
    many = [M.MDObject("Catalog", f"К{i}", props={"description_length": 10}) for i in range(WIDE_TYPE + 1)]
    objects = [
        M.MDObject("Catalog", "Склады", props={"description_length": 10}),
        M.MDObject("Catalog", "Ячейки", props={"owners": ["Catalog.Склады"], "description_length": 10}),
        M.MDObject("Document", "Приход", props={
            "register_records": ["AccumulationRegister.Остатки"], "based_on": ["Document.Заказ"]},
            attributes=[M.Attribute("Склад", type=td(ref("Catalog", "Склады"))),
                        M.Attribute("Основание", type=td(*(ref("Catalog", c.name) for c in many)))]),
        M.MDObject("Document", "Заказ"),
        M.MDObject("AccumulationRegister", "Остатки", dimensions=[
            M.Attribute("Склад", type=td(ref("Catalog", "Склады")))]),
        M.MDObject("CommonModule", "ОбработчикиСобытий"),
        M.MDObject("EventSubscription", "ПриЗаписи", props={
            "source": td(M.TypeRef(M.CONFIG_TYPE, ref_class="DocumentObject", name="Приход")),
            "event": "OnWrite", "handler": "CommonModule.ОбработчикиСобытий.ПриЗаписи"}),
        M.MDObject("ScheduledJob", "Очистка", props={"method_name": "CommonModule.ОбработчикиСобытий.Очистить"}),
        M.MDObject("DefinedType", "Место", props={"type": td(ref("Catalog", "Склады"), ref("Catalog", "Ячейки"))}),
        M.MDObject("DocumentJournal", "Все", props={"registered_documents": ["Document.Приход", "Document.Заказ"]}),
        M.MDObject("Subsystem", "Склад", props={"content": ["Catalog.Склады", "Document.Приход"]},
                   subsystems=[M.MDObject("Subsystem", "Отчеты", props={"content": ["Document.Заказ"]})]),
    ]
    return M.Configuration("Склад", objects=objects + many)


def compile_graph(tmp_path: Path, cfg: M.Configuration) -> tuple[Catalog, Graph, LinkContext]:
    ctx = LinkContext(project=Project([]), report=CompileReport())
    link([(Source("configuration", "designer", tmp_path, "sample", {}), cfg)], ctx)
    writer = BundleWriter(tmp_path / "bundles", "t", compiler_version="test")
    build_docs.build(ctx, writer)
    graph_builder.build(ctx, writer)
    bundle = Bundle.open(writer.publish())
    return Catalog(bundle), Graph(bundle), ctx


def doc(cat: Catalog, key: str) -> int:
    d = cat.find_key(key)
    assert d is not None, key
    return d


def test_relation_kinds_and_labels():
    rels = {(r.src, r.dst, r.kind, r.label) for r in relations(ConfigIndex(sample()))}
    assert ("Document.Приход", "Catalog.Склады", "attribute_type", "Склад") in rels
    assert ("Document.Приход", "AccumulationRegister.Остатки", "movement", "") in rels
    assert ("Document.Приход", "Document.Заказ", "based_on", "") in rels
    assert ("Catalog.Ячейки", "Catalog.Склады", "owner", "") in rels
    assert ("DocumentJournal.Все", "Document.Заказ", "journal_document", "") in rels
    assert ("EventSubscription.ПриЗаписи", "Document.Приход", "subscription_source", "OnWrite") in rels
    assert ("EventSubscription.ПриЗаписи", "CommonModule.ОбработчикиСобытий", "subscription_handler",
            "ПриЗаписи") in rels
    assert ("ScheduledJob.Очистка", "CommonModule.ОбработчикиСобытий", "scheduled_job_method", "Очистить") in rels
    assert ("DefinedType.Место", "Catalog.Ячейки", "defined_type", "") in rels
    assert ("Subsystem.Склад", "Subsystem.Склад.Subsystem.Отчеты", "subsystem_child", "") in rels
    assert ("Subsystem.Склад.Subsystem.Отчеты", "Document.Заказ", "subsystem_content", "") in rels


def test_common_command_parameter_types_are_relations_of_those_objects():
    cfg = sample()
    cfg.objects += [
        M.MDObject("CommonCommand", "ПраваДоступа", props={
            "command_parameter_type": td(ref("Catalog", "Склады"), ref("Document", "Заказ"))}),
        M.MDObject("CommonCommand", "ДляВсех", props={
            "command_parameter_type": td(M.TypeRef(M.REF_SET, ref_class="CatalogRef"))}),
        M.MDObject("CommonCommand", "БезПараметра")]
    rels = relations(ConfigIndex(cfg))
    mine = {(r.dst, r.weak) for r in rels if r.src == "CommonCommand.ПраваДоступа"}
    assert mine == {("Catalog.Склады", False), ("Document.Заказ", False)}
    assert {r.kind for r in rels if r.src == "CommonCommand.ПраваДоступа"} == {"command_parameter"}
    every = [r for r in rels if r.src == "CommonCommand.ДляВсех"]
    assert len(every) > WIDE_TYPE and all(r.weak for r in every)   # a whole class says little
    assert not [r for r in rels if r.src == "CommonCommand.БезПараметра"]


def test_wide_composite_and_crowded_defined_type_are_weak():
    rels = relations(ConfigIndex(sample()))
    wide = [r for r in rels if r.label == "Основание"]
    assert len(wide) == WIDE_TYPE + 1 and all(r.weak for r in wide)
    assert not any(r.weak for r in rels if r.label == "Склад")
    users = [M.MDObject("Catalog", f"U{i}", attributes=[
        M.Attribute("Место", type=td(M.TypeRef(M.DEFINED_TYPE, name="Место")))])
        for i in range(USED_EVERYWHERE + 1)]
    cfg = M.Configuration("C", objects=[M.MDObject("DefinedType", "Место")] + users)
    crowded = [r for r in relations(ConfigIndex(cfg)) if r.dst == "DefinedType.Место"]
    assert len(crowded) == USED_EVERYWHERE + 1 and all(r.weak for r in crowded)


def test_any_ref_is_weak_to_every_reference_object_and_dangling_targets_are_reported(tmp_path):
    cfg = M.Configuration("C", objects=[
        M.MDObject("Catalog", "А", attributes=[
            M.Attribute("Любая", type=td(M.TypeRef(M.ANY_REF))),
            M.Attribute("Пропавший", type=td(ref("Catalog", "НетТакого")))]),
        M.MDObject("Document", "Д"), M.MDObject("CommonModule", "М")])
    cat, graph, ctx = compile_graph(tmp_path, cfg)
    a = doc(cat, "C/Справочник.А")
    assert graph.count(a, "out") == 0
    weak = graph.neighbors(a, "out", include_weak=True)
    assert {(cat.keys[n.doc], n.label, n.weak) for n in weak} == {
        ("C/Справочник.А", "Любая", True), ("C/Документ.Д", "Любая", True)}   # not the common module
    assert any(w.code == "dangling-reference" and "Catalog.НетТакого" in w.message
               for w in ctx.report.warnings)


def test_bundle_graph_forward_reverse_filters_and_paging(tmp_path):
    cat, graph, ctx = compile_graph(tmp_path, sample())
    prihod = doc(cat, "Склад/Документ.Приход")
    sklady = doc(cat, "Склад/Справочник.Склады")
    out = graph.neighbors(prihod, "out")
    assert {(cat.keys[n.doc], n.kind, n.label) for n in out} == {
        ("Склад/Справочник.Склады", "attribute_type", "Склад"),
        ("Склад/РегистрНакопления.Остатки", "movement", ""),
        ("Склад/Документ.Заказ", "based_on", "")}
    assert all(not n.weak for n in out)
    with_weak = graph.neighbors(prihod, "out", include_weak=True)
    assert len(with_weak) == 3 + WIDE_TYPE + 1 and with_weak[-1].weak   # strong edges come first
    incoming = graph.neighbors(sklady, "in")
    assert {(cat.keys[n.doc], n.kind) for n in incoming} >= {
        ("Склад/Документ.Приход", "attribute_type"), ("Склад/Справочник.Ячейки", "owner"),
        ("Склад/РегистрНакопления.Остатки", "attribute_type"), ("Склад/Подсистема.Склад", "subsystem_content"),
        ("Склад/ОпределяемыйТип.Место", "defined_type")}
    assert [n.kind for n in graph.neighbors(sklady, "in", kinds=["owner"])] == ["owner"]
    total = graph.count(sklady, "both", include_weak=True)
    pages = [graph.neighbors(sklady, "both", include_weak=True, offset=o, limit=2) for o in range(0, total, 2)]
    flat = [n for p in pages for n in p]
    assert flat == graph.neighbors(sklady, "both", include_weak=True) and len(flat) == total
    summary = graph.summary(prihod)
    assert summary["out"] == {"attribute_type": 1, "based_on": 1, "movement": 1}
    assert summary["out_weak"] == {"attribute_type": WIDE_TYPE + 1}
    # the card carries the same counts
    assert cat.card(prihod)["relations"]["out"] == summary["out"]
    assert ctx.counts["graph"]["edges"] == sum(graph.count(d, "out", include_weak=True) for d in range(len(cat)))


def test_graph_rejects_bad_direction(tmp_path):
    cat, graph, _ = compile_graph(tmp_path, sample())
    with pytest.raises(ValueError):
        graph.neighbors(0, "sideways")


def test_bundle_without_graph_has_no_neighbors(tmp_path):
    ctx = LinkContext(project=Project([]), report=CompileReport())
    link([(Source("configuration", "designer", tmp_path, "s", {}), sample())], ctx)
    writer = BundleWriter(tmp_path / "b", "t", compiler_version="test")
    build_docs.build(ctx, writer)                      # no graph builder
    graph = Graph(Bundle.open(writer.publish()))
    assert not graph.available
    assert graph.neighbors(0, "both", include_weak=True) == [] and graph.count(0, "both") == 0
