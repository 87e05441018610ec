"""The top-level metadata classes (domain-1c.md §1.2): English/Russian names and folders.

Designer and EDT use the English plural as the folder name (``Catalogs/``); Designer
``Configuration.xml`` names children by the English singular (``<Catalog>X</Catalog>``), EDT
``Configuration.mdo`` by the lowerCamelCase plural (``<catalogs>Catalog.X</catalogs>``).
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

EN_TO_RU: dict[str, str] = {en: ru for en, ru, _, _ in CLASSES}
FOLDER: dict[str, str] = {en: folder for en, _, folder, _ in CLASSES}
FOLDER_TO_CLASS: dict[str, str] = {folder: en for en, _, folder, _ in CLASSES}
# EDT Configuration.mdo child element: lowerCamelCase plural (xDTOPackages, wsReferences, httpServices…)
EDT_COLLECTION: dict[str, str] = {}
for _en, _, _folder, _ in CLASSES:
    EDT_COLLECTION[_folder[0].lower() + _folder[1:]] = _en
EDT_COLLECTION.update({"wsReferences": "WSReference", "httpServices": "HTTPService",
                       "xDTOPackages": "XDTOPackage"})

# Classes kept on the Configuration (not among its objects) — EDT stores them inline.
LANGUAGE = "Language"
