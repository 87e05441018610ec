"""`v8atlas call`: the answer an agent gets, from the command line, never from a damaged bundle."""
from __future__ import annotations

from click.testing import CliRunner

from bundle_factory import build_sample
from v8atlas.cli import main


def test_call_answers_and_refuses_a_corrupted_bundle(tmp_path):
    path = build_sample(tmp_path / "b", second_config=False)
    ok = CliRunner().invoke(main, ["call", "list_sources", "--bundles", str(path)])
    assert ok.exit_code == 0 and "outcome: list" in ok.output
    assert ok.output.endswith("\n") and not ok.output.endswith("\n\n")
    err = CliRunner().invoke(main, ["call", "get_object", "name=Справочник.Нет", "config=Нет",
                                    "--bundles", str(path)])
    assert err.exit_code == 1 and err.output.strip() and err.output.endswith("\n"), repr(err.output)
    seg = path / "docs.cards.dat.bin"
    data = bytearray(seg.read_bytes())
    data[len(data) // 2] ^= 0xFF
    seg.write_bytes(bytes(data))
    bad = CliRunner().invoke(main, ["call", "list_sources", "--bundles", str(path)])
    assert bad.exit_code == 1 and "fails verification" in bad.output and "docs.cards.dat" in bad.output
    assert "Traceback" not in bad.output
