"""Query-language and platform names asked the way code writes them (issue 14, item 7): a bare
clause word resolves to its «Предложение …» page, and a call with more arguments than a numbered
repeated parameter allows gets the argument-count note. Books are synthesized here."""
from __future__ import annotations

import pytest
from bundle_factory import sample_help_module
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats import Bundle
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot


@pytest.fixture(scope="module")
def snap(tmp_path_factory) -> Snapshot:
    """A query book whose SELECT clause is a «Предложение» page with no keyword page of its own
    (as in the real shquery book), plus a keyword page that owns its bare word, plus the
    sample context book (СтрШаблон)."""
    mod = sample_help_module()
    tmp = tmp_path_factory.mktemp("help")
    pages = [p for p in mod.QUERY_PAGES if p[0] not in ("SELECT", "TOTALS")]
    pages += [("SELECTSection", "Предложение ВЫБРАТЬ", None, "Описывает выборку данных."),
              ("TOTALSSection", "Предложение ИТОГИ", None, "Описывает итоги."),
              ("TOTALS", f"{mod.K} ИТОГИ", None, "Итоги. Англоязычное написание: <STRONG>TOTALS</STRONG>.")]
    mod.QUERY_PAGES = pages
    query = tmp / mod.NEW / "shquery_ru.hbk"
    query.parent.mkdir(parents=True)
    query.write_bytes(mod.make_book(mod.build_query(), "SyntaxHelperQueries", "Shquery"))
    context = tmp / mod.NEW / "shcntx_ru.hbk"
    context.write_bytes(mod.make_book(mod.build_context(mod.NEW, False), "SyntaxHelperContext", "Shcntx"))
    res = compile_bundle([query, context], tmp / "out", cache=False, quiet=True)
    return Snapshot(Bundle.open(res.bundle_path))


def platform(snap: Snapshot, name: str):
    return tools.call(snap, "get_platform", {"name": name})


@pytest.mark.parametrize("name", ["ВЫБРАТЬ", "выбрать", "SELECT", "Запрос.ВЫБРАТЬ"])
def test_bare_clause_word_resolves_to_its_clause_page(snap, name):
    r = platform(snap, name)
    assert r.outcome == "found", r.text
    assert "`Запрос.Предложение ВЫБРАТЬ`" in r.text.splitlines()[0]


def test_a_keyword_page_keeps_its_own_word(snap):
    r = platform(snap, "ИТОГИ")
    assert r.outcome == "found", r.text
    assert "`Запрос.ИТОГИ`" in r.text.splitlines()[0] and "keyword" in r.text.splitlines()[0]
    assert platform(snap, "Предложение ИТОГИ").outcome == "found"


def test_more_arguments_than_a_numbered_repeated_parameter_allows(snap):
    eleven = "СтрШаблон(\"%1\", " + ", ".join(str(i) for i in range(1, 12)) + ")"
    r = platform(snap, eleven)
    assert r.outcome == "found", r.text
    assert "Note: the call form passes 12 argument(s); the variant(s) of this version take 1–11." in r.text
    ten = platform(snap, "СтрШаблон(\"%1\", " + ", ".join(str(i) for i in range(1, 11)) + ")")
    assert "the call form passes" not in ten.text


# -- links to same-named elements ("see also", "use instead") -------------------------------------

def _pcard(name: str, kind: str, page: str, **extra) -> dict:
    return {"card": "platform", "v": 1, "kind": kind, "name": name, "name_en": None, "since": None,
            "until": None, "present_in": ["8.3.27.2130"], "description": "", "variants": [],
            "availability": [], "deprecated": [], "page": page, **extra}


@pytest.fixture(scope="module")
def linked(tmp_path_factory) -> Snapshot:
    """ЗаписьXML.Закрыть (deprecated on 8.3.24) says "use Поток.Закрыть" and "see also
    Поток.Закрыть"; two elements are named Поток.Закрыть (a method and a property), and the
    linked one — the method — appeared in 8.3.27."""
    from bundle_factory import build_bundle
    from v8atlas.compiler.documents import Doc
    old = _pcard("ЗаписьXML.Закрыть", "method", "/objects/xml/close.html",
                 deprecated=[{"deprecated_since": "8.3.20", "replacement": ["Поток.Закрыть"],
                              "replacement_pages": ["/objects/stream/methods/close.html"],
                              "marked_since": None, "until": None}],
                 see_also=[{"title": "Закрыть", "name": "Поток.Закрыть",
                            "page": "/objects/stream/methods/close.html"}])
    docs = [Doc("platform", "platform/ЗаписьXML.Закрыть", "method", "ЗаписьXML.Закрыть", old),
            Doc("platform", "platform/Поток.Закрыть#method", "method", "Поток.Закрыть",
                _pcard("Поток.Закрыть", "method", "/objects/stream/methods/close.html", since="8.3.27"),
                since="8.3.27"),
            Doc("platform", "platform/Поток.Закрыть#property", "property", "Поток.Закрыть",
                _pcard("Поток.Закрыть", "property", "/objects/stream/properties/close.html"))]
    info = {"configurations": [{"name": "К", "version": "1", "platform_version": "8.3.24"}]}
    return Snapshot(Bundle.open(build_bundle(tmp_path_factory.mktemp("linked"), docs, info=info)))


def test_links_resolve_to_the_linked_element_and_say_it_is_not_on_this_platform(linked):
    r = tools.call(linked, "get_platform", {"name": "ЗаписьXML.Закрыть", "config": "К"})
    assert r.outcome == "found", r.text
    note = "`Поток.Закрыть` (method) (not on platform 8.3.24: since 8.3.27)"
    assert f"⚠ Not recommended since 8.3.20; use {note}" in r.text, r.text
    assert f"See also: {note}" in r.text, r.text
    assert "(property)" not in r.text
