"""The code domain on real dumps (../shared/data): SSL 3.1.12 read whole and counted against an
independent scan; SSL 3.1.10 Designer and EDT give the same procedure model; the mdclasses
extension compiles with its modules; the English-script SSL (a public repository fetched into
``../ext/ssl_3_1_eng``) compiles with its calls linked. Skipped with a reason when the data is absent."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from realdata import extracted
from v8atlas.compiler.code.read import code_dict, read_code
from v8atlas.compiler.config.normalize import diff
from v8atlas.compiler.config.plugin import open_source, read_configuration
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.compiler.report import CompileReport
from v8atlas.formats.reader import Bundle
from v8atlas.server.snapshot import Snapshot
from v8atlas.server.tools import call

pytestmark = pytest.mark.realdata

SSL_12 = "configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst"
SSL_10 = "configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.10.441.tar.zst"
SSL_10_EDT = "configs/ssl-3.1-edt/ssl_3_1_edt-configuration-3.1.10.441.tar.zst"
MDCLASSES = "configs/mdclasses-testdata/mdclasses-test-resources.tar.zst"
# Public repositories fetched outside the repo (never committed): github.com/1c-syntax/ssl_3_1_eng
EXT = Path(os.environ.get("V8ATLAS_EXT", Path(__file__).resolve().parent.parent.parent / "ext"))

# The independent count: a line that opens with Процедура/Функция (or ends one), whatever else.
_HEAD = re.compile(r"^[ \t]*(?:Асинх[ \t]+|Async[ \t]+)?(?:Процедура|Функция|Procedure|Function)[ \t]+\w+[ \t]*\(",
                   re.MULTILINE | re.IGNORECASE)
_END = re.compile(r"^[ \t]*(?:КонецПроцедуры|КонецФункции|EndProcedure|EndFunction)\b", re.MULTILINE | re.IGNORECASE)
_EXPORT_AFTER = re.compile(r'(?:[^)"]|"[^"]*")*\)[ \t]*(?:Экспорт|Export)\b', re.IGNORECASE)


def _read(path: Path):
    r = CompileReport()
    cfg = read_configuration(path, r)
    return read_code(open_source(path)[1], cfg, str(path), r), r


def test_ssl_3_1_12_every_module_read_and_counts_match_a_simple_scan():
    root = extracted(SSL_12) / "src" / "cf"
    code, report = _read(root)
    files, heads, ends, exported = _simple_scan(root)
    assert len(code.modules) == files == 2197
    procs = [p for m in code.modules for p in m.procedures]
    assert heads == ends == len(procs)
    assert exported == sum(1 for p in procs if p.export)
    assert not report.errors
    print(f"{len(procs)} procedures, {exported} exported")


def _simple_scan(root: Path) -> tuple[int, int, int, int]:
    """(files, headers, ends, exported headers) by the independent line scan."""
    files = sorted(root.rglob("*.bsl"))
    heads = ends = exported = 0
    for f in files:
        text = f.read_text(encoding="utf-8-sig")
        found = list(_HEAD.finditer(text))
        heads += len(found)
        ends += len(_END.findall(text))
        exported += sum(1 for m in found if _EXPORT_AFTER.match(text, m.end()))
    return len(files), heads, ends, exported


def test_english_ssl_compiles_with_its_procedures_linked(tmp_path):
    root = EXT / "ssl_3_1_eng" / "src" / "cf"
    if not (root / "Configuration.xml").is_file():
        pytest.skip(f"English-script SSL not fetched: {root} (github.com/1c-syntax/ssl_3_1_eng)")
    res = compile_bundle([root], tmp_path / "b", cache=False, quiet=True, skip=("forms",))
    assert not res.report.errors
    (config, counts), = res.counts["code"].items()
    files, heads, ends, exported = _simple_scan(root)
    assert counts["modules"] == files
    assert counts["procedures"] == heads == ends
    assert counts["exported"] == exported
    assert counts["calls"] > counts["procedures"]       # calls resolved through English addresses
    snap = Snapshot(Bundle.open(res.bundle_path))
    r = call(snap, "get_procedure", {"name": "Common.ObjectAttributeValue", "config": config})
    assert r.outcome == "found"
    assert "Function ObjectAttributeValue(Ref, AttributeName" in r.text and ") Export" in r.text
    callers = int(re.search(r"callers: (\d+)", r.text).group(1))
    assert callers > 100                             # called across the library, by English names
    r = call(snap, "get_procedure", {"name": "CommonModule.Common.ObjectAttributeValue", "config": config})
    assert r.outcome == "found"
    r = call(snap, "search_code", {"query": "object attribute value", "config": config})
    top3 = [ln for ln in r.text.splitlines() if ln[:3] in ("1. ", "2. ", "3. ")]
    assert any(ln.startswith(("1. `Common.ObjectAttributeValue`", "2. `Common.ObjectAttributeValue`",
                              "3. `Common.ObjectAttributeValue`")) for ln in top3), r.text
    print(config, counts)


def test_ssl_3_1_10_designer_and_edt_give_the_same_procedure_model():
    a, _ = _read(extracted(SSL_10) / "src" / "cf")
    b, _ = _read(extracted(SSL_10_EDT) / "configuration")
    assert len(a.modules) > 2000
    assert diff(code_dict(a), code_dict(b)) == []


def test_mdclasses_extension_compiles_with_its_modules():
    base = extracted(MDCLASSES) / "src" / "test" / "resources" / "ext" / "designer" / "mdclasses_ext" / "src" / "cf"
    code, report = _read(base)
    assert code.modules, "the extension's modules are read"
    refs = {m.ref.key() for m in code.modules}
    assert "CommonModule.ПростойОбщийМодуль1/Module" in refs
    assert not [e for e in report.errors if e.code not in ("binary",)]


# An extension with annotations on a real base, both in one public repository: github.com/axel-soft/cppk
# (1С:Документооборот КОРП 2.1 in src/cf, its extension ЦППК in src/cfe), fetched into ../ext/cppk.
_ANNOTATION_LINE = re.compile(r'^[ \t]*&(Перед|После|Вместо|ИзменениеИКонтроль|Before|After|Around|ChangeAndValidate)'
                              r'[ \t]*\([ \t]*"([^"]*)"', re.MULTILINE | re.IGNORECASE)
_INSERT_LINE = re.compile(r"^[ \t]*#(?:Вставка|Insert)\b", re.MULTILINE | re.IGNORECASE)


def _declared(path: Path) -> set[str]:
    """Procedure names a module file declares, by the independent line scan (empty if no file)."""
    if not path.is_file():
        return set()
    text = path.read_text(encoding="utf-8-sig")
    return {re.match(r"\s*(?:Асинх\s+|Async\s+)?\w+\s+(\w+)", m.group(0)).group(1).casefold()
            for m in _HEAD.finditer(text)}


def test_real_extension_procedures_are_linked_to_the_base_procedures_they_change(tmp_path):
    """About a minute and 2.7 GB: the base is a whole ДО КОРП (6,000 modules, 174 MB of BSL)."""
    from v8atlas.server.code_index import open_code

    base, ext = EXT / "cppk" / "src" / "cf", EXT / "cppk" / "src" / "cfe"
    if not (base / "Configuration.xml").is_file() or not (ext / "Configuration.xml").is_file():
        pytest.skip(f"extension dump not fetched: {EXT / 'cppk'} (github.com/axel-soft/cppk, src/cf + src/cfe)")
    project = tmp_path / "v8atlas.toml"
    project.write_text(f'[[configuration]]\nsource = "{base}"\nname = "ДО"\n\n'
                       f'[[extension]]\nsource = "{ext}"\nbase = "ДО"\n', encoding="utf-8")
    res = compile_bundle([project], tmp_path / "b", cache=False, quiet=True, skip=("forms",))
    assert not res.report.errors
    files, heads, ends, exported = _simple_scan(base)      # mixed-case keywords included (КонеЦПроцедуры)
    assert res.counts["code"]["ДО"]["modules"] == files
    assert res.counts["code"]["ДО"]["procedures"] == heads == ends
    assert res.counts["code"]["ДО"]["exported"] == exported
    # The independent scan of the extension: every annotation line, every #Вставка.
    expected: dict[tuple[str, str], str] = {}          # (file, target) → kind word
    inserts = 0
    for f in ext.rglob("*.bsl"):
        text = f.read_text(encoding="utf-8-sig")
        rel = f.relative_to(ext).as_posix()
        for m in _ANNOTATION_LINE.finditer(text):
            expected[(rel, m.group(2).casefold())] = m.group(1)
        inserts += len(_INSERT_LINE.findall(text))
    assert len(expected) > 100

    code = open_code(Bundle.open(res.bundle_path))
    view = code.config_index("ДО+ЦППК")
    cards = [code.card(i) for i in range(len(code)) if code.config[i] == view]
    by_address = {c["address"]: c for c in cards}
    annotated = [c for c in cards if c.get("annotation")]
    assert {(c["file"], c["annotation"][1].casefold()) for c in annotated} == set(expected)
    assert sum((c.get("changes_blocks") or {}).get("inserted", 0) for c in cards if c.get("extension")) == inserts
    linked = [c for c in annotated if c.get("changes")]
    for c in annotated:
        declared = _declared(base / c["file"])
        if c.get("changes"):
            target = by_address[c["changes"]]
            assert target["name"].casefold() == c["annotation"][1].casefold() and not target.get("extension")
            assert [c["address"], c["annotation"][0], "ЦППК"] in target["changed_by"]
            assert c["annotation"][1].casefold() in declared
        else:                                           # not linked only when the base has no such procedure
            assert c["annotation"][1].casefold() not in declared, c["address"]
    assert len(linked) > 0.9 * len(annotated)

    snap = Snapshot(Bundle.open(res.bundle_path))
    first = next(c for c in linked if c["annotation"][0] == "ChangeAndValidate")
    r = call(snap, "get_procedure", {"name": first["address"], "config": "ДО+ЦППК"})
    assert r.outcome == "found" and f"→ changes `{first['changes']}`" in r.text
    r = call(snap, "get_procedure", {"name": first["changes"], "config": "ДО+ЦППК"})
    assert f"Changed by `{first['address']}` (&ИзменениеИКонтроль, extension `ЦППК`)" in r.text
    for c in annotated:
        if c.get("annotation_event"):
            r = call(snap, "get_procedure", {"name": c["address"], "config": "ДО+ЦППК"})
            assert f"declares no `{c['annotation'][1]}`: the annotation names the platform event" in r.text
    print(f"{len(annotated)} annotated, {len(linked)} linked, {inserts} #Вставка;",
          [(c["address"], c["annotation"][:2], bool(c.get("annotation_event"))) for c in annotated if not c.get("changes")])
