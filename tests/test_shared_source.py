"""Two domains read the same Designer dump: each parses it, the second resolves owners
through the first's typed link."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats import registry
from v8atlas.formats.reader import Bundle
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture()
def census():
    registry.register(registry.Registration("census", "toy_domain.census:DOMAIN"))
    yield
    registry.unregister("census")


def test_a_second_domain_reads_the_configuration_dump(tmp_path, census):
    shutil.copytree(EXAMPLES / "config-designer", tmp_path / "cfg")
    res = compile_bundle([tmp_path / "cfg"], tmp_path / "bundles", cache=True, quiet=True)
    snap = Snapshot(Bundle.open(res.bundle_path))
    (doc,) = snap.catalog.lookup("Перепись.ДемоТорговля")
    card = snap.catalog.card(doc)
    # the configuration domain still made its documents from the same source
    (catalog_doc,) = snap.catalog.lookup("Справочник.Номенклатура")
    assert snap.catalog.domain_name(catalog_doc) == "metadata"
    by_class = snap.info.configurations[0].counts_by_class
    assert card["objects"] == sum(n for cls, n in by_class.items() if cls != "Language") > 0
    assert card["files"]["Catalogs"] == len(list((tmp_path / "cfg" / "Catalogs").rglob("*.xml")))
    assert "`census`: 1 document(s)" in tools.call(snap, "list_sources", {}).text
    # each domain's parse is cached on its own: a second compile reuses both
    again = compile_bundle([tmp_path / "cfg"], tmp_path / "bundles", cache=True, quiet=True)
    assert again.reused


def test_a_domain_registered_before_the_link_it_needs_is_refused_by_name():
    from v8atlas.compiler.pipeline import check_link_order
    from v8atlas.formats.domain import Domain

    from toy_domain.census import DOMAIN as CENSUS
    config = next(d for d in registry.compile_domains() if d.name == "configuration")
    check_link_order([config, CENSUS])
    with pytest.raises(registry.DomainContractError, match="'census' needs ConfigModels"):
        check_link_order([CENSUS, config, Domain("other")])
