"""A domain run apart (compiler/apart.py): the code domain's parse, link and build in a child
of its own beside the rest of the compile give the bundle, the report and the caches of a
compile in one process."""
from __future__ import annotations

import shutil
from collections import Counter

import pytest
from test_code_domain import _clean_dump, _make_dump
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats.reader import Bundle
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot


def _lines(result) -> Counter:
    return Counter((w.code, w.source, w.file, w.line, w.message)
                   for w in result.report.errors + result.report.warnings)


def test_the_code_domain_run_apart_gives_the_bundle_and_report_of_one_process(tmp_path, monkeypatch):
    """Apart (two cores: the default), with every step split instead (``V8ATLAS_APART=0``) and
    in one process: the same bytes, the same report lines (bad modules among them), and the
    procedures answer the same."""
    root = tmp_path / "cf"
    _make_dump(root)
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    apart = compile_bundle([root], tmp_path / "apart", quiet=True, cache=False)
    assert "wait for code link" in apart.report.timings        # its child linked it
    assert "link code" in apart.report.timings and "build code" in apart.report.timings
    monkeypatch.setenv("V8ATLAS_APART", "0")
    split = compile_bundle([root], tmp_path / "split", quiet=True, cache=False)
    assert "wait for code link" not in split.report.timings
    monkeypatch.setenv("V8ATLAS_JOBS", "1")
    alone = compile_bundle([root], tmp_path / "alone", quiet=True, cache=False)
    hashes = {Bundle.open(r.bundle_path).content_hash for r in (apart, split, alone)}
    assert len(hashes) == 1
    assert _lines(apart) == _lines(alone) == _lines(split)
    assert any(w.code == "module-without-object" for w in apart.report.errors)
    snap = Snapshot(Bundle.open(apart.bundle_path))
    got = tools.call(snap, "get_procedure", {"name": "ОбщегоНазначения.ЗначениеРеквизита"})
    assert got.outcome == "found" and got.data["procedure"]["callers"] == 2


def test_a_linked_model_is_read_back_with_its_side_file_and_missed_without_it(tmp_path, monkeypatch):
    """A cold compile with the cache on writes the linked model, and beside it the links the
    code domain's child made (``<key>.code.side``): built from them, or — the side file gone —
    relinked from the parse caches, the bundle is the one a compile without any cache makes."""
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    root = tmp_path / "cf"
    _clean_dump(root)
    plain = Bundle.open(compile_bundle([root], tmp_path / "plain", quiet=True, cache=False).bundle_path)
    out = tmp_path / "out"
    first = compile_bundle([root], out, quiet=True)
    assert not first.report.errors
    linked = out / ".cache" / "linked"
    mains, sides = list(linked.glob("*.pickle")), list(linked.glob("*.code.side"))
    assert len(mains) == 1 and [s.name for s in sides] == [mains[0].stem + ".code.side"]
    shutil.rmtree(out / ".cache" / "builds")
    again = compile_bundle([root], out, quiet=True)
    assert "load linked model" in again.report.timings and "wait for code link" not in again.report.timings
    assert Bundle.open(again.bundle_path).content_hash == plain.content_hash
    shutil.rmtree(out / ".cache" / "builds")
    sides[0].unlink()
    missed = compile_bundle([root], out, quiet=True)
    assert "wait for code link" in missed.report.timings            # relinked, by a child again
    assert "parse code" not in missed.report.timings                # from its parse cache
    assert Bundle.open(missed.bundle_path).content_hash == plain.content_hash
    assert list(linked.glob("*.code.side"))                        # and written anew


@pytest.mark.parametrize("apart", ["1", "0"])
def test_a_module_edited_between_compiles_is_parsed_again_by_the_child(tmp_path, monkeypatch, apart):
    """The child's parse cache is keyed by the fingerprint like the compile's own: an edited
    module is read again (its new procedure found), an untouched dump is not."""
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    monkeypatch.setenv("V8ATLAS_APART", apart)
    root = tmp_path / "cf"
    _clean_dump(root)
    out = tmp_path / "out"
    compile_bundle([root], out, quiet=True)
    module = root / "CommonModules/ОбщегоНазначения/Ext/Module.bsl"
    module.write_bytes(module.read_bytes() + "\r\nФункция НоваяФункция() Экспорт\r\n"
                       "\tВозврат 1;\r\nКонецФункции\r\n".encode())
    edited = compile_bundle([root], out, quiet=True)
    assert "parse code" in edited.report.timings
    snap = Snapshot(Bundle.open(edited.bundle_path))
    assert tools.call(snap, "get_procedure", {"name": "ОбщегоНазначения.НоваяФункция"}).outcome == "found"
    shutil.rmtree(out / ".cache" / "builds")
    shutil.rmtree(out / ".cache" / "linked")
    relinked = compile_bundle([root], out, quiet=True)
    assert "parse code" not in relinked.report.timings
    assert Bundle.open(relinked.bundle_path).content_hash == Bundle.open(edited.bundle_path).content_hash


def test_the_bundle_of_a_compile_in_one_process_needs_no_child(tmp_path, monkeypatch):
    """With one core nothing runs apart (nor forks): the code domain links in the compile."""
    monkeypatch.setenv("V8ATLAS_JOBS", "1")
    root = tmp_path / "cf"
    _clean_dump(root)
    result = compile_bundle([root], tmp_path / "out", quiet=True, cache=False)
    assert "wait for code link" not in result.report.timings and "link code" in result.report.timings


def test_a_linked_model_in_small_parts_keeps_each_modules_body_frames_once(tmp_path, monkeypatch):
    """The linked model's code index is written in parts of ``PART_ROWS`` procedures; a
    module's procedures (sharing its body frames) across two parts still give one copy of its
    frames in the body store: built from the linked model, the bundle is the cold compile's."""
    from v8atlas.compiler.code import index as code_index
    monkeypatch.setattr(code_index, "PART_ROWS", 2)
    root = tmp_path / "cf"
    _clean_dump(root)
    plain = Bundle.open(compile_bundle([root], tmp_path / "plain", quiet=True, cache=False).bundle_path)
    out = tmp_path / "out"
    compile_bundle([root], out, quiet=True)
    shutil.rmtree(out / ".cache" / "builds")
    again = compile_bundle([root], out, quiet=True)
    assert "load linked model" in again.report.timings
    assert Bundle.open(again.bundle_path).content_hash == plain.content_hash


def test_a_dump_whose_configuration_fails_still_publishes_its_code_as_one_process_does(tmp_path, monkeypatch):
    """The configuration's descriptor broken, the code parsed (in the child): something was
    compiled — the compile publishes what one process publishes, with the same error."""
    root = tmp_path / "cf"
    _clean_dump(root)
    (root / "Configuration.xml").write_text("<broken", encoding="utf-8")
    hashes, errors = set(), []
    for jobs in ("2", "1"):
        monkeypatch.setenv("V8ATLAS_JOBS", jobs)
        result = compile_bundle([root], tmp_path / f"j{jobs}", quiet=True, cache=False,
                                skip=("forms", "form_handlers"))
        hashes.add(Bundle.open(result.bundle_path).content_hash)
        errors.append(sorted((w.code, w.message) for w in result.report.errors))
    assert len(hashes) == 1 and errors[0] == errors[1]
    assert [code for code, _ in errors[0]] == ["source-failed"]


def test_a_dump_without_modules_run_apart_gives_the_bundle_without_the_code_domain(tmp_path, monkeypatch):
    """The code domain's child of a dump without modules has nothing to read, link or build:
    it waits (not busy, so the compile's steps may split again: tests/test_compile_pool.py),
    and the bundle is the one ``--skip code`` gives."""
    monkeypatch.setenv("V8ATLAS_JOBS", "2")
    root = tmp_path / "cf"
    _clean_dump(root)
    for module in root.rglob("*.bsl"):
        module.unlink()
    with_code = compile_bundle([root], tmp_path / "with", quiet=True, cache=False)
    assert "wait for code link" in with_code.report.timings      # run apart all the same
    skipped = compile_bundle([root], tmp_path / "skip", quiet=True, cache=False, skip=("code",))
    assert Bundle.open(with_code.bundle_path).content_hash == Bundle.open(skipped.bundle_path).content_hash
