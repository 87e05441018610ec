"""Platform events a module's procedure handles by its name alone (no form, no subscription):
object, record set, value manager, manager and the configuration's own modules.

Form item and form events are bound in the form's description (issue 12 links those);
event subscriptions and scheduled jobs name their handler in metadata (compiler/config).
"""
from __future__ import annotations

# (Russian, English) names, by module kind.
_OBJECT = (
    ("ПередЗаписью", "BeforeWrite"), ("ПриЗаписи", "OnWrite"), ("ПередУдалением", "BeforeDelete"),
    ("ОбработкаЗаполнения", "Filling"), ("ОбработкаПроверкиЗаполнения", "FillCheckProcessing"),
    ("ПриКопировании", "OnCopy"), ("ОбработкаПроведения", "Posting"),
    ("ОбработкаУдаленияПроведения", "UndoPosting"), ("ПриУстановкеНовогоКода", "SetNewCode"),
    ("ПриУстановкеНовогоНомера", "SetNewNumber"), ("ПриКомпоновкеРезультата", "OnComposeResult"),
    ("ОбработкаЗапускаЗадачи", "TaskExecutionProcessing"), ("ПриСозданииЗадач", "OnCreateTasks"),
    ("ПриЧтенииПредставленийНаСервере", "OnReadPresentationsAtServer"),
)
_MANAGER = (
    ("ОбработкаПолученияДанныхВыбора", "ChoiceDataGetProcessing"),
    ("ОбработкаПолученияФормы", "FormGetProcessing"),
    ("ОбработкаПолученияПредставления", "PresentationGetProcessing"),
    ("ОбработкаПолученияПолейПредставления", "PresentationFieldsGetProcessing"),
    ("ОбработкаПолученияСтатистикиПоВидамСубконто", "ExtDimensionsStatisticsGetProcessing"),
)
_RECORD_SET = (("ПередЗаписью", "BeforeWrite"), ("ПриЗаписи", "OnWrite"),
               ("ОбработкаПроверкиЗаполнения", "FillCheckProcessing"))
_APPLICATION = (
    ("ПередНачаломРаботыСистемы", "BeforeStart"), ("ПриНачалеРаботыСистемы", "OnStart"),
    ("ПередЗавершениемРаботыСистемы", "BeforeExit"), ("ПриЗавершенииРаботыСистемы", "OnExit"),
    ("ОбработкаВнешнегоСобытия", "ExternEventProcessing"),
    ("ОбработкаОтображенияОшибки", "ErrorDisplayProcessing"),
    ("ОбработкаПереходаПоНавигационнойСсылке", "URLProcessing"),
)
_SESSION = (("УстановкаПараметровСеанса", "SessionParametersSetting"),)
_COMMAND = (("ОбработкаКоманды", "CommandProcessing"),)

EVENTS: dict[str, frozenset[str]] = {
    kind: frozenset(w.casefold() for pair in names for w in pair)
    for kind, names in {
        "ObjectModule": _OBJECT, "ManagerModule": _MANAGER, "RecordSetModule": _RECORD_SET,
        "ValueManagerModule": _RECORD_SET, "ManagedApplicationModule": _APPLICATION,
        "OrdinaryApplicationModule": _APPLICATION, "ExternalConnectionModule": _APPLICATION,
        "SessionModule": _SESSION, "CommandModule": _COMMAND,
    }.items()
}


_NONE: frozenset[str] = frozenset()


def is_event_handler(kind: str, name: str) -> bool:
    return name.casefold() in EVENTS.get(kind, _NONE)


def handlers_of(kind: str) -> frozenset[str]:
    """A module kind's event names, folded (empty for a kind without events: a common or
    form module), so that a module's procedures are checked against it without a fold each
    when the kind has none."""
    return EVENTS.get(kind, _NONE)
