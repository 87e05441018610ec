"""Search on a real bundle: SSL 3.1.12 (Designer dump) + the help fixtures, through `compile`.

Needs the configuration and help compilers (skipped where they are not installed) and the real
data (skipped when absent). Prints the bench figures; asserts behaviour, never percentages.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from v8atlas.formats import Bundle
from v8atlas.server.search import Searcher
from v8atlas.server.search_bench import bench, render

pytestmark = [pytest.mark.realdata, pytest.mark.slow]
SETS = Path(__file__).parent / "search_sets"


@pytest.fixture(scope="module")
def real_bundle(tmp_path_factory) -> Path:
    import realdata
    ssl = realdata.extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst")
    help_dir = realdata.data_path("help")
    from v8atlas.compiler.pipeline import compile_bundle
    out = tmp_path_factory.mktemp("bundles")
    return compile_bundle([str(next(ssl.rglob("Configuration.xml")).parent), str(help_dir)], out,
                          quiet=True).bundle_path


def test_exact_names_resolve_first(real_bundle):
    s = Searcher(Bundle.open(real_bundle))
    for name in ("Справочник.Пользователи", "РегистрСведений.ВерсииПодсистем", "ОбщийМодуль.ОбщегоНазначения",
                 "Массив.Найти", "ТаблицаЗначений.Свернуть", "РАЗНОСТЬДАТ", "ЕСТЬNULL"):
        hits = s.search(name).hits
        assert hits and "exact name" in hits[0].why, name


def test_every_hit_explains_itself_and_metadata_has_class_words(real_bundle):
    s = Searcher(Bundle.open(real_bundle))
    r = s.search("регистр сведений версии подсистем")
    assert r.hits[0].title == "РегистрСведений.ВерсииПодсистем"
    assert all(h.why for h in r.hits)
    assert "class" in s.meta["fields"]


# The sets whose targets are in SSL 3.1.12 + the help books; the UT and English SSL halves
# run on their own dumps (tests/test_search_heldout.py).
SSL_SETS = ("ssl-3.1.12.tsv", "help-8.3.27.tsv", "help-phrasings.tune.tsv", "help-phrasings.holdout.tsv")


def test_bench_sets_run(real_bundle, tmp_path):
    report = bench(real_bundle, [SETS / n for n in SSL_SETS], rounds=2, results_dir=tmp_path)
    print(render(report))
    for entry in report["sets"].values():
        assert entry["summary"]["queries"] >= 40
        assert not entry["missing_targets"], entry["missing_targets"]


def test_qa_findings_on_ssl(real_bundle):
    """The QA review's queries on SSL 3.1.12 + help (see docs/search.md)."""
    s = Searcher(Bundle.open(real_bundle))
    r = s.search("и в на по для")
    assert not r.hits and not r.rewrites and "no words to search for" in r.notes[0]
    r = s.search("ghjatccbz")                        # профессия: nothing in SSL is near but "процесс"
    assert r.rewrites and not r.confident and all(h.fuzzy for h in r.hits)
    r = s.search("поль\x01зов\x1bатели")
    assert r.hits[0].title == "Справочник.Пользователи"
    r = s.search("ВладелецФайла")                    # catalogs and registers with that attribute
    assert all("has attribute ВладелецФайла" in h.why for h in r.hits[:3])
    for q in ("электронная почта", "email"):
        assert r.hits and s.search(q).hits[0].kind != "CommonPicture", q
    r = s.search("регистр сведений версии")
    assert r.hits[0].kind == "InformationRegister"
    assert not r.hits[0].title.endswith("ЗагруженныеВерсииАдресныхСведений")
    r = s.search("доп реквизиты")
    assert any(h.title == "ПланВидовХарактеристик.ДополнительныеРеквизитыИСведения" for h in r.hits[:3])
