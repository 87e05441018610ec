"""Search reasons on the dashboard speak Russian and name the words the user typed (issue 14,
item 11): the hit's structured ``matches`` (query word → fields) through the page's own whyOf
(static/app.js, run by Node), on the embedded sample. Without Node the test skips."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.formats import Bundle
from v8atlas.server import tools
from v8atlas.server.snapshot import Snapshot

REPO = Path(__file__).resolve().parent.parent
APP_JS = REPO / "server" / "dashboard" / "static" / "app.js"


def why_of(hits: list[dict], query: str) -> list[list[str]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the dashboard's script cannot be run outside a browser")
    script = ("const document = {querySelector: () => null};\n" + APP_JS.read_text(encoding="utf-8")
              + "\nconst input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
              "process.stdout.write(JSON.stringify(input.hits.map((h) => V8.whyOf(h, input.query))));\n")
    r = subprocess.run([node, "-e", script], input=json.dumps({"hits": hits, "query": query}),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def snap(tmp_path_factory) -> Snapshot:
    out = tmp_path_factory.mktemp("sample")
    return Snapshot(Bundle.open(compile_bundle([REPO / "examples"], out, quiet=True).bundle_path))


def test_hits_carry_the_typed_words_and_their_fields(snap):
    r = tools.call(snap, "search_metadata", {"query": "Остатки товаров", "config": "ДемоТорговля"})
    first = r.data["hits"][0]
    assert first["title"] == "РегистрНакопления.ОстаткиТоваров"
    assert [m["word"] for m in first["matches"]] == ["остатки", "товаров"]
    assert "name" in first["matches"][0]["fields"]


def test_reasons_are_russian_with_the_query_words_not_stems(snap):
    query = "Остатки товаров"
    r = tools.call(snap, "search_metadata", {"query": query, "config": "ДемоТорговля"})
    assert "words: " in r.text                       # the agent's text keeps its own wording
    reasons = why_of(r.data["hits"], query)
    first = reasons[0]
    assert first[0].startswith("слова: «Остатки» в имени"), first
    assert "«товаров» в " in first[0], first
    for line in (x for hit in reasons for x in hit):
        assert " in " not in line and not line.startswith(("words", "synonym")), line
        assert "«остат»" not in line and "«товар»" not in line, line     # no index stems for typed words
    synonym = next(x for hit in reasons for x in hit if x.startswith("синоним: "))
    assert synonym.startswith("синоним: «товаров» → «") and "…»" in synonym, synonym


def test_other_reasons_are_translated():
    hits = [{"why": "exact name"}, {"why": "alias «оформление продажи» (dictionary.json)"},
            {"why": "typo заказь → заказ"}, {"why": "class named in the query: Catalog"}]
    assert why_of(hits, "") == [["точное имя"], ["синоним словаря «оформление продажи» (dictionary.json)"],
                                ["опечатка: «заказь» → «заказ»"], ["класс назван в запросе: Справочник"]]


def test_reasons_of_the_ranking_signals_are_translated():
    # the reasons server/search.py gives for word families, a part of the phrase, phrase forms,
    # abbreviations and query rewrites (docs/search.md)
    hits = [{"why": "word family кассовые → касс"}, {"why": "a part of the phrase is its name: «work schedul»"},
            {"why": "phrase form «остатки» lifts AccumulationRegister"}, {"why": "abbreviation рс → регистр сведений"},
            {"why": "keyboard layout: 'pfrfp' → 'заказ'"}, {"why": "transliteration: 'zakaz' → 'заказ'"},
            {"why": "words: касс in context", "matches": [{"word": "кассы", "fields": ["context"]}]},
            {"why": "graph importance: 12 objects refer to it"}, {"why": "graph importance: 1 object refers to it"},
            {"why": "read by the report Отчет.ЗадолженностьКлиентов, which the phrase matches"}]
    got = why_of(hits, "кассы")
    assert got[9] == ["его читает отчёт Отчет.ЗадолженностьКлиентов, найденный по словам запроса"]
    assert got[7] == ["важность в графе связей: ссылающихся объектов — 12"]
    assert got[8] == ["важность в графе связей: ссылающихся объектов — 1"]
    assert got[:6] == [["однокоренное: «кассовые» → «касс…»"], ["часть фразы — его имя: «work schedul»"],
                       ["форма фразы «остатки» поднимает: Регистр накопления"],
                       ["сокращение: «рс» → «регистр сведений»"], ["раскладка клавиатуры: «pfrfp» → «заказ»"],
                       ["транслитерация: «zakaz» → «заказ»"]]
    assert got[6] == ["слова: «кассы» в окружении (подсистемы, формы, команды, предопределённые)"]
