"""check_query on SSL 3.1.12: every complete query of its modules and composition schemas, and
seeded mutations of them (tools/check_query_corpus.py; docs/query-check.md lists the exceptions)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.realdata, pytest.mark.slow]
TOOLS = Path(__file__).resolve().parent.parent / "tools"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    if importlib.util.find_spec("v8atlas.compiler.config.plugin") is None:
        pytest.skip("the configuration compiler is not in this checkout")
    import realdata
    ssl = realdata.extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst")
    dump = next(ssl.rglob("Configuration.xml")).parent
    from v8atlas.compiler.pipeline import compile_bundle
    out = tmp_path_factory.mktemp("bundles")
    bundle = compile_bundle([str(dump), str(realdata.data_path("help"))], out, quiet=True).bundle_path
    sys.path.insert(0, str(TOOLS))
    import check_query_corpus
    return check_query_corpus.run(bundle, dump, None, seed=1)


def test_complete_queries_check_without_error(corpus):
    print({k: v for k, v in corpus.items() if k not in ("exceptions", "missed")})
    for e in corpus["exceptions"]:
        print(e["source"], e["line"], [p["message"] for p in e["errors"]])
    assert corpus["complete"] > 1500
    assert corpus["share_no_error"] >= 0.99
    # every exception is of a kind docs/query-check.md explains: objects missing from SSL itself
    assert {p["code"] for e in corpus["exceptions"] for p in e["errors"]} <= {"unknown_table", "unknown_field",
                                                                               "bad_path"}


def test_mutations_are_reported_as_errors(corpus):
    muts = corpus["mutations"]
    print(muts, corpus["missed"][:5])
    assert set(muts) == {"field", "virtual_table", "unlimited_group", "function"}
    for kind, m in muts.items():
        assert m["total"] >= 20, kind
        assert m["share"] >= 0.95, (kind, m)
