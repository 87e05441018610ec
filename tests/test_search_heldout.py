"""The held-out evaluation sets against the dumps they were written for.

* Every expected name of the UT 11.4 and English SSL halves is an object file of its dump, and
  every expected help name is an element of the fixture books (a mistyped target would make the
  bench skip that line and quietly shrink the set).
* The bench runs on both halves of each set and prints P@1 / MRR; like the other bench tests it
  asserts that every target is in the bundle, never a percentage (the figures and the targets
  are in docs/search.md).

The configurations are public repositories fetched outside the repo into ``../ext/<name>``
(``$V8ATLAS_EXT`` overrides; docs/search.md, "Held-out sets", gives the repository, commit and
the commands); a test whose dump is absent skips and says which folder it looked for.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from v8atlas.formats.classes import CLASSES
from v8atlas.server.search_bench import load_set

SETS = Path(__file__).parent / "search_sets"
EXT = Path(os.environ.get("V8ATLAS_EXT", Path(__file__).resolve().parent.parent.parent / "ext"))
# set stem → the dump folder under EXT (its src/cf is the Designer dump)
DUMPS = {"ut-11.4": "ut11-agro", "ssl-eng-3.1.12": "ssl_3_1_eng"}
FOLDER = {cls: plural for en, ru, plural, _ in CLASSES for cls in (en, ru)}


def dump(stem: str) -> Path:
    root = EXT / DUMPS[stem] / "src" / "cf"
    if not (root / "Configuration.xml").is_file():
        pytest.skip(f"fetched configuration not available: {root} (docs/search.md, 'Held-out sets')")
    return root


def halves(stem: str) -> list[Path]:
    return [SETS / f"{stem}.tune.tsv", SETS / f"{stem}.holdout.tsv"]


def test_the_halves_are_disjoint_and_sized():
    for stem in (*DUMPS, "help-phrasings"):
        tune, held = (load_set(p) for p in halves(stem))
        assert len(tune) >= 30 and len(held) >= 30 and abs(len(tune) - len(held)) <= 1, stem
        assert not {c.query for c in tune} & {c.query for c in held}, stem


@pytest.mark.parametrize("stem", sorted(DUMPS))
def test_every_expected_name_is_an_object_of_the_dump(stem):
    root = dump(stem)
    missing = []
    for path in halves(stem):
        for case in load_set(path):
            for name in case.expected:
                cls, _, obj = name.partition(".")
                if not (root / FOLDER.get(cls, cls) / f"{obj}.xml").is_file():
                    missing.append(f"{path.name}:{case.line}: {name}")
    assert not missing, missing


@pytest.mark.realdata
def test_every_expected_help_name_is_in_the_fixture_books():
    try:
        from tests import realdata
    except ImportError:
        realdata = pytest.importorskip("realdata")
    manifest = json.loads((realdata.data_path("help") / "fixtures.json").read_text(encoding="utf-8"))
    names: set[str] = set()
    for book in manifest["books"]:
        for e in book["elements"]:
            names.add(e["name"])
            names.add(e["name"].rsplit(".", 1)[-1])     # "СокрЛП" for "Глобальный контекст.СокрЛП"
            if e.get("title"):
                names.add(e["title"])
    missing = [f"{p.name}:{c.line}: {n}" for p in halves("help-phrasings") for c in load_set(p)
               for n in c.expected if n not in names]
    assert not missing, missing


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    from v8atlas.compiler.pipeline import compile_bundle
    out: dict[str, Path] = {}

    def get(stem: str) -> Path:
        if stem not in out:
            out[stem] = compile_bundle([str(dump(stem))], tmp_path_factory.mktemp(stem), quiet=True).bundle_path
        return out[stem]
    return get


@pytest.mark.slow
@pytest.mark.parametrize("stem", sorted(DUMPS))
def test_bench_on_both_halves(compiled, stem, tmp_path):
    from v8atlas.server.search_bench import bench, render
    report = bench(compiled(stem), halves(stem), rounds=2, results_dir=tmp_path)
    print(render(report))
    for entry in report["sets"].values():
        assert entry["summary"]["queries"] >= 30
        assert not entry["missing_targets"], entry["missing_targets"]
