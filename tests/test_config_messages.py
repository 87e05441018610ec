"""What the configuration readers tell the user: every message names the file (relative to the
source) and the problem in a sentence; whole-source refusals read without Python class names
and without repeating the source's path (the report line names the source)."""
from __future__ import annotations

import io
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from v8atlas.compiler import pipeline
from v8atlas.compiler.config import link
from v8atlas.compiler.config.model import ADOPTED, Configuration, MDObject
from v8atlas.compiler.config.plugin import (ConfigSourceError, ExternalDumpError, detect,
                                            read_configuration)
from v8atlas.compiler.report import CompileReport
from v8atlas.compiler.sources import Project, Source, SourceError, discover

REPO = Path(__file__).resolve().parent.parent
DESIGNER = REPO / "examples" / "config-designer"
EDT = REPO / "examples" / "config-edt"
# what a message must not show: an exception class name ("ValueError: …", "ConfigSourceError")
CLASS_NAME = re.compile(r"\b\w*(Error|Exception)\b")


def _copy(src: Path, tmp_path: Path, name: str) -> Path:
    dst = tmp_path / name
    shutil.copytree(src, dst)
    return dst


def _edit(path: Path, old: str, new: str) -> None:
    body = path.read_text(encoding="utf-8-sig")
    assert old in body, f"{old!r} not in {path}"
    path.write_text(body.replace(old, new, 1), encoding="utf-8")


# ---------------------------------------------------------------------------------------
# Unknown elements name the first file they were seen in

def test_designer_unknowns_name_their_file_at_every_level(tmp_path):
    root = _copy(DESIGNER, tmp_path, "cf")
    goods = root / "Catalogs" / "Номенклатура.xml"
    _edit(goods, "<Comment/>", "<Comment/><FooBarProperty>1</FooBarProperty>")          # the object
    _edit(goods, "<Name>Артикул</Name>", "<Name>Артикул</Name><Glitter>1</Glitter>")     # an attribute
    _edit(root / "Catalogs" / "Номенклатура" / "Ext" / "Predefined.xml",
          "<Name>Доставка</Name>", "<Name>Доставка</Name><Sparkle>1</Sparkle>")          # a predefined item
    _edit(root / "Configuration.xml", "<Name>ДемоТорговля</Name>",
          "<Name>ДемоТорговля</Name><Shine>1</Shine>")                                   # the header
    r = CompileReport()
    read_configuration(root, r, "cf")
    assert r.unknown_examples == {
        "cf: Catalog property FooBarProperty": "Catalogs/Номенклатура.xml",
        "cf: Attribute property Glitter": "Catalogs/Номенклатура.xml",
        "cf: Predefined item property Sparkle": "Catalogs/Номенклатура/Ext/Predefined.xml",
        "cf: Configuration property Shine": "Configuration.xml",
    }
    out = io.StringIO()
    r.summarize(out)
    assert "unknown: cf: Catalog property FooBarProperty ×1 (first in Catalogs/Номенклатура.xml)" \
        in out.getvalue()


def test_edt_unknowns_name_their_file(tmp_path):
    root = _copy(EDT, tmp_path, "edt")
    mdo = root / "src" / "Catalogs" / "Склады" / "Склады.mdo"
    _edit(mdo, "<name>Склады</name>", "<name>Склады</name><fooBarProperty>1</fooBarProperty>")
    r = CompileReport()
    read_configuration(root, r, "edt")
    assert r.unknown_examples == {"edt: Catalog property fooBarProperty": "src/Catalogs/Склады/Склады.mdo"}


def test_unknowns_read_over_the_process_pool_keep_their_file(tmp_path, monkeypatch):
    from v8atlas.compiler import pool
    monkeypatch.setattr(pool, "POOL_THRESHOLD", 2)
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    root = _copy(DESIGNER, tmp_path, "cf")
    _edit(root / "Catalogs" / "Склады.xml", "<Comment/>", "<Comment/><FooBarProperty>1</FooBarProperty>")
    r = CompileReport()
    read_configuration(root, r, "cf")
    assert r.unknown_examples == {"cf: Catalog property FooBarProperty": "Catalogs/Склады.xml"}


# ---------------------------------------------------------------------------------------
# Extension problems name the extension's source and file

def _link(pairs: list[tuple[Source, Configuration]]) -> CompileReport:
    report = CompileReport()
    ctx = pipeline.LinkContext(project=Project(sources=[s for s, _ in pairs]), report=report)
    link.link(pairs, ctx)
    return report


def _src(name: str) -> Source:
    return Source("configuration", "designer", Path("/nowhere") / name, name)


def test_adopted_object_without_base_is_reported_against_the_extension():
    base = read_configuration(DESIGNER, CompileReport(), "base/src/cf")
    ext = Configuration("Доработки", is_extension=True, name_prefix="Д_", source="ext/src/cf")
    ext.objects = [MDObject("Catalog", "Пропавший", belonging=ADOPTED, source_file="Catalogs/Пропавший.xml"),
                   MDObject("Catalog", "Д_Свой", source_file="Catalogs/Д_Свой.xml")]
    r = _link([(_src("base/src/cf"), base), (_src("ext/src/cf"), ext)])
    [w] = [w for w in r.warnings if w.code == "adopted-without-base"]
    assert (w.source, w.file, w.object) == ("ext/src/cf", "Catalogs/Пропавший.xml", "Catalog.Пропавший")
    assert "Catalog.Пропавший" in w.message and "ДемоТорговля" in w.message
    assert "base/src/cf" not in w.message


def test_an_extension_never_adopts_another_extensions_object():
    """mdclasses: extension A adds its own Справочник2, extension B adopts a base Справочник2 that
    this base lacks; B's object is reported, not merged into A's (which left a dangling edge)."""
    base = read_configuration(DESIGNER, CompileReport(), "base")
    a = Configuration("А", is_extension=True, source="a")
    a.objects = [MDObject("Catalog", "Справочник2", source_file="Catalogs/Справочник2.xml")]
    b = Configuration("Б", is_extension=True, source="b")
    b.objects = [MDObject("Catalog", "Справочник2", belonging=ADOPTED, source_file="Catalogs/Справочник2.xml")]
    r = _link([(_src("base"), base), (_src("a"), a), (_src("b"), b)])
    assert [(w.source, w.object) for w in r.warnings if w.code == "adopted-without-base"] == [
        ("b", "Catalog.Справочник2")]


def test_dangling_reference_of_an_extension_object_names_the_extension_once():
    base = read_configuration(DESIGNER, CompileReport(), "base")
    ext = Configuration("Доработки", is_extension=True, source="ext")
    own = MDObject("Sequence", "Д_Последовательность", source_file="Sequences/Д_Последовательность.xml")
    own.props["documents"] = ["Document.НетТакого"]
    ext.objects = [own]
    r = _link([(_src("base"), base), (_src("ext"), ext)])
    dangling = [w for w in r.warnings if w.code == "dangling-reference"]
    assert [(w.source, w.file) for w in dangling] == [("ext", "Sequences/Д_Последовательность.xml")]


# ---------------------------------------------------------------------------------------
# External data processors and reports: claimed, then refused with that reason

_EXTERNAL_XML = ('<?xml version="1.0" encoding="UTF-8"?>\n<MetaDataObject xmlns="http://v8.1c.ru/8.3/MDClasses" '
                 'xmlns:v8="http://v8.1c.ru/8.1/data/core" version="2.16">\n'
                 '<{cls} uuid="0e130a7c-7f6b-41c4-94bc-ad4473b89915"><Properties><Name>{name}</Name>'
                 '</Properties></{cls}></MetaDataObject>')


def _designer_external(root: Path, cls: str, name: str) -> Path:
    (root / name / "Ext").mkdir(parents=True)
    (root / name / "Ext" / "ObjectModule.bsl").write_text("", encoding="utf-8")
    (root / f"{name}.xml").write_text(_EXTERNAL_XML.format(cls=cls, name=name), encoding="utf-8-sig")
    return root


def test_designer_external_processor_is_refused_with_its_reason(tmp_path):
    root = _designer_external(tmp_path / "epf", "ExternalDataProcessor", "Загрузка")
    assert detect(root) == "external"
    with pytest.raises(ExternalDumpError) as e:
        read_configuration(root, CompileReport())
    assert str(e.value) == ("external data processor dump (ExternalDataProcessor.Загрузка): external data "
                            "processors and reports are not configurations and are not compiled yet")
    assert isinstance(e.value, SourceError)


def test_edt_external_report_and_processor_are_refused_naming_both(tmp_path):
    root = tmp_path / "external"
    for folder, cls, name in (("ExternalDataProcessors", "ExternalDataProcessor", "Обработка"),
                              ("ExternalReports", "ExternalReport", "Отчет")):
        d = root / "src" / folder / name
        d.mkdir(parents=True)
        (d / f"{name}.mdo").write_text(f'<mdclass:{cls} xmlns:mdclass="http://g5.1c.ru/v8/dt/metadata/mdclass">'
                                       f"<name>{name}</name></mdclass:{cls}>", encoding="utf-8")
    assert detect(root) == "external"
    with pytest.raises(ExternalDumpError, match=r"^external data processor and external report dump "
                       r"\(ExternalDataProcessor\.Обработка, ExternalReport\.Отчет\): "):
        read_configuration(root, CompileReport())


def test_zipped_external_processor_is_refused(tmp_path):
    root = _designer_external(tmp_path / "epf", "ExternalReport", "Продажи")
    z = tmp_path / "report.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for p in sorted(root.rglob("*")):
            if p.is_file():
                zf.write(p, p.relative_to(root).as_posix())
    assert detect(z) == "external-zip"
    with pytest.raises(ExternalDumpError, match=r"^external report dump \(ExternalReport\.Продажи\)"):
        read_configuration(z, CompileReport())


def test_an_ordinary_folder_of_xml_files_is_not_taken_for_an_external_dump(tmp_path):
    (tmp_path / "notes.xml").write_text("<notes><ExternalDataProcessorNote/></notes>", encoding="utf-8")
    assert detect(tmp_path) is None


def test_compiling_an_external_dump_reports_the_reason_not_unrecognized(tmp_path):
    root = _designer_external(tmp_path / "epf", "ExternalDataProcessor", "Загрузка")
    good = _copy(DESIGNER, tmp_path, "cf")
    project = discover([root, good])       # no "not a recognized source"
    assert [s.format for s in project.sources] == ["external", "designer"]
    res = pipeline.compile_bundle([root, good], tmp_path / "out", quiet=True, cache=False)
    [err] = res.report.errors
    assert err.code == "source-failed" and err.message.startswith("external data processor dump (")


# ---------------------------------------------------------------------------------------
# Whole-source refusals: a sentence, no class name, no repeated path

def _bad_sources(tmp_path: Path) -> dict[str, Path]:
    out = {}
    no_root = _copy(DESIGNER, tmp_path, "no-root")
    (no_root / "Configuration.xml").unlink()
    out["no Configuration.xml"] = no_root
    bad_header = _copy(DESIGNER, tmp_path, "bad-header")
    _edit(bad_header / "Configuration.xml", "</Properties>", "")
    out["malformed header"] = bad_header
    wrong_root = _copy(DESIGNER, tmp_path, "wrong-root")
    (wrong_root / "Configuration.xml").write_text("<Something/>", encoding="utf-8")
    out["wrong root element"] = wrong_root
    no_name = _copy(DESIGNER, tmp_path, "no-name")
    _edit(no_name / "Configuration.xml", "<Name>ДемоТорговля</Name>", "<Name/>")
    out["no name"] = no_name
    edt_variant = _copy(EDT, tmp_path, "edt-variant")
    _edit(edt_variant / "src" / "Configuration" / "Configuration.mdo", "<name>ДемоТорговля</name>",
          "<name>ДемоТорговля</name><scriptVariant>Klingon</scriptVariant>")
    out["script variant"] = edt_variant
    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as zf:
        zf.writestr("Configuration.xml", "<MetaDataObject/>")
        zf.writestr("../escape.xml", "x")
    out["escaping zip member"] = evil
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    out["broken zip"] = broken
    out["external"] = _designer_external(tmp_path / "epf", "ExternalDataProcessor", "Загрузка")
    return out


def test_whole_source_refusals_are_sentences_without_class_names_or_the_path(tmp_path):
    for what, path in _bad_sources(tmp_path).items():
        with pytest.raises(ConfigSourceError) as e:
            read_configuration(path, CompileReport(), "src")
        msg = str(e.value)
        assert isinstance(e.value, SourceError), what
        assert not CLASS_NAME.search(msg), f"{what}: {msg}"
        assert str(path) not in msg and str(tmp_path) not in msg, f"{what}: {msg}"
        assert len(msg.split()) >= 5, f"{what}: {msg}"      # a sentence, not a bare name


def test_whole_source_refusal_in_a_compile_names_the_source_once(tmp_path):
    sources = _bad_sources(tmp_path)
    bad = [p for what, p in sources.items() if what != "broken zip"]   # a broken zip is not claimed
    good = _copy(DESIGNER, tmp_path, "good")
    res = pipeline.compile_bundle([*bad, good], tmp_path / "out", quiet=True, cache=False)
    failed = [e for e in res.report.errors if e.code == "source-failed"]
    assert len(failed) == len(bad)
    for e in failed:
        assert not CLASS_NAME.search(e.message), e.message
        assert e.source not in e.message and str(tmp_path) not in e.message, e.message


def test_object_level_messages_do_not_repeat_the_file(tmp_path):
    root = _copy(DESIGNER, tmp_path, "cf")
    (root / "Catalogs" / "Склады.xml").unlink()                                   # missing-file
    (root / "Catalogs" / "Партнеры.xml").write_text(                              # empty
        '<MetaDataObject xmlns="http://v8.1c.ru/8.3/MDClasses" version="2.16"/>', encoding="utf-8")
    _edit(root / "Catalogs" / "Договоры.xml", "</Properties>", "</Propertie>")   # xml
    r = CompileReport()
    read_configuration(root, r, "cf")
    by_file = {e.file: e for e in r.errors}
    assert {e.code for e in r.errors} == {"missing-file", "empty", "xml"}
    assert by_file["Catalogs/Склады.xml"].message == \
        "the file is missing, though Configuration.xml lists this Catalog"
    for e in r.errors:
        assert e.file not in e.message and not CLASS_NAME.search(e.message), e.message
