"""SSL 3.1.10 as a Designer dump and as an EDT project: every card must be the same.

The readers agree on the model (tools/diff_models.py); this checks the whole query model built
on it — standard attributes, query tables, relation counts — agrees too.
"""
from __future__ import annotations

import pytest

from realdata import extracted
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats.catalog import Catalog
from v8atlas.formats.reader import Bundle

pytestmark = [pytest.mark.realdata, pytest.mark.slow]


def test_ssl_designer_and_edt_cards_are_identical(tmp_path):
    designer = extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.10.441.tar.zst") / "src" / "cf"
    edt = extracted("configs/ssl-3.1-edt/ssl_3_1_edt-configuration-3.1.10.441.tar.zst") / "configuration"
    (tmp_path / "v8atlas.toml").write_text(
        f'[[configuration]]\nsource = "{designer}"\nname = "D"\n'
        f'[[configuration]]\nsource = "{edt}"\nname = "E"\n', encoding="utf-8")
    result = compile_bundle([tmp_path / "v8atlas.toml"], tmp_path / "out", quiet=True, cache=False)
    cat = Catalog(Bundle.open(result.bundle_path))
    cards: dict[str, dict[str, dict]] = {}
    for d in range(len(cat)):
        view, rest = cat.keys[d].split("/", 1)
        card = dict(cat.card(d))
        card.pop("config")
        card.pop("source_file", None)
        cards.setdefault(rest, {})[view] = card
    assert len(cards) > 2500
    only_one = sorted(k for k, v in cards.items() if len(v) != 2)
    assert only_one == []
    differ = sorted(k for k, v in cards.items() if v["D"] != v["E"])
    assert differ == []
