"""Keywords and built-in functions of the query language, Russian and English spellings.

Words are folded upper case (`fold(w).upper()`: ё→Е). Keywords are reserved: they end a list
or start a clause. Functions are not reserved: `Количество` is a field, `КОЛИЧЕСТВО(` a call.
"""
from __future__ import annotations

# canonical (English) → spellings
_KEYWORDS = {
    "SELECT": ("ВЫБРАТЬ",), "ALLOWED": ("РАЗРЕШЕННЫЕ",), "DISTINCT": ("РАЗЛИЧНЫЕ",),
    "TOP": ("ПЕРВЫЕ",), "AS": ("КАК",), "INTO": ("ПОМЕСТИТЬ",), "FROM": ("ИЗ",),
    "WHERE": ("ГДЕ",), "GROUP": ("СГРУППИРОВАТЬ",), "BY": ("ПО", "ON"), "HAVING": ("ИМЕЮЩИЕ",),
    "UNION": ("ОБЪЕДИНИТЬ",), "ALL": ("ВСЕ",), "ORDER": ("УПОРЯДОЧИТЬ",), "TOTALS": ("ИТОГИ",),
    "FOR": ("ДЛЯ",), "UPDATE": ("ИЗМЕНЕНИЯ",), "LEFT": ("ЛЕВОЕ",), "RIGHT": ("ПРАВОЕ",),
    "FULL": ("ПОЛНОЕ",), "INNER": ("ВНУТРЕННЕЕ",), "OUTER": ("ВНЕШНЕЕ",), "JOIN": ("СОЕДИНЕНИЕ",),
    "AND": ("И",), "OR": ("ИЛИ",), "NOT": ("НЕ",), "IN": ("В",), "HIERARCHY": ("ИЕРАРХИИ", "ИЕРАРХИЯ"),
    "BETWEEN": ("МЕЖДУ",), "LIKE": ("ПОДОБНО",), "ESCAPE": ("СПЕЦСИМВОЛ",), "IS": ("ЕСТЬ",),
    "NULL": ("NULL",), "REFS": ("ССЫЛКА",), "CASE": ("ВЫБОР",), "WHEN": ("КОГДА",),
    "THEN": ("ТОГДА",), "ELSE": ("ИНАЧЕ",), "END": ("КОНЕЦ",), "TRUE": ("ИСТИНА",),
    "FALSE": ("ЛОЖЬ",), "UNDEFINED": ("НЕОПРЕДЕЛЕНО",), "ASC": ("ВОЗР",), "DESC": ("УБЫВ",),
    "INDEX": ("ИНДЕКСИРОВАТЬ",), "DROP": ("УНИЧТОЖИТЬ",), "AUTOORDER": ("АВТОУПОРЯДОЧИВАНИЕ",),
    "OVERALL": ("ОБЩИЕ",), "ONLY": ("ТОЛЬКО",), "PERIODS": ("ПЕРИОДАМИ",),
    "GROUPING": ("ГРУППИРУЮЩИМ",), "SETS": ("НАБОРАМ",),
    "VALUE": ("ЗНАЧЕНИЕ",), "TYPE": ("ТИП",), "CAST": ("ВЫРАЗИТЬ",),
}
KEYWORD: dict[str, str] = {}
for _canon, _spellings in _KEYWORDS.items():
    KEYWORD[_canon] = _canon
    for _s in _spellings:
        KEYWORD[_s] = _canon
# ON is a spelling of BY (Russian ПО is both); ИЕРАРХИЯ (ИТОГИ … ИЕРАРХИЯ) and ИЕРАРХИИ (В ИЕРАРХИИ).
KEYWORD["HIERARCHY"] = "HIERARCHY"

# Words that may still be names where a name is expected (after `.`, after КАК, as a call).
SOFT = {"VALUE", "TYPE", "CAST", "UPDATE", "HIERARCHY", "PERIODS", "OVERALL", "ONLY",
        "GROUPING", "SETS", "INDEX", "DROP", "AUTOORDER", "TOP", "ALLOWED", "REFS", "ASC", "DESC"}

# Built-in functions: folded spelling → canonical Russian name (the name the help book uses).
_FUNCTIONS = {
    "СУММА": "SUM", "КОЛИЧЕСТВО": "COUNT", "МАКСИМУМ": "MAX", "МИНИМУМ": "MIN", "СРЕДНЕЕ": "AVG",
    "ПОДСТРОКА": "SUBSTRING", "ГОД": "YEAR", "КВАРТАЛ": "QUARTER", "МЕСЯЦ": "MONTH",
    "ДЕНЬГОДА": "DAYOFYEAR", "ДЕНЬ": "DAY", "НЕДЕЛЯ": "WEEK", "ДЕНЬНЕДЕЛИ": "WEEKDAY",
    "ЧАС": "HOUR", "МИНУТА": "MINUTE", "СЕКУНДА": "SECOND", "НАЧАЛОПЕРИОДА": "BEGINOFPERIOD",
    "КОНЕЦПЕРИОДА": "ENDOFPERIOD", "ДОБАВИТЬКДАТЕ": "DATEADD", "РАЗНОСТЬДАТ": "DATEDIFF",
    "ДАТАВРЕМЯ": "DATETIME", "ЕСТЬNULL": "ISNULL", "ПРЕДСТАВЛЕНИЕ": "PRESENTATION",
    "ПРЕДСТАВЛЕНИЕССЫЛКИ": "REFPRESENTATION", "ТИПЗНАЧЕНИЯ": "VALUETYPE",
    "АВТОНОМЕРЗАПИСИ": "RECORDAUTONUMBER", "РАЗМЕРХРАНИМЫХДАННЫХ": "STOREDDATASIZE",
    "УНИКАЛЬНЫЙИДЕНТИФИКАТОР": "UUID", "СТРОКА": "STRING", "ДЛИНАСТРОКИ": "STRINGLENGTH",
    "СОКРЛ": "TRIML", "СОКРП": "TRIMR", "СОКРЛП": "TRIMALL", "ЛЕВ": "LEFT", "ПРАВ": "RIGHT",
    "СТРНАЙТИ": "STRFIND", "ВРЕГ": "UPPER", "НРЕГ": "LOWER", "СТРЗАМЕНИТЬ": "STRREPLACE",
    "ОКР": "ROUND", "ЦЕЛ": "INT", "ACOS": "ACOS", "ASIN": "ASIN", "ATAN": "ATAN", "COS": "COS",
    "SIN": "SIN", "TAN": "TAN", "EXP": "EXP", "LOG": "LOG", "LOG10": "LOG10", "POW": "POW",
    "SQRT": "SQRT", "ГРУППИРОВКА": "GROUPING",
}
FUNCTION: dict[str, str] = {}
for _ru, _en in _FUNCTIONS.items():
    FUNCTION[_ru] = _ru
    FUNCTION.setdefault(_en, _ru)
AGGREGATES = {"СУММА", "КОЛИЧЕСТВО", "МАКСИМУМ", "МИНИМУМ", "СРЕДНЕЕ"}

# Period words passed as arguments (НАЧАЛОПЕРИОДА(Дата, МЕСЯЦ), Обороты(,, Месяц)) — not fields.
PERIOD_WORDS = {"СЕКУНДА", "МИНУТА", "ЧАС", "ДЕНЬ", "НЕДЕЛЯ", "ДЕКАДА", "МЕСЯЦ", "КВАРТАЛ",
                "ПОЛУГОДИЕ", "ГОД", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "TENDAYS", "MONTH",
                "QUARTER", "HALFYEAR", "YEAR", "АВТО", "AUTO", "ЗАПИСЬ", "RECORD", "РЕГИСТРАТОР",
                "RECORDER", "ПЕРИОД", "PERIOD", "ДВИЖЕНИЯ", "MOVEMENTS", "ДВИЖЕНИЯИГРАНИЦЫПЕРИОДА",
                "REGISTERRECORDSANDPERIODBOUNDARIES", "RECORDSANDPERIODBOUNDARIES"}

# Primitive type names of ВЫРАЗИТЬ(… КАК <тип>).
PRIMITIVE_TYPES = {"СТРОКА": "string", "STRING": "string", "ЧИСЛО": "number", "NUMBER": "number",
                   "ДАТА": "date", "DATE": "date", "БУЛЕВО": "boolean", "BOOLEAN": "boolean"}


def keyword(word: str) -> str | None:
    return KEYWORD.get(word)
