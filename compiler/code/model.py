"""The code model: modules of a configuration and their procedures, as the readers fill it.

Plain picklable dataclasses (the parse of a source is cached as a pickle). Names are kept as
written (NFC, ё kept); matching folds case, as BSL does.

A module is addressed by its owner's metadata path (``CommonModule.ОбщегоНазначения``,
``Catalog.Пользователи``, ``Configuration``), its kind (``ModuleKind`` values) and, for form and
command modules, the form's or command's name: ``ModuleRef("Catalog.Пользователи", "Form",
"ФормаЭлемента")``. ``CodeModel.procedures_of`` is the lookup other domains use (forms link
their event handlers with it).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from collections.abc import Collection
from typing import Any, NamedTuple


class ModuleKind:
    """Module kinds, by the English name of the module file (Designer and EDT agree)."""
    COMMON = "Module"                      # a common module, a web/HTTP service module
    OBJECT = "ObjectModule"
    MANAGER = "ManagerModule"
    RECORD_SET = "RecordSetModule"
    VALUE_MANAGER = "ValueManagerModule"
    COMMAND = "CommandModule"              # child = the command (none for a common command)
    FORM = "Form"                          # child = the form (none for a common form)
    SESSION = "SessionModule"
    MANAGED_APPLICATION = "ManagedApplicationModule"
    ORDINARY_APPLICATION = "OrdinaryApplicationModule"
    EXTERNAL_CONNECTION = "ExternalConnectionModule"


CONFIGURATION_OWNER = "Configuration"


class ModuleRef(NamedTuple):
    owner: str        # metadata path of the owner: "Catalog.Пользователи", "Configuration"
    kind: str         # a ModuleKind value
    child: str = ""   # form or command name for their modules

    def key(self) -> str:
        """``Catalog.Пользователи/Form/ФормаЭлемента`` — unique within a configuration."""
        return "/".join(p for p in (self.owner, self.kind, self.child) if p)


# ``slots``: tens of thousands of procedures and their parameters per configuration (ERP:
# ~500 k parameters); a ``__dict__`` each was a third of the parsed model's memory.
@dataclass(slots=True)
class Param:
    name: str
    by_value: bool = False
    default: str | None = None     # the default as written (``Неопределено``, ``""``), None = required


@dataclass(slots=True)
class Annotation:
    """An extension's change to a base procedure: ``&Перед("ПриЗаписи")``."""
    kind: str         # Before / After / Around / ChangeAndValidate
    target: str       # the base procedure's name


@dataclass(slots=True)
class Procedure:
    name: str
    is_function: bool
    params: list[Param] = field(default_factory=list)
    export: bool = False
    directive: str = ""                     # AtServer, AtClient, … ("" = none written)
    annotation: Annotation | None = None
    is_async: bool = False
    region: list[str] = field(default_factory=list)        # outermost first
    conditions: list[str] = field(default_factory=list)    # #Если conditions around it, outermost first
    doc: str = ""                           # the comment above it, ``//`` stripped (the reader
    #                                         parses it into ``info`` and drops it)
    line: int = 0
    end_line: int = 0
    # Header to end keyword, UTF-8 as written (LF line ends); once read (``read.py``), its
    # place in its module's zstd frames (``bodies.pack_module``): the model carries bodies
    # compressed to the build, which copies the frames into the bundle.
    body: bytes | tuple[bytes, int, int] = b""
    inserts: int = 0                        # #Вставка blocks (extensions' ChangeAndValidate)
    deletes: int = 0                        # #Удаление blocks
    # Tokens for the linker (resolved against the configuration there): sets while the scanner
    # collects them, sorted tuples once read (``read.py``: a tuple is a fraction of a set's
    # memory, most are empty, and the parsed model is the same whatever the hash seed).
    local_calls: Collection[str] = field(default_factory=set)                 # Имя(
    qualified_calls: Collection[tuple[str, str]] = field(default_factory=set)  # Модуль.Имя(
    literal_module_calls: Collection[tuple[str, str]] = field(default_factory=set)  # ОбщийМодуль("М").Имя(
    usages: Collection[tuple[str, str, str]] = field(default_factory=set)    # (class EN, name, how)
    # Filled by the reader in its worker: the parsed doc comment and the search terms by field
    # (a dict of lists there; packed in the parent as ids into ``CodeModel.vocabulary``,
    # ``terms.TermPacker``).
    info: dict[str, Any] = field(default_factory=dict)
    terms: dict[str, list[str]] | bytes = field(default_factory=dict)


def init_fields(cls: type) -> tuple[str, ...]:
    """A dataclass's constructor fields in order: what its rows (marshal) and pickles hold."""
    return tuple(f.name for f in fields(cls) if f.init)


def _pickled_by_position(cls: type) -> type:
    """Pickle ``cls`` (a slots dataclass) as a constructor call with its fields in order: where
    procedures are still pickled (a forked step's answer, the one-core path; the workers' batches
    and the caches travel as marshal rows) a slots object's default pickle is a state dict set
    back attribute by attribute (SSL 3.1.12: unpickling the parse's results took 0.32 s against
    0.50 s per 1,200 modules). Values are the same either way."""
    names = init_fields(cls)

    def __reduce__(self: Any) -> tuple:
        return cls, tuple([getattr(self, n) for n in names])

    cls.__reduce__ = __reduce__  # type: ignore[method-assign]
    return cls


for _cls in (Param, Annotation, Procedure):
    _pickled_by_position(_cls)


PROC_INIT_FIELDS = init_fields(Procedure)


def param_row(q: Param) -> tuple:
    """A parameter as a row (``Param(*row)`` restores it)."""
    return (q.name, q.by_value, q.default)


def annotation_row(a: Annotation | None) -> tuple | None:
    """An annotation as a row (``annotation_of`` restores it), None as None."""
    return None if a is None else (a.kind, a.target)


def annotation_of(row: tuple | None) -> Annotation | None:
    return None if row is None else Annotation(*row)


@dataclass
class Module:
    ref: ModuleRef
    file: str                               # relative to the source root
    procedures: list[Procedure] = field(default_factory=list)
    lines: int = 0
    size: int = 0                           # bytes of the file
    doc: str = ""                           # the comment block that opens the module
    terms: list[str] = field(default_factory=list)   # search terms of the module's name

    def by_name(self) -> dict[str, Procedure]:
        """Procedures by folded name; the first declaration wins (a repeat is reported)."""
        out: dict[str, Procedure] = {}
        for p in self.procedures:
            out.setdefault(p.name.casefold(), p)
        return out


@dataclass
class CodeModel:
    """Every module of one configuration source."""
    modules: list[Module] = field(default_factory=list)
    script_variant: str = "Russian"
    source: str = ""                        # the source's display name (report lines name it)
    vocabulary: list[str] = field(default_factory=list)   # term id → term (``Procedure.terms``)

    def module(self, ref: ModuleRef) -> Module | None:
        index = self.__dict__.get("_index")
        if index is None:
            index = self.__dict__["_index"] = {m.ref: m for m in self.modules}
        return index.get(ref)

    def procedures_of(self, owner: str, kind: str, child: str = "") -> dict[str, Procedure]:
        """"Module of owner X, kind K → procedures by folded name" (empty when it has no module)."""
        m = self.module(ModuleRef(owner, kind, child))
        return m.by_name() if m else {}

    # Not fields: ``_index`` (``module``'s lookup) and ``_received`` (the pool workers' rows,
    # ``read._Received``: the parse cache is written from them); no pickle carries either.
    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in ("_index", "_received")}
