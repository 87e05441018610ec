"""The compile pipeline frame with a stand-in source plugin: caching, broken sources, publishing."""
from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

from v8atlas.cli import main
from v8atlas.compiler import pipeline, sources
from v8atlas.compiler.documents import Doc
from v8atlas.formats import Bundle
from v8atlas.formats import registry
from v8atlas.formats.catalog import Catalog
from v8atlas.formats.domain import INDEX, Domain, SourceKind, TomlKey, TomlTable
from v8atlas.formats.version import TEMP_PREFIX

PARSES: list[str] = []


def _make_plugin() -> types.ModuleType:
    mod = types.ModuleType("v8atlas_test_plugin")
    mod.KIND = "notes"

    def detect(path: Path) -> str | None:
        return "note" if path.is_file() and path.suffix == ".note" else None

    def parse(source, report):
        PARSES.append(source.name)
        text = source.path.read_text(encoding="utf-8")
        if text.startswith("BROKEN"):
            raise ValueError(f"{source.path.name}: first line says BROKEN")
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                report.warn(source.name, "empty line", file=source.name, line=n)
        return [line for line in text.splitlines() if line.strip()]

    def link(parsed, ctx):
        for src, lines in parsed:
            for line in lines:
                ctx.docs.append(Doc("metadata", f"{src.path.stem}/{line}", "Note", line,
                                    {"text": line}, names=[line], config=src.path.stem))

    table = TomlTable("notes", (TomlKey("name", (str,), "a name"), TomlKey("version", (str,), "a version")))
    mod.DOMAIN = Domain("notes", source_kinds=(SourceKind("notes", detect, "a note (*.note)", (table,)),),
                        reads=("notes",), parse=parse, link=link)
    return mod


@pytest.fixture()
def notes_plugin(monkeypatch):
    mod = _make_plugin()
    monkeypatch.setitem(sys.modules, mod.__name__, mod)
    # Only this domain is registered: the built-ins are out of the way.
    monkeypatch.setattr(registry, "_REGISTERED", [registry.Registration("notes", f"{mod.__name__}:DOMAIN")])
    PARSES.clear()
    return mod


def test_compile_publishes_and_prints_path_last(tmp_path, notes_plugin):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.note").write_text("Заказ\n\nЁлка\n", encoding="utf-8")
    out = tmp_path / "bundles"
    res = CliRunner().invoke(main, ["compile", str(tmp_path / "src"), "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    last = res.stdout.strip().splitlines()[-1]
    bundle = Bundle.open(out)
    assert Path(last) == bundle.path
    cat = Catalog(bundle)
    assert len(cat) == 2
    assert cat.lookup("елка") and cat.titles[cat.lookup("елка")[0]] == "Ёлка"  # ё kept in data
    assert "1 warning" in res.stderr
    rep = bundle.report()
    assert rep["warnings"][0]["line"] == 2


def test_broken_source_reported_others_compiled(tmp_path, notes_plugin):
    (tmp_path / "good.note").write_text("Один\n", encoding="utf-8")
    (tmp_path / "bad.note").write_text("BROKEN\n", encoding="utf-8")
    out = tmp_path / "bundles"
    res = CliRunner().invoke(main, ["compile", str(tmp_path), "--out", str(out), "-q", "--strict"])
    assert res.exit_code == 2
    assert "bad.note: first line says BROKEN" in res.stderr
    assert Catalog(Bundle.open(out)).lookup("Один")


def test_unchanged_recompile_uses_cache_and_repoints(tmp_path, notes_plugin):
    (tmp_path / "a.note").write_text("Один\n", encoding="utf-8")
    out = tmp_path / "bundles"
    first = pipeline.compile_bundle([tmp_path / "a.note"], out, quiet=True)
    second = pipeline.compile_bundle([tmp_path / "a.note"], out, quiet=True)
    assert len(PARSES) == 1  # the second compile read the cache
    assert second.reused and second.bundle_path == first.bundle_path


def test_unrecognized_source_is_a_clear_error(tmp_path, notes_plugin):
    (tmp_path / "readme.txt").write_text("hello", encoding="utf-8")
    res = CliRunner().invoke(main, ["compile", str(tmp_path / "readme.txt"), "--out", str(tmp_path / "b")])
    assert res.exit_code != 0
    assert "not a recognized source" in res.output and "readme.txt" in res.output


def test_inspect_and_verify_commands(tmp_path, notes_plugin):
    (tmp_path / "a.note").write_text("Один\nДва\n", encoding="utf-8")
    out = tmp_path / "bundles"
    pipeline.compile_bundle([tmp_path / "a.note"], out, quiet=True)
    r = CliRunner().invoke(main, ["inspect", str(out), "--json"])
    assert r.exit_code == 0 and '"Note": 2' in r.output
    r = CliRunner().invoke(main, ["verify", str(out)])
    assert r.exit_code == 0 and "ok" in r.output
    seg = next(Bundle.open(out).path.glob("docs.cards.dat.bin"))
    seg.write_bytes(seg.read_bytes()[:-1] + b"\x00")
    r = CliRunner().invoke(main, ["verify", str(out)])
    assert r.exit_code == 1 and "docs.cards.dat" in r.output


def test_project_file_folder_whose_sources_live_elsewhere(tmp_path, notes_plugin):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.note").write_text("Один\n", encoding="utf-8")
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "v8atlas.toml").write_text(
        'name = "company"\n[[notes]]\nsource = "../data/a.note"\nname = "A"\n', encoding="utf-8")
    res = pipeline.compile_bundle([tmp_path / "proj"], tmp_path / "b", quiet=True)
    assert res.bundle_path.name.startswith("company-")
    assert Catalog(Bundle.open(res.bundle_path)).lookup("Один")


def test_unchanged_sources_skip_parse_and_build(tmp_path, notes_plugin):
    src = tmp_path / "a.note"
    src.write_text("Один\n", encoding="utf-8")
    out = tmp_path / "bundles"
    first = pipeline.compile_bundle([src], out, quiet=True)
    PARSES.clear()
    again = pipeline.compile_bundle([src], out, quiet=True)
    assert again.reused and again.bundle_path == first.bundle_path and PARSES == []
    src.write_text("Один\nДва\n", encoding="utf-8")
    changed = pipeline.compile_bundle([src], out, quiet=True)
    assert not changed.reused and changed.bundle_path != first.bundle_path
    assert Catalog(Bundle.open(out)).lookup("Два")


def test_no_cache_rebuilds_even_when_unchanged(tmp_path, notes_plugin):
    src = tmp_path / "a.note"
    src.write_text("Один\n", encoding="utf-8")
    out = tmp_path / "bundles"
    pipeline.compile_bundle([src], out, quiet=True)
    PARSES.clear()
    res = pipeline.compile_bundle([src], out, quiet=True, cache=False)
    assert PARSES and res.reused   # parsed again, found the identical bundle by content hash


def test_dictionary_only_change_reuses_the_linked_model(tmp_path, notes_plugin, monkeypatch):
    dict_mod = types.ModuleType("v8atlas_test_dict")

    def parse(source, report):
        PARSES.append(source.name)
        return source.path.read_text(encoding="utf-8").strip()

    def link(parsed, ctx):
        words = [r for _, r in parsed]
        ctx.info["dictionary"] = words
        for d in ctx.docs:
            d.fields["alias"] = " ".join(words)
    kind = SourceKind("dictionary", lambda path: "d" if path.suffix == ".dict" else None, "a .dict")
    dict_mod.DOMAIN = Domain("words", source_kinds=(kind,), reads=("dictionary",), parse=parse,
                             link=link, stage=INDEX)
    monkeypatch.setitem(sys.modules, dict_mod.__name__, dict_mod)
    registry.register(registry.Registration("words", f"{dict_mod.__name__}:DOMAIN"))

    (tmp_path / "a.note").write_text("Один\n", encoding="utf-8")
    (tmp_path / "words.dict").write_text("первое\n", encoding="utf-8")
    out = tmp_path / "bundles"
    pipeline.compile_bundle([tmp_path], out, quiet=True)
    PARSES.clear()
    (tmp_path / "words.dict").write_text("второе\n", encoding="utf-8")
    res = pipeline.compile_bundle([tmp_path], out, quiet=True)
    assert [p for p in PARSES if p.endswith(".note")] == []     # the model came from the cache
    assert Bundle.open(res.bundle_path).info["dictionary"] == ["второе"]
    assert Catalog(Bundle.open(res.bundle_path)).lookup("Один")


def test_every_source_failing_publishes_nothing(tmp_path, notes_plugin):
    (tmp_path / "good.note").write_text("Один\n", encoding="utf-8")
    out = tmp_path / "bundles"
    first = pipeline.compile_bundle([tmp_path / "good.note"], out, quiet=True)
    (tmp_path / "bad.note").write_text("BROKEN\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["compile", str(tmp_path / "bad.note"), "--out", str(out), "-q"])
    assert res.exit_code == 1
    assert "nothing was compiled" in res.output and "first line says BROKEN" in res.output
    assert "Traceback" not in res.output
    assert Bundle.open(out).path == first.bundle_path


def test_broken_edit_keeps_the_last_good_version(tmp_path, notes_plugin):
    src = tmp_path / "a.note"
    src.write_text("Один\n", encoding="utf-8")
    out = tmp_path / "bundles"
    pipeline.compile_bundle([src], out, quiet=True)
    src.write_text("BROKEN now\n", encoding="utf-8")
    res = pipeline.compile_bundle([src], out, quiet=True)
    assert not res.report.errors
    assert any(w.code == "source-stale" and "BROKEN" in w.message for w in res.report.warnings)
    assert Catalog(Bundle.open(out)).lookup("Один")


def test_edit_that_keeps_size_and_mtime_is_seen(tmp_path, notes_plugin):
    folder = tmp_path / "src"
    folder.mkdir()
    f = folder / "a.note"
    f.write_text("Реквизит1\n", encoding="utf-8")
    out = tmp_path / "bundles"
    pipeline.compile_bundle([folder], out, quiet=True)
    st = f.stat()
    f.write_text("Реквизит9\n", encoding="utf-8")
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    res = pipeline.compile_bundle([folder], out, quiet=True)
    assert not res.reused
    assert Catalog(Bundle.open(out)).lookup("Реквизит9")


def test_manifest_source_names_are_relative(tmp_path, notes_plugin):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "a.note").write_text("Один\n", encoding="utf-8")
    (tmp_path / "b.note").write_text("Два\n", encoding="utf-8")
    res = pipeline.compile_bundle([tmp_path / "x" / "a.note", tmp_path / "b.note"], tmp_path / "o", quiet=True)
    names = sorted(s["name"] for s in Bundle.open(res.bundle_path).manifest["sources"])
    assert names == ["b.note", "x/a.note"]


def test_unwritable_output_is_a_clear_error(tmp_path, notes_plugin):
    (tmp_path / "a.note").write_text("Один\n", encoding="utf-8")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    res = CliRunner().invoke(main, ["compile", str(tmp_path / "a.note"), "--out", str(blocker / "sub"), "-q"])
    assert res.exit_code == 1 and "cannot write the bundle" in res.output and "Traceback" not in res.output


def test_project_table_source_may_be_a_folder_of_sources(tmp_path, notes_plugin):
    books = tmp_path / "notes"
    (books / "v1").mkdir(parents=True)
    (books / "v2").mkdir(parents=True)
    (books / "v1" / "a.note").write_text("Один\n", encoding="utf-8")
    (books / "v2" / "b.note").write_text("Два\n", encoding="utf-8")
    (tmp_path / "v8atlas.toml").write_text('[[notes]]\nsource = "notes"\nversion = "8.3.24"\n', encoding="utf-8")
    project = sources.discover([tmp_path / "v8atlas.toml"])
    assert sorted(s.path.name for s in project.sources) == ["a.note", "b.note"]
    assert all(s.options.get("version") == "8.3.24" for s in project.sources)


def test_portable_names_of_sources_in_unrelated_places():
    from v8atlas.compiler.pipeline import portable_names
    assert portable_names([Path("/root/.cache/x/src/cf"), Path("/tmp/dict1/dictionary.json")]) == [
        "src/cf", "dict1/dictionary.json"]
    assert portable_names([Path("/work/p/a/x.hbk"), Path("/work/p/b/y.hbk")]) == ["a/x.hbk", "b/y.hbk"]


def test_skip_leaves_a_domain_out_and_is_part_of_the_build_key(tmp_path):
    examples = Path(__file__).resolve().parent.parent / "examples"
    full = pipeline.compile_bundle([examples], tmp_path, quiet=True)
    without_code = pipeline.compile_bundle([examples], tmp_path, quiet=True, skip=("code",))
    # Not the unchanged bundle re-pointed: a bundle without the code domain's data.
    assert without_code.bundle_path != full.bundle_path
    assert "code" in full.counts and "code" not in without_code.counts
    assert "configurations" in without_code.counts
    again = pipeline.compile_bundle([examples], tmp_path, quiet=True, skip=("code",))
    assert again.bundle_path == without_code.bundle_path


def test_skip_of_an_unknown_or_the_configuration_domain_is_refused(tmp_path):
    examples = Path(__file__).resolve().parent.parent / "examples"
    result = CliRunner().invoke(main, ["compile", str(examples), "--out", str(tmp_path), "--skip", "nope"])
    assert result.exit_code != 0 and "no such domain" in result.output and "code" in result.output
    result = CliRunner().invoke(main, ["compile", str(examples), "--out", str(tmp_path),
                                       "--skip", "configuration"])
    assert result.exit_code != 0 and "link into it" in result.output
    assert not list(tmp_path.glob("bundle-*"))


def test_linked_model_from_the_cache_gives_the_graph_of_a_cold_compile(tmp_path):
    """A dictionary-only change takes documents and edges from the linked-model cache; the
    relation graph built from them is the one a compile without cache builds."""
    import shutil
    src = tmp_path / "cfg"
    shutil.copytree(Path(__file__).resolve().parent.parent / "examples" / "config-designer", src)
    words = tmp_path / "dictionary.toml"
    words.write_text('[[aliases]]\nphrase = "кто"\ntargets = ["Справочник.Партнеры"]\n', encoding="utf-8")
    out = tmp_path / "bundles"
    pipeline.compile_bundle([src, words], out, quiet=True)
    words.write_text('[[aliases]]\nphrase = "кто это"\ntargets = ["Справочник.Партнеры"]\n',
                     encoding="utf-8")
    warm = pipeline.compile_bundle([src, words], out, quiet=True)
    assert "load linked model" in warm.report.timings          # the model came from the cache
    cold = pipeline.compile_bundle([src, words], tmp_path / "cold", quiet=True, cache=False)
    graph = {n: s["sha256"] for n, s in Bundle.open(cold.bundle_path).manifest["segments"].items()
             if n.startswith("graph.")}
    assert graph and graph == {n: s["sha256"] for n, s in
                               Bundle.open(warm.bundle_path).manifest["segments"].items() if n.startswith("graph.")}
    assert Bundle.open(warm.bundle_path).content_hash == Bundle.open(cold.bundle_path).content_hash


def test_cold_compile_hashing_after_the_parse_gives_the_same_bundle(tmp_path, monkeypatch):
    """A cold compile walks and hashes a folder after its parse, while linking (as does a
    compile that finds many files changed); the bundle, its source fingerprint and the
    caches' behaviour are those of hashing first."""
    import shutil

    from v8atlas.compiler import fingerprint
    src = tmp_path / "cfg"
    shutil.copytree(Path(__file__).resolve().parent.parent / "examples" / "config-designer", src)
    begin = fingerprint.Fingerprinter.begin
    with monkeypatch.context() as m:   # the reference: every file hashed before the parse
        m.setattr(fingerprint.Fingerprinter, "begin", lambda self, path, defer=True, rule=None: begin(self, path, False, rule))
        first = pipeline.compile_bundle([src], tmp_path / "first", quiet=True)
    assert "wait for fingerprint" not in first.report.timings
    out = tmp_path / "later"
    later = pipeline.compile_bundle([src], out, quiet=True)
    assert "wait for fingerprint" in later.report.timings
    a, b = Bundle.open(first.bundle_path), Bundle.open(later.bundle_path)
    assert a.content_hash == b.content_hash and a.manifest["sources"] == b.manifest["sources"]
    again = pipeline.compile_bundle([src], out, quiet=True)        # every stat known now
    assert again.reused and "parse config" not in again.report.timings
    f = src / "Catalogs" / "Партнеры.xml"
    data = f.read_bytes()
    st = f.stat()
    f.write_bytes(data[:-1] + (b" " if data[-1:] != b" " else b"\n"))   # same size
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    edited = pipeline.compile_bundle([src], out, quiet=True)     # same size and mtime, new bytes
    assert "parse config" in edited.report.timings                # seen: parsed again
    # the old bytes back, hashed after the parse (one changed file is enough here): the
    # fingerprint is the first one's, so the first bundle is re-pointed before anything is
    # published (the search and card builds forked meanwhile are stopped, their folder gone)
    monkeypatch.setattr(fingerprint, "DEFER_AT", 1)
    f.write_bytes(data)
    back = pipeline.compile_bundle([src], out, quiet=True)
    assert "wait for fingerprint" in back.report.timings
    assert back.reused and back.bundle_path == later.bundle_path
    assert "parse config" in back.report.timings and "build search" not in back.report.timings
    assert not [p.name for p in out.iterdir() if p.name.startswith(TEMP_PREFIX)]
    (out / ".cache" / "fingerprints.pickle").unlink()            # a fresh copy: no stat known
    fresh = pipeline.compile_bundle([src], out, quiet=True)
    assert fresh.reused and fresh.bundle_path == later.bundle_path


def _touch_same_size(f: Path) -> None:
    """New bytes, the same size and mtime: only the content (and ctime) tell the edit."""
    data, st = f.read_bytes(), f.stat()
    f.write_bytes(data[:-1] + (b" " if data[-1:] != b" " else b"\n"))
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_a_skipped_domains_files_are_not_hashed_and_a_read_file_always_is(tmp_path):
    """Under --skip code the modules' bytes are no part of the fingerprint: editing one leaves
    the no-change recompile; a compile with the code domain sees the edit; an edited
    descriptor or a file no domain declares is always seen."""
    import shutil
    src = tmp_path / "cfg"
    shutil.copytree(Path(__file__).resolve().parent.parent / "examples" / "config-designer", src)
    unknown = src / "Catalogs" / "Номенклатура" / "Ext" / "Неизвестный.dat"
    unknown.parent.mkdir(parents=True, exist_ok=True)
    unknown.write_bytes(b"a file no domain declares\n")
    out = tmp_path / "bundles"
    structure = ("code", "forms")
    with_code = pipeline.compile_bundle([src], out, quiet=True, skip=("forms",))
    before = with_code.counts["code"]["ДемоТорговля"]["procedures"]
    first = pipeline.compile_bundle([src], out, quiet=True, skip=structure)
    module = src / "Catalogs" / "Номенклатура" / "Forms" / "ФормаСписка" / "Ext" / "Form" / "Module.bsl"
    module.write_text(module.read_text(encoding="utf-8-sig")
                      + "\nПроцедура ДобавленаПослеКомпиляции()\nКонецПроцедуры\n", encoding="utf-8")
    again = pipeline.compile_bundle([src], out, quiet=True, skip=structure)
    assert again.reused and again.bundle_path == first.bundle_path
    assert "parse config" not in again.report.timings          # the fast path: nothing parsed
    seen = pipeline.compile_bundle([src], out, quiet=True, skip=("forms",))
    assert not seen.reused and "parse code" in seen.report.timings
    assert seen.counts["code"]["ДемоТорговля"]["procedures"] == before + 1
    for edited in (src / "Catalogs" / "Номенклатура.xml", unknown):
        _touch_same_size(edited)
        recompiled = pipeline.compile_bundle([src], out, quiet=True, skip=structure)
        assert "parse config" in recompiled.report.timings, edited.name


def test_the_fingerprint_rule_names_the_files_hashed(tmp_path):
    """A file the rule leaves counts by its path: its edit keeps the fingerprint, its removal
    does not; without a rule every byte counts."""
    from v8atlas.compiler.code.domain import is_module_file
    from v8atlas.compiler.config.domain import may_read
    from v8atlas.compiler.fingerprint import FileRule, Fingerprinter
    (tmp_path / "Ext").mkdir()
    (tmp_path / "Catalog.xml").write_text("<a/>", encoding="utf-8")
    module = tmp_path / "Ext" / "Module.bsl"
    module.write_text("Процедура А() КонецПроцедуры", encoding="utf-8")
    config_only, with_code = FileRule((may_read,)), FileRule((may_read, is_module_file))
    fp = Fingerprinter()
    before = {r: fp.begin(tmp_path, defer=False, rule=r) for r in (None, config_only, with_code)}
    assert before[None] == before[with_code] != before[config_only]
    module.write_text("Процедура Б() КонецПроцедуры", encoding="utf-8")
    assert fp.begin(tmp_path, defer=False, rule=config_only) == before[config_only]
    assert fp.begin(tmp_path, defer=False, rule=with_code) != before[with_code]
    assert fp.begin(tmp_path, defer=False) != before[None]
    module.unlink()
    assert fp.begin(tmp_path, defer=False, rule=config_only) != before[config_only]


def test_a_help_page_is_not_read_by_the_configuration_domain(tmp_path):
    """An object's and a form's help pages (Designer's Ext/Help.xml, Ext/Help/<lang>.html) are
    read by no domain: under --skip code --skip forms their edits keep the fingerprint, their
    removal does not; the descriptor beside them always counts."""
    from v8atlas.compiler.config.domain import may_read
    from v8atlas.compiler.fingerprint import FileRule, Fingerprinter
    obj = tmp_path / "Catalogs" / "Товары"
    (obj / "Ext" / "Help").mkdir(parents=True)
    (obj / "Forms" / "ФормаСписка" / "Ext" / "Help").mkdir(parents=True)
    descriptor = tmp_path / "Catalogs" / "Товары.xml"
    descriptor.write_text("<a/>", encoding="utf-8")
    pages = [obj / "Ext" / "Help.xml", obj / "Ext" / "Help" / "ru.html",
             obj / "Forms" / "ФормаСписка" / "Ext" / "Help.xml",
             obj / "Forms" / "ФормаСписка" / "Ext" / "Help" / "ru.html"]
    for page in pages:
        page.write_text("<html>справка</html>", encoding="utf-8")
    rule = FileRule((may_read,))
    fp = Fingerprinter()
    before = fp.begin(tmp_path, defer=False, rule=rule)
    for page in pages:
        page.write_text("<html>другая справка</html>", encoding="utf-8")
        assert fp.begin(tmp_path, defer=False, rule=rule) == before, page
    assert fp.begin(tmp_path, defer=False) != fp.begin(tmp_path, defer=False, rule=rule)
    descriptor.write_text("<b/>", encoding="utf-8")
    assert fp.begin(tmp_path, defer=False, rule=rule) != before
    descriptor.write_text("<a/>", encoding="utf-8")
    pages[-1].unlink()
    assert fp.begin(tmp_path, defer=False, rule=rule) != before


def test_the_walk_lists_files_folder_by_folder_in_name_order(tmp_path):
    """The fingerprint's walk order (part of the fingerprint): each folder's entries by name,
    a folder's files where its name sorts — "a/x" before "a-b", unlike a sort of whole paths."""
    from v8atlas.compiler.fingerprint import walk_files
    for rel in ("a/x", "a-b", "a/c/d", "b", ".git/ignored", "a/.git/ignored"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(rel, encoding="utf-8")
    listed = [rel for rel, entry in walk_files(tmp_path)]
    assert listed == ["a/c/d", "a/x", "a-b", "b"]
    assert all(entry.path == str(tmp_path / rel) for rel, entry in walk_files(tmp_path))


def test_compile_run_as_the_process_ends_it_with_the_path_printed_and_strict_status(tmp_path):
    """`v8atlas compile` as the process's entry ends the process itself once the bundle is
    published (the model is left to the process's end, not freed): the bundle path is still
    the last stdout line, the report summary is on stderr, and --strict's status is kept."""
    import shutil
    import subprocess
    repo = Path(__file__).resolve().parent.parent
    shutil.copytree(repo / "examples" / "config-designer", tmp_path / "src" / "cfg")
    (tmp_path / "src" / "broken.hbk").write_bytes(b"not a container " * 200)
    out = tmp_path / "bundles"
    done = subprocess.run([sys.executable, "-m", "v8atlas", "compile", str(tmp_path / "src"),
                           "--out", str(out), "-q", "--no-cache", "--strict"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert Path(done.stdout.strip().splitlines()[-1]) == Bundle.open(out).path
    assert "source-failed" in done.stderr and "broken.hbk" in done.stderr
    (tmp_path / "src" / "broken.hbk").unlink()
    done = subprocess.run([sys.executable, "-m", "v8atlas", "compile", str(tmp_path / "src"),
                           "--out", str(out), "-q", "--no-cache", "--strict"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip().splitlines()[-1]) == Bundle.open(out).path
    assert Bundle.open(out).counts


def test_compile_called_from_python_returns_and_a_closed_stdout_keeps_the_status(tmp_path):
    """Only the process's entry (console script, ``python -m v8atlas``) ends the process at
    once: ``main`` called from Python returns to its caller (a tool, a profiler), and a compile
    whose stdout is closed still publishes and exits 0."""
    import subprocess
    repo = Path(__file__).resolve().parent.parent
    src = repo / "examples" / "config-designer"
    script = ("import sys\nfrom v8atlas.cli import main\n"
              "try:\n    main(['compile', sys.argv[1], '--out', sys.argv[2], '-q', '--no-cache'],"
              " standalone_mode=False)\n"
              "finally:\n    print('returned to the caller')\n")
    done = subprocess.run([sys.executable, "-c", script, str(src), str(tmp_path / "a")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "returned to the caller"
    assert Path(done.stdout.splitlines()[-2]) == Bundle.open(tmp_path / "a").path
    closed = subprocess.run([sys.executable, "-m", "v8atlas", "compile", str(src), "--out",
                             str(tmp_path / "b"), "-q", "--no-cache"],
                            stderr=subprocess.PIPE, text=True, timeout=300,
                            preexec_fn=lambda: os.close(1))   # the command's stdout closed
    assert closed.returncode == 0, closed.stderr
    assert "Traceback" not in closed.stderr
    assert Bundle.open(tmp_path / "b").counts
