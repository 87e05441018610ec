"""The search dictionary: source plugin, linker rules with origins, built-in data, `v8atlas dict`."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from v8atlas.cli import main
from v8atlas.compiler import dictionary as D
from v8atlas.compiler.documents import Doc
from v8atlas.compiler.pipeline import LinkContext
from v8atlas.compiler.report import CompileReport
from v8atlas.compiler.links import SearchDictionary
from v8atlas.compiler.sources import Project, Source


def test_detect_only_dictionary_files(tmp_path):
    for name, fmt in (("dictionary.json", "dictionary-json"), ("dictionary.toml", "dictionary-toml"),
                      ("erp.v8dict.json", "dictionary-json")):
        p = tmp_path / name
        p.write_text("{}", encoding="utf-8")
        assert D.detect(p) == fmt
    other = tmp_path / "config.json"
    other.write_text("{}", encoding="utf-8")
    assert D.detect(other) is None and D.detect(tmp_path) is None


def test_bad_entries_are_reported_and_the_rest_kept(tmp_path):
    p = tmp_path / "dictionary.json"
    p.write_text(json.dumps({"synonyms": [["клиент", "покупатель"], ["одно"], "строка", {"words": ["a", "b"]}],
                             "aliases": [{"phrase": "x", "targets": ["Справочник.X"]}, {"phrase": ""},
                                         {"phrase": "y", "targets": "Документ.Y", "config": "ERP"}, 7]},
                            ensure_ascii=False), encoding="utf-8")
    report = CompileReport()
    d = D.parse(Source("dictionary", "dictionary-json", p, "dictionary.json"), report)
    assert [g["words"] for g in d.synonyms] == [["клиент", "покупатель"], ["a", "b"]]
    assert [(a.phrase, a.targets, a.config) for a in d.aliases] == [("x", ["Справочник.X"], None),
                                                                    ("y", ["Документ.Y"], "ERP")]
    msgs = [w["message"] for w in report.as_dict()["warnings"]]
    assert len(msgs) == 4 and all(m for m in msgs)
    assert all(w["file"] == "dictionary.json" for w in report.as_dict()["warnings"])


def test_unreadable_file_is_a_clear_error(tmp_path):
    p = tmp_path / "dictionary.json"
    p.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="dictionary.json: not a readable dictionary"):
        D.parse(Source("dictionary", "dictionary-json", p, "dictionary.json"), CompileReport())
    t = tmp_path / "dictionary.toml"
    t.write_text('[[aliases]]\nphrase = "кто"\ntargets = ["Справочник.Пользователи"]\n', encoding="utf-8")
    d = D.parse(Source("dictionary", "dictionary-toml", t, "dictionary.toml"), CompileReport())
    assert d.aliases[0].phrase == "кто"


def _ctx(docs: list[Doc]) -> LinkContext:
    ctx = LinkContext(project=Project(sources=[]), report=CompileReport())
    ctx.docs = docs
    return ctx


def test_linker_resolves_aliases_per_configuration_and_keeps_origins():
    users_a = Doc("metadata", "A/Справочник.Пользователи", "Catalog", "Справочник.Пользователи", {},
                  names=["Справочник.Пользователи"], fields={"name": "Пользователи"}, config="A")
    users_b = Doc("metadata", "B/Справочник.Пользователи", "Catalog", "Справочник.Пользователи", {},
                  names=["Справочник.Пользователи"], fields={"name": "Пользователи"}, config="B")
    ctx = _ctx([users_a, users_b])
    parsed = D.from_tables({"aliases": [
        {"phrase": "кто работает", "targets": ["справочник.пользователи"], "config": "A"},
        {"phrase": "все юзеры", "targets": ["Справочник.Пользователи"]},
        {"phrase": "потерянный", "targets": ["Справочник.Пользователи"], "config": "C"}]}, "my.v8dict.json")
    D.link([(None, parsed)], ctx)
    aliases = {a["phrase"]: a for a in ctx.links.need(SearchDictionary).aliases}
    assert aliases["кто работает"]["keys"] == ["A/Справочник.Пользователи"]
    assert sorted(aliases["все юзеры"]["keys"]) == ["A/Справочник.Пользователи", "B/Справочник.Пользователи"]
    assert "потерянный" not in aliases
    assert aliases["кто работает"]["origin"] == "my.v8dict.json"
    assert "кто работает" in users_a.fields["alias"] and "кто работает" not in users_b.fields["alias"]
    warn = [w for w in ctx.report.as_dict()["warnings"] if w["code"] == "alias-missing-object"]
    assert len(warn) == 1 and "'C'" in warn[0]["message"]
    origins = {g["origin"] for g in ctx.links.need(SearchDictionary).synonyms}
    assert origins == {"built-in"}


def test_builtin_query_keys_data_file():
    data = D.builtin_query_keys()
    assert data["version"] >= 1
    keys = [k for p in data["pages"].values() for k in p["keys"]]
    assert len(keys) >= 40
    assert "количество дней между датами" in data["pages"]["DATEDIFF"]["keys"]
    assert data["pages"]["DISTINCT"]["name"] == "РАЗЛИЧНЫЕ"


def test_query_keys_go_to_the_search_field_only():
    doc = Doc("query", "query/Запрос.РАЗНОСТЬДАТ", "function", "Запрос.РАЗНОСТЬДАТ",
              {"page": "DATEDIFF", "name": "РАЗНОСТЬДАТ"}, names=["РАЗНОСТЬДАТ"], fields={"name": "РАЗНОСТЬДАТ"})
    ctx = _ctx([doc])
    D.link([], ctx)
    assert "количество дней между датами" in doc.fields["keys"]
    assert "keys" not in doc.card
    # One page of 61 loaded: a partial book, reported once as unknown, not as 60 warnings.
    assert not ctx.report.as_dict().get("warnings")
    unknown = ctx.report.as_dict()["unknown"]
    assert unknown[0]["count"] == len(D.builtin_query_keys()["pages"]) - 1
    assert "DATEADD" in unknown[0]["example"]


def test_a_full_book_missing_a_keyed_page_gets_a_warning_for_it():
    pages = D.builtin_query_keys()["pages"]
    docs = [Doc("query", f"query/Запрос.{e['name']}", "function", f"Запрос.{e['name']}", {"page": page},
                names=[e["name"]], fields={"name": e["name"]})
            for page, e in pages.items() if page != "TOP"]
    ctx = _ctx(docs)
    D.link([], ctx)
    warnings = ctx.report.as_dict()["warnings"]
    assert [w["object"] for w in warnings] == ["TOP"]
    assert "ПЕРВЫЕ" in warnings[0]["message"] and warnings[0]["code"] == "query-key-missing-page"
    # No query book at all: nothing to bind, nothing to report.
    ctx = _ctx([])
    D.link([], ctx)
    assert not ctx.report.as_dict().get("warnings")


def test_dict_cli_round_trip(tmp_path):
    runner = CliRunner()
    d = str(tmp_path)
    r = runner.invoke(main, ["dict", "synonyms", "add", "клиент", "заказчик услуг", "--dir", d])
    assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["dict", "synonyms", "add", "Клиент", "заказчик услуг", "--dir", d])
    assert "already there" in r.output
    r = runner.invoke(main, ["dict", "alias", "add", "кто работает", "Справочник.Пользователи",
                             "--config", "БСП", "--dir", d])
    assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["dict", "alias", "add", "плохой", "Пользователи", "--dir", d])
    assert r.exit_code != 0 and "full names" in r.output
    data = json.loads((tmp_path / "dictionary.json").read_text(encoding="utf-8"))
    assert data["synonyms"] == [["клиент", "заказчик услуг"]]
    assert data["aliases"] == [{"phrase": "кто работает", "targets": ["Справочник.Пользователи"], "config": "БСП"}]
    r = runner.invoke(main, ["dict", "show", "--dir", d])
    assert "[built-in]" in r.output and f"[{tmp_path / 'dictionary.json'}]" in r.output
    assert "«кто работает» → Справочник.Пользователи (in БСП)" in r.output
    assert "доп → дополнительные" in r.output            # built-in abbreviations are listed too
    r = runner.invoke(main, ["dict", "synonyms", "remove", "заказчик услуг", "--dir", d])
    assert r.exit_code == 0
    r = runner.invoke(main, ["dict", "alias", "remove", "кто работает", "--dir", d])
    assert r.exit_code == 0
    r = runner.invoke(main, ["dict", "alias", "remove", "кто работает", "--dir", d])
    assert r.exit_code != 0 and "no alias" in r.output
    data = json.loads((tmp_path / "dictionary.json").read_text(encoding="utf-8"))
    assert data == {"synonyms": [], "aliases": []}


def test_builtin_business_groups_are_metadata_only_and_client_is_not_a_counterparty():
    groups = D.builtin_synonyms()
    with_counterparty = [g for g in groups if "контрагент" in g["words"]]
    assert with_counterparty and all(g["domains"] == ["metadata"] for g in with_counterparty)
    # "клиент" alone is the client application in 1C (КлиентСервер, НаКлиенте); as a customer
    # it stays in the phrase group "заказ клиента".
    assert not any("клиент" in g["words"] for g in groups)
    assert any("заказ клиента" in g["words"] for g in groups)
    # Generic words (строка, массив…) keep matching platform and query-language elements.
    assert next(g for g in groups if "массив" in g["words"])["domains"] is None


def test_a_file_group_may_be_limited_to_domains_and_a_bad_domain_is_reported():
    report = CompileReport()
    d = D.from_tables({"synonyms": [{"words": ["лид", "контакт"], "domains": ["metadata"]},
                                    {"words": ["а", "б"], "domains": ["nowhere"]},
                                    ["в", "г"]]}, "my.json", report)
    assert [(g["words"], g["domains"]) for g in d.synonyms] == [(["лид", "контакт"], ["metadata"]),
                                                                 (["в", "г"], None)]
    warns = report.as_dict()["warnings"]
    assert len(warns) == 1 and "synonyms[1]" in warns[0]["message"] and "domains" in warns[0]["message"]


def test_dict_show_names_a_missing_folder(tmp_path):
    from click.testing import CliRunner
    from v8atlas.cli import main
    res = CliRunner().invoke(main, ["dict", "show", "--dir", str(tmp_path / "nope")])
    assert res.exit_code == 1 and "no such folder or dictionary file" in res.output
