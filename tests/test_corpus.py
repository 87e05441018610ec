"""Document corpora: folders declared in v8atlas.toml, split by structure, searched with a
threshold, read whole by id; bad files reported by name while the rest compiles."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from v8atlas.compiler.corpus.html import html_to_markdown
from v8atlas.compiler.corpus.split import split_markdown, split_text
from v8atlas.compiler.pipeline import compile_bundle
from v8atlas.compiler.sources import SourceError, discover
from v8atlas.formats.reader import Bundle
from v8atlas.server import tools
from v8atlas.server.corpus_search import CorpusIndex
from v8atlas.server.snapshot import Snapshot

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"

GUIDE = """---
url: https://example.org/exchange
---
# Обмен данными

Введение: узлы, правила, транспорт.

## Настройка узлов

Узлы плана обмена настраиваются в форме узла.

```bsl
# это не заголовок, а строка кода
Узел = ПланыОбмена.Полный.ЭтотУзел();
```

### Отбор регистрации

Отбор регистрации изменений по организациям задаётся в узле.

## Транспорт сообщений

Каталог, FTP или электронная почта.
"""
HELP_PAGE = ("<html><head><meta charset='windows-1251'><title>Массив.Найти</title></head><body>"
             "<h1 class='V8SH_pagetitle'>Массив.Найти</h1><p class='V8SH_chapter'>Параметры:</p>"
             "<table><tr><td>Значение</td><td>Искомое значение</td></tr></table>"
             "<p class='V8SH_chapter'>Описание:</p><p>Ищет элемент в массиве.</p></body></html>"
             ).encode("cp1251")
TEMPLATE = """---
title: Обход результата запроса
description: Выполнить запрос и обойти выборку по строкам
platform: 8.3.1
---
```bsl
Выборка = Запрос.Выполнить().Выбрать();
Пока Выборка.Следующий() Цикл
КонецЦикла;
```
"""


def _project(root: Path, bad: bool = False) -> Path:
    (root / "guide").mkdir(parents=True)
    (root / "tpl").mkdir()
    (root / "team").mkdir()
    (root / "guide" / "exchange.md").write_text(GUIDE, encoding="utf-8")
    (root / "guide" / "find.html").write_bytes(HELP_PAGE)
    (root / "guide" / "readme.txt").write_text("Памятка по отладке\n\nТочки останова и замер производительности. Узлы обмена "
                                               "отлаживают по журналу регистрации.\n",
                                               encoding="utf-8")
    (root / "tpl" / "query.md").write_text(TEMPLATE, encoding="utf-8")
    (root / "team" / "decision.md").write_text("# Решение по обмену с сайтом\n\nВыгрузка заказов через "
                                               "HTTP-сервис, повтор раз в 15 минут.\n", encoding="utf-8")
    if bad:
        g = root / "guide"
        (g / "broken.html").write_text("<html><body><h1>Сломано</h1><p>текст</span></b><div>ещё", encoding="utf-8")
        (g / "cp1251.md").write_bytes("# Заголовок\n\nтекст".encode("cp1251"))
        (g / "binary.txt").write_bytes(b"text\x00more")
        with open(g / "huge.md", "wb") as f:          # sparse: 200 MB by stat, nothing on disk
            f.truncate(200 * 1024 * 1024)
        outside = root / "secret.md"
        outside.write_text("# Секрет\n\nне для корпуса\n", encoding="utf-8")
        os.symlink(outside, g / "link.md")
        (root / "elsewhere").mkdir()            # a symlinked folder leading outside, too
        (root / "elsewhere" / "private.md").write_text("# Чужая папка\n\nне для корпуса\n", encoding="utf-8")
        os.symlink(root / "elsewhere", g / "linked-folder")
    (root / "v8atlas.toml").write_text(
        '[[corpus]]\nsource = "guide"\nkind = "docs"\nurl = "https://example.org/guide"\n\n'
        '[[corpus]]\nsource = "tpl"\nkind = "templates"\nname = "templates"\n\n'
        '[[corpus]]\nsource = "team"\nkind = "notes"\n', encoding="utf-8")
    return root


@pytest.fixture()
def corpus_snap(tmp_path):
    res = compile_bundle([_project(tmp_path / "p", bad=True)], tmp_path / "b", cache=False, quiet=True)
    snap = Snapshot(Bundle.open(res.bundle_path))
    yield snap, res
    snap.bundle.close()


# --- splitting ---------------------------------------------------------------------------------

def test_markdown_splits_by_headings_not_inside_code():
    doc = split_markdown("exchange.md", GUIDE)
    assert doc.title == "Обмен данными" and doc.url == "https://example.org/exchange"
    assert [s.path for s in doc.sections] == [
        ["Обмен данными"], ["Обмен данными", "Настройка узлов"],
        ["Обмен данными", "Настройка узлов", "Отбор регистрации"], ["Обмен данными", "Транспорт сообщений"]]
    code_section = doc.sections[1]
    assert "# это не заголовок" in code_section.text
    assert "ЭтотУзел" in code_section.code and "ПланыОбмена" in code_section.code


def test_a_long_table_is_cut_between_rows_and_code_is_not_cut():
    from v8atlas.compiler.corpus.split import MAX_SECTION_CHARS
    rows = [f"| Диагностика{i} | описание правила номер {i} |" for i in range(2000)]
    code = "\n".join(f"Строка{i} = {i};" for i in range(1500))
    doc = split_markdown("t.md", "# Таблица\n\n| имя | описание |\n|---|---|\n" + "\n".join(rows)
                         + "\n\n## Код\n\n```bsl\n" + code + "\n```\n")
    table = [sec for sec in doc.sections if sec.path == ["Таблица"]]
    assert len(table) > 5 and all(len(sec.text) <= 2 * MAX_SECTION_CHARS + 100 for sec in table)
    assert "\n".join(sec.text for sec in table).split("\n")[2:] == rows     # every row, in order
    assert [sec.text.count("```") for sec in doc.sections if sec.path[-1] == "Код"] == [2]


def test_front_matter_title_is_not_repeated_as_a_heading():
    doc = split_markdown("n.md", "---\ntitle: Решение\n---\n# Решение\n\nСуть.\n")
    assert [s.path for s in doc.sections] == [["Решение"]] and doc.meta["title"] == "Решение"


def test_html_help_page_becomes_headings_and_table_rows():
    md, title, problems = html_to_markdown(HELP_PAGE)
    assert title == "Массив.Найти" and problems == []
    assert "# Массив.Найти" in md and "## Параметры:" in md and "## Описание:" in md
    assert "| Значение | Искомое значение |" in md


def test_plain_text_title_is_its_first_line():
    doc = split_text("a.txt", "Памятка\n\nПервый абзац.\n")
    assert doc.title == "Памятка" and doc.sections[0].text == "Первый абзац."


# --- compile: declaration, bad input, portability ------------------------------------------------

def test_bad_files_are_reported_and_the_rest_compiles(corpus_snap):
    snap, res = corpus_snap
    warnings = {(w["file"], w["code"]): w["message"] for w in res.report.as_dict()["warnings"]
                if w["code"].startswith("corpus-")}
    assert "symlink leads outside the corpus folder" in warnings[("link.md", "corpus-symlink-outside")]
    assert "symlink leads outside the corpus folder" in warnings[("linked-folder", "corpus-symlink-outside")]
    assert "200.0 MB" in warnings[("huge.md", "corpus-too-large")]
    assert "not valid UTF-8" in warnings[("cp1251.md", "corpus-bad-file")]
    assert "NUL bytes" in warnings[("binary.txt", "corpus-bad-file")]
    assert "HTML is not well-formed" in warnings[("broken.html", "corpus-bad-file")]
    # the repaired HTML and every good file are served; the skipped ones are not
    assert tools.call(snap, "get_doc", {"id": "guide:broken.html"}).outcome == "found"
    for gone in ("guide:link.md", "guide:huge.md", "guide:cp1251.md", "guide:binary.txt",
                 "guide:linked-folder/private.md"):
        assert tools.call(snap, "get_doc", {"id": gone}).outcome == "not_found"
    r = tools.call(snap, "search_docs", {"query": "секрет не для корпуса"})
    assert all(h["id"] != "guide:link.md" for h in r.data["hits"])


def test_wrong_kind_in_toml_is_an_error_naming_the_key(tmp_path):
    root = _project(tmp_path)
    (root / "v8atlas.toml").write_text('[[corpus]]\nsource = "guide"\nkind = "manuals"\n', encoding="utf-8")
    with pytest.raises(SourceError) as e:
        discover([root])
    assert "kind" in str(e.value) and "templates" in str(e.value)


def test_a_folder_of_documents_is_not_scanned_for_other_sources(tmp_path):
    root = _project(tmp_path)
    shutil.copytree(EXAMPLES / "config-designer", root / "guide" / "sample-dump")
    kinds = [s.kind for s in discover([root]).sources]
    assert kinds == ["corpus", "corpus", "corpus"]


def test_bundle_is_a_function_of_contents(tmp_path):
    a = compile_bundle([_project(tmp_path / "one")], tmp_path / "ba", cache=False, quiet=True)
    b = compile_bundle([_project(tmp_path / "two" / "deeper")], tmp_path / "bb", cache=False, quiet=True)
    with Bundle.open(a.bundle_path) as x, Bundle.open(b.bundle_path) as y:
        assert x.content_hash == y.content_hash


# --- serving --------------------------------------------------------------------------------------

def test_search_docs_cites_corpus_section_and_url(corpus_snap):
    snap, _ = corpus_snap
    r = tools.call(snap, "search_docs", {"query": "отбор регистрации изменений по организациям"})
    assert r.outcome == "found"
    top = r.data["hits"][0]
    assert top["id"] == "guide:exchange.md" and top["corpus"] == "guide" and top["kind"] == "docs"
    assert "`guide:exchange.md#2` · Обмен данными › Настройка узлов › Отбор регистрации" in r.text
    assert top["url"] == "https://example.org/exchange"          # the document's own URL wins
    assert "Отбор регистрации изменений по организациям" in r.text   # the matching fragment


def test_templates_are_found_by_identifiers_of_their_code(corpus_snap):
    snap, _ = corpus_snap
    r = tools.call(snap, "search_docs", {"query": "Выборка.Следующий", "corpus": "templates"})
    assert [h["id"] for h in r.data["hits"]] == ["templates:query.md"]
    assert "platform: 8.3.1" in r.text


def test_fragments_detail_and_paging(corpus_snap):
    snap, _ = corpus_snap
    short = tools.call(snap, "search_docs", {"query": "узлы обмена", "max_chars": 80})
    assert short.outcome == "found"
    quoted = [ln for ln in short.text.splitlines() if ln.startswith("   > ")]
    assert quoted and all(len(ln) <= 80 + 5 for ln in quoted)
    detailed = tools.call(snap, "search_docs", {"query": "узлы плана обмена настраиваются", "detailed": True})
    assert "```bsl" in detailed.text          # the section's beginning, code included
    first = tools.call(snap, "search_docs", {"query": "узлы обмена", "limit": 1})
    assert first.data["page"]["total"] >= 2 and first.data["cursor"]
    second = tools.call(snap, "search_docs", {"query": "узлы обмена", "limit": 1, "cursor": first.data["cursor"]})
    assert second.data["hits"][0]["id"] != first.data["hits"][0]["id"]


def test_corpus_filter_by_kind_and_unknown_corpus(corpus_snap):
    snap, _ = corpus_snap
    r = tools.call(snap, "search_docs", {"query": "узлы плана обмена", "corpus": "templates"})
    assert r.outcome == "not_found"
    bad = tools.call(snap, "search_docs", {"query": "узлы", "corpus": "nope"})
    assert bad.outcome == "error" and "guide" in bad.text and "templates" in bad.text


def test_no_real_answer_is_not_found_with_rejected_candidates(corpus_snap):
    snap, _ = corpus_snap
    r = tools.call(snap, "search_docs", {"query": "настройка узлов кластера kubernetes ingress"})
    assert r.outcome == "not_found" and r.data["hits"] == []
    assert "guesses, not matches" in r.text
    assert any(c["id"] == "guide:exchange.md" for c in r.data["candidates"])


def test_a_section_first_shown_as_a_guess_shows_the_same_as_a_hit(corpus_snap):
    # a guess's view is made without the parts only a hit shows (its head, facts line, fold and
    # catalog title); a later hit of that section must show them as a fresh server would
    import sys
    sys.path.insert(0, str(REPO / "tools"))
    import corpus_eval
    snap, _ = corpus_snap
    guess = tools.call(snap, "search_docs", {"query": "настройка узлов кластера kubernetes ingress"})
    assert guess.outcome == "not_found" and any(c["id"] == "guide:exchange.md" for c in guess.data["candidates"])
    args = [{"query": "узлы обмена"}, {"query": "регистрация изменений узлов обмена", "max_chars": 80}]
    after_guess = [tools.call(snap, "search_docs", a) for a in args]
    assert all(r.outcome == "found" for r in after_guess)
    assert any(h["id"] == "guide:exchange.md" and h["title"] for r in after_guess for h in r.data["hits"])
    corpus_eval.forget_queries(snap)
    assert [(r.text, r.data) for r in after_guess] == \
        [(r.text, r.data) for r in (tools.call(snap, "search_docs", a) for a in args)]


def test_a_word_no_document_holds_reaches_its_relatives_by_subwords(corpus_snap, monkeypatch):
    # «отладочный» is in no document; the memo says «отладке»: Snowball stems them apart and
    # they share no stem prefix, only character n-grams (отлад…)
    snap, _ = corpus_snap
    query = {"query": "отладочный замер производительности"}
    r = tools.call(snap, "search_docs", query)
    assert r.outcome == "found" and r.data["hits"][0]["id"] == "guide:readme.txt"
    alone = tools.call(snap, "search_docs", {"query": "отладочный"})   # a relative only: not an answer
    assert alone.outcome == "not_found"
    assert [c["id"] for c in alone.data["candidates"]] == ["guide:readme.txt"]
    exact = tools.call(snap, "search_docs", {"query": "замер производительности"}).text
    monkeypatch.setattr(CorpusIndex, "_subword_terms", lambda self, slot: [])
    assert tools.call(snap, "search_docs", query).outcome == "not_found"
    # a query whose words are all in the corpus answers as it did without the signal
    assert tools.call(snap, "search_docs", {"query": "замер производительности"}).text == exact


def test_what_an_answer_keeps_per_bundle_changes_no_answer(corpus_snap, tmp_path, monkeypatch):
    # sections' views (card, citation, fold), query words' slots and subword relatives are kept
    # per bundle: a second bundle whose sections have the same numbers must not see the first's,
    # and answers stay the same warm, cold and when the kept entries overflow
    import v8atlas.server.corpus_search as search
    import v8atlas.server.tools.corpus as corpus_tools
    snap, _ = corpus_snap
    other = Snapshot(Bundle.open(compile_bundle([_two_topic_corpus(tmp_path / "o")], tmp_path / "ob",
                                                cache=False, quiet=True).bundle_path))
    topic = (tmp_path / "o" / "topics.txt").read_text(encoding="utf-8").splitlines()[0].split()[:3]
    calls = [(snap, {"query": "отладочный замер производительности"}),
             (snap, {"query": "узлы обмена", "limit": 1}),
             (other, {"query": " ".join(topic)}),
             (snap, {"query": "отбор регистрации изменений по организациям", "detailed": True}),
             (other, {"query": topic[0], "max_chars": 80})]

    def answers() -> list[str]:
        return [tools.call(s, "search_docs", args).text for s, args in calls]

    first = answers()                         # each bundle's caches filled from empty
    assert any("guide:readme.txt" in a for a in first) and any("`n:" in a for a in first)
    assert answers() == first                 # warm
    assert answers()[::-1] == [tools.call(s, "search_docs", args).text for s, args in calls[::-1]]
    monkeypatch.setattr(corpus_tools._Sections, "KEPT_CHARS", 1)
    monkeypatch.setattr(search, "_SLOTS_KEPT", 1)
    assert answers() == first                 # every lookup evicts the one before it
    other.bundle.close()


def test_the_benchmarks_first_sight_starts_from_a_server_that_answered_nothing(corpus_snap):
    # tools/corpus_eval.py's "first sight" and "cold" latencies clear what the server keeps per
    # query word and per shown section; if they missed a cache the figure would be a warm one
    import sys
    sys.path.insert(0, str(REPO / "tools"))
    import corpus_eval

    import v8atlas.server.tools.corpus as corpus_tools
    from v8atlas.server.corpus_search import corpus_index
    snap, _ = corpus_snap
    args = {"query": "отладочный замер производительности"}
    first = tools.call(snap, "search_docs", args).text
    tools.call(snap, "search_docs", {"query": "замерр производительностии"})   # subword relatives
    index = corpus_index(snap.bundle)
    assert all(getattr(index, c) for c in ("_slot_cache", "_subword_words"))
    assert corpus_tools._SECTIONS[snap.bundle].views
    corpus_eval.forget_queries(snap)
    assert not any(getattr(index, c) for c in corpus_eval.QUERY_CACHES)
    assert not corpus_tools._SECTIONS[snap.bundle].views and not corpus_tools._SECTIONS[snap.bundle].chars
    assert tools.call(snap, "search_docs", args).text == first


def test_subword_table_finds_the_terms_sharing_grams(tmp_path):
    res = compile_bundle([_project(tmp_path / "p")], tmp_path / "b", cache=False, quiet=True)
    with Bundle.open(res.bundle_path) as b:
        index = CorpusIndex(b)
        terms = index._sorted_terms
        for word, relative in (("отладочный", "отладке"), ("перерегистрации", "регистрации")):
            slot = index._slots(word)[0]
            found = [terms[j] for _, j in index._subword_terms(slot)]
            assert relative in found, (word, found)
            assert not set(found) & {terms[j] for j in slot.exact}
        assert index._subword_terms(index._slots("kubernetes")[0]) == []


def _two_topic_corpus(root: Path) -> Path:
    """300 short notes, each of 6 of the 8 words of one of 12 invented topics: words of a topic
    share sections, words of different topics never do (a seeded generator: same files)."""
    import random
    rng = random.Random(15)
    syllables = ["ba", "ko", "ri", "mu", "te", "lo", "na", "vi", "pe", "zu"]
    vocab = sorted({"".join(rng.choice(syllables) for _ in range(4)) for _ in range(400)})
    rng.shuffle(vocab)
    topics = [vocab[i:i + 8] for i in range(0, 96, 8)]
    (root / "notes").mkdir(parents=True)
    for i in range(300):
        words = rng.sample(topics[i % len(topics)], 6)
        (root / "notes" / f"n{i:03}.md").write_text(f"# Note {i}\n\n{' '.join(words)}\n", encoding="utf-8")
    (root / "v8atlas.toml").write_text('[[corpus]]\nsource = "notes"\nkind = "docs"\nname = "n"\n',
                                       encoding="utf-8")
    (root / "topics.txt").write_text("\n".join(" ".join(t) for t in topics), encoding="utf-8")
    return root


def test_associations_join_the_words_a_corpus_uses_together(tmp_path):
    project = _two_topic_corpus(tmp_path / "p")
    topics = [set(line.split()) for line in (project / "topics.txt").read_text(encoding="utf-8").splitlines()]
    first = compile_bundle([project], tmp_path / "b1", cache=False, quiet=True)
    second = compile_bundle([project], tmp_path / "b2", cache=False, quiet=True)
    with Bundle.open(first.bundle_path) as b1, Bundle.open(second.bundle_path) as b2:
        assert bytes(b1.blob("corpus.assoc")) == bytes(b2.blob("corpus.assoc"))     # deterministic
        index = CorpusIndex(b1)
        terms = index._sorted_terms
        reached = 0
        for topic in topics:
            own = {terms[j] for w in topic for j in index._slots(w)[0].exact}     # stems and surfaces
            for word in sorted(topic)[:2]:
                related = [terms[j] for _, j in index._assoc_terms(index._slots(word)[0])]
                assert set(related) <= own, (word, related)        # never a word of another topic
                reached += bool(related)
        assert reached >= 20


def test_associations_keep_a_bounded_number_of_terms(tmp_path, monkeypatch):
    # the cosines are all pairs of kept terms: a big corpus keeps the terms in most sections
    import v8atlas.compiler.corpus.assoc as assoc
    project = _two_topic_corpus(tmp_path / "p")
    monkeypatch.setattr(assoc, "MAX_TERMS", 90)
    res = compile_bundle([project], tmp_path / "b", cache=False, quiet=True)
    with Bundle.open(res.bundle_path) as b:
        index = CorpusIndex(b)
        offsets, ids, _ = index._assoc
        owners = np.flatnonzero(np.diff(offsets))
        df = np.diff(index.post_off.astype(np.int64))
        assert 0 < len(owners) <= 90 and len(set(ids.tolist()) | set(owners.tolist())) <= 90
        assert df[owners].min() >= np.sort(df[(df >= 2)])[::-1][:90].min()


def test_an_associated_word_ranks_below_the_word_and_alone_is_no_answer(tmp_path, monkeypatch):
    project = _two_topic_corpus(tmp_path / "p")
    res = compile_bundle([project], tmp_path / "b", cache=False, quiet=True)
    with Bundle.open(res.bundle_path) as b:
        index = CorpusIndex(b)
        word = next(w for w in sorted((project / "topics.txt").read_text(encoding="utf-8").split())
                    if index._assoc_terms(index._slots(w)[0]))
        every = list(range(len(index.corpora)))
        found = index.search(word, every, 50)
        holding = {h.doc for h in found.hits}
        assert holding and all(h.coverage == 1.0 for h in found.hits)   # only sections holding it
        # below the threshold: the sections reached only through an associate are guesses at most
        monkeypatch.setattr("v8atlas.server.corpus_search.MIN_COVERAGE", 0.0)
        monkeypatch.setattr("v8atlas.server.corpus_search.MIN_SCORE", 0.0)
        loose = index.search(word, every, 300)
        only_related = [h for h in loose.hits if h.doc not in holding]
        assert only_related and max(h.coverage for h in only_related) < 0.6
        assert max(h.score for h in only_related) < min(h.score for h in loose.hits if h.doc in holding)


def _rules_and_a_listing(root: Path) -> Path:
    """60 short filler rules, one short rule on empty exception blocks, and a long listing that
    holds some of its words scattered over its items (a seeded generator: same files)."""
    import random
    rng = random.Random(4)
    filler = ("справочник документ регистр реквизит форма отчет обработка запрос модуль процедура "
              "функция переменная цикл условие строка число дата таблица поле индекс").split()
    (root / "std").mkdir(parents=True)
    for i in range(60):
        (root / "std" / f"f{i:02}.md").write_text(f"# Правило {i}\n\n" + " ".join(rng.sample(filler, 8)) + ".\n",
                                                  encoding="utf-8")
    (root / "std" / "empty.md").write_text("# Пустой блок Исключение\n\nПустой блок Исключение скрывает "
                                           "ошибку выполнения.\n", encoding="utf-8")
    items = [f"- правило {i}: " + " ".join(rng.sample(filler, 4)) for i in range(60)]
    (root / "std" / "index.md").write_text("# Все правила\n\n" + "\n".join(items) +
                                           "\n- пустой отчет\n- ошибку в дате\n- блок условий\n", encoding="utf-8")
    (root / "v8atlas.toml").write_text('[[corpus]]\nsource = "std"\nkind = "standards"\nname = "std"\n',
                                       encoding="utf-8")
    return root


def test_a_dense_partial_match_is_a_hit_and_a_scattered_one_is_not(tmp_path, monkeypatch):
    # «тихо», «глушит» are in no document: the rule covers under 0.6 of the query's idf mass,
    # but the words it holds are all there in two short lines (a strong match); the listing
    # covers half of the other query with its words one per item far apart: no answer
    res = compile_bundle([_rules_and_a_listing(tmp_path / "p")], tmp_path / "b", cache=False, quiet=True)
    snap = Snapshot(Bundle.open(res.bundle_path))
    dense = {"query": "пустой блок Исключение тихо глушит ошибку"}
    r = tools.call(snap, "search_docs", dense)
    assert r.outcome == "found" and r.data["hits"][0]["id"] == "std:empty.md"
    assert r.data["hits"][0]["coverage"] < 0.6
    scattered = tools.call(snap, "search_docs", {"query": "ошибку в дате условий кластера"})
    assert scattered.outcome == "not_found"
    assert "std:index.md" in [c["id"] for c in scattered.data["candidates"]]
    monkeypatch.setattr("v8atlas.server.corpus_search.STRONG_SCORE", float("inf"))
    assert tools.call(snap, "search_docs", dense).outcome == "not_found"     # coverage alone: no
    snap.bundle.close()


def _negation_and_derivation(root: Path) -> Path:
    """Short rules: one on unused parameters (the negation as a prefix of the word), one on
    passing values to a constructor (derived forms of short stems), and filler that uses the
    plain words, so each query word has an exact term (no subword relatives stand in)."""
    docs = {
        "unused.md": "# Неиспользуемый параметр\n\nНеиспользуемый параметр метода удаляют из его объявления.\n",
        "unused-en.md": "# Unused variable\n\nA variable that is unused is removed.\n",
        "cache.md": "# Кэш\n\nКэш используется при чтении настроек.\n",
        "log.md": "# Журнал\n\nЖурнал used by the variable reader keeps every call.\n",
        "ctor.md": "# Конструктор\n\nЗначения, передаваемые в конструктор, перечисляют многократно.\n",
        "list.md": "# Список\n\nСписок значений метода хранит параметры формы.\n",
        "letter.md": "# Письмо\n\nПередаю привет: много лет не виделись.\n",
    }
    (root / "std").mkdir(parents=True)
    for name, text in docs.items():
        (root / "std" / name).write_text(text, encoding="utf-8")
    (root / "v8atlas.toml").write_text('[[corpus]]\nsource = "std"\nkind = "standards"\nname = "std"\n',
                                       encoding="utf-8")
    return root


def _matched_in(snap: Snapshot, query: str, doc_id: str) -> set[str]:
    """The query words the index found in a document's best section, a hit or a rejected one."""
    from v8atlas.server.corpus_search import corpus_index
    index = corpus_index(snap.bundle)
    found = index.search(query, index.corpus_ids(None), 20)
    return next((set(h.matched) for h in found.hits + found.rejected
                 if snap.catalog.card(h.doc)["doc"] == doc_id), set())


@pytest.fixture()
def morphology_bundle(tmp_path):
    return compile_bundle([_negation_and_derivation(tmp_path / "p")], tmp_path / "b", cache=False, quiet=True).bundle_path


def test_a_negated_word_reaches_its_negating_prefix_only_after_a_negator(morphology_bundle, monkeypatch):
    # «не используется» / "never used": the rule says «неиспользуемый» / "unused", one word
    with Bundle.open(morphology_bundle) as b:
        snap = Snapshot(b)
        ru = tools.call(snap, "search_docs", {"query": "параметр метода не используется"})
        assert ru.outcome == "found" and ru.data["hits"][0]["id"] == "std:unused.md"
        assert "используется" in ru.data["hits"][0]["matched"]
        en = tools.call(snap, "search_docs", {"query": "variable never used"})
        assert en.data["hits"][0]["id"] == "std:unused-en.md" and "used" in en.data["hits"][0]["matched"]
        # without a negator the word is only itself: the rule does not hold «используется»
        plain = _matched_in(snap, "параметр метода используется", "std:unused.md")
        assert "параметр" in plain and "используется" not in plain
    monkeypatch.setattr("v8atlas.server.corpus_search.NEGATING_PREFIXES", ())
    with Bundle.open(morphology_bundle) as b:      # a fresh index: the first one kept its slots
        off = _matched_in(Snapshot(b), "параметр метода не используется", "std:unused.md")
        assert "параметр" in off and "используется" not in off


def test_a_short_stem_reaches_the_terms_extending_it(morphology_bundle, monkeypatch):
    # «передаю» (stem переда, 6 letters) and «много» (мног, 4) have no letters to spare for the
    # stem-minus-two range; the rule says «передаваемые», «многократно»
    query = "передаю много значений в конструктор"
    with Bundle.open(morphology_bundle) as b:
        r = tools.call(Snapshot(b), "search_docs", {"query": query})
        assert r.outcome == "found" and r.data["hits"][0]["id"] == "std:ctor.md"
        assert {"передаю", "много"} <= set(r.data["hits"][0]["matched"])
    monkeypatch.setattr("v8atlas.server.corpus_search.SHORT_STEM_MIN", 99)
    with Bundle.open(morphology_bundle) as b:
        off = _matched_in(Snapshot(b), query, "std:ctor.md")
        assert "конструктор" in off and not {"передаю", "много"} & off


def test_a_note_is_always_shown_as_a_note(corpus_snap):
    snap, _ = corpus_snap
    r = tools.call(snap, "search_docs", {"query": "выгрузка заказов через HTTP-сервис"})
    hit = next(h for h in r.data["hits"] if h["id"] == "team:decision.md")
    assert hit["note"] is True and "project note" in r.text
    doc = tools.call(snap, "get_doc", {"id": "team:decision.md"})
    assert doc.data["note"] is True and "project note" in doc.text.splitlines()[0]


def test_get_doc_lists_parts_and_pages(corpus_snap):
    snap, _ = corpus_snap
    r = tools.call(snap, "get_doc", {"id": "guide:exchange.md"})
    assert r.outcome == "found" and r.data["parts"] == 4
    assert "Parts: 0. Обмен данными; 1. Настройка узлов; 2. Настройка узлов › Отбор регистрации; " \
           "3. Транспорт сообщений" in r.text
    one = tools.call(snap, "get_doc", {"id": "guide:exchange.md#3"})
    assert "Каталог, FTP" in one.text and "Узлы плана обмена" not in one.text
    assert tools.call(snap, "get_doc", {"id": "guide:exchange.md", "part": 9}).outcome == "error"
    html = tools.call(snap, "get_doc", {"id": "guide:find.html"})
    assert "**Массив.Найти**" in html.text and "| Значение | Искомое значение |" in html.text


def test_tools_answer_unavailable_without_a_corpus(tmp_path):
    res = compile_bundle([EXAMPLES / "config-designer"], tmp_path / "b", cache=False, quiet=True)
    with Bundle.open(res.bundle_path) as b:
        snap = Snapshot(b)
        assert tools.call(snap, "search_docs", {"query": "x"}).outcome == "unavailable"
        assert tools.call(snap, "get_doc", {"id": "a:b.md"}).outcome == "unavailable"


# --- the starter corpus -------------------------------------------------------------------------

_BSP_MODULES = re.compile(r"\b(ОбщегоНазначения|ОбщегоНазначенияКлиентСервер|ДлительныеОперации|"
                          r"ДлительныеОперацииКлиент|УправлениеПечатью|ПолучениеФайловИзИнтернета)\.")


def test_starter_templates_declare_what_they_need():
    files = sorted((EXAMPLES / "corpus" / "templates").glob("*.md"))
    assert len(files) >= 40
    for f in files:
        doc = split_markdown(f.name, f.read_text(encoding="utf-8"))
        assert doc.meta.get("description"), f.name
        assert re.fullmatch(r"8\.3\.\d+", doc.meta.get("platform", "")), f.name
        code = "\n".join(s.text for s in doc.sections)
        assert "```bsl" in code, f.name
        if _BSP_MODULES.search(code):
            assert doc.meta.get("subsystem"), f"{f.name} calls БСП but names no subsystem"


def test_make_run_serves_the_starter_corpus(tmp_path):
    res = compile_bundle([EXAMPLES], tmp_path / "b", cache=False, quiet=True)
    with Bundle.open(res.bundle_path) as b:
        snap = Snapshot(b)
        r = tools.call(snap, "search_docs", {"query": "транзакция с управляемой блокировкой"})
        assert r.data["hits"][0]["id"] == "templates:transaction-managed-lock.md"
        g = tools.call(snap, "search_docs", {"query": "как читать исход ответа и курсор", "corpus": "docs"})
        assert g.data["hits"][0]["id"] == "guide:reading-answers.md"


def test_a_corpus_leaves_metadata_answers_as_they_are(tmp_path):
    """Corpus sections keep out of the core indexes (Domain.core_index): search_metadata answers
    the same with or without a corpus in the bundle, and a section's title is no exact name."""
    answers = []
    for with_corpus in (False, True):
        project = tmp_path / f"p{int(with_corpus)}"
        project.mkdir()
        toml = f'[[configuration]]\nsource = "{(EXAMPLES / "config-designer").as_posix()}"\n'
        if with_corpus:
            toml += (f'[[corpus]]\nsource = "{(EXAMPLES / "corpus" / "templates").as_posix()}"\n'
                     'kind = "templates"\nname = "templates"\n')
        (project / "v8atlas.toml").write_text(toml, encoding="utf-8")
        res = compile_bundle([project], tmp_path / f"b{int(with_corpus)}", cache=False, quiet=True)
        with Bundle.open(res.bundle_path) as b:
            snap = Snapshot(b)
            answers.append([(r.outcome, r.text, r.data) for r in (
                tools.call(snap, "search_metadata", {"query": q})
                for q in ("заказ покупателя товары", "контрагенты", "обход результата запроса"))])
            if with_corpus:
                hit = tools.call(snap, "search_docs", {"query": "обход результата запроса"}).data["hits"][0]
                assert tools.call(snap, "get_doc", {"id": hit["id"]}).outcome == "found"
                assert not snap.catalog.lookup(snap.title(b.array("corpus.sec_doc")[0].item()))
    assert answers[0] == answers[1]


# --- the public corpora (fetched under /work/ext, never committed; docs/corpus.md) ----------------

EXT = Path(os.environ.get("V8ATLAS_EXT", REPO.parent / "ext"))


@pytest.mark.realdata
def test_public_corpora_compile_and_answer_the_phrasing_set(tmp_path):
    import sys
    sys.path.insert(0, str(REPO / "tools"))
    import corpus_eval
    if not corpus_eval.corpus_folders(EXT):
        pytest.skip(f"public corpora not fetched under {EXT} (docs/corpus.md says how)")
    path, _, text_bytes = corpus_eval.compile_corpora(EXT, tmp_path)
    with Bundle.open(path) as b:
        docs = sum(c["documents"] for c in b.json("corpus.meta")["corpora"])
        assert docs >= 500 and text_bytes > 1_000_000
        sets = corpus_eval.load_sets()
        res = corpus_eval.evaluate(Snapshot(b), sets["first"])
        more = corpus_eval.evaluate(Snapshot(b), sets["more"])
        third = corpus_eval.evaluate(Snapshot(b), sets["third"])
    for name, r in (("first", res), ("more", more), ("third", third)):
        print(name, {k: {x: y for x, y in v.items() if x != "misses"} for k, v in r.items()})
    assert res["tuning"]["success_at_5"] >= 0.9
    # The issue asks 0.9 on the held-out half; this build measures 0.95 (docs/corpus.md: the
    # strong-match signal of round 2, session 4, chosen on the tuning halves only).
    assert res["heldout"]["success_at_5"] >= 0.9
    assert res["no_answer_tuning"]["not_found"] >= 9 and res["no_answer_heldout"]["not_found"] >= 9
    # The round-2 set (docs/corpus.md): measured 0.83 tuning, 0.92 held-out (session 5's short
    # stems and negation); guards, not targets.
    assert more["tuning"]["success_at_5"] >= 0.8 and more["heldout"]["success_at_5"] >= 0.9
    # The third set (round 2, session 3): measured 0.86 tuning, 0.73 held-out, 10/10 no-answer.
    assert third["tuning"]["success_at_5"] >= 0.85 and third["heldout"]["success_at_5"] >= 0.7
    assert third["no_answer_tuning"]["not_found"] + third["no_answer_heldout"]["not_found"] >= 9
