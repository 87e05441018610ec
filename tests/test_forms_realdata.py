"""Forms, schemas and roles on real dumps (../shared/data): SSL 3.1.10 Designer vs EDT, SSL
3.1.12, the mdclasses test configurations. Skips with a reason when the data is absent."""
from __future__ import annotations

from pathlib import Path

import pytest

from realdata import extracted
from v8atlas.compiler.config.normalize import diff
from v8atlas.compiler.config.plugin import ConfigSourceError, open_source, read_configuration
from v8atlas.compiler.forms import read as R
from v8atlas.compiler.code.read import read_code
from v8atlas.compiler.forms.cards import form_card
from v8atlas.compiler.forms.normalize import ui_dict
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.compiler.report import CompileReport
from v8atlas.formats import Bundle
from v8atlas.formats.form_card import card_handlers
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot
from v8atlas.server.tools.paging import MAX_ANSWER_CHARS

pytestmark = pytest.mark.realdata

SSL_10 = "configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.10.441.tar.zst"
SSL_10_EDT = "configs/ssl-3.1-edt/ssl_3_1_edt-configuration-3.1.10.441.tar.zst"
SSL_12 = "configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst"
MDCLASSES = "configs/mdclasses-testdata/mdclasses-test-resources.tar.zst"


def read(path: Path):
    report = CompileReport()
    cfg = read_configuration(path, report)
    return R.read_ui(open_source(path)[1], cfg, "src", report), report.as_dict()


def test_ssl_3_1_10_designer_and_edt_give_the_same_forms_schemas_roles():
    a, ra = read(extracted(SSL_10) / "src" / "cf")
    b, rb = read(extracted(SSL_10_EDT) / "configuration")
    assert (len(a.forms), sum(t.schema is not None for t in a.templates), len(a.roles)) == (809, 52, 98)
    assert all(f.form_type == "Managed" and not f.not_read for f in a.forms)
    assert diff(ui_dict(a), ui_dict(b)) == []
    for r in (ra, rb):
        assert r.get("errors", []) == [] and r.get("unknown", []) == []


def test_ssl_3_1_12_every_form_read_and_every_handler_resolves():
    path = extracted(SSL_12) / "src" / "cf"
    ui, report = read(path)
    assert len(ui.forms) == 874 and all(not f.not_read for f in ui.forms)
    assert sum(t.schema is not None for t in ui.templates) == 52 and len(ui.roles) == 107
    assert report.get("errors", []) == []
    # each handler against the procedures the code domain parses from the form's module
    code_report = CompileReport()
    code = read_code(open_source(path)[1], read_configuration(path, code_report), "src", code_report)
    unresolved, handlers = {}, 0
    for f in ui.forms:
        names = code.procedures_of(f.owner, "Form", "" if f.common else f.name)
        where = [w for w, _, proc in card_handlers(form_card(f, "ru")) if proc.casefold() not in names]
        handlers += sum(1 for _ in card_handlers(form_card(f, "ru")))
        if where:
            unresolved[R.form_key(f)] = where
    assert unresolved == {}
    assert handlers > 7000


def test_mdclasses_forms_templates_roles_compile_or_say_why():
    root = extracted(MDCLASSES) / "src" / "test" / "resources" / "ext"
    paths = sorted(p.parent for p in root.glob("designer/*/src/cf/Configuration.xml")) + \
        sorted(p.parent.parent.parent for p in root.glob("edt/*/configuration/src/Configuration/Configuration.mdo"))
    assert len(paths) >= 12
    for path in paths:
        try:
            ui, report = read(path)
        except ConfigSourceError as e:      # mdclasses_unknown: refused as a configuration, with its reason
            assert "script variant" in str(e)
            continue
        missing = {w["file"] for w in report.get("warnings", []) if w["code"] == "ui-file-missing"}
        for f in ui.forms:
            assert not f.not_read or f.file in missing, (path, f.owner, f.name, f.not_read)
        assert not [e for e in report.get("errors", []) if e["code"].startswith("ui-") or e["code"] == "xml"]


@pytest.fixture(scope="module")
def ssl_snap(tmp_path_factory) -> Snapshot:
    """SSL 3.1.12 compiled with every domain (the code domain checks the handlers)."""
    result = compile_bundle([extracted(SSL_12) / "src" / "cf"], tmp_path_factory.mktemp("ssl"), quiet=True,
                            cache=False)
    return Snapshot(Bundle.open(result.bundle_path))


def _form_handlers(snap: Snapshot, name: str) -> list[dict]:
    rows, cursor = [], None
    while True:
        args = {"name": name, "kind": "form_handler"} | ({"cursor": cursor} if cursor else {})
        r = tools.call(snap, "get_relations", args)
        assert r.outcome == "found", r.text
        rows += r.data.get("handlers", [])
        cursor = r.data["cursor"]
        if not cursor:
            return rows


def test_ssl_form_handler_relations_open_with_get_procedure(ssl_snap):
    """Every managed form's handlers as ``form_handler`` relations: the compile's count, none
    missing, and each address (every 7th checked) is a procedure ``get_procedure`` opens."""
    snap = ssl_snap
    forms = [d for d in range(len(snap.catalog)) if snap.catalog.kind_name(d) in ("Form", "CommonForm")]
    rows = [h for d in forms for h in _form_handlers(snap, snap.title(d))]
    counts = snap.bundle.manifest["counts"]["forms"]
    assert len(rows) == sum(v["handlers"] for v in counts.values()) == 7667
    assert not [h for h in rows if h["missing"]]
    for h in rows[::7]:
        r = tools.call(snap, "get_procedure", {"name": h["procedure"]})
        assert r.outcome == "found", (h, r.text[:200])
    # an object lists its forms' handlers: Справочник.Пользователи's are its forms' own, in form order
    own = [h for f in ("ФормаЭлемента", "ФормаСписка") for h in
           _form_handlers(snap, f"Справочник.Пользователи.Форма.{f}")]
    via_object = _form_handlers(snap, "Справочник.Пользователи")
    assert {h["procedure"] for h in own} <= {h["procedure"] for h in via_object}


def test_largest_ssl_form_pages_under_the_cap(ssl_snap):
    snap = ssl_snap
    cursor, pages, items = None, 0, 0
    while True:
        args = {"name": "ОбщаяФорма.ФормаНастроекОтчета", "detail": "full"} | ({"cursor": cursor} if cursor else {})
        r = tools.call(snap, "get_object", args)
        assert r.outcome == "found" and len(r.text) <= MAX_ANSWER_CHARS
        items += sum(1 for line in r.text.splitlines() if line.lstrip().startswith("- ") and "`" in line)
        pages += 1
        cursor = r.data["cursor"]
        if not cursor:
            break
    assert pages >= 2 and items > 300
