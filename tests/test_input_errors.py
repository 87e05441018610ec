"""Inputs a new user gives (issue 14, item 10): a TSV query set with a header line, and a binary
.cf file instead of a dump. Through the `v8atlas` command, as the user runs it."""
from __future__ import annotations

import json

from bundle_factory import build_sample
from click.testing import CliRunner
from v8atlas.server.search_bench import load_set

from v8atlas.cli import main


def test_tsv_header_line_is_not_a_query(tmp_path):
    tsv = tmp_path / "set.tsv"
    tsv.write_text("query\texpected\tconfig\nзаказ покупателя\tДокумент.ЗаказПокупателя\tДемо\n", encoding="utf-8")
    cases = load_set(tsv)
    assert [c.query for c in cases] == ["заказ покупателя"]
    assert cases[0].expected == ["Документ.ЗаказПокупателя"] and cases[0].line == 2
    build_sample(tmp_path / "b")
    r = CliRunner().invoke(main, ["bench", "search", "--bundles", str(tmp_path / "b"), "--set", str(tsv),
                                  "--rounds", "1", "--no-save", "--json"])
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output)["sets"]["set.tsv"]
    assert summary["summary"]["queries"] == 1 and summary["summary"]["p@1"] == 1.0
    assert summary["missing_targets"] == [] and summary["not_first"] == []


def test_header_only_in_the_first_line(tmp_path):
    tsv = tmp_path / "set.tsv"
    tsv.write_text("# a comment first\nquery\texpected\nquery\texpected\n", encoding="utf-8")
    assert [(c.query, c.line) for c in load_set(tsv)] == [("query", 3)]   # a later one is a case


def test_cf_file_says_to_dump_the_configuration_to_files_first(tmp_path):
    cf = tmp_path / "1Cv8.cf"
    cf.write_bytes(b"\xff\xff\xff\x7f" + b"\0" * 60)      # a v8 container's header
    r = CliRunner().invoke(main, ["compile", str(cf), "--out", str(tmp_path / "out")])
    assert r.exit_code != 0
    message = r.output
    assert str(cf) in message and "not a recognized source" not in message
    assert "dump the configuration to files first" in message
    assert "Выгрузить конфигурацию в файлы" in message and "/DumpConfigToFiles" in message
    assert "ibcmd" in message
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").glob("*/manifest.json"))
