"""The compiled BSL scanner (compiler/code/_bslscan.c) against the Python one (lexer.py's
``scan_module_pure``, the reference): equal scan results — procedures with every field and
token, problems with their lines, regions, line count, the module's doc — on hand-written edge
cases, on random mutations of them (bytes that are not UTF-8 and NUL bytes too), and on SSL's
modules when ../shared/data is present."""
from __future__ import annotations

import importlib
import importlib.util
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from realdata import extracted
from test_code_lexer import RU
from v8atlas.compiler.code import lexer

REPO = Path(__file__).resolve().parent.parent


def _built():
    try:
        return importlib.import_module("v8atlas.compiler.code._bslscan")
    except ImportError:
        return None


_NOT_BUILT = ("the compiled scanner (v8atlas.compiler.code._bslscan) is not built: the install found "
              "no C compiler or Python headers, so lexer.py's Python scanner is in use")
needs_c = pytest.mark.skipif(_built() is None, reason=_NOT_BUILT)


def _has_c_toolchain() -> bool:
    include = sysconfig.get_paths().get("include")
    return bool(shutil.which("gcc") or shutil.which("cc")) and bool(include) and \
        (Path(include) / "Python.h").is_file()


@pytest.mark.skipif(not _has_c_toolchain(), reason="no C compiler or Python.h here: the extension is optional")
def test_the_extension_is_built_where_a_c_compiler_is():
    assert _built() is not None, "gcc and Python.h are here but `pip install -e .` built no _bslscan"


@needs_c
def test_the_environment_variable_forces_the_python_scanner():
    code = "from v8atlas.compiler.code import lexer; print(lexer._scan is lexer.scan_module_pure)"
    env = {k: v for k, v in os.environ.items() if k != "V8ATLAS_PURE_SCANNER"}
    got = [subprocess.run([sys.executable, "-c", code], env={**env, **extra}, capture_output=True, text=True,
                          check=True).stdout.strip() for extra in ({}, {"V8ATLAS_PURE_SCANNER": "1"})]
    assert got == ["False", "True"]


@needs_c
def test_the_build_carries_the_sha_of_the_source_beside_it():
    assert _built().SOURCE_SHA == lexer._source_sha(lexer._SOURCE)


@needs_c
def test_a_build_of_another_source_is_left_unused_with_a_warning(monkeypatch, capsys):
    """An editable install keeps the .so it built; after a change to _bslscan.c without a rebuild
    the Python scanner runs rather than tables the C does not expect — and says why, once."""
    monkeypatch.setattr(_built(), "SOURCE_SHA", "0123456789abcdef")
    assert lexer._load_compiled() is None
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "another _bslscan.c" in err and "0123456789abcdef" in err


@needs_c
def test_a_failed_configure_falls_back_with_a_warning(monkeypatch, capsys):
    good = lexer._config()
    monkeypatch.setattr(lexer, "_config", lambda: {})
    try:
        assert lexer._load_compiled() is None
    finally:
        lexer._compiled.configure(good)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "configure failed" in err and "Procedure missing" in err


_BAD_CONFIGURE = """
import copy
from v8atlas.compiler.code import lexer
m = lexer._compiled
good = lexer._config()
def broken(**change):
    cfg = dict(good, **change)
    for k in [k for k, v in change.items() if v is None]:
        del cfg[k]
    return cfg
for cfg in ({}, broken(STRUCT=None), broken(fields=good["fields"][:-1]), broken(fields=list(good["fields"])),
            broken(Procedure=1), broken(Problem="x"), broken(PARAMS=[]), broken(PP_IF=()), broken(params_of=None),
            broken(NOT=1), broken(ENDS=[([(b"ab", b"AB")], 1)])):
    try:
        m.configure(cfg)
    except (KeyError, TypeError, ValueError, SystemError):
        pass
    else:
        raise SystemExit("configure took a broken table")
    try:
        m.scan("Процедура А()\\n".encode(), ())
    except RuntimeError:
        pass
    else:
        raise SystemExit("scan ran after a failed configure")
    m.configure(good)
    assert m.scan("Процедура А()\\nКонецПроцедуры\\n".encode(), ())[0][0].name == "А"
print("ok")
"""


@needs_c
def test_a_failed_configure_leaves_the_scanner_off_not_half_set():
    """configure is all or nothing: a missing key, a fields tuple of the wrong size, a class that
    is not callable… leave the scanner refusing (RuntimeError), never scanning with NULL tables
    (a segfault: hence the child process); a good configure afterwards brings it back."""
    run = subprocess.run([sys.executable, "-c", _BAD_CONFIGURE], capture_output=True, text=True)
    assert (run.returncode, run.stdout.strip()) == (0, "ok"), run.stderr[-2000:]


@needs_c
def test_every_problem_is_worded_by_lexer_py():
    """The C formats lexer.py's templates (MSG_*, KINDS, NOT), none of its own: configured with
    marked templates, every problem of the edge cases carries the mark."""
    cfg = lexer._config()
    marked = {k: "‹" + v + "›" if isinstance(v, str) and (k.startswith(("MSG_", "KIND_")) or k == "NOT") else v
              for k, v in cfg.items()}
    try:
        lexer._compiled.configure(marked)
        got = [lexer._scan_compiled(t.encode()) for t in EDGE]
    finally:
        lexer._compiled.configure(cfg)
    problems = [p for r in got for p in r.problems]
    assert len({p.code for p in problems}) == 6
    assert all(p.message.startswith("‹") for p in problems), [p.message for p in problems if p.message[0] != "‹"]
    assert any("‹procedure›" in p.message or "‹function›" in p.message for p in problems)
    assert any(c.startswith("‹НЕ (") for r in got for proc in r.procedures for c in proc.conditions)


def _outcome(scan, data: bytes):
    """A scan's result, or the kind of exception it raised (input that is not UTF-8 text)."""
    try:
        return scan(data)
    except UnicodeDecodeError:
        return "UnicodeDecodeError"


def _same(data: bytes) -> None:
    pure = _outcome(lexer.scan_module_pure, data)
    compiled = _outcome(lexer._scan_compiled, data)
    if pure != compiled and not isinstance(pure, str) and not isinstance(compiled, str):
        # name the first field that differs (a readable failure)
        for a, b in zip(pure.procedures, compiled.procedures):
            assert a == b, data[:300]
        assert (pure.problems, pure.regions, pure.lines, pure.module_doc) == \
            (compiled.problems, compiled.regions, compiled.lines, compiled.module_doc), data[:300]
    assert pure == compiled, data[:300]


EN = '''#Region Public

// Returns the value.
//
// Parameters:
//  Ref - AnyRef - the object.
//
// Returns:
//  Arbitrary - the value.
&AtServer
Async Function Value(Ref, Val Name = "a,b)", Mode = Undefined) Export
	Query = New Query("SELECT T.Ref FROM AccumulationRegister.Stock.Balance AS T
	|WHERE T.Name = ""EndFunction""");
	Await Helper(Catalogs.Products.EmptyRef());
	Return CommonModule.Method(1).Other();
EndFunction

#EndRegion

#If Server Or ThickClientOrdinaryApplication Then
&AtClient
Procedure Helper(Parameter)
	Items = Catalogs.Products.CreateItem();
	Module = Common.CommonModule("Users");
	Module.CurrentUser();
	Common.CommonModule("Users").AuthorizedUser();
EndProcedure
#ElsIf Client Then
Procedure Helper(Parameter)
EndProcedure
#Else
Procedure Helper(Parameter) EndProcedure
#EndIf
'''

EDGE = [
    RU, EN, "", "\n", "   \n\t\n", "Процедура", "Процедура А(", "Процедура А()", "#", "&", "#Область",
    "Процедура А()\n", "КонецПроцедуры", "Функция Ф()\nКонецПроцедуры\n", "Процедура П()\nКонецФункции",
    "Процедура А()\nПроцедура Б()\nКонецПроцедуры\n",
    "Процедура А() КонецПроцедуры\nПроцедура Б() Экспорт КонецПроцедуры\nПроцедура В() ЭкспортКонецПроцедуры\n",
    'Процедура А() Б = "КонецПроцедуры"; // КонецПроцедуры\nКонецПроцедуры\n',
    "Процедура А()\nКонецПроцедуры\nПроцедура а()\nКонецПроцедуры\n",
    "#Если Сервер Тогда\nПроцедура А()\nКонецПроцедуры\n#Иначе\nПроцедура А()\nКонецПроцедуры\n#КонецЕсли\n",
    "#ИначеЕсли А Тогда\n#Иначе\n#КонецЕсли\n#КонецОбласти\n#Область А // комментарий\n#Область Б\n",
    "ФУНКЦИЯ Ф() ЭКСПОРТ\nКОНЕЦФУНКЦИИ\nфункция ф2()\nконецфункции\nпРоЦеДуРа П()\nКонеЦПроцедуры\n",
    "Асинх Процедура А()\nКонецПроцедуры\nАсинх\tФункция Б()\nКонецФункции\nАсинх Б()\nАсинх КонецПроцедуры\n",
    "АсинхПроцедура А()\nКонецПроцедуры\nПроцедураА()\nПроцедура_ А()\n",
    '&Перед("ПриЗаписи")\nПроцедура Р_ПриЗаписи(Отказ)\nКонецПроцедуры\n'
    '&После ( "X" )\n&НаСервере\nПроцедура Р2()\nКонецПроцедуры\n'
    '&ИзменениеИКонтроль("Ф")\nФункция Р3()\n#Вставка\nА = 1;\n#КонецВставки\n#Удаление\nБ();\n#КонецУдаления\nКонецФункции\n'
    '&Вместо\n&НаКлиентеНаСервереБезКонтекста\nПроцедура Р4() Экспорт\nКонецПроцедуры\n',
    '&НаКлиенте\n\n// не документация\nПроцедура А()\nКонецПроцедуры\n',
    "////////////////////////////////////////\n// Модуль.\n//\n////////\n\n// Описание\n//\nПроцедура А()\nКонецПроцедуры\n",
    "//\u00a0\n//   ///\n// \u2003Текст\nПроцедура А()\nКонецПроцедуры\n",
    "// ////\n//\n//Описание\n\t  //  отступ  \nПроцедура А()\nКонецПроцедуры\n",
    'Процедура А(Знач Б, В = "x,)y", Г = Неопределено, // комментарий\n   Д = 1,\n\tЕ)\nКонецПроцедуры\n',
    'Процедура А(Б = "не закрыта)\nКонецПроцедуры\n',
    "Процедура А(\n",
    'Процедура А()\n\tС = "строка // не комментарий ""кавычки"" ";\n\tД = "\n\t|продолжение // тоже\n'
    '\t|ИЗ Справочник.Товары КАК Т, Документ.Заказ.Товары\n\t|ГДЕ Т.Ссылка = &Ссылка""";\n'
    '\tЕ = 1 | 2; / 3 // конец\n\tТ = Тип("СправочникСсылка.Пользователи");\n\tЖ = "незакрытая\nКонецПроцедуры\n',
    "Функция А()\n\tБ(1(2));\n\tФ().Имя();\n\tА.Б.В(); А.Б.В.Г();\n\tЕсли (А) Тогда Новый Структура(); КонецЕсли;\n"
    "\tСправочники.Товары.СоздатьЭлемент(); Документы . Заказ . Найти ( 1 );\n\tРегистрыСведений.Курсы.Создатьнаборзаписей();\n"
    "\tСправочники.Товары.Ссылка.Получить(); РегистрыНакопления . Остатки ;\n\t1.Ф(); Х.1Ф(); _1(); ф1();\n"
    "\tВозврат ОбщегоНазначения.ОбщийМодуль(\"Пользователи\").Текущий() + Справочники.Валюты.Найти();\nКонецФункции\n",
    "Процедура А()\n\tМодуль = ОбщегоНазначения.ОбщийМодуль(\"Пользователи\");\n\tМодуль.Текущий();\n"
    "\tОбщийМодуль(Имя).Б(); ОбщийМодуль( \"X\" ) . Y ( );\nКонецПроцедуры\n",
    "Procedure A()\nEndProcedure\nFunction B() Export\nEndFunction\nPROCEDURE C(VAL D)\nENDPROCEDURE\n",
    "Процедура А()\n#Если Клиент Тогда\nКонецПроцедуры\n#КонецЕсли\nКонецПроцедуры\n",
    "  \t#  Область  А\n\t&  НаСервере\n\t Процедура А()\n\t КонецПроцедуры\n\t#  КонецОбласти",
]

# nesting past lexer.MAX_DEPTH (64): counted, not recorded, one problem per kind
_DEEP = ("#Область О{k}\n#Если Сервер{k} Тогда\nПроцедура П{k}()\nКонецПроцедуры\n#Иначе\n"
         "Процедура Q{k}()\nКонецПроцедуры\n")
EDGE.append("".join(_DEEP.format(k=k) for k in range(70)) + "#КонецЕсли\n#КонецОбласти\n" * 72
            + "#ИначеЕсли Б\nПроцедура Z()\nКонецПроцедуры\n")

RAW = [
    "Процедура А()\r\nКонецПроцедуры\r\n".encode(), "\ufeffПроцедура А()\nКонецПроцедуры".encode("utf-8"),
    b"\xef\xbb\xbf\r\nProcedure A()\rEndProcedure\r", "Процедура А()\nКонецПроцедуры\r\n\r".encode(),
]


@needs_c
@pytest.mark.parametrize("text", EDGE)
def test_compiled_scanner_equals_the_python_one(text):
    data = text.encode()
    assert lexer.decode_module(data)[1] is None
    _same(data)


@needs_c
@pytest.mark.parametrize("raw", RAW)
def test_equal_after_decoding_crlf_cr_and_bom(raw):
    data, problem = lexer.decode_module(raw)
    assert problem is None
    _same(data)


@needs_c
def test_the_edge_cases_cover_what_they_name():
    """The cases reach the paths they are for (else equality would prove little)."""
    codes = {p.code for t in EDGE for p in lexer.scan_module_pure(t.encode()).problems}
    assert codes == {"unbalanced", "unbalanced-region", "unbalanced-if", "duplicate", "syntax", "deep-nesting"}
    procs = [p for t in EDGE for p in lexer.scan_module_pure(t.encode()).procedures]
    assert any(p.annotation for p in procs) and any(p.inserts and p.deletes for p in procs)
    assert any(p.is_async for p in procs) and any(p.literal_module_calls for p in procs)
    assert {u[2] for p in procs for u in p.usages} >= {"code", "write", "query"}
    assert any(u[2].startswith("call:") for p in procs for u in p.usages)


@needs_c
@pytest.mark.parametrize("raw", [b"\x00", "Процедура А()\x00\nКонецПроцедуры\n".encode(),
                                 b"\xff\xfe", "Процедура \xd0(\n".encode("utf-8", "surrogateescape"),
                                 b"Procedure A()\n\tB\xd0\xd0(); C.\xc3(\n\tX = \"\xff\";\nEndProcedure\n",
                                 b"#Region \xff\n&\xd0\nProcedure \xe2\x82()\nEndProcedure\n"])
def test_bytes_that_are_not_text_give_the_same_outcome(raw):
    """decode_module keeps such bytes from the scanner; fed them anyway, neither crashes and both
    answer alike (a result, or a UnicodeDecodeError)."""
    _same(raw)


_PIECES = [b'"', b'""', b"|", b"/", b"//", b"\n", b"\r", b"(", b")", b".", b" ", b"\t", b"#", b"&", b"\x00",
           b"\xd0", b"\xff", "Процедура ".encode(), "КонецПроцедуры".encode(), "Функция Ф(".encode(),
           "Экспорт".encode(), "#Область ".encode(), "#КонецЕсли".encode(), "Справочники.".encode(),
           "ОбщийМодуль(\"".encode(), "Асинх ".encode(), b"1", b"_", "Тогда".encode(), "Ё".encode()]


def _mutations(seed: int, count: int):
    rnd = random.Random(seed)
    base = [t.encode() for t in EDGE if t]
    for _ in range(count):
        data = bytearray(rnd.choice(base))
        for _ in range(rnd.randint(1, 6)):
            at = rnd.randint(0, len(data))
            op = rnd.random()
            if op < 0.4:
                data[at:at] = rnd.choice(_PIECES)
            elif op < 0.7:
                del data[at:at + rnd.randint(1, 8)]
            else:
                data[at:at + 1] = rnd.choice(_PIECES)
        yield bytes(data)


@needs_c
def test_random_mutations_give_equal_results():
    """A bounded fuzz (fixed seed): mutated edge cases, decoded as a reader would and raw."""
    for data in _mutations(11, 3000):
        _same(data)
        text, problem = lexer.decode_module(data)
        if text is not None:
            _same(text)


@needs_c
@pytest.mark.realdata
def test_equal_on_every_ssl_module():
    root = extracted("configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst")
    n = 0
    for f in sorted(root.rglob("*.bsl")):
        text, problem = lexer.decode_module(f.read_bytes())
        if text is not None:
            _same(text)
            n += 1
    assert n > 2000


_DECODE = [b"", b"\xef\xbb\xbf", b"\xef\xbb", "Процедура А()\r\nКонецПроцедуры\r\n".encode(), b"a\rb\r\nc\r\r\n\r",
           b"\xef\xbb\xbfa\r\n", b"a\x00b", b"\x00", b"\xc0\x80", b"\xc2", b"\xe0\x80\x80", b"\xe0\xa0\x80", b"\xed\xa0\x80",
           b"\xed\x9f\xbf", b"\xf0\x8f\xbf\xbf", b"\xf0\x90\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5",
           b"\xff", b"ok\n\xd0\x9f\xd1", "Ё\u2028\U0010ffff".encode(), b"\xef\xbb\xbf\x00", b"a\r\n\xff"]


@needs_c
@pytest.mark.parametrize("raw", _DECODE + [m for m in _mutations(5, 300)])
def test_compiled_decode_equals_the_python_one(raw):
    """BOM, CRLF, lone CR, NUL, and the UTF-8 forms Python refuses (overlong, surrogate, above
    U+10FFFF, cut short): the same text, or the same problem with its line and offset."""
    assert lexer._decode_compiled(raw) == lexer.decode_module_pure(raw)


# Long enough for the decoder's eight-byte steps: each odd piece at every offset in a word, in
# Cyrillic or ASCII text, whole or cut at each byte.
_ODD = [b"\r", b"\r\n", b"\x00", b"\xc0\x80", b"\xc1\xbf", b"\xc2", b"\x80", b"\xbf\xbf", b"\xdf\xbf",
        "…".encode(), "𝄞".encode(), b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xff", "Ё".encode()]


@needs_c
@pytest.mark.parametrize("background", ["Процедура Имя() Экспорт", "If a Then b = 1;"])
@pytest.mark.parametrize("odd", _ODD)
def test_compiled_decode_equals_the_python_one_in_long_text(background, odd):
    """Every odd piece (CR, NUL, overlong, a lead or continuation alone, three- and four-byte
    letters, a surrogate) at every offset of two words of two-byte letters or ASCII, and the
    text cut at every byte there: the same text or problem as Python's decoder."""
    text = (background * 4).encode()
    for at in range(17):
        raw = text[:at] + odd + text[at:]
        for cut in range(at, at + len(odd) + 9):
            for data in (raw, raw[:cut], b"\xef\xbb\xbf" + raw):
                assert lexer._decode_compiled(data) == lexer.decode_module_pure(data)


# Doc comment lines: headings in both languages and spacings, parameter lines with every kind
# of whitespace and of first character (``[^\W\d]``: "²" is a word character, not a decimal
# digit; "٣" is one), continuations, ``*`` fields, text long enough to be cut.
_DOC_LINES = ["Параметры:", "Parameters:", " Возвращаемое значение: Строка - x", "Пример:", "Returns:",
              "Return Value :", "Пара метры:", "Пара\tметры:", "ПАРАМЕТРЫ :", "Ёлка:", "   :", ":", "a:b",
              "  Имя - Тип - текст", "    * Поле - Тип", "Имя- x", "Имя -", "Имя\u2028-\x85x", "_а - б",
              "²x - y", "٣x - y", "Ǆ - y", "e\u0301 - y", "Ⅻ - y", "x\u3000-\u3000y\u3000", "\tБ\x0b-\x1cВ ",
              "   Б - В", "1А - В", "- -", "", " ", "\t", "\x0c", "Устарела. Надо", "Deprecated.",
              "слово " * 500, "* поле " * 400, "Примеры: " + "x" * 50, "A" * 40 + ":"]


@needs_c
def test_compiled_doc_sections_equal_the_python_ones():
    """``_bslscan.doc_sections`` gives ``doccomment._sections``'s answer: random comments of the
    lines above (sections, parameters, continuations, Unicode whitespace and word rules, text
    cut at MAX_TEXT)."""
    import random
    from v8atlas.compiler.code import doccomment
    rng = random.Random(5)
    for _ in range(20000):
        doc = "\n".join(rng.choice(_DOC_LINES) for _ in range(rng.randint(0, 10)))
        got = lexer._compiled.doc_sections(doc, doccomment._HEADINGS, doccomment._type_and_text,
                                           doccomment.MAX_TEXT)
        assert got == doccomment._sections(doc), repr(doc)


@needs_c
def test_check_scanner_shows_a_failing_childs_stderr(tmp_path, capsys):
    """tools/check_scanner.py: a child read that fails is reported with its stderr (status 3),
    not as a bare CalledProcessError."""
    spec = importlib.util.spec_from_file_location("check_scanner", REPO / "tools" / "check_scanner.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.main([str(tmp_path / "no-such-dump")]) == 3
    err = capsys.readouterr().err
    assert "the python read of" in err and "Traceback" in err


# -- the link's calls (``link._resolve_module`` and its compiled twin) ----------------------------

def _resolvers():
    from v8atlas.compiler.code import link
    compiled = getattr(lexer._compiled, "resolve_calls", None)
    return [pytest.param(link._resolve_module, id="python"),
            pytest.param(compiled, id="compiled", marks=pytest.mark.skipif(
                compiled is None, reason=_NOT_BUILT))]


def _entries(calls: list[dict]) -> list:
    """ProcEntry per dict of token fields (the rest of a procedure as the reader leaves it)."""
    from v8atlas.compiler.code.index import ProcEntry
    from v8atlas.compiler.code.model import Procedure
    out = []
    for i, c in enumerate(calls):
        p = Procedure(f"П{i}", False, local_calls=c.get("local", ()), qualified_calls=c.get("qualified", ()),
                      literal_module_calls=c.get("literal", ()), usages=c.get("usages", ()))
        out.append(ProcEntry(p, 0, 0, "", []))
    return out


@pytest.mark.parametrize("resolve", _resolvers())
def test_calls_resolve_by_folded_name_own_first_then_global_exports(resolve):
    """``Имя(`` in any case (Cyrillic and Latin, ё/Ё, ß folded to ss): the module's own
    procedure first, then a global module's export; a call of itself is no edge; a common
    module's procedure by ``Модуль.Имя(`` and ``ОбщийМодуль("Модуль").Имя(``; a manager
    module's by the usage ``(class, object, "call:Имя")``; anything else unresolved."""
    procs = _entries([
        {"local": ("ПРОВЕРИТЬ", "ёлка", "GLOBALEXPORT", "П0", "Сообщить", "STRASSE")},   # 0
        {"qualified": (("общегоназначения", "ЗНАЧЕНИЕЗАПОЛНЕНО"), ("Нет", "Проверить")),
         "literal": (("ОбщегоНазначения", "Другая"),),
         "usages": (("Catalog", "ПОЛЬЗОВАТЕЛИ", "call:ТекущийПользователь"),
                    ("Catalog", "Пользователи", "call:НетТакой"), ("Catalog", "Пользователи", "code"),
                    ("Document", "Пользователи", "call:ТекущийПользователь"))},          # 1
        {"local": ("проверить",)},                                                       # 2
    ])
    names = {"проверить": 2, "ёлка": 1, "п0": 0, "straße".casefold(): 1}
    global_names = {"globalexport": 7, "проверить": 8}
    common = {"общегоназначения": {"значениезаполнено": 5, "другая": 6}}
    managers = {("Catalog", "пользователи"): {"текущийпользователь": 9}}
    folded: dict[str, str] = {}
    resolve(procs, [0, 1, 2], folded, names, global_names, common, managers)
    assert [pe.callees for pe in procs] == [(1, 2, 7), (5, 6, 9), ()]
    assert folded["ПРОВЕРИТЬ"] == "проверить" and folded["STRASSE"] == "strasse"


def test_compiled_calls_equal_the_python_ones():
    """Random modules of calls in mixed case (a name the module has, a global export, a
    common or manager module's, unknown; sets as the scanner leaves them and tuples as the
    reader does): the compiled ``resolve_calls`` gives ``link._resolve_module``'s callees."""
    compiled = getattr(lexer._compiled, "resolve_calls", None)
    if compiled is None:
        pytest.skip(_NOT_BUILT)
    from v8atlas.compiler.code import link
    rng = random.Random(11)
    words = ["Проверить", "ЗначениеЗаполнено", "Ёлка", "Strasse", "Straße", "Run", "Выполнить", "X"]

    def name() -> str:
        w = rng.choice(words)
        return rng.choice([w, w.upper(), w.lower(), w.swapcase()])

    for _ in range(300):
        n = rng.randint(1, 12)
        calls = []
        for _p in range(n):
            seq = tuple if rng.random() < 0.7 else set
            calls.append({"local": seq(name() for _ in range(rng.randint(0, 5))),
                          "qualified": seq((rng.choice(["Общий", "ОБЩИЙ", "Нет"]), name())
                                           for _ in range(rng.randint(0, 3))),
                          "literal": tuple((rng.choice(["общий", "Иной"]), name()) for _ in range(rng.randint(0, 2))),
                          "usages": tuple((rng.choice(["Catalog", "Document"]), rng.choice(["Товары", "ТОВАРЫ"]),
                                           rng.choice(["code", "query", "call:" + name()]))
                                          for _ in range(rng.randint(0, 3)))})
        names = {w.casefold(): rng.randrange(n) for w in rng.sample(words, 4)}
        global_names = {w.casefold(): rng.randrange(n, n + 5) for w in rng.sample(words, 3)}
        common = {"общий": {w.casefold(): rng.randrange(50, 60) for w in rng.sample(words, 3)}}
        managers = {("Catalog", "товары"): {w.casefold(): rng.randrange(60, 70) for w in rng.sample(words, 3)}}
        pids = list(range(n))
        want, got = _entries(calls), _entries(calls)
        link._resolve_module(want, pids, {}, names, global_names, common, managers)
        compiled(got, pids, {}, names, global_names, common, managers)
        assert [pe.callees for pe in got] == [pe.callees for pe in want], calls


def test_compiled_calls_refuse_what_is_not_a_call():
    """A token that is not a str, or a call that is not a pair: an error, as in Python."""
    compiled = getattr(lexer._compiled, "resolve_calls", None)
    if compiled is None:
        pytest.skip(_NOT_BUILT)
    for bad in ({"local": (1,)}, {"qualified": (("a", "b", "c"),)}, {"usages": (("Catalog", "X"),)}):
        with pytest.raises((TypeError, ValueError)):
            compiled(_entries([bad]), [0], {}, {}, {}, {"a": {}}, {})


@pytest.mark.parametrize("resolve", _resolvers())
def test_calls_given_as_str_subclasses_and_lists_resolve_as_in_python(resolve):
    """What the Python reference unpacks, the compiled one takes too: a name that is a str
    subclass, a usage or a qualified call given as a list."""
    class Name(str):
        pass
    procs = _entries([{"local": (Name("Проверить"),)}, {"usages": (["Catalog", "Х", "call:Имя"],)},
                      {"qualified": (["Общий", "Имя"],)}])
    resolve(procs, [0, 1, 2], {}, {"проверить": 1}, {}, {"общий": {"имя": 4}}, {("Catalog", "х"): {"имя": 3}})
    assert [pe.callees for pe in procs] == [(1,), (3,), (4,)]
