"""tools/split_search_set.py, tools/check_search_sets.py and tools/eval_search.py."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

try:
    from tests.search_sets.standin import build_bundle
except ImportError:
    from search_sets.standin import build_bundle
from v8atlas.compiler.documents import Doc

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def tool(name: str):
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


SET = "# a set\n# query<TAB>expected\n" + "".join(f"запрос {i}\tСправочник.А{i}\n" for i in range(11))


def test_split_is_seeded_disjoint_and_keeps_the_header():
    split = tool("split_search_set")
    header, tune, held = split.split_lines(SET)
    assert header == ["# a set", "# query<TAB>expected"]
    assert len(tune) == 6 and len(held) == 5
    assert not set(tune) & set(held) and set(tune) | set(held) == set(SET.splitlines()[2:])
    assert split.split_lines(SET) == (header, tune, held)                  # deterministic
    assert split.split_lines(SET, seed=14)[1] != tune                      # and by the seed


def test_split_writes_two_files(tmp_path):
    split = tool("split_search_set")
    src = tmp_path / "x.tsv"
    src.write_text(SET, encoding="utf-8")
    r = CliRunner().invoke(split.main, [str(src)])
    assert r.exit_code == 0, r.output
    tune = (tmp_path / "x.tune.tsv").read_text(encoding="utf-8").splitlines()
    held = (tmp_path / "x.holdout.tsv").read_text(encoding="utf-8").splitlines()
    assert tune[:2] == held[:2] == ["# a set", "# query<TAB>expected"]
    assert "seed 13" in tune[2] and len(tune) - 3 + len(held) - 3 == 11


def _doc(name: str, synonym: str) -> Doc:
    title = f"Справочник.{name}"
    return Doc("metadata", f"К/{title}", "Catalog", title, {"title": title},
               names=[title, f"Catalog.{name}", name], fields={"name": name, "synonym": synonym}, config="К")


@pytest.fixture()
def bundle(tmp_path):
    path, _ = build_bundle([_doc("Склады", "Склады"), _doc("Кассы", "Кассы")], tmp_path / "b")
    return path


def test_check_names_every_missing_alternative(bundle, tmp_path):
    check = tool("check_search_sets")
    good = tmp_path / "good.tsv"
    good.write_text("склады\tСправочник.Склады\tК\n", encoding="utf-8")
    bad = tmp_path / "bad.tsv"
    bad.write_text("склады\tСправочник.Склады|Справочник.Склад\tК\nкассы\tСправочник.Кассы\tДругая\n",
                   encoding="utf-8")
    r = CliRunner().invoke(check.main, ["--bundles", str(bundle), str(good)])
    assert r.exit_code == 0 and "0 expected name(s) missing" in r.output
    r = CliRunner().invoke(check.main, ["--bundles", str(bundle), str(bad)])
    assert r.exit_code == 1
    assert "bad.tsv:1: 'Справочник.Склад'" in r.stderr
    assert "bad.tsv:2: 'Справочник.Кассы'" in r.stderr and "for configuration 'Другая'" in r.stderr


def test_eval_lists_misses_of_a_tuning_half_only(bundle, tmp_path):
    ev = tool("eval_search")
    rows = "кассовые книги\tСправочник.Склады\tК\tmetadata\n"
    for name in ("s.tune.tsv", "s.holdout.tsv"):
        (tmp_path / name).write_text(rows, encoding="utf-8")
    args = ["--misses", "--pair", str(bundle), str(tmp_path / "s.tune.tsv"),
            "--pair", str(bundle), str(tmp_path / "s.holdout.tsv")]
    r = CliRunner().invoke(ev.main, args)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[1].startswith("s.tune.tsv") and "'кассовые книги'" in lines[2]
    assert lines[3].startswith("s.holdout.tsv") and len(lines) == 4       # no query lines
