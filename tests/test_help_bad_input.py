"""Broken help books: each problem is a clear error or warning naming book and element; other
sources still compile."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bundle_factory import sample_help_module
from v8atlas.compiler.help.brace import BraceError, parse
from v8atlas.compiler.help.hbk import HelpBookError, open_book
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.compiler.v8container import write_container

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def sample():
    return sample_help_module()


def _book(sample, files: dict[str, bytes] | None = None, *, storage: bytes | None = None,
          toc: bytes | None = None) -> bytes:
    files = dict(files if files is not None else sample.build_context(sample.MID, False))
    toc_text = files.pop("__toc__")
    elements = [("Book", "\ufeff{7,\"SyntaxHelperContext\",{1,1,{\"#\",\"x\"}},0}".encode()),
                ("FileStorage", storage if storage is not None else sample._zip(files)),
                ("PackBlock", sample._zip({"0": toc if toc is not None else toc_text}))]
    return write_container(elements, chain_page=512)


def _write(tmp: Path, rel: str, data: bytes) -> Path:
    p = tmp / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    return p


def test_brace_errors_say_where():
    with pytest.raises(BraceError, match=r"not closed.*line 1, column 4"):
        parse('{1,{2,{3}')
    with pytest.raises(BraceError, match=r"unbalanced '}'"):
        parse('{1}}')


def test_file_storage_not_zip(tmp_path, sample):
    p = _write(tmp_path, "8.3.24/shcntx_ru.hbk", _book(sample, storage=b"not a zip at all"))
    with pytest.raises(HelpBookError, match=r"shcntx_ru\.hbk: element FileStorage is not a ZIP"):
        open_book(p)


def test_toc_with_unbalanced_braces(tmp_path, sample):
    p = _write(tmp_path, "8.3.24/shcntx_ru.hbk", _book(sample, toc="\ufeff{2,{1,0,0,{0,0,{1,1,{\"ru\",\"x\"}},\"\"}".encode()))
    with pytest.raises(HelpBookError, match=r"shcntx_ru\.hbk: PackBlock: .*not closed"):
        open_book(p)


def test_not_a_container_and_truncated(tmp_path, sample):
    p = _write(tmp_path, "8.3.24/a.hbk", b"PK\x03\x04 this is a zip-looking text, not a container" * 4)
    with pytest.raises(HelpBookError, match=r"a\.hbk: not a v8 container"):
        open_book(p)
    whole = _book(sample)
    p = _write(tmp_path, "8.3.24/b.hbk", whole[: len(whole) // 2])
    with pytest.raises(HelpBookError, match=r"b\.hbk: element .*(truncated|past the end|larger)"):
        open_book(p)


def test_bad_pages_are_warnings_and_the_rest_compiles(tmp_path, sample):
    files = sample.build_context(sample.MID, False)
    victim = next(k for k in files if k.endswith(".html") and "StrLen" in k)
    files[victim] = files[victim].replace("Считает".encode(), b"\xff\xfe\xfa")
    evil = dict(files)
    evil["../../etc/evil.html"] = b"<html></html>"
    src = tmp_path / "src"
    _write(src, "8.3.24.1691/shcntx_ru.hbk", _book(sample, evil))
    _write(src, "8.3.23.1000/shcntx_ru.hbk", _book(sample, storage=b"garbage"))      # broken source
    res = compile_bundle([src], tmp_path / "out", cache=False, quiet=True)
    msgs = [f"{w.source} | {w.file or w.object} | {w.message}" for w in res.report.warnings]
    assert any(victim in m and "invalid UTF-8 at byte offset" in m for m in msgs), msgs
    # the rest of the page stays UTF-8: no mojibake chapters, the description is readable
    assert not res.report.unknown, res.report.unknown
    from v8atlas.formats import Bundle
    from v8atlas.formats.catalog import Catalog
    cat = Catalog(Bundle.open(res.bundle_path))
    card = cat.card(cat.find_key("platform/Глобальный контекст.СтрДлина"))
    assert "\ufffd" in card["description"] and "символ" in card["description"], card["description"]
    assert any("../../etc/evil.html" in m and "unsafe" in m for m in msgs), msgs
    errors = [f"{e.source}: {e.message}" for e in res.report.errors]
    assert len(errors) == 1 and "8.3.23.1000/shcntx_ru.hbk" in errors[0] and "FileStorage" in errors[0]
    assert res.counts["documents"] > 20


def test_undeterminable_version_names_the_fix(tmp_path, sample):
    _write(tmp_path, "books/shcntx_ru.hbk", _book(sample, sample.build_context(sample.OLD, True)))
    res = compile_bundle([tmp_path / "books" / "shcntx_ru.hbk", REPO / "examples" / "help" / "8.3.27.2130"],
                         tmp_path / "out", cache=False, quiet=True)
    err = " ".join(e.message for e in res.report.errors)
    assert "cannot tell which platform version" in err and 'version = "8.3.24"' in err


def test_version_option_from_project_file(tmp_path, sample):
    _write(tmp_path, "books/shcntx_ru.hbk", _book(sample, sample.build_context(sample.OLD, True)))
    (tmp_path / "v8atlas.toml").write_text('[[help]]\nsource = "books/shcntx_ru.hbk"\nversion = "8.3.5"\n',
                                           encoding="utf-8")
    res = compile_bundle([tmp_path], tmp_path / "out", cache=False, quiet=True)
    assert not res.report.errors
    book = res.report.sections["help"]["books"][0]
    assert (book["version"], book["version_source"]) == ("8.3.5", "option")


def test_coverage_per_configuration(tmp_path):
    from v8atlas.compiler.help import link as help_link
    from v8atlas.compiler.links import ConfigModels
    from v8atlas.compiler.pipeline import LinkContext
    from v8atlas.compiler.report import CompileReport
    from v8atlas.compiler.sources import discover
    from v8atlas.compiler.help import plugin
    project = discover([REPO / "examples" / "help"])
    ctx = LinkContext(project=project, report=CompileReport())
    ctx.links.put(ConfigModels(platforms={"БСП": "8.3.23", "Старая": "8.3.10", "Древняя": "8.2.19"}))
    ctx.parsed["help"] = [(s, plugin.parse(s, ctx.report)) for s in project.sources]
    help_link.link(ctx.parsed["help"], ctx)
    cov = ctx.report.sections["help"]["configurations"]
    assert cov["БСП"]["status"] == "loaded" and cov["БСП"]["served_by"] == "8.3.23.1997"
    assert cov["Старая"]["status"] == "nearest-older" and cov["Старая"]["served_by"] == "8.3.5.1570"
    assert cov["Древняя"]["status"] == "missing"
    assert ctx.report.sections["help"]["unused_versions"] == ["8.3.27.2130"]
    # the same coverage goes into the manifest info, where list_sources and the dashboard read it
    info = ctx.info["help"]
    assert info["unused"] == ["8.3.27.2130"]
    assert info["configurations"]["Старая"] == {"needs": "8.3.10", "status": "nearest-older",
                                                "served_by": "8.3.5.1570"}
    assert info["missing"] == ["8.2.19 for Древняя (answers use 8.3.5.1570)",
                               "8.3.10 for Старая (answers use 8.3.5.1570)"]
    # the gaps are warnings (printed with the summary on stderr), one line per configuration
    lines = [f"{w.source}: {w.message}" for w in ctx.report.warnings if w.code == "help-coverage"]
    assert len(lines) == 2, lines
    assert any(m.startswith("Старая: needs help 8.3.10") and "8.3.5.1570" in m for m in lines), lines
    assert any(m.startswith("Древняя: needs help 8.2.19") and "oldest book 8.3.5.1570" in m for m in lines), lines


def test_no_help_at_all_is_one_line(tmp_path):
    from v8atlas.compiler.help import link as help_link
    from v8atlas.compiler.links import ConfigModels
    from v8atlas.compiler.pipeline import LinkContext
    from v8atlas.compiler.report import CompileReport
    from v8atlas.compiler.sources import discover
    ctx = LinkContext(project=discover([REPO / "examples" / "config-designer"]), report=CompileReport())
    ctx.links.put(ConfigModels(platforms={"А": "8.3.23", "Б": "8.3.10"}))
    help_link.link([], ctx)
    assert [(w.code, w.message) for w in ctx.report.warnings] == \
        [("help-coverage", "no help books loaded: platform answers unavailable")]
    assert ctx.report.sections["help"]["configurations"]["А"]["status"] == "missing"


def test_compare_tool_lists_new_query_functions_without_version(tmp_path, sample):
    def query_book(files: dict[str, bytes]) -> bytes:
        files = dict(files)
        files.pop("__toc__", None)
        book = "\ufeff{7,\"SyntaxHelperQueries\",{1,1,{\"#\",\"q\"}},0}".encode()
        return write_container([("Book", book), ("FileStorage", sample._zip(files))], chain_page=512)

    new_files = sample.build_query()
    old_files = {k: v for k, v in new_files.items() if k != "StrFind"}
    new_files["FUTURE"] = "\ufeff<html><body><H1>Функция БУДУЩЕЕ</H1><PRE>БУДУЩЕЕ(&lt;X&gt;)</PRE></body></html>".encode()
    old = _write(tmp_path, "old/shquery_ru.hbk", query_book(old_files))
    new = _write(tmp_path, "new/shquery_ru.hbk", query_book(new_files))
    import subprocess
    proc = subprocess.run([sys.executable, str(REPO / "tools" / "compare_help_books.py"), str(old), str(new), "--all"],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert any(l.startswith("function\tБУДУЩЕЕ\t") and l.endswith("MISSING VERSION") for l in lines), lines
    assert any(l.startswith("function\tСТРНАЙТИ\t") and l.endswith("8.3.20") for l in lines), lines


def test_messages_are_sentences_without_exception_class_names(tmp_path, sample):
    """Whole-book failures are SourceErrors (the pipeline shows their message alone); a damaged
    page is a warning that says what is wrong in words."""
    import io
    import re
    import zipfile

    from v8atlas.compiler.sources import SourceError
    from v8atlas.compiler.v8container import ContainerError
    assert issubclass(HelpBookError, SourceError) and issubclass(ContainerError, SourceError)

    files = sample.build_context(sample.MID, False)
    victim = next(k for k in files if k.endswith(".html") and "StrLen" in k)
    storage = bytearray(sample._zip({k: v for k, v in files.items() if k != "__toc__"}))
    info = zipfile.ZipFile(io.BytesIO(bytes(storage))).getinfo(victim)
    data_at = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    storage[data_at + info.compress_size // 2] ^= 0xFF          # damaged member: bad data / CRC
    src = tmp_path / "src"
    _write(src, "8.3.24.1691/shcntx_ru.hbk", _book(sample, files, storage=bytes(storage)))
    _write(src, "8.3.23.1000/shcntx_ru.hbk", b"not a container")
    res = compile_bundle([src], tmp_path / "out", cache=False, quiet=True)
    page = [w.message for w in res.report.warnings if w.file == victim]
    assert page and "ZIP member in FileStorage is damaged" in page[0], page
    assert not any(re.search(r"\b\w+(Error|Exception|BadZipFile)\b:", t) for t in page), page
    (err,) = res.report.errors
    assert "8.3.23.1000/shcntx_ru.hbk" in err.source and err.message.startswith("not a v8 container"), err
    assert "Error" not in err.message, err    # the pipeline shows a SourceError's message alone
