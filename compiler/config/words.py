"""Russian ↔ English words of the configuration domain: one table per role, one entry per fact.

Everything the query model and the cards name in two languages comes from here: metadata
classes (singular, plural, ref type, query-table prefix), standard attribute and generated
field names, table names, virtual-table parameters, platform type names. Sources:
domain-1c.md §1.2, §2.1, §3 and domain-1c.json; English spellings the domain spec marks
unverified are noted beside them (docs/cards-metadata.md repeats the list).

A configuration's *script variant* picks the language its answers use (``lang()``); both
spellings are stored so lookups accept either.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .classes import CLASSES as _READER_CLASSES

RU = "ru"
EN = "en"


def lang(script_variant: str) -> str:
    """``"English"`` → ``"en"``; anything else (``"Russian"``, empty) → ``"ru"``."""
    return EN if (script_variant or "").strip().lower() == "english" else RU


@dataclass(frozen=True)
class ClassWords:
    en: str               # English singular = model's MDObject.cls = XML element name
    ru: str               # Russian singular, used in code and full names
    en_plural: str        # Designer/EDT folder, Metadata.<collection>
    ru_plural: str
    query: bool = False   # has a query table "<Class>.<Name>"
    ref: bool = False     # has a reference type "<Class>Ref.<Name>" / "<Класс>Ссылка.<Имя>"

    def name(self, language: str) -> str:
        return self.en if language == EN else self.ru

    def ref_type(self, language: str) -> str:
        return self.en + "Ref" if language == EN else self.ru + "Ссылка"


# Which classes have query tables and reference types (domain-1c.md §1.2); the names themselves
# come from the readers' class table (classes.py), one place for them.
QUERY_CLASSES = frozenset({
    "Catalog", "Document", "DocumentJournal", "Enum", "ChartOfCharacteristicTypes", "ChartOfAccounts",
    "ChartOfCalculationTypes", "InformationRegister", "AccumulationRegister", "AccountingRegister",
    "CalculationRegister", "BusinessProcess", "Task", "ExchangePlan", "Constant", "Sequence",
    "FilterCriterion", "ExternalDataSource",
})
REF_CLASSES = frozenset({
    "Catalog", "Document", "Enum", "ChartOfCharacteristicTypes", "ChartOfAccounts",
    "ChartOfCalculationTypes", "BusinessProcess", "Task", "ExchangePlan",
})
CLASSES: tuple[ClassWords, ...] = tuple(
    ClassWords(en, ru, en_plural, ru_plural, en in QUERY_CLASSES, en in REF_CLASSES)
    for en, ru, en_plural, ru_plural in _READER_CLASSES)
BY_EN: dict[str, ClassWords] = {c.en: c for c in CLASSES}
BY_RU: dict[str, ClassWords] = {c.ru: c for c in CLASSES}
CLASS_ORDER: dict[str, int] = {c.en: i for i, c in enumerate(CLASSES)}   # the readers' table order


def class_words(cls: str) -> ClassWords:
    """Words of a class by its English name; an unknown class names itself in both languages."""
    return BY_EN.get(cls) or ClassWords(cls, cls, cls, cls)


# Reference types that are not "<Class>Ref" of a ref class (domain-1c.md §1.2, §4.6).
EXTRA_REF_TYPES = {
    "BusinessProcessRoutePointRef": "ТочкаМаршрутаБизнесПроцессаСсылка",
    "ExternalDataSourceTableRef": "ВнешнийИсточникДанныхТаблицаСсылка",
}

# Suffixes of generated types (domain-1c.md §1.3): "CatalogObject" = Catalog + Object.
GENERATED_SUFFIXES = {
    "Ref": "Ссылка", "Object": "Объект", "Selection": "Выборка", "List": "Список",
    "Manager": "Менеджер", "RecordSet": "НаборЗаписей", "Record": "Запись", "RecordKey": "КлючЗаписи",
    "RecordManager": "МенеджерЗаписи", "ValueManager": "МенеджерЗначения", "ValueKey": "КлючЗначения",
    "TabularSection": "ТабличнаяЧасть", "TabularSectionRow": "СтрокаТабличнойЧасти",
    "Builder": "Построитель",
}


_SUFFIXES_LONGEST_FIRST = sorted(GENERATED_SUFFIXES, key=len, reverse=True)


@lru_cache(maxsize=4096)   # a few hundred generated type names, asked once per typed field
def split_generated(name: str) -> tuple[str, str]:
    """``ConstantValueManager`` → (``Constant``, ``ValueManager``); ("", "") if not a generated type."""
    if name == "BusinessProcessRoutePointRef":
        return "BusinessProcess", "RoutePointRef"
    for suffix in _SUFFIXES_LONGEST_FIRST:
        cls = name[: -len(suffix)]
        if name.endswith(suffix) and cls in BY_EN:
            return cls, suffix
    return "", ""


def generated_type(name: str, language: str) -> str:
    """``CatalogObject`` → ``СправочникОбъект`` (ru) or itself (en); unknown names unchanged."""
    if language == EN:
        return name
    if name in EXTRA_REF_TYPES:
        return EXTRA_REF_TYPES[name]
    cls, suffix = split_generated(name)
    return BY_EN[cls].ru + GENERATED_SUFFIXES[suffix] if cls else name


# Standard attributes and fixed field names of query tables (domain-1c.md §2.1, §3), RU → EN.
FIELDS = {
    "Ссылка": "Ref", "ПометкаУдаления": "DeletionMark", "Код": "Code", "Наименование": "Description",
    "Владелец": "Owner", "Родитель": "Parent", "ЭтоГруппа": "IsFolder", "Предопределенный": "Predefined",
    "ИмяПредопределенныхДанных": "PredefinedDataName", "ВерсияДанных": "DataVersion", "Дата": "Date", "Номер": "Number",
    "Проведен": "Posted", "Период": "Period", "Регистратор": "Recorder", "НомерСтроки": "LineNumber",
    "Активность": "Active", "ВидДвижения": "RecordType", "Счет": "Account", "СчетДт": "AccountDr",
    "СчетКт": "AccountCr", "УточнениеПериода": "PeriodAdjustment", "Порядок": "Order", "Вид": "Type",
    "Забалансовый": "OffBalance", "ТипЗначения": "ValueType", "ЭтотУзел": "ThisNode",
    "НомерОтправленного": "SentNo", "НомерПринятого": "ReceivedNo", "ДатаОбмена": "ExchangeDate",
    "Стартован": "Started", "Завершен": "Completed", "ВедущаяЗадача": "HeadTask", "Выполнена": "Executed",
    "БизнесПроцесс": "BusinessProcess", "ТочкаМаршрута": "RoutePoint", "ВидРасчета": "CalculationType",
    "ПериодРегистрации": "RegistrationPeriod", "Сторно": "ReversingEntry",
    "ПериодДействия": "ActionPeriod", "ПериодДействияНачало": "BegOfActionPeriod",
    "ПериодДействияКонец": "EndOfActionPeriod", "БазовыйПериодНачало": "BegOfBasePeriod",
    "БазовыйПериодКонец": "EndOfBasePeriod", "ПериодДействияБазовый": "ActionPeriodIsBasic",
    "Тип": "Type", "ТолькоОбороты": "TurnoversOnly", "ВидСубконто": "ExtDimensionType",
    "Значение": "Value", "Узел": "Node", "НомерСообщения": "MessageNo",
    "ОбъектПерерасчета": "RecalculationObject", "КорСчет": "BalancedAccount",
    "Представление": "Presentation", "МоментВремени": "PointInTime",
    # period fields of Обороты / ОстаткиИОбороты (§3.2)
    "ПериодСекунда": "SecondPeriod", "ПериодМинута": "MinutePeriod", "ПериодЧас": "HourPeriod",
    "ПериодДень": "DayPeriod", "ПериодНеделя": "WeekPeriod", "ПериодДекада": "TenDaysPeriod",
    "ПериодМесяц": "MonthPeriod", "ПериодКвартал": "QuarterPeriod", "ПериодПолугодие": "HalfYearPeriod",
    "ПериодГод": "YearPeriod",
}

# Numbered field stems: Субконто1..N, СубконтоДт1..N … (§2.1, §3.4).
NUMBERED_FIELDS = {
    "Субконто": "ExtDimension", "СубконтоДт": "ExtDimensionDr", "СубконтоКт": "ExtDimensionCr",
    "ВидСубконто": "ExtDimensionType", "ВидСубконтоДт": "ExtDimensionTypeDr",
    "ВидСубконтоКт": "ExtDimensionTypeCr", "КорСубконто": "BalancedExtDimension",
}

# Suffixes appended to dimension/resource names in virtual tables (§3.2–3.5, Addendum).
# English forms beyond Balance (confirmed by the "QuantityBalance") and the
# …SplittedBalance… set (Addendum) are unverified.
SUFFIXES = {
    "Остаток": "Balance", "Приход": "Receipt", "Расход": "Expense", "Оборот": "Turnover",
    "НачальныйОстаток": "OpeningBalance", "КонечныйОстаток": "ClosingBalance",
    "ОстатокДт": "BalanceDr", "ОстатокКт": "BalanceCr",
    "РазвернутыйОстатокДт": "SplittedBalanceDr", "РазвернутыйОстатокКт": "SplittedBalanceCr",
    "НачальныйОстатокДт": "OpeningBalanceDr", "НачальныйОстатокКт": "OpeningBalanceCr",
    "НачальныйРазвернутыйОстатокДт": "OpeningSplittedBalanceDr",
    "НачальныйРазвернутыйОстатокКт": "OpeningSplittedBalanceCr",
    "ОборотДт": "TurnoverDr", "ОборотКт": "TurnoverCr",
    "КонечныйОстатокДт": "ClosingBalanceDr", "КонечныйОстатокКт": "ClosingBalanceCr",
    "КонечныйРазвернутыйОстатокДт": "ClosingSplittedBalanceDr",
    "КонечныйРазвернутыйОстатокКт": "ClosingSplittedBalanceCr",
    "КорОборот": "BalancedTurnover", "КорОборотДт": "BalancedTurnoverDr",
    "КорОборотКт": "BalancedTurnoverCr",
    "Кор": "Balanced", "Дт": "Dr", "Кт": "Cr", "База": "Base",
    "ПериодДействия": "ActionPeriod", "ФактическийПериодДействия": "ActualActionPeriod",
    "ПериодРегистрации": "RegistrationPeriod", "БазовыйПериод": "BasePeriod",
}

# Table names after the object name: virtual tables and fixed sub-tables (§3.6).
TABLES = {
    "СрезПоследних": "SliceLast", "СрезПервых": "SliceFirst", "Остатки": "Balance",
    "Обороты": "Turnovers", "ОстаткиИОбороты": "BalanceAndTurnovers", "ОборотыДтКт": "DrCrTurnovers",
    "ДвиженияССубконто": "RecordsWithExtDimensions", "Субконто": "ExtDimensions",
    "ФактическийПериодДействия": "ActualActionPeriod", "ДанныеГрафика": "ScheduleData",
    "Границы": "Boundaries", "ЗадачиПоИсполнителю": "TaskByPerformer", "ТочкиМаршрута": "RoutePoints",
    "Изменения": "Changes", "ВидыСубконто": "ExtDimensionTypes",
    "БазовыеВидыРасчета": "BaseCalculationTypes", "ВедущиеВидыРасчета": "LeadingCalculationTypes",
    "ВытесняющиеВидыРасчета": "DisplacingCalculationTypes", "Константы": "Constants", "База": "Base",
    "Таблица": "Table", "Куб": "Cube", "ТаблицаИзмерения": "DimensionTable",
}

# Virtual-table parameters (positional; names are for the reader of the answer), §3.2–3.6.
PARAMS = {
    "Период": "Period", "Условие": "Condition", "НачалоПериода": "BeginOfPeriod",
    "КонецПериода": "EndOfPeriod", "Периодичность": "Periodicity", "МетодДополнения": "AdditionMethod",
    "УсловиеСчета": "AccountCondition", "Субконто": "ExtDimensions",
    "УсловиеКорСчета": "BalancedAccountCondition", "КорСубконто": "BalancedExtDimensions",
    "УсловиеСчетаДт": "AccountConditionDr", "СубконтоДт": "ExtDimensionsDr",
    "УсловиеСчетаКт": "AccountConditionCr", "СубконтоКт": "ExtDimensionsCr", "Порядок": "Order",
    "Первые": "Top", "Исполнитель": "Performer",
    "ИзмеренияОсновногоРегистра": "MainRegisterDimensions",
    "ИзмеренияБазовогоРегистра": "BaseRegisterDimensions", "Разрезы": "Slices", "Значение": "Value",
}

# Type names (§2.1, §4.6) and the platform types the model can name, RU → EN.
TYPES = {
    "Строка": "String", "Число": "Number", "Дата": "Date", "ДатаВремя": "DateTime", "Время": "Time",
    "Булево": "Boolean", "ДвоичныеДанные": "BinaryData", "ХранилищеЗначения": "ValueStorage",
    "УникальныйИдентификатор": "UUID", "Null": "Null", "ЛюбаяСсылка": "AnyRef",
    "ОпределяемыйТип": "DefinedType", "Характеристика": "Characteristic", "ОписаниеТипов": "TypeDescription",
    "ВидДвиженияНакопления": "AccumulationRecordType", "ВидДвиженияБухгалтерии": "AccountingRecordType",
    "ВидСчета": "AccountType", "Тип": "Type", "Составной": "Composite",
    "ТаблицаЗначений": "ValueTable", "СписокЗначений": "ValueList", "ДеревоЗначений": "ValueTree",
    "СтандартныйПериод": "StandardPeriod", "ФиксированныйМассив": "FixedArray", "Массив": "Array",
    "Структура": "Structure", "Соответствие": "Map", "ДинамическийСписок": "DynamicList",
    "МоментВремени": "PointInTime", "Произвольный": "Arbitrary",
    # platform types met in attribute types of real dumps (SSL 3.1, both formats; EDT spelling)
    "ФиксированнаяСтруктура": "FixedStructure", "ФиксированноеСоответствие": "FixedMap",
    "Картинка": "Picture", "Цвет": "Color", "Шрифт": "Font", "ФорматированнаяСтрока": "FormattedString",
    "ТабличныйДокумент": "SpreadsheetDocument", "ТекстовыйДокумент": "TextDocument",
    "ФорматированныйДокумент": "FormattedDocument", "Диаграмма": "Chart", "ДиаграммаГанта": "GanttChart",
    "Дендрограмма": "Dendrogram", "ГрафическаяСхема": "GraphicalSchema",
    "ГеографическаяСхема": "GeographicalSchema", "Планировщик": "Planner",
    "ВертикальноеПоложение": "VerticalAlign", "ГоризонтальноеПоложение": "HorizontalAlign",
    "ПроверкаЗаполнения": "FillChecking", "ПостроительОтчета": "ReportBuilder",
    "КомпоновщикНастроекКомпоновкиДанных": "DataCompositionSettingsComposer",
    "НастройкиКомпоновкиДанных": "DataCompositionSettings", "ОтборКомпоновкиДанных": "DataCompositionFilter",
    "ПолеКомпоновкиДанных": "DataCompositionField",
    "ВидСравненияКомпоновкиДанных": "DataCompositionComparisonType",
    "РасположениеПоляКомпоновкиДанных": "DataCompositionFieldPlacement",
    "НаправлениеСортировкиКомпоновкиДанных": "DataCompositionSortDirection",
    "ТипДополненияПериодаКомпоновкиДанных": "DataCompositionPeriodAdditionType",
    "ТипГруппировкиКомпоновкиДанных": "DataCompositionGroupType",
    "СхемаКомпоновкиДанных": "DataCompositionSchema",
    # template kinds (TemplateType) are named after the platform types they hold
    "HTMLДокумент": "HTMLDocument", "ВнешняяКомпонента": "AddIn", "АктивныйДокумент": "ActiveDocument",
    "МакетОформленияКомпоновкиДанных": "DataCompositionAppearanceTemplate",
}
TYPES_BY_EN = {v: k for k, v in TYPES.items()}

# Qualifier words inside rendered types.
UNLIMITED = {RU: "неогр.", EN: "unlimited"}
NONNEGATIVE = {RU: "неотр.", EN: "nonneg."}
FIXED = {RU: "фикс.", EN: "fixed"}

# Query functions used in recipes (domain-1c.md §5.2).
SUBSTRING = {RU: "ПОДСТРОКА", EN: "SUBSTRING"}


def word(table: dict[str, str], ru: str, language: str) -> str:
    """The word in ``language``; a word the table lacks is a user name and stays as is."""
    return table.get(ru, ru) if language == EN else ru


def field_name(ru: str, language: str) -> str:
    """A fixed field name, including numbered stems: ``Субконто2`` → ``ExtDimension2``."""
    if language != EN:
        return ru
    if ru in FIELDS:
        return FIELDS[ru]
    stem = ru.rstrip("0123456789")
    if stem != ru and stem in NUMBERED_FIELDS:
        return NUMBERED_FIELDS[stem] + ru[len(stem):]
    return ru


def suffixed(base: str, suffix_ru: str, language: str) -> str:
    """``Количество`` + ``Остаток`` → ``КоличествоОстаток`` / ``КоличествоBalance``."""
    return base + word(SUFFIXES, suffix_ru, language)


def type_name(ru: str, language: str) -> str:
    return word(TYPES, ru, language)


def platform_type(en: str, language: str) -> str:
    """A platform type (or template kind) by its English name, in ``language``; unknown as is."""
    return en if language == EN else TYPES_BY_EN.get(en, en)


def class_search_words(cls: str) -> str:
    """Class words a searcher may type, both languages, singular and plural. Case is kept:
    the search tokenizer splits CamelCase (РегистрСведений → регистр сведений) and lower-cases."""
    c = class_words(cls)
    return " ".join(dict.fromkeys((c.ru, c.ru_plural, c.en, c.en_plural)))


# Child kinds inside MDObjectRef paths (domain-1c.md §1.2 "Child metadata kinds"), EN → RU.
CHILD_KINDS = {
    "Attribute": "Реквизит", "TabularSection": "ТабличнаяЧасть", "Dimension": "Измерение",
    "Resource": "Ресурс", "EnumValue": "ЗначениеПеречисления", "Form": "Форма", "Template": "Макет",
    "Command": "Команда", "Column": "Графа", "AccountingFlag": "ПризнакУчета",
    "ExtDimensionAccountingFlag": "ПризнакУчетаСубконто", "Recalculation": "Перерасчет",
    "AddressingAttribute": "РеквизитАдресации", "StandardAttribute": "СтандартныйРеквизит",
    "StandardTabularSection": "СтандартнаяТабличнаяЧасть", "Predefined": "Предопределенный",
    "URLTemplate": "ШаблонURL", "Method": "Метод", "Operation": "Операция", "Parameter": "Параметр",
    "Table": "Таблица", "Field": "Поле", "Cube": "Куб", "DimensionTable": "ТаблицаИзмерений",
    "Function": "Функция", "IntegrationServiceChannel": "КаналСервисаИнтеграции",
    "Subsystem": "Подсистема",
}


@lru_cache(maxsize=1 << 17)   # each object's path is translated for its card, key, edges, warnings
def ref_name(ref: str, language: str) -> str:
    """An MDObjectRef in a language: ``Catalog.X.Attribute.Y`` → ``Справочник.X.Реквизит.Y``.

    Class and child-kind words sit at even positions (each followed by a name); names stay as
    they are, and so does a trailing member (``CommonModule.M.Proc``).
    A text that does not start with a known class is returned unchanged.
    """
    parts = ref.split(".")
    if language == EN or parts[0] not in BY_EN:
        return ref
    out = [BY_EN[parts[0]].ru]
    for i, p in enumerate(parts[1:], 1):
        # a kind word is always followed by a name; a last odd part (``ОбщийМодуль.М.Процедура``) is a member
        out.append(CHILD_KINDS.get(p, p) if i % 2 == 0 and i + 1 < len(parts) else p)
    return ".".join(out)
