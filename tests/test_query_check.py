"""check_query on the embedded sample (examples/ compiled for platform 8.3.17): every construct of
the language parses, every kind of problem is found with its position and fix, nothing correct
is flagged, and the three entry points give the same answer."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from v8atlas.formats import Bundle
from v8atlas.formats.platform_version import encode_version
from v8atlas.server import tools
from v8atlas.server.query_check import check, schema_for
from v8atlas.server.snapshot import Snapshot

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"


@pytest.fixture(scope="module")
def snap(tmp_path_factory) -> Snapshot:
    if not (EXAMPLES / "config-designer" / "Configuration.xml").is_file():
        pytest.skip("examples/ sample not present")
    from v8atlas.compiler.pipeline import compile_bundle
    proj = tmp_path_factory.mktemp("proj")
    (proj / "v8atlas.toml").write_text(
        f'[[configuration]]\nsource = "{(EXAMPLES / "config-designer").as_posix()}"\nname = "Демо"\n'
        f'platform = "8.3.17"\n\n[[help]]\nsource = "{(EXAMPLES / "help").as_posix()}"\n', encoding="utf-8")
    out = tmp_path_factory.mktemp("bundles")
    path = compile_bundle([str(proj / "v8atlas.toml")], out, quiet=True).bundle_path
    return Snapshot(Bundle.open(path))


def run(snap: Snapshot, text: str, platform: str | None = None):
    schema = schema_for(snap, snap.configs[0])
    return check(text, schema, encode_version(platform) if platform else None)


def errors(snap, text, platform=None):
    return [(p.line, p.col, p.code, p.message, p.fix) for p in run(snap, text, platform).errors]


EVERYTHING = """// every construct of the issue, in one batch
ВЫБРАТЬ РАЗРЕШЕННЫЕ РАЗЛИЧНЫЕ ПЕРВЫЕ 100
    Н.Ссылка КАК Номенклатура,
    Н.Родитель.Наименование КАК Группа,
    ВЫРАЗИТЬ(Н.Описание КАК СТРОКА(200)) КАК Описание,
    ВЫБОР КОГДА Н.ЭтоГруппа ТОГДА "группа" ИНАЧЕ "элемент" КОНЕЦ КАК Вид,
    Н.Представление КАК Представление
ПОМЕСТИТЬ ВТНоменклатура
ИЗ
    Справочник.Номенклатура КАК Н
ГДЕ
    Н.Ссылка В ИЕРАРХИИ (&Группы)
    И НЕ Н.ПометкаУдаления
    И Н.Артикул ПОДОБНО "А%" СПЕЦСИМВОЛ "~"
    И Н.Вес МЕЖДУ 0 И 10
    И Н.Ссылка В (ВЫБРАТЬ Т.Номенклатура ИЗ Документ.ПриходТовара.Товары КАК Т)
    И Н.Родитель <> ЗНАЧЕНИЕ(Справочник.Номенклатура.ПустаяСсылка)
    И Н.Ссылка <> ЗНАЧЕНИЕ(Справочник.Номенклатура.Услуги)
ИНДЕКСИРОВАТЬ ПО
    Номенклатура
;
ВЫБРАТЬ
    ВТ.Номенклатура,
    ВТ.Описание,
    ЕСТЬNULL(Ц.Цена, 0) КАК Цена,
    Остатки.КоличествоОстаток КАК Остаток,
    ТИПЗНАЧЕНИЯ(П.Регистратор) = ТИП(Документ.ПриходТовара) КАК ЭтоПриход
ИЗ
    ВТНоменклатура КАК ВТ
        ЛЕВОЕ СОЕДИНЕНИЕ РегистрСведений.ЦеныНоменклатуры.СрезПоследних(&Дата, Номенклатура В (ВЫБРАТЬ Т.Номенклатура ИЗ ВТНоменклатура КАК Т)) КАК Ц
        ПО ВТ.Номенклатура = Ц.Номенклатура
        ЛЕВОЕ СОЕДИНЕНИЕ РегистрНакопления.ОстаткиТоваров.Остатки(&Дата, Склад = &Склад) КАК Остатки
            ЛЕВОЕ СОЕДИНЕНИЕ РегистрНакопления.ОстаткиТоваров КАК П
            ПО П.Номенклатура = Остатки.Номенклатура
        ПО ВТ.Номенклатура = Остатки.Номенклатура
ГДЕ
    НЕ Ц.Цена ЕСТЬ NULL
    И П.Регистратор ССЫЛКА Документ.ПриходТовара
УПОРЯДОЧИТЬ ПО
    Цена УБЫВ
ИТОГИ
    СУММА(Остаток)
ПО
    ОБЩИЕ,
    Номенклатура ИЕРАРХИЯ
;
ВЫБРАТЬ Д.Ссылка, Д.Дата ИЗ Документ.ПриходТовара КАК Д ГДЕ Д.Дата МЕЖДУ &Н И &К
ОБЪЕДИНИТЬ ВСЕ
ВЫБРАТЬ Д.Ссылка, Д.Дата ИЗ Документ.ПриходТовара КАК Д
ДЛЯ ИЗМЕНЕНИЯ Документ.ПриходТовара
;
УНИЧТОЖИТЬ ВТНоменклатура
"""


def test_every_construct_parses_and_checks_clean(snap):
    rep = run(snap, EVERYTHING)
    assert rep.statements == 4
    assert rep.errors == [], rep.errors
    assert rep.warnings == []


def test_english_keywords_and_names(snap):
    text = ("SELECT TOP 5 N.Ref, N.Description, SUBSTRING(N.Описание, 1, 100) AS D FROM Catalog.Номенклатура AS N "
            "WHERE N.Ref IN HIERARCHY (&G) AND N.Артикул LIKE \"А%\" GROUP BY N.Ref, N.Description, "
            "SUBSTRING(N.Описание, 1, 100) ORDER BY N.Description")
    assert errors(snap, text) == []
    assert errors(snap, "SELECT N.Нет FROM Catalog.Номенклатура AS N")[0][2] == "unknown_field"


def test_composition_schema_braces(snap):
    text = """ВЫБРАТЬ Т.Номенклатура, Т.Количество
{ВЫБРАТЬ Номенклатура.*, Количество}
ИЗ Документ.ПриходТовара.Товары КАК Т
{ЛЕВОЕ СОЕДИНЕНИЕ Справочник.Номенклатура КАК Н ПО Н.Ссылка = Т.Номенклатура}
{ГДЕ Т.Номенклатура.* КАК Номенклатура}
ГДЕ {Т.Количество > &Минимум}"""
    rep = run(snap, text)
    assert rep.dcs and rep.errors == []
    assert errors(snap, text.replace("Т.Количество >", "Т.Колво >"))[0][:3] == (6, 6, "unknown_field")


def test_a_settings_block_left_open_is_a_syntax_error_at_its_brace(snap):
    # The block swallowed the end of the text: once the parser hung on it (`…; {ГДЕ`), or
    # failed with an index error, or blamed the last word before the brace.
    for text, pos in (("ВЫБРАТЬ 1;\n{ГДЕ", (2, 1)),
                      ("ВЫБРАТЬ Т.Количество ИЗ Документ.ПриходТовара.Товары КАК Т {ГДЕ Т.", (1, 60))):
        (line, col, code, msg, _), = errors(snap, text)
        assert (line, col, code) == (*pos, "syntax") and "`{` is not closed" in msg
    assert errors(snap, "ВЫБРАТЬ Т.Количество ИЗ Документ.ПриходТовара.Товары КАК Т {ГДЕ Т.Количество}") == []


def test_virtual_table_field_suggests_the_fields_it_has(snap):
    text = "ВЫБРАТЬ\n  О.КоличествоОстаток\nИЗ РегистрНакопления.ОстаткиТоваров.Обороты КАК О"
    (line, col, code, msg, fix), = errors(snap, text)
    assert (line, col, code) == (2, 3, "unknown_field")
    assert "`РегистрНакопления.ОстаткиТоваров.Обороты` has no field `КоличествоОстаток`" in msg
    for f in ("КоличествоОборот", "КоличествоПриход", "КоличествоРасход"):
        assert f"`{f}`" in fix


def test_virtual_tables_the_register_lacks(snap):
    (_, _, code, msg, fix), = errors(snap, "ВЫБРАТЬ 1 ИЗ РегистрСведений.АдресаСкладов.СрезПоследних(&Д) КАК А")
    assert code == "unknown_table" and "not periodic" in msg and "`РегистрСведений.АдресаСкладов`" in fix
    (_, _, code, msg, _), = errors(snap, "ВЫБРАТЬ 1 ИЗ РегистрНакопления.Продажи.Остатки КАК П")
    assert code == "unknown_table" and "turnovers register" in msg
    assert errors(snap, "ВЫБРАТЬ П.КоличествоОборот ИЗ РегистрНакопления.Продажи.Обороты(, , Месяц) КАК П") == []


def test_virtual_table_parameters(snap):
    ok = "ВЫБРАТЬ О.Склад ИЗ РегистрНакопления.ОстаткиТоваров.Остатки(&Д, Склад = &С И Номенклатура.Весовой) КАК О"
    assert errors(snap, ok) == []
    bad = errors(snap, ok.replace("Склад = &С", "Склад2 = &С"))
    assert [e[2] for e in bad] == ["unknown_field"] and "condition parameter" in bad[0][3] and "`Склад`" in bad[0][4]
    many = errors(snap, "ВЫБРАТЬ 1 ИЗ РегистрНакопления.ОстаткиТоваров.Остатки(&Д, ИСТИНА, 3) КАК О")
    assert [e[2] for e in many] == ["table_params"] and "2 parameter(s), 3 given" in many[0][3]
    assert errors(snap, "ВЫБРАТЬ 1 ИЗ Справочник.Склады(&Д) КАК С")[0][2] == "table_params"


def test_unlimited_strings(snap):
    grouped = errors(snap, "ВЫБРАТЬ Н.Описание ИЗ Справочник.Номенклатура КАК Н СГРУППИРОВАТЬ ПО Н.Описание")
    (_, col, code, msg, fix), = grouped
    assert code == "unlimited_string" and col == 70 and "СГРУППИРОВАТЬ ПО" in msg
    assert fix == "use `ПОДСТРОКА(Н.Описание, 1, 1024)`"
    assert errors(snap, "ВЫБРАТЬ РАЗЛИЧНЫЕ Н.Описание ИЗ Справочник.Номенклатура КАК Н")[0][2] == "unlimited_string"
    assert errors(snap, "ВЫБРАТЬ Н.Описание КАК О ИЗ Справочник.Номенклатура КАК Н УПОРЯДОЧИТЬ ПО О")[0][2] \
        == "unlimited_string"
    joined = errors(snap, "ВЫБРАТЬ 1 ИЗ РегистрСведений.АдресаСкладов КАК А ЛЕВОЕ СОЕДИНЕНИЕ "
                          "Справочник.Номенклатура КАК Н ПО Н.Описание = А.Адрес")
    assert {e[2] for e in joined} == {"unlimited_string"} and len(joined) == 2
    fixed = "ВЫБРАТЬ ПОДСТРОКА(Н.Описание, 1, 100) КАК О ИЗ Справочник.Номенклатура КАК Н " \
            "СГРУППИРОВАТЬ ПО ПОДСТРОКА(Н.Описание, 1, 100)"
    assert errors(snap, fixed) == []
    via_temp = ("ВЫБРАТЬ Н.Описание КАК Текст ПОМЕСТИТЬ ВТ ИЗ Справочник.Номенклатура КАК Н;\n"
                "ВЫБРАТЬ ВТ.Текст ИЗ ВТ КАК ВТ СГРУППИРОВАТЬ ПО ВТ.Текст")
    assert [(e[0], e[2]) for e in errors(snap, via_temp)] == [(2, "unlimited_string")]
    cast = ("ВЫБРАТЬ ВЫРАЗИТЬ(Н.Описание КАК СТРОКА(100)) КАК Текст ПОМЕСТИТЬ ВТ ИЗ Справочник.Номенклатура КАК Н;"
            "ВЫБРАТЬ ВТ.Текст ИЗ ВТ КАК ВТ СГРУППИРОВАТЬ ПО ВТ.Текст")
    assert errors(snap, cast) == []


def test_dotted_paths_through_reference_and_composite_types(snap):
    assert errors(snap, "ВЫБРАТЬ Т.Номенклатура.Родитель.Артикул ИЗ Документ.ПриходТовара.Товары КАК Т") == []
    (_, col, code, msg, fix), = errors(snap, "ВЫБРАТЬ Т.Номенклатура.Артиккул ИЗ Документ.ПриходТовара.Товары КАК Т")
    assert code == "unknown_field" and col == 9 and "(`Справочник.Номенклатура`) has no field `Артиккул`" in msg
    assert "`Артикул`" in fix
    prim = errors(snap, "ВЫБРАТЬ Т.Количество.Код ИЗ Документ.ПриходТовара.Товары КАК Т")
    assert prim[0][2] == "bad_path" and "`Число(15,3)`" in prim[0][3]
    rep = run(snap, "ВЫБРАТЬ Д.Основание.Дата ИЗ Документ.ПриходТовара КАК Д")
    assert rep.errors == [] and rep.notes and "exists in" in rep.notes[0]
    none = errors(snap, "ВЫБРАТЬ Д.Основание.НетТакого ИЗ Документ.ПриходТовара КАК Д")
    assert none[0][2] == "unknown_field" and "none of the" in none[0][3]
    assert errors(snap, "ВЫБРАТЬ ВЫРАЗИТЬ(Д.Основание КАК Справочник.Договоры).ВидДоговора "
                        "ИЗ Документ.ПриходТовара КАК Д") == []


def test_values_and_types(snap):
    assert errors(snap, "ВЫБРАТЬ ЗНАЧЕНИЕ(Перечисление.ВидыДоговоров.СПоставщиком), "
                        "ЗНАЧЕНИЕ(ПланСчетов.Хозрасчетный.Товары), ЗНАЧЕНИЕ(ВидДвиженияНакопления.Приход)") == []
    (_, _, code, msg, fix), = errors(snap, "ВЫБРАТЬ ЗНАЧЕНИЕ(Перечисление.ВидыДоговоров.СПоставщикомм)")
    assert code == "unknown_value" and "has no value `СПоставщикомм`" in msg and "`СПоставщиком`" in fix
    (_, _, code, msg, _), = errors(snap, "ВЫБРАТЬ ЗНАЧЕНИЕ(Справочник.Номенклатура.Товары)")
    assert code == "unknown_value" and "predefined item" in msg
    assert errors(snap, "ВЫБРАТЬ ТИП(Справочник.Нет)")[0][2] == "unknown_table"


def test_functions_by_platform_version(snap):
    text = 'ВЫБРАТЬ СТРНАЙТИ(Н.Наименование, "а") ИЗ Справочник.Номенклатура КАК Н'
    (_, col, code, msg, _), = errors(snap, text)           # the sample is compiled for 8.3.17
    assert (col, code) == (9, "function_version") and "8.3.20" in msg and "8.3.17" in msg
    assert errors(snap, text, platform="8.3.23") == []
    assert errors(snap, text.replace("СТРНАЙТИ", "STRFIND"))[0][2] == "function_version"
    rep = run(snap, "ВЫБРАТЬ НОВАЯФУНКЦИЯ(1)")
    assert rep.errors == [] and [w.code for w in rep.warnings] == ["unknown_function"]


def test_temporary_tables_and_aliases(snap):
    text = ("ВЫБРАТЬ Н.Ссылка КАК Товар ПОМЕСТИТЬ ВТ ИЗ Справочник.Номенклатура КАК Н;\n"
            "ВЫБРАТЬ ВТ.Товар, ВТ.Товар.Артикул, ВТ.Нет ИЗ ВТ КАК ВТ;\n"
            "УНИЧТОЖИТЬ ВТ;\n"
            "ВЫБРАТЬ Б.Что ИЗ ВТ КАК Б")
    rep = run(snap, text)
    assert [(p.line, p.code) for p in rep.errors] == [(2, "unknown_field")]
    assert "`Товар`" in rep.errors[0].fix
    assert [(p.line, p.code) for p in rep.warnings] == [(4, "outside_table")]
    sub = "ВЫБРАТЬ С.Х ИЗ (ВЫБРАТЬ Н.Код КАК К ИЗ Справочник.Номенклатура КАК Н) КАК С"
    assert errors(snap, sub)[0][2] == "unknown_field"
    assert errors(snap, "ВЫБРАТЬ Наименование, Артикул ИЗ Справочник.Номенклатура") == []
    assert errors(snap, "ВЫБРАТЬ Номенклатура.Наименование ИЗ Справочник.Номенклатура") == []
    assert errors(snap, "ВЫБРАТЬ ЦеныНоменклатурыСрезПоследних.Цена, СрезПоследних.Цена "
                        "ИЗ РегистрСведений.ЦеныНоменклатуры.СрезПоследних") == []
    assert errors(snap, "ВЫБРАТЬ Нет ИЗ Справочник.Номенклатура")[0][2] == "unknown_field"


def test_tables_and_syntax(snap):
    (_, _, code, msg, fix), = errors(snap, "ВЫБРАТЬ 1 ИЗ Справочник.Номенклатур КАК Н")
    assert code == "unknown_table" and "`Справочник.Номенклатура`" in fix
    assert errors(snap, "ВЫБРАТЬ 1 ИЗ Справочники.Номенклатура КАК Н")[0][2] == "unknown_table"
    (line, _, code, msg, _), = errors(snap, "ВЫБРАТЬ\n  Н.Код\nИЗ Справочник.Номенклатура КАК Н\nГДЕ Н.Код = ")
    assert (line, code) == (4, "syntax") and "end of text" in msg


def test_positions_after_comments_multiline_strings_and_continuation_marks(snap):
    # Line and column are worked out from offsets: a string literal over two lines, a comment,
    # `|` continuation marks and tabs before the wrong field must not shift them.
    text = ('ВЫБРАТЬ\n\t"две\nстроки" КАК Т, // комментарий: Н.Нет\n|\tН.Код,\n'
            '|\tН.Нет\nИЗ Справочник.Номенклатура КАК Н\n')
    (line, col, code, msg, _), = errors(snap, text)
    assert (line, col, code) == (5, 3, "unknown_field") and "`Нет`" in msg
    (line, col, code, _, _), = errors(snap, text.replace("Н.Код,", "Н.Код,,"))
    assert (line, col, code) == (4, 9, "syntax")      # the second comma

def test_broken_texts_get_an_answer_not_an_exception(snap):
    # Seeded edits of the full-language batch (pieces inserted, characters cut): each gets a
    # report — a syntax error or problems — never an exception. Before round 2, ~0.15 % of such
    # edits of SSL's queries raised IndexError or hung (an open `{ГДЕ` swallowed the end).
    import random
    rng = random.Random(19)
    pieces = ["{", "}", "(", ")", ";", ",", ".", "ВЫБРАТЬ", "ИЗ", "КАК", "ПО", "&", "#", '"', "|", "//",
              "{ГДЕ", "ИТОГИ", "ОБЪЕДИНИТЬ", "ЕСТЬ", "В", "НЕ", "%1", "?", "[", "\n", "ВЫБОР КОГДА"]
    syntax = 0
    for _ in range(1500):
        text = EVERYTHING
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            if rng.random() < 0.5:
                text = text[:at] + rng.choice(pieces) + text[at:]
            else:
                text = text[:at] + text[at + rng.randint(1, 8):]
        rep = run(snap, text)
        assert all(p.line >= 1 and p.col >= 1 and p.message for p in rep.problems)
        syntax += any(p.code == "syntax" for p in rep.problems)
    assert syntax > 300            # the edits do break the text (the test is not vacuous)

def test_dynamic_fragments_are_warnings(snap):
    rep = run(snap, "ВЫБРАТЬ Т.Ссылка ИЗ #Таблица КАК Т ГДЕ #Условие")
    assert rep.errors == [] and rep.warnings
    assert "`#Таблица`" in rep.warnings[0].message
    rep = run(snap, "ВЫБРАТЬ Т.Ссылка ИЗ &Таблица КАК Т ГДЕ Т.Что = 1")
    assert rep.errors == [] and rep.warnings == []
    rep = run(snap, "ВЫБРАТЬ Шапка?.Ссылка ИЗ @Справочник.Номенклатура КАК Шапка? ГДЕ %1")
    assert rep.errors == [] and [w.code for w in rep.warnings] == ["dynamic_text"]


def test_the_tool_the_cli_and_the_api_give_the_same_answer(snap):
    from v8atlas.cli import main
    text = "ВЫБРАТЬ О.КоличествоОстаток ИЗ РегистрНакопления.ОстаткиТоваров.Обороты КАК О"
    r = tools.call(snap, "check_query", {"text": text})
    assert r.outcome == "problems" and r.text.startswith("**Outcome: problems** — 1 error(s)")
    assert "1. ✗ error 1:9 — " in r.text and "Fix: it has" in r.text
    assert r.data["problems"][0]["code"] == "unknown_field"
    ok = tools.call(snap, "check_query", {"text": "ВЫБРАТЬ 1"})
    assert ok.outcome == "ok" and ok.text.startswith("**Outcome: ok**") and ok.data["ok"] is True
    cli = CliRunner().invoke(main, ["call", "check_query", f"text={text}", "--json", "--bundles",
                                    str(snap.bundle.path)])
    assert cli.exit_code == 0, cli.output
    assert json.loads(cli.output) == r.as_json()

    async def over_http():
        import aiohttp
        from aiohttp import web
        from v8atlas.server.app import build_app, make_runner
        from v8atlas.server.auth import AuthConfig
        from v8atlas.server.state import ServerState
        state = ServerState(snap.bundle.path.parent, poll_interval=0)
        state.load_initial()
        runner = make_runner(build_app(state, auth=AuthConfig.from_env({}), mcp=None, dashboard=False))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        await state.serving()
        try:
            async with aiohttp.ClientSession() as s, \
                    s.post(f"http://127.0.0.1:{port}/api/check_query", json={"text": text}) as resp:
                return resp.status, await resp.json()
        finally:
            await runner.cleanup()
    status, body = asyncio.run(over_http())
    assert status == 200 and body == r.as_json()


def test_long_texts_are_accepted_and_bounded(snap):
    body = ",\n".join(f"    Н.Код КАК К{i}" for i in range(300))
    r = tools.call(snap, "check_query", {"text": f"ВЫБРАТЬ\n{body}\nИЗ Справочник.Номенклатура КАК Н"})
    assert r.outcome == "ok"
    bad = tools.call(snap, "check_query", {"text": "ВЫБРАТЬ 1" + " " * 60_000})
    assert bad.outcome == "error" and bad.error["code"] == "too_long"


def test_lenient_where_the_platform_allows_variants(snap):
    # ДЛЯ ИЗМЕНЕНИЯ before ГДЕ, `В &Список` without parentheses, a schema field list in parameters
    assert errors(snap, "ВЫБРАТЬ Д.Ссылка ИЗ Документ.ПриходТовара КАК Д ДЛЯ ИЗМЕНЕНИЯ ГДЕ Д.Ссылка В &С") == []
    assert errors(snap, "ВЫБРАТЬ О.Склад ИЗ РегистрНакопления.ОстаткиТоваров.Остатки({(&Период)}, "
                        "{(Склад).* КАК Склад}) КАК О") == []
    assert errors(snap, "ВЫБРАТЬ Д.Ссылка ИЗ Документ.ПриходТовара КАК Д ДЛЯ ИЗМЕНЕНИЯ Документ.Нет")[0][2] \
        == "unknown_table"
    union = ("ВЫБРАТЬ Н.Ссылка КАК Товар ПОМЕСТИТЬ ВТ ИЗ Справочник.Номенклатура КАК Н ОБЪЕДИНИТЬ ВСЕ "
             "ВЫБРАТЬ С.Ссылка ИЗ Справочник.Склады КАК С ИНДЕКСИРОВАТЬ ПО Товар")
    assert errors(snap, union) == []


def test_corpus_extraction_keeps_complete_texts_and_names_bad_files(tmp_path):
    import sys
    sys.path.insert(0, str(REPO / "tools"))
    from query_corpus import dump_queries, is_dynamic
    mod = tmp_path / "CommonModules" / "М" / "Ext"
    mod.mkdir(parents=True)
    (mod / "Module.bsl").write_text(
        'Процедура П()\n\tЗапрос.Текст =\n\t"ВЫБРАТЬ\n\t|\tТ.Ссылка КАК Ссылка\n\t|ИЗ\n\t|\tСправочник.Т КАК Т\n'
        '\t|ГДЕ\n\t|\tТ.Код = ""1""";\n'
        '\tЧасть = "ВЫБРАТЬ РАЗРЕШЕННЫЕ";\n'
        '\tДинамика = "ВЫБРАТЬ Т.Ссылка ИЗ " + ИмяТаблицы + " КАК Т";\n'
        '\tШаблон = "ВЫБРАТЬ Т.Ссылка ИЗ #Таблица КАК Т";\nКонецПроцедуры\n', encoding="utf-8")
    tpl = tmp_path / "Reports" / "О" / "Templates" / "С" / "Ext"
    tpl.mkdir(parents=True)
    (tpl / "Template.xml").write_text("<DataCompositionSchema", encoding="utf-8")
    problems: list[str] = []
    texts = dump_queries(tmp_path, problems)
    complete = [q for q in texts if not is_dynamic(q.text)]
    assert [q.text for q in complete] == ["ВЫБРАТЬ\n\tТ.Ссылка КАК Ссылка\nИЗ\n\tСправочник.Т КАК Т\nГДЕ\n\tТ.Код = \"1\""]
    assert complete[0].line == 3
    assert len(problems) == 1 and "Template.xml" in problems[0] and "not well-formed" in problems[0]
