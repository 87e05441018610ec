"""The committed sample books equal what tools/make_sample_help.py writes, and they compile."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats import Bundle
from v8atlas.formats.catalog import Catalog

REPO = Path(__file__).resolve().parent.parent


def _writer():
    spec = importlib.util.spec_from_file_location("make_sample_help", REPO / "tools" / "make_sample_help.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod          # dataclasses look their module up by name
    spec.loader.exec_module(mod)
    return mod


def test_committed_sample_equals_writer_output(tmp_path):
    written = _writer().write_all(tmp_path)
    assert len(written) == 4
    for p in written:
        committed = REPO / "examples" / "help" / p.relative_to(tmp_path)
        assert committed.read_bytes() == p.read_bytes(), f"{committed} is stale: re-run tools/make_sample_help.py"


def test_sample_compiles_with_version_filter_data(tmp_path):
    res = compile_bundle([REPO / "examples" / "help"], tmp_path, cache=False, quiet=True)
    cat = Catalog(Bundle.open(res.bundle_path))
    split = cat.card(cat.find_key("platform/Глобальный контекст.СтрРазделить"))
    assert split["since"] == "8.3.6" and split["present_in"] == ["8.3.23.1997", "8.3.27.2130"]
    assert split["older_platforms"]["alternatives"][0]["caveat"]
    xml = cat.card(cat.find_key("platform/ЗаписьXML.ОткрытьФайл"))
    assert sorted((v["since"] or "", v["until"] or "", len(v["params"])) for v in xml["variants"]) == \
        [("", "8.3.23", 2), ("8.3.23", "", 3), ("8.3.23", "", 3)]
    assert sorted(cat.keys[d] for d in cat.lookup("СтрНайти")) == [
        "platform/Глобальный контекст.СтрНайти", "query/Запрос.СТРНАЙТИ"]
    archive = cat.card(cat.find_key("platform/ЭлементФайлаАрхива"))
    assert archive["since"] == "8.3.26" and archive["present_in"] == ["8.3.27.2130"]
    zip_entry = cat.card(cat.find_key("platform/ЭлементZipФайла"))
    assert [(d["deprecated_since"], d["replacement"], d["marked_since"]) for d in zip_entry["deprecated"]] == \
        [("8.3.26", ["ЭлементФайлаАрхива"], "8.3.27")]
    assert not res.report.errors
    assert not [w for w in res.report.warnings if w.code.startswith("help")]


def test_docs_name_only_existing_sample_paths():
    import re
    text = (REPO / "docs" / "help.md").read_text(encoding="utf-8")
    named = set(re.findall(r"examples/help/[\w./-]+", text))
    assert named, "docs/help.md names no sample path"
    missing = sorted(p for p in named if not (REPO / p.rstrip("/.")).exists())
    assert not missing, f"docs/help.md names sample paths that do not exist: {missing}"
