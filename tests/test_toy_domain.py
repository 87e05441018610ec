"""A third-party domain plugs in with one registration line and shows up everywhere."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.compiler.sources import SourceError, discover
from v8atlas.formats import registry
from v8atlas.formats.reader import Bundle
from v8atlas.server import tools
from v8atlas.server.dashboard.facts import bundle_facts
from v8atlas.server.snapshot import Snapshot

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
BOOK = "# Борщ\nсвекла, капуста, картофель\n\n# Окрошка\nквас, огурцы, картофель\n\n# Пустой\n"


@pytest.fixture()
def toy():
    registry.register(registry.Registration("recipes", "toy_domain.compile:DOMAIN", "toy_domain.serve:SERVE"))
    yield
    registry.unregister("recipes")


def _project(tmp_path: Path, table: str = 'cuisine = "русская"\n') -> Path:
    shutil.copytree(EXAMPLES / "config-designer", tmp_path / "cfg")
    (tmp_path / "kitchen.recipes").write_text(BOOK, encoding="utf-8")
    (tmp_path / "v8atlas.toml").write_text(
        f'[[configuration]]\nsource = "cfg"\n\n[[recipes]]\nsource = "kitchen.recipes"\n{table}', encoding="utf-8")
    return tmp_path


def test_toy_domain_compiles_and_is_served(tmp_path, toy):
    res = compile_bundle([_project(tmp_path)], tmp_path / "bundles", cache=False, quiet=True)
    bundle = Bundle.open(res.bundle_path)
    snap = Snapshot(bundle)
    # its source kind in the manifest, which the dashboard's sources page lists
    kinds = {s["kind"]: s["name"] for s in bundle_facts(bundle)["sources"]}
    assert kinds["recipes"] == "kitchen.recipes" and "configuration" in kinds
    assert [w["message"] for w in res.report.as_dict()["warnings"] if w.get("code") == "recipe-empty"] == [
        "recipe 'Пустой' lists no ingredients"]
    # its document domain in list_sources
    listing = tools.call(snap, "list_sources", {})
    assert "## Other knowledge\n- `recipes`: 3 document(s)" in listing.text
    assert listing.data["documents"]["recipes"] == 3
    # its parameter on another domain's tool, searching its own field
    spec = tools.tool_table()["search_metadata"]
    assert "recipes" in spec.input_schema()["properties"]
    plain = tools.call(snap, "search_metadata", {"query": "свекла"})
    assert "Рецепт." not in plain.text
    r = tools.call(snap, "search_metadata", {"query": "свекла", "recipes": True})
    assert r.data["recipes"] == ["Рецепт.Борщ"]
    assert "- `Рецепт.Борщ` · why:" in r.text and "ingredients" in r.text
    # the toml table's option reached the card; exact names resolve through the core name table
    doc = snap.catalog.lookup("Рецепт.Окрошка")
    assert len(doc) == 1 and snap.catalog.card(doc[0])["cuisine"] == "русская"


def test_toy_domain_toml_table_is_validated(tmp_path, toy):
    with pytest.raises(SourceError, match=r"\[\[recipes\]\] #1: unknown key 'spice'; known keys: source, cuisine"):
        discover([_project(tmp_path, 'spice = "перец"\n')])


def test_without_the_registration_the_domain_is_absent(tmp_path):
    assert "recipes" not in tools.tool_table()["search_metadata"].input_schema()["properties"]
    with pytest.raises(SourceError, match="unknown key 'recipes'"):
        discover([_project(tmp_path)])
