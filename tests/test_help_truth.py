"""Acceptance: compile the shared synthetic help books and check every element against fixtures.json.

The books were written by an independent generator (../shared/tools/make_help_fixtures.py);
fixtures.json is its ground truth. The whole pipeline runs (discover → parse → link → build →
publish) and the checks read the published bundle through ``Catalog``, as the server does.
"""
from __future__ import annotations

import json

import pytest

from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats import Bundle
from v8atlas.formats.catalog import Catalog
from v8atlas.formats.platform_version import parse_version

from realdata import data_path

pytestmark = pytest.mark.realdata


@pytest.fixture(scope="module")
def truth() -> dict:
    return json.loads(data_path("help", "fixtures.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    out = tmp_path_factory.mktemp("help-bundles")
    result = compile_bundle([data_path("help")], out, cache=False, quiet=True)
    return result, Catalog(Bundle.open(result.bundle_path))


def _v(s: str | None) -> tuple[int, ...]:
    return tuple((list(parse_version(s) or ()) + [0, 0, 0])[:3])


def valid_at(item: dict, version: str) -> bool:
    v = _v(version)
    return (item.get("since") is None or _v(item["since"]) <= v) and \
           (item.get("until") is None or v < _v(item["until"]))


def _doc(cat: Catalog, name: str, kind: str) -> dict:
    for key in (f"platform/{name}", f"platform/{name}#{kind}"):
        d = cat.find_key(key)
        if d is not None and cat.kind_name(d) == kind:
            return cat.card(d)
    raise AssertionError(f"no document for {kind} {name!r}")


def _codes(tokens: list[str], vocabulary: dict) -> str:
    by_token = {v["token"]: k for k, v in vocabulary.items()}
    return "".join(by_token.get(t, "?") for t in tokens)


def test_every_platform_element_of_every_book(compiled, truth):
    _, cat = compiled
    vocab = truth["availability_vocabulary"]
    problems: list[str] = []
    checked = 0
    for book in truth["books"]:
        if book["kind"] != "shcntx":
            continue
        version = book["version"]
        for t in book["elements"]:
            card = _doc(cat, t["name"], t["kind"])
            checked += 1
            where = f"{version} {t['name']}"
            if version not in card["present_in"]:
                problems.append(f"{where}: not marked present in this version")
            if t.get("name_en") != card["name_en"]:
                problems.append(f"{where}: name_en {card['name_en']!r} != {t.get('name_en')!r}")
            # A book with marks shows since-marks; null is checked too (an element without a mark
            # must not get a since inferred from its absence in an older book).
            if book["since_marks"] and card["since"] != t["since"]:
                problems.append(f"{where}: since {card['since']!r} != {t['since']!r}")
            if t.get("since_compat") and card["since_compat"] != t["since_compat"]:
                problems.append(f"{where}: since_compat {card['since_compat']!r}")
            dep = [d for d in card["deprecated"] if valid_at({"since": d["marked_since"], "until": d["until"]}, version)]
            if bool(dep) != t["deprecated"]:
                problems.append(f"{where}: deprecated {bool(dep)} != {t['deprecated']}")
            elif dep:
                if dep[0]["deprecated_since"] != t.get("deprecated_since"):
                    problems.append(f"{where}: deprecated_since {dep[0]['deprecated_since']!r}")
                if dep[0]["replacement"] != t.get("replacement"):
                    problems.append(f"{where}: replacement {dep[0]['replacement']!r} != {t.get('replacement')!r}")
            if "param_counts" in t:
                variants = [v for v in card["variants"] if valid_at(v, version)]
                newest = version == truth["cross_version"]["versions"][-1]
                if newest and [len(v["params"]) for v in variants] != t["param_counts"]:
                    problems.append(f"{where}: variants not in page order of the newest book")
                if sorted(len(v["params"]) for v in variants) != sorted(t["param_counts"]):
                    problems.append(f"{where}: param counts {[len(v['params']) for v in variants]} != {t['param_counts']}")
                else:
                    mine = sorted((tuple((p["name"], p["required"], tuple(p["types"])) for p in v["params"])
                                   for v in variants))
                    theirs = sorted((tuple((p["name"], p.get("required"), tuple(p.get("types", []))) for p in v["params"])
                                     for v in t["variants"]))
                    if mine != theirs:
                        problems.append(f"{where}: parameters differ: {mine} != {theirs}")
                    if "returns" in t and variants and variants[0]["returns"] != t["returns"]:
                        problems.append(f"{where}: returns {variants[0]['returns']} != {t['returns']}")
            avail = [a for a in card["availability"] if valid_at(a, version)]
            codes = _codes(avail[0]["value"], vocab) if avail else ""
            if codes != t.get("availability", ""):
                problems.append(f"{where}: availability {codes!r} != {t.get('availability', '')!r}")
            if t.get("usage") and card.get("usage") != t["usage"]:
                problems.append(f"{where}: usage {card.get('usage')!r} != {t['usage']!r}")
            if t.get("changed_in") and t["changed_in"] not in card["changed_in"]:
                problems.append(f"{where}: changed_in {card['changed_in']} lacks {t['changed_in']}")
    assert checked == sum(b["elements_total"] for b in truth["books"] if b["kind"] == "shcntx")
    assert not problems, f"{len(problems)} mismatches:\n" + "\n".join(problems[:40])


def test_cross_version_presence_and_bounds(compiled, truth):
    _, cat = compiled
    versions = truth["cross_version"]["versions"]
    problems = []
    for t in truth["cross_version"]["elements"]:
        card = _doc(cat, t["name"], t["kind"])
        if card["present_in"] != t["present_in"]:
            problems.append(f"{t['name']}: present_in {card['present_in']} != {t['present_in']}")
        if card["since"] != t["since"]:
            problems.append(f"{t['name']}: since {card['since']!r} != {t['since']!r}")
        if t["since"] is None and t["present_in"][0] != versions[0] and \
                card.get("documented_from") != ".".join(t["present_in"][0].split(".")[:3]):
            problems.append(f"{t['name']}: documented_from {card.get('documented_from')!r}")
        if t["since"] is None and not valid_at(card, versions[0]):
            problems.append(f"{t['name']}: has no since mark but is not valid on {versions[0]}")
        for v in versions:   # the answer for each book version carries that book's signature
            counts = sorted(len(x["params"]) for x in card["variants"] if valid_at(x, v))
            if v in t["param_counts"] and counts != sorted(t["param_counts"][v]):
                problems.append(f"{t['name']} @ {v}: {counts} != {t['param_counts'][v]}")
        if t["present_in"][-1] != versions[-1]:
            assert card["until"], f"{t['name']} is gone from the newest book but has no until"
    assert not problems, "\n".join(problems[:40])


def test_signature_for_old_platform_is_the_old_one(compiled):
    _, cat = compiled
    card = _doc(cat, "ЗаписьXML.ОткрытьФайл", "method")
    at_835 = [v for v in card["variants"] if valid_at(v, "8.3.5")]
    at_8310 = [v for v in card["variants"] if valid_at(v, "8.3.10")]
    at_8327 = [v for v in card["variants"] if valid_at(v, "8.3.27")]
    assert [len(v["params"]) for v in at_835] == [2]
    assert at_8310 == at_835                       # answered from the nearest older book
    assert sorted(len(v["params"]) for v in at_8327) == [3, 3]


def test_new_function_has_since_and_curated_replacement(compiled):
    _, cat = compiled
    card = _doc(cat, "Глобальный контекст.СтрРазделить", "global_method")
    assert card["since"] == "8.3.6"
    alt = card["older_platforms"]["alternatives"][0]
    assert alt["name"].endswith("РазложитьСтрокуВМассивПодстрок") and alt["caveat"]
    d = cat.find_key("platform/Глобальный контекст.СтрРазделить")
    assert cat.since[d] > 0


def test_exact_names_and_ambiguity(compiled):
    _, cat = compiled
    keys = lambda name: sorted(cat.keys[d] for d in cat.lookup(name))   # noqa: E731
    assert keys("Массив.Найти") == ["platform/Массив.Найти"]
    assert keys("array.find") == ["platform/Массив.Найти"]
    assert "platform/Массив.Найти" in keys("Найти") and len(keys("Найти")) > 2
    assert keys("Глобальный контекст.СтрНайти") == ["platform/Глобальный контекст.СтрНайти"]
    both = keys("СтрНайти")
    assert both == ["platform/Глобальный контекст.СтрНайти", "query/Запрос.СТРНАЙТИ"]
    assert keys("Запрос.ПОДСТРОКА") == ["query/Запрос.ПОДСТРОКА"]
    assert keys("StrFind") == both


def test_every_query_element(compiled, truth):
    _, cat = compiled
    book = next(b for b in truth["books"] if b["kind"] == "shquery")
    problems = []
    nested_tables = 0
    for t in book["elements"]:
        found = [cat.card(d) for d in cat.lookup(t["title"]) if cat.domain_name(d) == "query"]
        found = [c for c in found if c["page"] == t["page"]]
        if len(found) != 1:
            problems.append(f"{t['page']}: {len(found)} documents")
            continue
        c = found[0]
        for field in ("name", "kind", "name_en"):
            if c[field] != t[field]:
                problems.append(f"{t['page']}: {field} {c[field]!r} != {t[field]!r}")
        if t["kind"] in ("function", "aggregate_function") and [len(c["params"])] != t["param_counts"]:
            problems.append(f"{t['page']}: params {len(c['params'])} != {t['param_counts']}")
        closed = [x for x in t["tables"] if x.get("closed", True)]
        if [x["rows"] for x in c["tables"]] != [_with_inline_nested(x) for x in closed]:
            problems.append(f"{t['page']}: tables differ")
        for mine, theirs in zip(c["tables"], closed):
            if "nested_rows" not in theirs:
                continue
            nested_tables += 1
            kept = [(n["row"], n["col"], n["table"]["rows"]) for n in mine.get("nested", [])]
            if kept != [(*theirs["nested_at"], theirs["nested_rows"])]:
                problems.append(f"{t['page']}: nested table {kept} != {theirs['nested_at']} {theirs['nested_rows']}")
        if c["tables_dropped"] != any(not x.get("closed", True) for x in t["tables"]):
            problems.append(f"{t['page']}: tables_dropped {c['tables_dropped']}")
        note = t.get("platform_note") or ""
        if "8.3.20" in note and c["since"] != "8.3.20" or "8.3.22" in note and c["since"] != "8.3.22":
            problems.append(f"{t['page']}: since {c['since']!r} (note: {note})")
        # tables are shown in place (body) but not searched (fields)
        if c["tables"] and not any("table" in b for b in c["body"]):
            problems.append(f"{t['page']}: tables not placed in the body")
    assert nested_tables == sum("nested_rows" in x for t in book["elements"] for x in t["tables"]) > 0
    assert not problems, "\n".join(problems[:40])


def _with_inline_nested(table: dict) -> list[list[str]]:
    """The truth rows with the nested table written into its host cell (what a reader sees)."""
    rows = [list(r) for r in table["rows"]]
    if "nested_rows" in table:
        r, c = table["nested_at"]
        inline = "; ".join(" | ".join(row) for row in table["nested_rows"])
        rows[r][c] = f"{rows[r][c]}\n{inline}" if rows[r][c] else inline
    return rows


def test_nested_table_is_shown_in_place(compiled):
    """The answer for the joins page shows the nested example table in its cell, not an empty cell."""
    from v8atlas.server import tools
    from v8atlas.server.snapshot import Snapshot
    result, _ = compiled
    res = tools.call(Snapshot(Bundle.open(result.bundle_path)), "get_platform",
                     {"name": "Запрос.Соединения таблиц"}, from_text=True)
    row = next(line for line in res.text.splitlines() if line.startswith("| ЛЕВОЕ"))
    assert "Товар" in row and "Чай" in row and "Кофе" in row and "NULL" in row, res.text


def test_broken_table_page_is_named_in_warnings(compiled):
    result, _ = compiled
    msgs = [(w.file, w.message) for w in result.report.warnings]
    assert any(f == "vt_params" and "unclosed <TABLE>" in m for f, m in msgs), msgs


def test_report_section_and_info(compiled):
    result, cat = compiled
    section = result.report.sections["help"]
    assert section["platform_versions_loaded"] == ["8.3.5.1570", "8.3.23.1997", "8.3.27.2130"]
    assert {b["version_source"] for b in section["books"]} == {"path"}
    info = cat.bundle.info["help"]
    assert info["platform_versions"] == ["8.3.5.1570", "8.3.23.1997", "8.3.27.2130"]
    assert info["query_versions"] == ["8.3.27.2130"]
    assert sorted(b["elements"] for b in info["books"].values()) == [117, 1006, 1409, 1430]
    assert cat.bundle.counts["help_query_elements"] == 117


def test_query_tables_are_not_in_search_fields():
    from v8atlas.compiler.help import link as help_link, plugin
    from v8atlas.compiler.pipeline import LinkContext
    from v8atlas.compiler.report import CompileReport
    from v8atlas.compiler.sources import discover
    project = discover([data_path("help", "8.3.27.2130", "shquery_ru.hbk")])
    ctx = LinkContext(project=project, report=CompileReport())
    ctx.parsed["help"] = [(s, plugin.parse(s, ctx.report)) for s in project.sources]
    help_link.link(ctx.parsed["help"], ctx)
    case = next(d for d in ctx.docs if d.key == "query/Запрос.ВЫБОР")
    text = " ".join(case.fields.values())
    assert "Вычисляет одно из значений" in text and "Крупная" not in text
    assert any("Крупная" in cell for row in case.card["tables"][0]["rows"] for cell in row)


@pytest.fixture(scope="module")
def on_835(tmp_path_factory):
    """The embedded sample configuration declared on platform 8.3.5, with the three help versions."""
    from pathlib import Path

    from v8atlas.server.snapshot import Snapshot
    project = tmp_path_factory.mktemp("on835")
    sample = Path(__file__).resolve().parents[1] / "examples" / "config-designer"
    (project / "v8atlas.toml").write_text(
        f'[[configuration]]\nsource = "{sample.as_posix()}"\nplatform = "8.3.5"\n', encoding="utf-8")
    result = compile_bundle([project, data_path("help")], project / "bundles", cache=False, quiet=True)
    return result, Snapshot(Bundle.open(result.bundle_path))


@pytest.mark.parametrize("name", ["СтрДлина", "Лев", "Формат", "ТипЗнч", "ТекущаяДата", "Год"])
def test_old_builtins_are_found_on_835(on_835, name):
    """68 built-ins were documented in the language book before 8.3.6: absent from the 8.3.5
    shcntx book, no since-mark — they must be answered on 8.3.5, not reported as missing."""
    from v8atlas.server import tools
    _, snap = on_835
    res = tools.call(snap, "get_platform", {"name": name, "config": "ДемоТорговля"}, from_text=True)
    assert not res.is_error, res.text
    # found, or ambiguous with the query function of the same name (Год / Запрос.ГОД): both on 8.3.5
    assert res.outcome in ("found", "ambiguous") and f"Глобальный контекст.{name}" in res.text, res.text
    # (the query function of the same name, e.g. ЛЕВ since 8.3.20, may rightly be "not on this platform")
    assert not any("not on this platform" in line and "Глобальный контекст" in line
                   for line in res.text.splitlines()), res.text


def test_new_function_stays_unavailable_on_835(on_835):
    from v8atlas.server import tools
    _, snap = on_835
    res = tools.call(snap, "get_platform", {"name": "СтрРазделить", "config": "ДемоТорговля"}, from_text=True)
    assert "unavailable" in res.text and "8.3.6" in res.text, res.text
