"""The code domain's contract: segment names and how procedures are addressed (both sides).

A procedure is addressed the way BSL calls it: a common module's by ``Модуль.Процедура``
(``ОбщегоНазначения.ЗначениеРеквизитаОбъекта``), any other by its owner and module kind
(``Справочник.Пользователи.МодульМенеджера.Процедура``, ``Справочник.Пользователи.Форма.
ФормаЭлемента.Процедура``, ``Конфигурация.МодульСеанса.УстановкаПараметровСеанса``). The English
forms (``CommonModule.X.P``, ``Catalog.X.ManagerModule.P``) and the manager form of an exported
manager procedure (``Справочники.Пользователи.Процедура``) resolve too.
"""
from __future__ import annotations

from .classes import CLASSES
from .text import nfc

PREFIX = "code"
PROCS = "code.procs"            # record store (chunked, msgpack): one card per procedure (signature, doc, context)
BODIES = "code.bodies"          # record store (chunked, bytes): the body of each procedure (UTF-8 bytes)
MODULES = "code.modules"        # record store (chunked, msgpack): one card per module (address, file, procedure ids)
PROC_CONFIG = "code.proc_config"    # uint16 per procedure: index into META "configs"
PROC_MODULE = "code.proc_module"    # uint32 per procedure: module id
PROC_FLAGS = "code.proc_flags"      # uint8 per procedure: EXPORT | FUNCTION | DEPRECATED | EXTENSION
PROC_PRIOR = "code.proc_prior"      # float32 per procedure: static search prior (exported API first)
PROC_TITLES = "code.titles"         # string table: address of each procedure (lists without cards)
PROC_SUMMARIES = "code.summaries"   # string table: each procedure's one-line description (one_line)
NAMES = "code.names"                # sorted string table of folded addresses …
NAMES_OFF = "code.names_off"        # … CSR offsets (uint32) …
NAMES_IDS = "code.names_ids"        # … into ids: procedure id, or MODULE_BIT | module id
CALLEES_OFF = "code.callees_off"    # CSR over procedures: whom each one calls
CALLEES = "code.callees"
CALLERS_OFF = "code.callers_off"    # CSR over procedures: who calls each one
CALLERS = "code.callers"
TERMS = "code.terms"                # sorted string table of search terms …
TERMS_OFF = "code.terms_off"        # … CSR offsets (uint32) into postings …
POST_PROC = "code.post_proc"        # … procedure ids (uint32) …
POST_IMP = "code.post_imp"          # … and impacts (float32, BM25F)
META = "code.meta"                  # json: configs, counts, field weights

EXPORT, FUNCTION, DEPRECATED, EXTENSION = 1, 2, 4, 8
MODULE_BIT = 0x80000000
# Extension annotation kinds (as the compiler stores them) → the Russian word written in BSL.
ANNOTATION_RU = {"Before": "Перед", "After": "После", "Around": "Вместо",
                 "ChangeAndValidate": "ИзменениеИКонтроль"}

# Module kind (compiler/code/model.py ModuleKind) → its word in an address, by language.
KIND_WORDS: dict[str, tuple[str, str]] = {
    "ObjectModule": ("МодульОбъекта", "ObjectModule"),
    "ManagerModule": ("МодульМенеджера", "ManagerModule"),
    "RecordSetModule": ("МодульНабораЗаписей", "RecordSetModule"),
    "ValueManagerModule": ("МодульМенеджераЗначения", "ValueManagerModule"),
    "Module": ("Модуль", "Module"),
    "CommandModule": ("Команда", "Command"),
    "Form": ("Форма", "Form"),
    "SessionModule": ("МодульСеанса", "SessionModule"),
    "ManagedApplicationModule": ("МодульУправляемогоПриложения", "ManagedApplicationModule"),
    "OrdinaryApplicationModule": ("МодульОбычногоПриложения", "OrdinaryApplicationModule"),
    "ExternalConnectionModule": ("МодульВнешнегоСоединения", "ExternalConnectionModule"),
}
CONFIGURATION_WORDS = ("Конфигурация", "Configuration")
_CLASS_WORDS = {en: (ru, en) for en, ru, _p, _rp in CLASSES}
_MANAGER_WORDS = {en: (ru_plural, en_plural) for en, _ru, en_plural, ru_plural in CLASSES}
# Classes whose module is called by the class words alone (no module kind word).
_SELF_NAMED = {("CommonModule", "Module"), ("CommonForm", "Form"), ("CommonCommand", "CommandModule")}


def module_address(owner: str, kind: str, child: str = "", lang: int = 0) -> str:
    """Address of a module (``lang`` 0 = Russian, 1 = English).

    ``("CommonModule.ОбщегоНазначения", "Module")`` → ``ОбщегоНазначения``;
    ``("Catalog.X", "Form", "ФормаЭлемента")`` → ``Справочник.X.Форма.ФормаЭлемента``."""
    if owner == "Configuration":
        return f"{CONFIGURATION_WORDS[lang]}.{KIND_WORDS[kind][lang]}"
    cls, _, name = owner.partition(".")
    if cls == "CommonModule" and kind == "Module":
        return name
    head = f"{_CLASS_WORDS.get(cls, (cls, cls))[lang]}.{name}"
    if (cls, kind) in _SELF_NAMED:
        return head
    word = KIND_WORDS.get(kind, (kind, kind))[lang]
    return f"{head}.{word}.{child}" if child else f"{head}.{word}"


def module_aliases(owner: str, kind: str, child: str = "") -> list[str]:
    """Every address of a module: Russian, English, and the class-word form of a common module."""
    out = [module_address(owner, kind, child, 0), module_address(owner, kind, child, 1)]
    cls, _, name = owner.partition(".")
    if cls == "CommonModule":
        out += [f"ОбщийМодуль.{name}", f"CommonModule.{name}"]
    return list(dict.fromkeys(out))


def manager_aliases(owner: str, kind: str) -> list[str]:
    """``Справочники.X`` / ``Catalogs.X``: how code calls an exported manager procedure."""
    cls, _, name = owner.partition(".")
    if kind != "ManagerModule" or cls not in _MANAGER_WORDS:
        return []
    ru, en = _MANAGER_WORDS[cls]
    return [f"{ru}.{name}", f"{en}.{name}"]


def one_line(description: str) -> str:
    """The first sentence of a description (at most 160 characters), as result lists show it;
    the compiler stores it per procedure (``PROC_SUMMARIES``) so a list opens no card."""
    if not description:          # most procedures have none
        return ""
    d = " ".join(description.split())
    for stop in (". ", "; "):
        i = d.find(stop)
        if 0 < i < 160:
            return nfc(d[:i + 1])
    return d if len(d) <= 160 else d[:159] + "…"
