"""The top-level metadata classes of 1C:Enterprise (domain-1c.md §1.2), one table for both sides.

The compiler's readers map folders and tags with it; the server maps the class names people
type (Russian or English, singular or plural) to the class names cards carry.
"""
from __future__ import annotations

# (English singular, Russian singular, English plural = folder, Russian plural)
CLASSES: tuple[tuple[str, str, str, str], ...] = (
    ('Catalog', 'Справочник', 'Catalogs', 'Справочники'),
    ('Document', 'Документ', 'Documents', 'Документы'),
    ('DocumentJournal', 'ЖурналДокументов', 'DocumentJournals', 'ЖурналыДокументов'),
    ('Enum', 'Перечисление', 'Enums', 'Перечисления'),
    ('ChartOfCharacteristicTypes', 'ПланВидовХарактеристик', 'ChartsOfCharacteristicTypes', 'ПланыВидовХарактеристик'),
    ('ChartOfAccounts', 'ПланСчетов', 'ChartsOfAccounts', 'ПланыСчетов'),
    ('ChartOfCalculationTypes', 'ПланВидовРасчета', 'ChartsOfCalculationTypes', 'ПланыВидовРасчета'),
    ('InformationRegister', 'РегистрСведений', 'InformationRegisters', 'РегистрыСведений'),
    ('AccumulationRegister', 'РегистрНакопления', 'AccumulationRegisters', 'РегистрыНакопления'),
    ('AccountingRegister', 'РегистрБухгалтерии', 'AccountingRegisters', 'РегистрыБухгалтерии'),
    ('CalculationRegister', 'РегистрРасчета', 'CalculationRegisters', 'РегистрыРасчета'),
    ('BusinessProcess', 'БизнесПроцесс', 'BusinessProcesses', 'БизнесПроцессы'),
    ('Task', 'Задача', 'Tasks', 'Задачи'),
    ('ExchangePlan', 'ПланОбмена', 'ExchangePlans', 'ПланыОбмена'),
    ('Constant', 'Константа', 'Constants', 'Константы'),
    ('Sequence', 'Последовательность', 'Sequences', 'Последовательности'),
    ('FilterCriterion', 'КритерийОтбора', 'FilterCriteria', 'КритерииОтбора'),
    ('ExternalDataSource', 'ВнешнийИсточникДанных', 'ExternalDataSources', 'ВнешниеИсточникиДанных'),
    ('Report', 'Отчет', 'Reports', 'Отчеты'),
    ('DataProcessor', 'Обработка', 'DataProcessors', 'Обработки'),
    ('CommonModule', 'ОбщийМодуль', 'CommonModules', 'ОбщиеМодули'),
    ('CommonForm', 'ОбщаяФорма', 'CommonForms', 'ОбщиеФормы'),
    ('CommonAttribute', 'ОбщийРеквизит', 'CommonAttributes', 'ОбщиеРеквизиты'),
    ('Subsystem', 'Подсистема', 'Subsystems', 'Подсистемы'),
    ('Role', 'Роль', 'Roles', 'Роли'),
    ('HTTPService', 'HTTPСервис', 'HTTPServices', 'HTTPСервисы'),
    ('WebService', 'WebСервис', 'WebServices', 'WebСервисы'),
    ('WSReference', 'WSСсылка', 'WSReferences', 'WSСсылки'),
    ('ScheduledJob', 'РегламентноеЗадание', 'ScheduledJobs', 'РегламентныеЗадания'),
    ('EventSubscription', 'ПодпискаНаСобытие', 'EventSubscriptions', 'ПодпискиНаСобытия'),
    ('DefinedType', 'ОпределяемыйТип', 'DefinedTypes', 'ОпределяемыеТипы'),
    ('FunctionalOption', 'ФункциональнаяОпция', 'FunctionalOptions', 'ФункциональныеОпции'),
    ('FunctionalOptionsParameter', 'ПараметрФункциональныхОпций', 'FunctionalOptionsParameters', 'ПараметрыФункциональныхОпций'),
    ('SettingsStorage', 'ХранилищеНастроек', 'SettingsStorages', 'ХранилищаНастроек'),
    ('CommonCommand', 'ОбщаяКоманда', 'CommonCommands', 'ОбщиеКоманды'),
    ('CommandGroup', 'ГруппаКоманд', 'CommandGroups', 'ГруппыКоманд'),
    ('CommonTemplate', 'ОбщийМакет', 'CommonTemplates', 'ОбщиеМакеты'),
    ('CommonPicture', 'ОбщаяКартинка', 'CommonPictures', 'ОбщиеКартинки'),
    ('XDTOPackage', 'ПакетXDTO', 'XDTOPackages', 'ПакетыXDTO'),
    ('SessionParameter', 'ПараметрСеанса', 'SessionParameters', 'ПараметрыСеанса'),
    ('Style', 'Стиль', 'Styles', 'Стили'),
    ('StyleItem', 'ЭлементСтиля', 'StyleItems', 'ЭлементыСтиля'),
    ('Interface', 'Интерфейс', 'Interfaces', 'Интерфейсы'),
    ('DocumentNumerator', 'НумераторДокументов', 'DocumentNumerators', 'НумераторыДокументов'),
    ('Bot', 'Бот', 'Bots', 'Боты'),
    ('IntegrationService', 'СервисИнтеграции', 'IntegrationServices', 'СервисыИнтеграции'),
    ('WebSocketClient', 'WebSocketКлиент', 'WebSocketClients', 'WebSocketКлиенты'),
    ('PaletteColor', 'ЦветПалитры', 'PaletteColors', 'ЦветаПалитры'),
    ('Language', 'Язык', 'Languages', 'Языки'),
)


def class_by_any_name() -> dict[str, str]:
    """Folded Russian/English singular and plural names → English class name."""
    from .text import fold
    out: dict[str, str] = {}
    for en, ru, en_plural, ru_plural in CLASSES:
        for name in (en, ru, en_plural, ru_plural):
            out[fold(name)] = en
    return out
