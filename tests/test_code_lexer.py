"""The BSL scanner on small hand-written modules: structure, context, doc comments, tokens."""
from __future__ import annotations

from v8atlas.compiler.code.doccomment import parse_doc
from v8atlas.compiler.code.lexer import decode_module, scan_module
from v8atlas.compiler.code.modules import module_ref


def scan(text: str, *, bom: bool = False, crlf: bool = False):
    data = text.replace("\n", "\r\n") if crlf else text
    raw = (b"\xef\xbb\xbf" if bom else b"") + data.encode("utf-8")
    body, problem = decode_module(raw)
    assert problem is None
    return scan_module(body)


RU = """#Область ПрограммныйИнтерфейс

#Область Данные

// Возвращает значение реквизита.
//
// Параметры:
//  Ссылка - ЛюбаяСсылка - объект.
//  Имя    - Строка - имя реквизита,
//           через точку можно.
//
// Возвращаемое значение:
//  Произвольный - значение.
//
// Пример:
//  Значение = ОбщегоНазначения.ЗначениеРеквизита(Ссылка, "Код");
//
Функция ЗначениеРеквизита(Ссылка, Знач Имя, Разделитель = ",", Режим = Неопределено) Экспорт
	Запрос = Новый Запрос("ВЫБРАТЬ
	|	Т.Ссылка // не комментарий
	|ИЗ
	|	РегистрНакопления.ОстаткиТоваров.Остатки КАК Т
	|ГДЕ Т.Имя = ""КонецФункции"" И ИСТИНА");
	// Справочники.Закомментировано.Найти()
	Возврат Помощник(Справочники.Номенклатура.ПустаяСсылка());
КонецФункции

#КонецОбласти

#КонецОбласти

#Если Сервер Тогда
&НаСервере
Процедура Помощник(Параметр)
	ОбщегоНазначенияКлиентСервер.Проверить(Параметр);
	Модуль = ОбщегоНазначения.ОбщийМодуль("Пользователи");
	Модуль.ТекущийПользователь();
	Элемент = Справочники.Номенклатура.СоздатьЭлемент();
КонецПроцедуры
#КонецЕсли
"""


def test_russian_module_structure_and_context():
    res = scan(RU, bom=True, crlf=True)
    assert res.problems == []
    f, p = res.procedures
    assert (f.name, f.is_function, f.export, f.line, f.end_line) == ("ЗначениеРеквизита", True, True, 18, 26)
    assert [(x.name, x.by_value, x.default) for x in f.params] == [
        ("Ссылка", False, None), ("Имя", True, None), ("Разделитель", False, '","'),
        ("Режим", False, "Неопределено")]
    assert f.region == ["ПрограммныйИнтерфейс", "Данные"]
    assert (p.name, p.export, p.directive, p.conditions, p.region) == (
        "Помощник", False, "AtServer", ["Сервер"], [])
    # bodies run from the header to the end keyword, line ends normalized
    assert f.body.startswith("Функция ЗначениеРеквизита(".encode()) and f.body.endswith("КонецФункции".encode())
    assert b"\r" not in f.body


def test_doc_comment_in_the_standard_format():
    f = scan(RU).procedures[0]
    doc = parse_doc(f.doc)
    assert doc["description"] == "Возвращает значение реквизита."
    assert [(x["name"], x["type"]) for x in doc["params"]] == [("Ссылка", "ЛюбаяСсылка"), ("Имя", "Строка")]
    assert doc["params"][1]["text"] == "имя реквизита, через точку можно."
    assert doc["returns"] == {"type": "Произвольный", "text": "значение."}
    assert "ОбщегоНазначения.ЗначениеРеквизита" in doc["example"]


def test_calls_and_usages_skip_strings_and_comments():
    f, p = scan(RU).procedures
    assert "Помощник" in f.local_calls
    assert ("Справочники", "Закомментировано") not in f.qualified_calls
    assert ("Catalog", "Закомментировано", "code") not in {u[:3] for u in f.usages}
    assert ("AccumulationRegister", "ОстаткиТоваров", "query") in f.usages
    assert ("Catalog", "Номенклатура", "code") in f.usages
    assert ("ОбщегоНазначенияКлиентСервер", "Проверить") in p.qualified_calls
    assert ("Пользователи", "ТекущийПользователь") in p.literal_module_calls
    assert ("Catalog", "Номенклатура", "write") in p.usages


EN = """#Region Public
// Returns the sum.
Function Sum(Val A, B = 0) Export
	Return A + B;
EndFunction
#EndRegion

&AtClient
Async Procedure OnOpen(Cancel)
	Await DoIt();
EndProcedure
"""


def test_english_script():
    res = scan(EN)
    f, p = res.procedures
    assert (f.name, f.export, f.region, [x.by_value for x in f.params]) == ("Sum", True, ["Public"], [True, False])
    assert parse_doc(f.doc)["description"] == "Returns the sum."
    assert (p.name, p.directive, p.is_async, p.export) == ("OnOpen", "AtClient", True, False)


EXTENSION = """&Перед("ПередЗаписью")
Процедура Расш_ПередЗаписью(Отказ)
КонецПроцедуры

&ИзменениеИКонтроль("Проверить")
Функция Расш_Проверить()
	#Вставка
	А = 1;
	#КонецВставки
	#Удаление
	Б = 2;
	#КонецУдаления
	Возврат Истина;
КонецФункции

&After("OnWrite")
Procedure Ext_OnWrite()
EndProcedure
"""


def test_extension_annotations():
    a, b, c = scan(EXTENSION).procedures
    assert (a.annotation.kind, a.annotation.target) == ("Before", "ПередЗаписью")
    assert (b.annotation.kind, b.annotation.target, b.inserts, b.deletes) == ("ChangeAndValidate", "Проверить", 1, 1)
    assert (c.annotation.kind, c.annotation.target) == ("After", "OnWrite")


def test_keywords_in_any_standard_case_and_one_line_procedures():
    res = scan("ПРОЦЕДУРА А() ЭКСПОРТ\nКОНЕЦПРОЦЕДУРЫ\nпроцедура б() конецпроцедуры\n"
               "Функция В(\n\tП1,\n\tП2 = 1) Экспорт\nКонецФункции\n")
    assert [(p.name, p.export, p.line, p.end_line) for p in res.procedures] == [
        ("А", True, 1, 2), ("б", False, 3, 3), ("В", True, 4, 7)]
    assert [x.name for x in res.procedures[2].params] == ["П1", "П2"]


def test_keywords_in_mixed_case_as_real_dumps_write_them():
    """ДО КОРП 2.1 writes ``КонеЦПроцедуры``, ``Конецфункции`` and a lower-case ``функция`` header
    at the start of a line (its \xd1 first byte): BSL keywords are case-insensitive."""
    res = scan("Процедура А()\nКонеЦПроцедуры\n\nфункция Б() Экспорт\nКонецфункции\n"
               "ФуНкЦиЯ В() эКсПоРт\nКОНЕЦфункции\n")
    assert [(p.name, p.is_function, p.export, p.line, p.end_line) for p in res.procedures] == [
        ("А", False, False, 1, 2), ("Б", True, True, 4, 5), ("В", True, True, 6, 7)]
    assert not res.problems


def test_problems_keep_their_lines():
    res = scan("Процедура А()\n\nПроцедура Б()\nКонецПроцедуры\nКонецФункции\n"
               "Процедура Б()\nКонецПроцедуры\n#Область Открыта\n")
    codes = [(p.code, p.line) for p in res.problems]
    assert ("unbalanced", 3) in codes          # А has no end before Б
    assert ("unbalanced", 5) in codes          # a stray КонецФункции
    assert ("duplicate", 6) in codes
    assert ("unbalanced-region", 8) in codes
    assert [p.name for p in res.procedures] == ["А", "Б", "Б"]


def test_same_name_in_two_preprocessor_branches_is_not_a_repeat():
    res = scan("#Если Сервер Тогда\nПроцедура А()\nКонецПроцедуры\n#Иначе\nПроцедура А()\nКонецПроцедуры\n#КонецЕсли\n")
    assert res.problems == [] and len(res.procedures) == 2
    assert res.procedures[1].conditions == ["НЕ (Сервер)"]


def test_bad_bytes_are_named_with_their_line():
    assert decode_module(b"\xd0\x9f\n\n\x00junk")[1].line == 3
    body, problem = decode_module("Процедура А()\n".encode() + b"\xff\xfe\n")
    assert body is None and problem.code == "encoding" and problem.line == 2


def test_module_paths_of_both_formats():
    d, e = False, True
    assert module_ref("CommonModules/М/Ext/Module.bsl", d) == ("CommonModule.М", "Module", "")
    assert module_ref("src/CommonModules/М/Module.bsl", e) == ("CommonModule.М", "Module", "")
    assert module_ref("Catalogs/С/Forms/Ф/Ext/Form/Module.bsl", d) == ("Catalog.С", "Form", "Ф")
    assert module_ref("src/Catalogs/С/Forms/Ф/Module.bsl", e) == ("Catalog.С", "Form", "Ф")
    assert module_ref("CommonForms/Ф/Ext/Form/Module.bsl", d) == ("CommonForm.Ф", "Form", "")
    assert module_ref("src/CommonForms/Ф/Module.bsl", e) == ("CommonForm.Ф", "Form", "")
    assert module_ref("Documents/Д/Commands/К/Ext/CommandModule.bsl", d) == ("Document.Д", "CommandModule", "К")
    assert module_ref("CommonCommands/К/Ext/CommandModule.bsl", d) == ("CommonCommand.К", "CommandModule", "")
    assert module_ref("InformationRegisters/Р/Ext/RecordSetModule.bsl", d) == (
        "InformationRegister.Р", "RecordSetModule", "")
    assert module_ref("Constants/К/Ext/ValueManagerModule.bsl", d) == ("Constant.К", "ValueManagerModule", "")
    assert module_ref("Ext/SessionModule.bsl", d) == ("Configuration", "SessionModule", "")
    assert module_ref("src/Configuration/ManagedApplicationModule.bsl", e) == (
        "Configuration", "ManagedApplicationModule", "")
    assert module_ref("HTTPServices/Х/Ext/Module.bsl", d) == ("HTTPService.Х", "Module", "")
    assert module_ref("Catalogs/С/Templates/Т/Ext/Template.bsl", d) is None


def test_nesting_past_the_cap_is_counted_not_recorded():
    """A procedure records at most 64 regions and 64 conditions (memory ~ procedures × depth: a
    hostile module nests thousands); the deeper lines still balance their ends, and the module
    has one problem per kind naming the first line past the cap."""
    text = "#Область О{k}\n#Если А{k} Тогда\nПроцедура П{k}()\nКонецПроцедуры\n"
    res = scan("".join(text.format(k=k) for k in range(100)) + "#КонецЕсли\n#КонецОбласти\n" * 100
               + "Процедура Б()\nКонецПроцедуры\n")
    deep = [p for p in res.procedures if p.name == "П99"][0]
    assert deep.region == [f"О{k}" for k in range(64)] and deep.conditions == [f"А{k}" for k in range(64)]
    assert [p for p in res.procedures if p.name == "П63"][0].region == deep.region
    assert [(p.code, p.line) for p in res.problems] == [("deep-nesting", 257), ("deep-nesting", 258)]
    assert "64" in res.problems[0].message and "#Область" in res.problems[0].message
    last = res.procedures[-1]
    assert (last.name, last.region, last.conditions, res.regions) == ("Б", [], [], 100)
