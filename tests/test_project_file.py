"""v8atlas.toml is validated in one place: every problem names the file, the table and the key."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from v8atlas.cli import main
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.compiler.sources import SourceError, discover

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"


def _project(tmp_path: Path, toml: str) -> Path:
    shutil.copytree(EXAMPLES / "config-designer", tmp_path / "cfg")
    (tmp_path / "v8atlas.toml").write_text(toml, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("toml, expected", [
    ('[[configuration]]\nsource = "cfg"\nplatfrom = "8.3.24"\n',
     "[[configuration]] #1: unknown key 'platfrom'; known keys: source, name, platform, base"),
    ('[[configuration]]\nsource = "cfg"\nplatform_version = "8.3.24"\n',
     "unknown key 'platform_version'; known keys: source, name, platform, base"),
    ('configuration = 5\n', "configuration must be written as [[configuration]] tables"),
    ('[[configuration]]\nsource = ["a"]\n', "[[configuration]] #1: source must be a string"),
    ('[[configuration]]\nsource = "cfg"\nname = 7\n', "[[configuration]] #1: name must be a string"),
    ('name = "../x"\n[[configuration]]\nsource = "cfg"\n', "name must be a plain name"),
    ('name = true\n[[configuration]]\nsource = "cfg"\n', "name must be a string"),
    ('[[configuration]]\nname = "A"\n', "[[configuration]] #1: needs source = \"path\""),
    ('[[confguration]]\nsource = "cfg"\n',
     "unknown key 'confguration'; known: name, [[configuration]], [[extension]], [[help]], [[dictionary]]"),
    ('[[help]]\nsource = "cfg"\nversion = 8.3\n', "[[help]] #1: version must be a string"),
])
def test_bad_project_file_names_the_key(tmp_path, toml, expected):
    root = _project(tmp_path, toml)
    with pytest.raises(SourceError) as e:
        discover([root])
    assert str(root / "v8atlas.toml") in str(e.value)
    assert expected in str(e.value)


def test_bad_project_file_on_the_command_line_is_one_line_no_traceback(tmp_path):
    root = _project(tmp_path, '[[configuration]]\nsource = "cfg"\ncolour = "red"\n')
    res = CliRunner().invoke(main, ["compile", str(root), "--out", str(tmp_path / "out"), "-q"])
    assert res.exit_code != 0
    assert "unknown key 'colour'" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").glob("*/manifest.json"))


def test_good_project_file_keys_reach_the_source(tmp_path):
    root = _project(tmp_path, '[[configuration]]\nsource = "cfg"\nname = "Моя"\nplatform = "8.3.24"\n')
    project = discover([root])
    assert [s.options for s in project.sources] == [
        {"name": "Моя", "platform": "8.3.24", "table": "configuration"}]


def test_same_inputs_from_two_folders_give_the_same_bundle_hash(tmp_path):
    hashes = []
    for where in ("one", "two/deeper/still"):
        copy = tmp_path / where / "examples"
        shutil.copytree(EXAMPLES, copy)
        res = compile_bundle([copy], tmp_path / where / "bundles", cache=False, quiet=True)
        hashes.append(res.bundle_path.name.rsplit("-", 1)[-1])
    assert hashes[0] == hashes[1]
