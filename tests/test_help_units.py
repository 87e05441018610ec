"""Small units of the help reader: bilingual names, parameter rubrics, both markups, versions."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from v8atlas.compiler.help.brace import dumps, parse
from v8atlas.compiler.help.pages import parse_page, split_bilingual
from v8atlas.compiler.help.versions import version_from_path
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.compiler.v8container import write_container

REPO = Path(__file__).resolve().parent.parent


def test_split_bilingual_only_takes_latin_tails():
    assert split_bilingual("Массив.Найти (Array.Find)") == ("Массив.Найти", "Array.Find")
    assert split_bilingual("Мобильное приложение (клиент)") == ("Мобильное приложение (клиент)", None)
    assert split_bilingual("<Имя ключа> (<Key name>)") == ("<Имя ключа>", "<Key name>")
    assert split_bilingual("По умолчанию") == ("По умолчанию", None)


def test_brace_round_trip_with_quotes_and_atoms():
    v = parse('\ufeff{2,"Работа с ""JSON""",{1,0},3d29c670-a5a6-4460-ac5a-88f499ff7a1c}')
    assert v == [2, 'Работа с "JSON"', [1, 0], "3d29c670-a5a6-4460-ac5a-88f499ff7a1c"]
    assert parse(dumps(v)) == v


OLD = ('<h1 class="V8SH_pagetitle">Т.М (T.M)</h1><div class="V8SH_title">Т (T)</div><div class="V8SH_heading">М (M)</div>'
       '<div class="V8SH_chapter"> <p style="margin-top: 3px">Синтаксис:</div>М(&lt;А&gt;)'
       '<div class="V8SH_chapter"> <p style="margin-top: 3px">Параметры:</div>'
       '<div class="V8SH_rubric"> <p style="margin-top: 2px">&lt;А&gt; (необязательный)</div>Тип: <a href="x">Число</a>, '
       'Строка. <br>Текст. <br>Значение по умолчанию: 5.<HR><p><a href=http://x?C="id=1" target=_blank>m</a></p>')
NEW = ('<h1 class="V8SH_pagetitle">Т.М (T.M)</h1><p class="V8SH_title">Т (T)</p><p class="V8SH_heading">М (M)</p>'
       '<div class="__SINCE_SHOW_STYLE__"><p class="not_used">Доступен, начиная с версии 8.3.9.</p></div>'
       '<p class="V8SH_chapter">Вариант синтаксиса: Первый</p><p class="V8SH_chapter">Синтаксис:</p>М()'
       '<p class="V8SH_chapter">Вариант синтаксиса: Второй</p><p class="V8SH_chapter">Синтаксис:</p>М(&lt;З1&gt;,...,&lt;ЗN&gt;)'
       '<p class="V8SH_chapter">Параметры:</p><div class="V8SH_rubric"> <p>&lt;З1&gt;,...,&lt;ЗN&gt; (обязательный)</div>Тип: Произвольный.'
       '<p class="V8SH_chapter">Доступность: </p><p>Сервер, мобильное приложение (клиент), новый клиент.</p>'
       '<p class="V8SH_chapter">Использование в версии:</p><p class="V8SH_versionInfo">Описание изменено в версии 8.3.20.</p><HR>')


def test_old_markup_page():
    rec, warnings = parse_page(OLD, "objects/T/methods/M1.html")
    assert not warnings and rec.markup == "old"
    (v,) = rec.variants
    p = v.params[0]
    assert (p.name, p.required, p.types, p.default) == ("А", False, ["Число", "Строка"], "5")


def test_new_markup_page_variants_variadic_availability_marks():
    rec, _ = parse_page(NEW, "objects/T/methods/M1.html")
    assert rec.markup == "new" and rec.since == "8.3.9" and rec.changed_in == ["8.3.20"]
    assert [v.title for v in rec.variants] == ["Первый", "Второй"]
    assert [(p.name, p.variadic) for p in rec.variants[1].params] == [("З1-ЗN", "ellipsis")]
    assert rec.availability == ["Сервер", "МобильноеПриложениеКлиент", "новый клиент"]   # unknown kept


def test_version_from_path():
    assert version_from_path(Path("/h/8.3.27.2130/shcntx_ru.hbk")) == "8.3.27.2130"
    assert version_from_path(Path("/h/books/shcntx_ru_8_3_24.hbk")) == "8.3.24"
    assert version_from_path(Path("/h/books/shcntx_ru.hbk")) is None


def test_version_from_content_is_a_warned_lower_bound(tmp_path):
    spec = importlib.util.spec_from_file_location("make_sample_help", REPO / "tools" / "make_sample_help.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    files = mod.build_context(mod.NEW, False)
    book = tmp_path / "books" / "shcntx_ru.hbk"
    book.parent.mkdir()
    book.write_bytes(mod.make_book(files, "SyntaxHelperContext", "x"))
    res = compile_bundle([book], tmp_path / "out", cache=False, quiet=True)
    (entry,) = res.report.sections["help"]["books"]
    assert entry["version_source"] == "content" and entry["version"] == "8.3.26"
    assert any(w.code == "help-version" and "lower bound" in w.message for w in res.report.warnings)


def test_container_element_without_body_is_read_as_empty():
    from v8atlas.compiler.v8container import Container
    c = Container(write_container([("PackBlock", None), ("Book", b"{1}")]))
    assert c.read("PackBlock") == b"" and c.element("PackBlock").data_addr is None


@pytest.mark.parametrize("text", ["{1,{2}", "{1}}", '{"a}'])
def test_unbalanced_is_an_error(text):
    from v8atlas.compiler.help.brace import BraceError
    with pytest.raises(BraceError):
        parse(text)


def test_packblock_without_body_falls_back_to_file_storage(tmp_path):
    spec = importlib.util.spec_from_file_location("make_sample_help", REPO / "tools" / "make_sample_help.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    files = mod.build_context(mod.MID, False)
    files.pop("__toc__")
    data = write_container([("Book", "{7,\"SyntaxHelperContext\",{1,1,{\"#\",\"x\"}},0}".encode()),
                            ("FileStorage", mod._zip(files)), ("PackBlock", None)])
    book = tmp_path / "8.3.23" / "shcntx_ru.hbk"
    book.parent.mkdir()
    book.write_bytes(data)
    res = compile_bundle([book], tmp_path / "out", cache=False, quiet=True)
    assert any(w.object == "PackBlock" and "no table of contents" in w.message for w in res.report.warnings)
    assert res.report.sections["help"]["books"][0]["elements"] > 30


def test_unknown_chapter_is_kept_and_named():
    page = NEW.replace("<HR>", '<p class="V8SH_chapter">Странная глава:</p>Текст главы.<HR>')
    rec, _ = parse_page(page, "p.html")
    assert rec.unknown_chapters == ["Странная глава"] and "Текст главы." in rec.notes


def test_language_book_page_without_owner_title():
    page = ('<H1 class=V8SH_pagetitle>Строка (String)</H1><p class="V8SH_chapter">Описание:</p>Текст.'
            '<p class="V8SH_chapter">Пример:</p><pre class="V8SH_codesample">А = "x";</pre><HR>')
    rec, _ = parse_page(page, "def_String")
    assert rec.page_title == "Строка (String)" and rec.examples == ['А = "x";']


def test_same_full_name_twice_in_one_book_keeps_both():
    from v8atlas.compiler.help.context_book import ElementRecord
    from v8atlas.compiler.help.merge import merge_books
    from v8atlas.compiler.help.cards import platform_doc
    a = ElementRecord("Форма", "type", "objects/c1/Form.html", 1, "Form")
    b = ElementRecord("Форма", "type", "objects/c2/Form.html", 2, "Form")
    for el in (a, b):
        el.rec, _ = parse_page(f'<h1 class="V8SH_pagetitle">Форма (Form)</h1><p class="V8SH_title">Форма (Form)</p>'
                               f'<p class="V8SH_chapter">Описание:</p>{el.page}<HR>', el.page)
    warnings = []
    versions, merged = merge_books([("8.3.23", [a, b]), ("8.3.24", [a, b])], lambda v, m: warnings.append(m))
    keys = sorted(platform_doc(m, versions, {}, True).key for m in merged)
    assert keys == ["platform/Форма#type", "platform/Форма#type2"]
    assert len(merged) == 2 and all(m.present_in(versions) == versions for m in merged)
    assert warnings and "occurrence #2" in warnings[0]


def test_pages_without_owner_titles_are_still_classified(tmp_path):
    import re
    spec = importlib.util.spec_from_file_location("make_sample_help", REPO / "tools" / "make_sample_help.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    files = mod.build_context(mod.MID, False)
    strip = lambda b: re.sub(rb'<p class="V8SH_(title|heading)">.*?</p>', b"", b)   # noqa: E731
    member = next(k for k in files if k.endswith(".html") and "/Array/methods/Find" in k)
    files[member] = strip(files[member])
    files["objects/catalog2/Array.html"] = strip(files["objects/catalog2/Array.html"])
    book = tmp_path / "8.3.23" / "shcntx_ru.hbk"
    book.parent.mkdir()
    book.write_bytes(mod.make_book(files, "SyntaxHelperContext", "x"))
    res = compile_bundle([book], tmp_path / "out", cache=False, quiet=True)
    from v8atlas.formats import Bundle
    from v8atlas.formats.catalog import Catalog
    cat = Catalog(Bundle.open(res.bundle_path))
    d = cat.find_key("platform/Массив.Найти")
    assert d is not None and cat.kind_name(d) == "method" and cat.card(d)["owner_en"] == "Array"
    t = cat.find_key("platform/Массив")
    assert t is not None and cat.kind_name(t) == "type"


def test_a_book_beats_a_contradicting_since_mark():
    from v8atlas.compiler.help.context_book import ElementRecord
    from v8atlas.compiler.help.merge import merge_books

    def el(since: str | None) -> ElementRecord:
        e = ElementRecord("Т.М", "method", "objects/T/methods/M1.html", 1, "T.M", "Т", "T", "М", "M")
        mark = f'<p class="V8SH_versionInfo">Доступен, начиная с версии {since}.</p>' if since else ""
        e.rec, _ = parse_page('<h1 class="V8SH_pagetitle">Т.М</h1><p class="V8SH_title">Т (T)</p>'
                              f'<p class="V8SH_heading">М (M)</p><p class="V8SH_chapter">Использование в версии:</p>{mark}<HR>',
                              e.page)
        return e
    _, (m,) = merge_books([("8.3.20.1", []), ("8.3.23.1", [el("8.3.24")]), ("8.3.27.1", [el("8.3.24")])], lambda *a: None)
    assert (m.since, m.since_source, m.extra["since_mark"]) == ("8.3.23", "books", "8.3.24")
    _, (m,) = merge_books([("8.3.20.1", []), ("8.3.23.1", [el("8.3.21")])], lambda *a: None)
    assert (m.since, m.since_source) == ("8.3.21", "mark")
    # No mark and absent from the older book: not evidence the platform lacked it (СтрДлина was
    # documented in the 8.3.5 language book): unbounded, the card says where it is documented.
    _, (m,) = merge_books([("8.3.5.1", []), ("8.3.23.1", [el(None)]), ("8.3.27.1", [el(None)])], lambda *a: None)
    assert (m.since, m.since_source, m.until, m.extra["documented_from"]) == (None, None, None, "8.3.23")
    # Gone from a newer book: a removal, bounded.
    _, (m,) = merge_books([("8.3.5.1", [el(None)]), ("8.3.23.1", [])], lambda *a: None)
    assert (m.since, m.until) == (None, "8.3.23") and "documented_from" not in m.extra


def test_page_decoding_one_bad_byte_keeps_utf8():
    from v8atlas.compiler.help.hbk import decode_page
    page = "\ufeff<p class=\"V8SH_chapter\">Методы:</p><p>Считает символы</p>".encode()
    at = page.index("Считает".encode())
    broken = page[:at] + b"\xff" + page[at:]
    text, problem = decode_page(broken)
    assert "Методы:" in text and "\ufffdСчитает символы" in text and not text.startswith("\ufeff")
    assert problem and f"byte offset {at}" in problem and "cp1251" not in problem
    assert decode_page(page) == (page.decode("utf-8-sig"), None)


def test_page_decoding_cp1251_page():
    from v8atlas.compiler.help.hbk import decode_page
    page = "<p>Методы:</p><p>Считает символы строки</p>".encode("cp1251")
    text, problem = decode_page(page)
    assert text == "<p>Методы:</p><p>Считает символы строки</p>"
    assert problem and "not UTF-8" in problem and "cp1251" in problem
