"""Tool outcomes on a small bundle built in code (bundle_factory), through tools.call."""
from __future__ import annotations

import pytest

from bundle_factory import build_sample
from v8atlas.formats import Bundle
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot
from v8atlas.server.tools import paging


@pytest.fixture(scope="module")
def snap(tmp_path_factory) -> Snapshot:
    return Snapshot(Bundle.open(build_sample(tmp_path_factory.mktemp("two"))))


@pytest.fixture(scope="module")
def single(tmp_path_factory) -> Snapshot:
    return Snapshot(Bundle.open(build_sample(tmp_path_factory.mktemp("one"), second_config=False)))


def call(snap, tool_name, /, **args):
    return tools.call(snap, tool_name, args)


def test_list_sources_names_configs_platforms_and_help(snap):
    r = call(snap, "list_sources")
    assert r.outcome == "list"
    assert "`Демо` version 1.0.1; platform 8.3.10" in r.text
    assert "`Демо2` version 2.0.0; platform 8.3.24" in r.text
    assert "help versions loaded: 8.3.5, 8.3.20, 8.3.24" in r.text
    assert [c["name"] for c in r.data["configs"]] == ["Демо", "Демо2"]
    assert r.data["bundle"]["id"] == snap.id


def test_search_metadata_requires_config_when_several(snap, single):
    r = call(snap, "search_metadata", query="заказ")
    assert r.outcome == "error" and r.error["code"] == "config_required"
    assert "`Демо`" in r.text and "`Демо2`" in r.text
    r = call(single, "search_metadata", query="заказ")
    assert r.outcome == "found"
    assert r.data["hits"][0]["title"] == "Документ.ЗаказПокупателя"
    assert r.data["hits"][0]["why"]


def test_search_metadata_kind_filter_accepts_russian_class(snap):
    r = call(snap, "search_metadata", query="контрагенты", config="Демо", kind="Справочник")
    assert r.outcome == "found"
    assert {h["kind"] for h in r.data["hits"]} == {"Catalog"}
    r = call(snap, "search_metadata", query="контрагенты", config="Демо", kind="Нечто")
    assert r.error["code"] == "bad_argument" and "Catalog" in r.text


def test_get_object_brief_fields_full(snap):
    brief = call(snap, "get_object", name="Документ.ЗаказПокупателя", config="Демо")
    assert brief.outcome == "found"
    assert "**Attributes** (3): `Контрагент`, `Комментарий`, `Основание`" in brief.text
    assert "`Документ.ЗаказПокупателя.Товары`" in brief.text
    fields = call(snap, "get_object", name="Документ.ЗаказПокупателя", config="Демо", detail="fields")
    # unlimited strings carry the recipe on their own line; wide composite types are summarized
    line = next(x for x in fields.text.splitlines() if x.startswith("- `Комментарий`"))
    assert "unlimited string" in line and "ПОДСТРОКА(Комментарий, 1, 1024)" in line
    line = next(x for x in fields.text.splitlines() if x.startswith("- `Основание`"))
    assert "composite of 7 types" in line and "Вид6" not in line
    full = call(snap, "get_object", name="Документ.ЗаказПокупателя", config="Демо", detail="full")
    line = next(x for x in full.text.splitlines() if x.startswith("- `Основание`"))
    assert "Вид6" in line
    # a card key the renderer does not know is still shown
    assert "future_key" in full.text and "rendered generically" in full.text


def test_get_object_ambiguous_across_configs_and_classes(snap):
    r = call(snap, "get_object", name="Документ.ЗаказПокупателя")
    assert r.outcome == "ambiguous"
    assert "config=`Демо`" in r.text and "config=`Демо2`" in r.text
    r = call(snap, "get_object", name="Catalog.Контрагенты", config="Демо")
    assert r.outcome == "found"


def test_get_object_not_found_offers_marked_guesses(snap):
    r = call(snap, "get_object", name="Справочник.Контрагенты.Реквизит.ИНН", config="Демо")
    assert r.outcome == "not_found"
    assert "guesses" in r.text
    assert "Справочник.Контрагенты" in [c["title"] for c in r.data["candidates"]]


def test_unknown_config_lists_loaded_ones(snap):
    r = call(snap, "get_object", name="Справочник.Контрагенты", config="Нет")
    assert r.outcome == "error" and r.error["code"] == "unknown_config"
    assert "`Демо`, `Демо2`" in r.text


def test_platform_answers_follow_the_configuration_platform(snap):
    old = call(snap, "get_platform", name="СтрНайти", config="Демо")       # 8.3.10
    assert old.outcome == "found"                       # the query function appeared in 8.3.20
    assert "1 variant(s); 1 of other platform versions hidden" in old.text
    assert "Same name, not on this platform: `Запрос.СТРНАЙТИ`" in old.text
    new = call(snap, "get_platform", name="СтрНайти", config="Демо2")      # 8.3.24
    assert new.outcome == "ambiguous"                                      # platform and query
    assert "`Запрос.СТРНАЙТИ`" in new.text and "`Глобальный контекст.СтрНайти`" in new.text
    gone = call(snap, "get_platform", name="УстаревшийМетод", config="Демо2")
    assert gone.outcome == "unavailable" and "no longer documented from 8.3.20" in gone.text
    assert "use instead: `Глобальный контекст.СтрНайти`" in gone.text
    dep = call(snap, "get_platform", name="УстаревшийМетод", config="Демо")   # 8.3.10: still there
    assert dep.outcome == "found" and "Not recommended since 8.3.10" in dep.text
    r = call(snap, "get_platform", name="СтрРазделить", config="Демо")
    assert r.outcome == "found" and "РазложитьСтрокуВМассивПодстрок" in r.text and "caveat" in r.text
    r = call(snap, "get_platform", name="Массив.Найти(Значение)", config="Демо")
    assert r.outcome == "found" and "Индекс или Неопределено" in r.text
    r = call(snap, "get_platform", name="Массив.НайтиВсё", config="Демо")
    assert r.outcome == "not_found"


def test_search_platform_hides_other_versions_but_names_them(snap):
    r = call(snap, "search_platform", query="найти", config="Демо")
    assert r.outcome == "found"
    titles = [h["title"] for h in r.data["hits"]]
    assert "Массив.Найти" in titles and "Запрос.СТРНАЙТИ" not in titles
    assert "Not on this platform version: `Запрос.СТРНАЙТИ` (since 8.3.20)" in r.text
    q = call(snap, "search_platform", query="подстрока", config="Демо2", scope="query")
    assert [h["domain"] for h in q.data["hits"]] == ["query"]


def test_compare_configurations(snap):
    r = call(snap, "compare_configurations", a="Демо", b="Демо2")
    assert r.outcome == "found"
    assert "1 object(s) added, 0 removed, 1 changed" in r.text
    assert "`Справочник.Склады`" in r.text
    r = call(snap, "compare_configurations", a="Демо", b="Демо2", name="Документ.ЗаказПокупателя")
    assert "+ Реквизиты: `Склад` (СправочникСсылка.Склады)" in r.text
    r = call(snap, "compare_configurations", a="Демо", b="Демо")
    assert r.error["code"] == "bad_argument"


def test_relations_one_step_paged_weak_hidden(snap):
    r = call(snap, "get_relations", name="Документ.ЗаказПокупателя", config="Демо")
    assert r.outcome == "found", r.text
    assert "movement → `РегистрНакопления.ТоварыНаСкладах`" in r.text
    assert "1 weak edge(s) hidden" in r.text and "via `Основание`" not in r.text
    assert {e["kind"] for e in r.data["edges"]} == {"attribute_type", "movement"}
    assert r.data["total"] == r.data["shown"] == 3
    titles = {n["title"] for n in r.data["nodes"]}
    assert {"Документ.ЗаказПокупателя", "Справочник.Контрагенты"} <= titles
    weak = call(snap, "get_relations", name="Документ.ЗаказПокупателя", config="Демо", weak=True)
    assert "via `Основание` (weak)" in weak.text
    back = call(snap, "get_relations", name="Справочник.Контрагенты", config="Демо", direction="in")
    assert "attribute_type ← `Документ.ЗаказПокупателя` via `Контрагент`" in back.text
    only = call(snap, "get_relations", name="Документ.ЗаказПокупателя", config="Демо", kind="movement")
    assert [e["kind"] for e in only.data["edges"]] == ["movement"]


def test_relations_unavailable_without_graph_says_so(tmp_path):
    from bundle_factory import build_bundle, sample_docs
    docs, edges, info = sample_docs()
    bare = Snapshot(Bundle.open(build_bundle(tmp_path, docs, info=info, with_optional=False)))
    r = call(bare, "get_relations", name="Документ.ЗаказПокупателя", config="Демо")
    assert r.outcome == "unavailable" and "relation graph" in r.text


@pytest.mark.parametrize("name,args,code", [
    ("no_such_tool", {}, "unknown_tool"),
    ("search_metadata", {"query": 5, "config": "Демо"}, "bad_argument"),
    ("search_metadata", {"query": "x", "config": "Демо", "limit": "many"}, "bad_argument"),
    ("search_metadata", {"query": "x", "config": "Демо", "limit": 500}, "bad_argument"),
    ("search_metadata", {"query": "я" * 10_000, "config": "Демо"}, "too_long"),
    ("search_metadata", {"config": "Демо"}, "bad_argument"),
    ("get_object", {"name": "x", "detail": "everything"}, "bad_argument"),
    ("get_object", {"name": "x", "colour": "red"}, "bad_argument"),
    ("get_object", {"name": "x", "cursor": "not-a-cursor"}, "bad_cursor"),
    ("get_relations", {"name": "x", "weak": "yes please"}, "bad_argument"),
])
def test_bad_input_is_an_error_outcome_with_a_short_message(snap, name, args, code):
    r = tools.call(snap, name, args)
    assert r.outcome == "error" and r.error["code"] == code
    assert "Traceback" not in r.text and "/tmp" not in r.text and str(snap.bundle.path) not in r.text
    assert len(r.text) < 400


def test_errors_never_show_paths_or_tracebacks(snap, monkeypatch):
    def boom(*a, **k):
        raise RuntimeError(f"failed reading {snap.bundle.path}/docs.cards.dat")
    monkeypatch.setitem(tools.TOOLS, "list_sources", tools.TOOLS["list_sources"].__class__(
        "list_sources", "t", "d", (), boom))
    r = tools.call(snap, "list_sources", {})
    assert r.error["code"] == "internal"
    assert str(snap.bundle.path) not in r.text and "Traceback" not in r.text


def test_paging_with_a_cursor_shows_everything_once(snap, monkeypatch):
    monkeypatch.setattr("v8atlas.server.tools.answer.MAX_ANSWER_CHARS", 900)
    seen: list[str] = []
    args = {"name": "Документ.ЗаказПокупателя", "config": "Демо2", "detail": "full"}
    r = tools.call(snap, "get_object", args)
    pages = 0
    while True:
        assert r.outcome == "found", r.text
        assert len(r.text) <= 900 + 200
        seen += [ln for ln in r.text.splitlines() if ln.startswith("- ") or ln.startswith("  - ")]
        pages += 1
        if not r.data["cursor"]:
            break
        assert "Continue: the same call with cursor=" in r.text
        r = tools.call(snap, "get_object", {**args, "cursor": r.data["cursor"]})
    assert pages > 1
    assert len(seen) == len(set(seen))
    assert any("`Цена`" in s for s in seen) and any("`Склад`" in s for s in seen)


def test_cursor_from_another_bundle_or_call_is_refused(snap, single):
    cursor = paging.encode_cursor(single.content_hash, paging.call_signature("get_object", {
        "name": "Документ.ЗаказПокупателя", "config": "Демо", "detail": "full"}), 3)
    r = tools.call(snap, "get_object", {"name": "Документ.ЗаказПокупателя", "config": "Демо",
                                        "detail": "full", "cursor": cursor})
    assert r.error["code"] == "stale_cursor" and "restart the listing" in r.text
    own = paging.encode_cursor(snap.content_hash, "deadbeef", 3)
    r = tools.call(snap, "get_object", {"name": "Документ.ЗаказПокупателя", "config": "Демо", "cursor": own})
    assert r.error["code"] == "bad_cursor"


def test_cli_style_text_arguments_are_coerced(snap):
    r = tools.call(snap, "search_metadata", {"query": "заказ", "config": "Демо", "limit": "1"}, from_text=True)
    assert r.outcome == "found" and len(r.data["hits"]) == 1
    r = tools.call(snap, "get_relations", {"name": "Документ.ЗаказПокупателя", "config": "Демо",
                                           "weak": "true"}, from_text=True)
    assert r.outcome in ("found", "unavailable")


def test_list_sources_shows_help_coverage_as_the_help_compiler_records_it(tmp_path):
    """ctx.info["help"] as compiler/help/link.py writes it: per-configuration coverage,
    missing and unused versions are shown, not just the loaded list."""
    from bundle_factory import build_bundle, sample_docs
    docs, edges, info = sample_docs(True)
    info["help"] = {"platform_versions": ["8.3.5.1570", "8.3.24.1000", "8.3.27.2130"],
                    "query_versions": ["8.3.24.1000"],
                    "configurations": {"Демо": {"needs": "8.3.10", "status": "nearest-older",
                                                "served_by": "8.3.5.1570"},
                                       "Демо2": {"needs": "8.3.24", "status": "loaded",
                                                 "served_by": "8.3.24.1000"}},
                    "missing": ["8.3.10 for Демо (answers use 8.3.5.1570)"],
                    "unused": ["8.3.27.2130"]}
    snap = Snapshot(Bundle.open(build_bundle(tmp_path, docs, edges=edges, info=info)))
    r = call(snap, "list_sources")
    assert "help versions loaded: 8.3.5.1570, 8.3.24.1000, 8.3.27.2130" in r.text
    assert "needed but not loaded: 8.3.10 for Демо (answers use 8.3.5.1570)" in r.text
    assert "loaded but no configuration needs them: 8.3.27.2130" in r.text
    assert "`Демо` needs help 8.3.10: answered by the nearest older book (8.3.5.1570)" in r.text
    assert "`Демо2` needs help 8.3.24: loaded (8.3.24.1000)" in r.text
    assert r.data["help"]["unused"] == ["8.3.27.2130"]


def test_compare_leaves_out_relation_counts_and_names_changed_fields(tmp_path):
    """Relation counts are derived (they change when a referring object changes): one summary
    line, not a "changed" object each. A changed element says which of its fields changed."""
    from bundle_factory import build_bundle, sample_docs
    docs, edges, info = sample_docs(True)
    for d in docs:
        if d.config == "Демо2" and d.title == "Справочник.Номенклатура":
            d.card["relations"] = {"in_weak": {"attribute_type": 12}}
        if d.config == "Демо" and d.title == "Справочник.Номенклатура":
            d.card["relations"] = {"in_weak": {"attribute_type": 9}}
        if d.config == "Демо2" and d.title == "Документ.ЗаказПокупателя":
            d.card["query_tables"][0]["fields"].append("Склад")
            d.card["query_tables"][1]["params"] = [{"name": "Период"}]
    snap = Snapshot(Bundle.open(build_bundle(tmp_path, docs, edges=edges, info=info)))
    r = call(snap, "compare_configurations", a="Демо", b="Демо2")
    assert "1 object(s) added, 0 removed, 1 changed" in r.text, r.text
    assert "Справочник.Номенклатура" not in r.text
    assert "1 other object(s) differ only in how many objects refer to them" in r.text
    assert r.data["relations_only"] == 1
    one = call(snap, "compare_configurations", a="Демо", b="Демо2", name="Документ.ЗаказПокупателя")
    # the attribute is one line; the query tables repeating it are not listed again
    assert "+ Реквизиты: `Склад`" in one.text and "Таблицы запросов" not in one.text, one.text
    assert "properties differ" not in one.text


def test_get_platform_version_argument_overrides_the_configurations(snap):
    own = tools.call(snap, "get_platform", {"name": "СтрНайти", "config": "Демо"})
    assert own.outcome == "found" and "for platform 8.3.10 of `Демо`" in own.text
    asked = tools.call(snap, "get_platform", {"name": "СтрНайти", "config": "Демо", "version": "8.3.24"})
    assert asked.outcome == "ambiguous" and "names 2 elements on platform 8.3.24" in asked.text
    bad = tools.call(snap, "get_platform", {"name": "СтрНайти", "config": "Демо", "version": "восемь"})
    assert bad.error["code"] == "bad_argument" and "platform version like 8.3.27" in bad.text


def test_tools_answer_the_same_when_called_from_many_threads(snap):
    from concurrent.futures import ThreadPoolExecutor
    calls = [("search_metadata", {"query": q, "config": "Демо"}) for q in ("заказ", "номенклатура", "zzqq", "склад")]
    calls += [("search_platform", {"query": q, "config": "Демо"}) for q in ("найти", "подстрока")]
    serial = [tools.call(snap, n, a).as_json() for n, a in calls]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(5):
            threaded = list(pool.map(lambda c: tools.call(snap, c[0], c[1]).as_json(), calls))
            assert threaded == serial
