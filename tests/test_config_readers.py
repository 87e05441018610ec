"""Configuration readers on synthetic input: the embedded sample, bad input, zips, extensions."""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from v8atlas.compiler.config.extensions import (DuplicateConfiguration, attach, check_unique_names,
                                                overlay)
from v8atlas.compiler.config.model import ADOPTED, Attribute, Configuration, MDObject
from v8atlas.compiler.config.normalize import config_dict, diff
from v8atlas.compiler.config.plugin import ConfigSourceError, detect, read_configuration
from v8atlas.compiler.report import CompileReport

REPO = Path(__file__).resolve().parent.parent
DESIGNER = REPO / "examples" / "config-designer"
EDT = REPO / "examples" / "config-edt"


def read(path: Path) -> tuple[Configuration, CompileReport]:
    r = CompileReport()
    return read_configuration(path, r), r


def test_sample_formats_detected():
    assert detect(DESIGNER) == "designer"
    assert detect(EDT) == "edt"


def test_sample_both_formats_give_the_same_model():
    a, ra = read(DESIGNER)
    b, rb = read(EDT)
    assert not ra.errors and not rb.errors
    assert not ra.unknown and not rb.unknown
    assert diff(config_dict(a), config_dict(b)) == []


def test_sample_model_content():
    cfg, _ = read(EDT)       # the EDT copy omits defaults: this checks they are filled
    assert cfg.name == "ДемоТорговля" and cfg.platform_version == "8.3.23"
    assert cfg.script_variant == "Russian" and [lang.name for lang in cfg.languages] == ["Русский"]
    contracts = cfg.find("Catalog", "Договоры")
    assert contracts.props["owners"] == ["Catalog.Партнеры"]
    assert contracts.props["hierarchical"] is True
    assert contracts.props["hierarchy_type"] == "HierarchyOfItems"
    goods = cfg.find("Catalog", "Номенклатура")
    desc = next(a for a in goods.attributes if a.name == "Описание")
    assert desc.type.types[0].kind == "String" and desc.type.types[0].unlimited
    assert [p.name for p in goods.predefined] == ["Услуги"]
    assert [p.name for p in goods.predefined[0].children] == ["Доставка"]
    doc = cfg.find("Document", "ПриходТовара")
    assert doc.props["posting"] == "Allow"
    assert "AccumulationRegister.ОстаткиТоваров" in doc.props["register_records"]
    assert [t.name for t in doc.tabular_sections] == ["Товары", "Услуги"]
    price = doc.tabular_sections[0].attributes[2].type.types[0]
    assert (price.digits, price.fraction, price.nonnegative) == (15, 2, True)
    basis = next(a for a in doc.attributes if a.name == "Основание")
    assert [t.kind for t in basis.type.types] == ["Ref", "Ref", "String"]
    assert cfg.find("AccumulationRegister", "ОстаткиТоваров").props["register_type"] == "Balance"
    assert cfg.find("AccumulationRegister", "Продажи").props["register_type"] == "Turnovers"
    assert cfg.find("InformationRegister", "ЦеныНоменклатуры").props["periodicity"] == "Day"
    assert cfg.find("InformationRegister", "АдресаСкладов").props["periodicity"] == "Nonperiodical"
    assert cfg.find("AccountingRegister", "Хозрасчетный").props["correspondence"] is True
    sub = cfg.find("EventSubscription", "ПроверкаПриходаПередЗаписью")
    assert sub.props["source"].types[0].ref_class == "DocumentObject"
    assert sub.props["handler"] == "CommonModule.ОбработчикиСобытий.ПроверкаПриходаПередЗаписью"
    cm = cfg.find("CommonModule", "ОбщегоНазначения")
    assert cm.props["server"] and cm.props["server_call"] and not cm.props["global"]
    assert cfg.find("ExchangePlan", "ОбменСФилиалом").props["content"][0]["metadata"] == "Catalog.Номенклатура"
    bp = cfg.find("BusinessProcess", "Согласование")
    assert bp.props["task"] == "Task.ЗадачаИсполнителя"
    assert [(p.name, p.props["kind"]) for p in bp.other_children["RoutePoint"]] == [
        ("Старт", "Start"), ("Согласовать", "Activity"), ("Завершение", "Completion")]


def test_designer_resolves_locally_redeclared_prefixes():
    cfg, _ = read(DESIGNER)
    doc = cfg.find("Document", "ПриходТовара")
    stock = next(a for a in doc.attributes if a.name == "Склад").type.types[0]
    assert (stock.kind, stock.ref_class, stock.name) == ("Ref", "CatalogRef", "Склады")


def _copy_sample(tmp_path: Path) -> Path:
    dst = tmp_path / "cf"
    shutil.copytree(DESIGNER, dst)
    return dst


def test_malformed_object_is_reported_with_file_and_line_and_the_rest_compiles(tmp_path):
    root = _copy_sample(tmp_path)
    bad = root / "Catalogs" / "Склады.xml"
    bad.write_text(bad.read_text(encoding="utf-8-sig").replace("</Properties>", "</Propertie>", 1),
                   encoding="utf-8")
    cfg, r = read(root)
    assert cfg.find("Catalog", "Склады") is None
    assert cfg.find("Catalog", "Номенклатура") is not None
    err = [e for e in r.errors if e.code == "xml"]
    assert len(err) == 1 and err[0].file == "Catalogs/Склады.xml" and err[0].line


def test_unknown_metadata_kind_is_kept_and_reported(tmp_path):
    root = _copy_sample(tmp_path)
    cx = root / "Configuration.xml"
    cx.write_text(cx.read_text(encoding="utf-8-sig").replace(
        "<Catalog>Склады</Catalog>", "<Catalog>Склады</Catalog>\n<HologramPanel>Витрина</HologramPanel>"),
        encoding="utf-8")
    (root / "HologramPanels").mkdir()
    (root / "HologramPanels" / "Витрина.xml").write_text(
        '<MetaDataObject xmlns="http://v8.1c.ru/8.3/MDClasses" version="2.16"><HologramPanel uuid="1">'
        "<Properties><Name>Витрина</Name><Glow>true</Glow></Properties></HologramPanel></MetaDataObject>",
        encoding="utf-8")
    cfg, r = read(root)
    obj = cfg.find("HologramPanel", "Витрина")
    assert obj is not None and obj.known is False
    assert any("HologramPanel" in k for k in r.unknown)
    assert any(w.code == "unknown-kind" for w in r.warnings)


def test_unknown_property_is_counted_not_dropped_silently(tmp_path):
    root = _copy_sample(tmp_path)
    f = root / "Catalogs" / "Склады.xml"
    f.write_text(f.read_text(encoding="utf-8-sig").replace("<Comment/>", "<Comment/><Sparkle>yes</Sparkle>", 1),
                 encoding="utf-8")
    _, r = read(root)
    assert r.unknown.get(f"{root}: Catalog property Sparkle") == 1


def test_property_decisions_hold_for_every_file_and_any_namespace_prefix(tmp_path):
    # the Designer reader decides what a property tag means once per owner and reuses it:
    # a second file with the same unknown tag must still be counted, and a property spelled
    # in another namespace is still read by its local name, as the first file's was
    root = _copy_sample(tmp_path)
    for name in ("Склады", "Партнеры"):
        f = root / "Catalogs" / f"{name}.xml"
        f.write_text(f.read_text(encoding="utf-8-sig").replace("<Comment/>", "<Comment/><Sparkle>yes</Sparkle>", 1),
                     encoding="utf-8")
    f = root / "Catalogs" / "Склады.xml"
    f.write_text(f.read_text(encoding="utf-8-sig").replace(
        "<Hierarchical>false</Hierarchical>",
        '<o:Hierarchical xmlns:o="urn:other">true</o:Hierarchical>', 1), encoding="utf-8")
    cfg, r = read(root)
    assert r.unknown.get(f"{root}: Catalog property Sparkle") == 2
    assert cfg.find("Catalog", "Склады").props["hierarchical"] is True
    assert cfg.find("Catalog", "Склады").name == "Склады"


def test_external_entities_and_dtds_are_never_resolved(tmp_path):
    root = _copy_sample(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    f = root / "Catalogs" / "Склады.xml"
    body = f.read_text(encoding="utf-8-sig").split("\n", 1)[1]
    body = body.replace("<Name>Склады</Name>", "<Name>Склады&xxe;</Name>", 1)
    f.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE MetaDataObject [<!ENTITY xxe SYSTEM "file://{secret}">]>\n'
                 + body, encoding="utf-8")
    cfg, _ = read(root)
    names = [o.name for o in cfg.objects]
    assert not any("TOPSECRET" in n for n in names)
    assert "Склады" in names


def test_dump_without_configuration_xml_names_what_was_expected_and_found(tmp_path):
    root = _copy_sample(tmp_path)
    (root / "Configuration.xml").unlink()
    assert detect(root) == "designer"        # still claimed: compiling it explains what is missing
    with pytest.raises(ConfigSourceError) as e:
        read(root)
    msg = str(e.value)
    assert "Configuration.xml" in msg and "Configuration.mdo" in msg and "Catalogs" in msg


def _zip_dir(src: Path, dst: Path, prefix: str = "") -> Path:
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in sorted(src.rglob("*")):
            if p.is_file():
                zf.write(p, prefix + p.relative_to(src).as_posix())
    return dst


def test_zip_dump_reads_like_the_folder(tmp_path):
    z = _zip_dir(DESIGNER, tmp_path / "dump.zip", "src/cf/")
    assert detect(z) == "designer-zip"
    a, _ = read(DESIGNER)
    b, _ = read(z)
    assert diff(config_dict(a), config_dict(b)) == []


@pytest.mark.parametrize("member", ["../evil.xml", "/etc/evil.xml", "a/../../evil.xml"])
def test_zip_with_escaping_member_is_refused(tmp_path, member):
    z = _zip_dir(DESIGNER, tmp_path / "dump.zip")
    with zipfile.ZipFile(z, "a") as zf:
        zf.writestr(zipfile.ZipInfo(member), b"x")
    with pytest.raises(ConfigSourceError, match="refused"):
        read(z)


def test_zip_bomb_is_refused(tmp_path):
    z = _zip_dir(DESIGNER, tmp_path / "dump.zip")
    with zipfile.ZipFile(z, "a", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("Ext/bomb.bin", b"\0" * (50 << 20))      # 50 MiB of zeros: ratio ~1000
    with pytest.raises(ConfigSourceError, match="zip bomb"):
        read(z)


def test_duplicate_configuration_names_name_both_sources():
    a = Configuration("Торговля", source="one/src")
    b = Configuration("Торговля", source="two/src")
    with pytest.raises(DuplicateConfiguration) as e:
        check_unique_names([a, b])
    assert "one/src" in str(e.value) and "two/src" in str(e.value)
    check_unique_names([a, Configuration("Другая", source="x")])   # distinct names are fine


def test_overlay_adds_own_objects_and_marks_extension_children():
    base, _ = read(DESIGNER)
    ext = Configuration("МоёРасширение", is_extension=True, name_prefix="Мр_", source="ext")
    goods = base.find("Catalog", "Номенклатура")
    adopted = MDObject("Catalog", "Номенклатура", belonging=ADOPTED, extended_uuid=goods.uuid,
                       attributes=[Attribute("Мр_Цвет"), Attribute("Артикул", belonging=ADOPTED)])
    ext.objects = [adopted, MDObject("Catalog", "Мр_Цвета")]
    pairs, problems = attach([base, ext])
    assert not problems and pairs[0].extensions == [ext]
    merged = overlay(base, ext)
    g = merged.find("Catalog", "Номенклатура")
    assert g.extended_by == ["МоёРасширение"]
    added = [a for a in g.attributes if a.origin == "МоёРасширение"]
    assert [a.name for a in added] == ["Мр_Цвет"]
    assert [a.name for a in g.attributes].count("Артикул") == 1
    assert merged.find("Catalog", "Мр_Цвета").origin == "МоёРасширение"
    assert base.find("Catalog", "Мр_Цвета") is None        # the base view is untouched


def test_malformed_configuration_xml_fails_the_source_naming_file_and_line(tmp_path):
    root = _copy_sample(tmp_path)
    cx = root / "Configuration.xml"
    cx.write_text(cx.read_text(encoding="utf-8-sig").replace("</Properties>", "", 1), encoding="utf-8")
    with pytest.raises(ConfigSourceError, match=r"Configuration\.xml:\d+: malformed XML"):
        read(root)


def test_edt_malformed_object_is_reported_and_the_rest_compiles(tmp_path):
    root = tmp_path / "edt"
    shutil.copytree(EDT, root)
    bad = root / "src" / "Catalogs" / "Склады" / "Склады.mdo"
    bad.write_text(bad.read_text(encoding="utf-8")[:-30], encoding="utf-8")
    cfg, r = read(root)
    assert cfg.find("Catalog", "Склады") is None and cfg.find("Catalog", "Партнеры") is not None
    assert [(e.code, e.file) for e in r.errors] == [("xml", "src/Catalogs/Склады/Склады.mdo")]
    assert r.errors[0].line


def test_english_script_variant_is_kept(tmp_path):
    root = _copy_sample(tmp_path)
    cx = root / "Configuration.xml"
    cx.write_text(cx.read_text(encoding="utf-8-sig").replace(
        "<ScriptVariant>Russian</ScriptVariant>", "<ScriptVariant>English</ScriptVariant>"), encoding="utf-8")
    cfg, _ = read(root)
    assert cfg.script_variant == "English"


def test_bom_and_no_bom_read_the_same(tmp_path):
    root = _copy_sample(tmp_path)
    for f in root.rglob("*.xml"):
        f.write_bytes(f.read_bytes().removeprefix(b"\xef\xbb\xbf"))
    a, _ = read(DESIGNER)
    b, _ = read(root)
    assert diff(config_dict(a), config_dict(b)) == []


def test_edt_unknown_metadata_kind_is_kept_and_reported(tmp_path):
    root = tmp_path / "edt"
    shutil.copytree(EDT, root)
    cm = root / "src" / "Configuration" / "Configuration.mdo"
    cm.write_text(cm.read_text(encoding="utf-8").replace(
        "</mdclass:Configuration>", "  <hologramPanels>HologramPanel.Витрина</hologramPanels>\n"
        "  <sparkle>yes</sparkle>\n</mdclass:Configuration>"), encoding="utf-8")
    (root / "src" / "HologramPanels" / "Витрина").mkdir(parents=True)
    (root / "src" / "HologramPanels" / "Витрина" / "Витрина.mdo").write_text(
        '<mdclass:HologramPanel xmlns:mdclass="http://g5.1c.ru/v8/dt/metadata/mdclass" uuid="1">'
        "<name>Витрина</name></mdclass:HologramPanel>", encoding="utf-8")
    cfg, r = read(root)
    obj = cfg.find("HologramPanel", "Витрина")
    assert obj is not None and not obj.known
    assert any("metadata kind HologramPanel" in k for k in r.unknown)
    assert any("Configuration property sparkle" in k for k in r.unknown)


@pytest.mark.skipif(shutil.which("zip") is None, reason="needs the Info-ZIP `zip` command")
def test_zip_without_utf8_flag_cyrillic_names(tmp_path):
    """Info-ZIP on Linux stores UTF-8 names without the UTF-8 flag (zipfile reads them as cp437)."""
    import subprocess
    z = tmp_path / "dump.zip"
    subprocess.run(["zip", "-qr", str(z), "."], cwd=DESIGNER, check=True, env={"LANG": "C"})
    with zipfile.ZipFile(z) as zf:
        raw = [i for i in zf.infolist() if not (i.flag_bits & 0x800) and not i.filename.isascii()]
    assert raw, "zip stored every name with the UTF-8 flag: nothing to test"
    a, _ = read(DESIGNER)
    b, rb = read(z)
    assert not rb.errors
    assert diff(config_dict(a), config_dict(b)) == []


def test_entity_references_between_elements_read_as_if_absent(tmp_path):
    # the Designer reader walks children with plain iterators: an (unresolved) entity
    # reference between properties, between child objects or between language items is no
    # element — the model is the one of the file without them, and nothing is noted unknown
    root = _copy_sample(tmp_path)
    f = root / "Catalogs" / "Номенклатура.xml"
    body = f.read_text(encoding="utf-8-sig").split("\n", 1)[1]
    body = body.replace("<Comment/>", "<Comment/>&e;", 1).replace("<ChildObjects>", "<ChildObjects>&e;", 1)
    body = body.replace("<Synonym>", "<Synonym>&e;", 2)
    f.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE MetaDataObject [<!ENTITY e "x">]>\n'
                 + body, encoding="utf-8")
    cfg, r = read(root)
    plain, _ = read(DESIGNER)
    assert body.count("&e;") == 4
    assert diff(config_dict(cfg)["objects"], config_dict(plain)["objects"]) == []
    assert not r.unknown and not r.errors


def test_language_strings_read_by_local_name_in_any_order():
    from lxml import etree

    from v8atlas.compiler.config.designer import local_string
    el = etree.fromstring(
        '<Synonym xmlns:v8="http://v8.1c.ru/8.1/data/core" xmlns:o="urn:other">'
        "<v8:item><v8:lang>ru</v8:lang><v8:content> Склад </v8:content></v8:item>"
        "<v8:item><v8:content>Store</v8:content><v8:lang>en</v8:lang></v8:item>"
        "<v8:item><o:lang>de</o:lang><o:content>Lager</o:content></v8:item>"
        "<v8:item><v8:lang>fr</v8:lang><v8:content>Dépôt</v8:content><v8:note>x</v8:note></v8:item>"
        "<v8:item><v8:lang/><v8:content/></v8:item></Synonym>")
    assert local_string(el) == {"ru": "Склад", "en": "Store", "de": "Lager", "fr": "Dépôt"}


def test_folder_files_read_through_inner_links_and_many_folders(tmp_path):
    # FolderFiles keeps a few folders open and opens files by bare name in them; a folder
    # that is a link (inside the root) is read the general way, and more folders than are
    # kept open still read right, again and again
    from v8atlas.compiler.config.files import FolderFiles
    root = tmp_path / "dump"
    for i in range(40):
        (root / f"Class{i}" / "Sub").mkdir(parents=True)
        (root / f"Class{i}" / "Sub" / "f.xml").write_bytes(f"<a>{i}</a>".encode())
        (root / f"Class{i}.xml").write_bytes(f"<b>{i}</b>".encode())
    (root / "Alias").symlink_to(root / "Class3")
    (root / "plain.txt").write_bytes(b"text")
    files = FolderFiles(root)
    for _ in range(2):
        for i in range(40):
            assert files.read(f"Class{i}/Sub/f.xml") == f"<a>{i}</a>".encode()
            assert files.read(f"Class{i}.xml") == f"<b>{i}</b>".encode()
    assert files.read("Alias/Sub/f.xml") == b"<a>3</a>"
    assert files.read("Class5/Sub/missing.xml") is None
    assert files.read("Missing/Sub/f.xml") is None
    assert files.read("plain.txt/f.xml") is None
    assert files.read("plain.txt") == b"text"
